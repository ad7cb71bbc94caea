/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningModel::MergePoolTwins: when every flow uses the pool nodes alike, a Solve on
// pool node 0's resources alone gives the results of the Solve on all of them, to the bit;
// when some flow does not (KSpeed's Local placement), or the full solver is needed, the
// model solves on the full usages.

#include "provisioning-compare.h"
#include "provisioning-job.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/provisioning-model.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** A model configuration of this test */
struct TwinCase
{
    std::string loader;    //!< kspeed or dpp
    std::string placement; //!< KSpeedLoader::Placement
    std::string fairness;  //!< ProvisioningModel::Fairness
    bool skipFeasible;     //!< SkipFeasibleSolves
    uint32_t poolNodes;    //!< PoolNodes
};

Ptr<ProvisioningModel>
Model(const TwinCase& c, bool twins)
{
    RailClusterConfig cluster;
    cluster.nodes = 6;
    auto m = CreateObject<ProvisioningModel>();
    m->SetAttribute("AggregatePerNode", BooleanValue(true));
    m->SetAttribute("ReuseUsages", BooleanValue(true));
    m->SetAttribute("MergePoolTwins", BooleanValue(twins));
    m->SetAttribute("SkipFeasibleSolves", BooleanValue(c.skipFeasible));
    m->SetAttribute("PoolNodes", UintegerValue(c.poolNodes));
    m->SetAttribute("PoolCores", DoubleValue(6)); // few cores: the pool binds
    m->SetAttribute("Fairness", StringValue(c.fairness));
    m->SetCluster(cluster, CreateObject<StorageBackend>());
    Ptr<ProvisioningLoader> loader = ProvisioningLoader::Create(c.loader);
    if (c.loader == "kspeed")
    {
        loader->SetAttribute("Placement", StringValue(c.placement));
    }
    m->SetLoader(loader);
    return m;
}

/**
 * Passes of a replay: jobs on random nodes and GPU counts, some staying from pass to pass
 * (their usages reused), some datasets shared (cache plans move).
 */
std::vector<std::vector<ProvisioningJob>>
RandomPasses(uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<std::string> names = WorkloadCatalog::Default().Names();
    std::vector<std::vector<ProvisioningJob>> passes;
    std::vector<ProvisioningJob> running;
    for (uint32_t p = 0; p < 12; ++p)
    {
        if (!running.empty() && rng() % 3 == 0)
        {
            running.erase(running.begin() + rng() % running.size());
        }
        std::vector<uint32_t> free(6, 8);
        for (const auto& j : running)
        {
            for (const auto& [node, g] : j.gpusOnNode)
            {
                free[node] -= g;
            }
        }
        uint32_t node = rng() % 6;
        uint32_t gpus = 1 + rng() % 8;
        std::vector<std::pair<uint32_t, uint32_t>> placed;
        for (uint32_t i = 0; i < 6 && gpus > 0; ++i)
        {
            uint32_t n = (node + i) % 6;
            uint32_t g = std::min(gpus, free[n]);
            if (g > 0)
            {
                placed.emplace_back(n, g);
                gpus -= g;
            }
        }
        if (!placed.empty())
        {
            running.push_back(
                ProvisioningJobOn("j" + std::to_string(p), names[rng() % names.size()], placed));
        }
        passes.push_back(running);
    }
    return passes;
}

/**
 * \param c the configuration \param seeds random replays
 * \param solves if not null, set to the Solves each model ran
 * \return the compact Solves of the twin model over every pass, each checked bit for bit
 */
uint64_t
CompareOverPasses(const TwinCase& c, uint32_t seeds, uint64_t* solves = nullptr)
{
    Ptr<ProvisioningModel> full = Model(c, false);
    Ptr<ProvisioningModel> twins = Model(c, true);
    for (uint32_t seed = 1; seed <= seeds; ++seed)
    {
        auto passes = RandomPasses(seed);
        for (size_t p = 0; p < passes.size(); ++p)
        {
            INFO(c.loader << " " << c.placement << " " << c.fairness << " skip " << c.skipFeasible
                          << " pool " << c.poolNodes << ": seed " << seed << ", pass " << p);
            CheckSameSolve(full, twins, passes[p]);
            if (solves)
            {
                ++*solves;
            }
        }
    }
    CHECK(full->GetNCompactSolves() == 0);
    return twins->GetNCompactSolves();
}

} // namespace

TEST_CASE("provisioning: a Solve on one pool node's resources equals the Solve on all",
          "[provisioning]")
{
    for (const std::string fairness : {"DominantShare", "DemandFraction", "Samples"})
    {
        for (uint32_t pool : {2u, 5u})
        {
            uint64_t solves = 0;
            uint64_t compact =
                CompareOverPasses({"kspeed", "Spread", fairness, true, pool}, 4, &solves);
            INFO(fairness << ", pool " << pool);
            // Spread uses every pool node alike: every usage the model builds (CompactUsage,
            // with its scratch kept from one usage to the next) has its compact form, so
            // every Solve runs on the compact usages.
            CHECK(solves > 0);
            CHECK(compact == solves);
        }
    }
    // DPP reads through its pool nodes too; whatever its usages are, the results stay.
    CompareOverPasses({"dpp", "Spread", "DominantShare", true, 3}, 4);
}

TEST_CASE("provisioning: flows not alike on every pool node take the full usages", "[provisioning]")
{
    // Local: each GPU's samples come from one pool node, so no pool node stands for all.
    CHECK(CompareOverPasses({"kspeed", "Local", "DominantShare", true, 3}, 4) == 0);
    // Without SkipFeasibleSolves every pass takes the full solver, which needs every pool
    // node's resources: the compact pass is abandoned and solved again.
    CHECK(CompareOverPasses({"kspeed", "Spread", "DominantShare", false, 3}, 2) == 0);
}
