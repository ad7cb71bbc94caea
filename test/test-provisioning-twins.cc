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
#include "ns3/dpp-loader.h"
#include "ns3/provisioning-model.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <functional>
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

/**
 * \param c the configuration \param twins MergePoolTwins \param cluster training nodes and
 * fabric (default: 6 nodes, one leaf per rail) \param zero BuildFromPoolNodeZero
 * \return the model
 */
Ptr<ProvisioningModel>
Model(const TwinCase& c, bool twins, RailClusterConfig cluster = {}, bool zero = true)
{
    cluster.nodes = 6;
    auto m = CreateObject<ProvisioningModel>();
    m->SetAttribute("AggregatePerNode", BooleanValue(true));
    m->SetAttribute("ReuseUsages", BooleanValue(true));
    m->SetAttribute("MergePoolTwins", BooleanValue(twins));
    m->SetAttribute("BuildFromPoolNodeZero", BooleanValue(zero));
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

/**
 * Describe every job of the random passes of seeds 1..seeds with both models (DescribeJob,
 * plans from want) and require the same flows, to the bit.
 * \param want the reference model \param got the model under test \param seeds how many
 * \param after called after each job's descriptions \return the jobs described
 */
uint32_t
CheckSameDescriptions(Ptr<ProvisioningModel> want,
                      Ptr<ProvisioningModel> got,
                      uint32_t seeds,
                      const std::function<void()>& after = {})
{
    uint32_t described = 0;
    for (uint32_t seed = 1; seed <= seeds; ++seed)
    {
        auto passes = RandomPasses(seed);
        for (size_t p = 0; p < passes.size(); ++p)
        {
            std::vector<CachePlan> plans = want->PlanCaches(passes[p]);
            std::vector<uint32_t> used(6, 0);
            for (size_t k = 0; k < passes[p].size(); ++k)
            {
                const ProvisioningJob job = WithFirstGpus(passes[p][k], used);
                std::vector<ProvisioningModel::LevelFlow> wanted;
                std::vector<ProvisioningModel::LevelFlow> gotten;
                INFO("seed " << seed << ", pass " << p << ", job " << job.name);
                REQUIRE(want->DescribeJob(job, plans[k], wanted) ==
                        got->DescribeJob(job, plans[k], gotten));
                REQUIRE(gotten.size() == wanted.size());
                for (size_t f = 0; f < wanted.size(); ++f)
                {
                    CHECK(gotten[f].usage == wanted[f].usage);
                    CHECK(gotten[f].unit == wanted[f].unit);
                    CHECK(gotten[f].cap == wanted[f].cap);
                }
                ++described;
                if (after)
                {
                    after();
                }
            }
        }
    }
    return described;
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

TEST_CASE("provisioning: a usage built from pool node 0 alone is the full build's compact form",
          "[provisioning]")
{
    // BuildFromPoolNodeZero builds KSpeed's Spread usages and DPP's from pool node 0's part,
    // its weights off the pool added once per pool node. The described flows (the level's
    // usages, to the bit) and the Solves must be those of the full build: on one leaf per
    // rail, through one spine (one path), and where pool nodes' paths differ (ECMP over two
    // spines, a pool over two leaf groups), where the usage is built in full. KSpeed's paths
    // end at the trainer's GPU, DPP's at its host memory.
    struct Shape
    {
        const char* what;      //!< the case
        uint32_t nodesPerLeaf; //!< RailClusterConfig::nodesPerLeaf
        uint32_t spines;       //!< RailClusterConfig::spines
        uint32_t pool;         //!< pool nodes
        bool fromZero;         //!< usages are built from pool node 0 alone
    };

    for (const std::string loader : {"kspeed", "dpp"})
    {
        for (const Shape& s : {Shape{"one leaf per rail", 0, 8, 5, true},
                               Shape{"the pool under its own leaves, one spine", 3, 1, 3, true},
                               Shape{"ECMP over two spines", 3, 2, 3, false},
                               Shape{"the pool over two leaf groups", 4, 2, 3, false}})
        {
            RailClusterConfig cluster;
            cluster.nodes = 6;
            cluster.nodesPerLeaf = s.nodesPerLeaf;
            cluster.spines = s.spines;
            TwinCase c{loader, "Spread", "DominantShare", true, s.pool};
            Ptr<ProvisioningModel> full = Model(c, false, cluster, false);
            Ptr<ProvisioningModel> slow = Model(c, true, cluster, false);
            Ptr<ProvisioningModel> zero = Model(c, true, cluster, true);
            for (uint32_t seed = 1; seed <= 3; ++seed)
            {
                auto passes = RandomPasses(seed);
                for (size_t p = 0; p < passes.size(); ++p)
                {
                    INFO(loader << ", " << s.what << ": seed " << seed << ", pass " << p);
                    CheckSameSolve(full, zero, passes[p]);
                    // every job of the pass described alone, as the level pass does
                    std::vector<CachePlan> plans = slow->PlanCaches(passes[p]);
                    std::vector<uint32_t> used(cluster.nodes, 0);
                    for (size_t k = 0; k < passes[p].size(); ++k)
                    {
                        const ProvisioningJob job = WithFirstGpus(passes[p][k], used);
                        std::vector<ProvisioningModel::LevelFlow> want;
                        std::vector<ProvisioningModel::LevelFlow> got;
                        bool wantOk = slow->DescribeJob(job, plans[k], want);
                        bool gotOk = zero->DescribeJob(job, plans[k], got);
                        INFO("job " << job.name);
                        CHECK(gotOk == wantOk);
                        REQUIRE(got.size() == want.size());
                        for (size_t f = 0; f < want.size(); ++f)
                        {
                            CHECK(got[f].usage == want[f].usage);
                            CHECK(got[f].unit == want[f].unit);
                            CHECK(got[f].cap == want[f].cap);
                        }
                    }
                }
            }
            INFO(loader << ", " << s.what);
            CHECK(slow->GetNPoolNodeZeroBuilds() == 0);
            CHECK((zero->GetNPoolNodeZeroBuilds() > 0) == s.fromZero);
            if (s.fromZero)
            {
                CHECK(zero->GetNCompactSolves() > 0);
            }
        }
    }
}

namespace
{

/** DPP's usages (through AddOverPool), from a loader that says its samples do not pass
 * through the pool: a custom loader may call AddOverPool without ReadsThroughPool */
class DppSayingNoPool : public DppLoader
{
  public:
    bool ReadsThroughPool(const ProvisioningModel&) const override
    {
        return false;
    }
};

} // namespace

TEST_CASE("provisioning: a loader that does not read through the pool is built in full, with "
          "no probe",
          "[provisioning]")
{
    // BuildFromPoolNodeZero probes a usage (a whole build, dropped) only for a loader that
    // reads through the pool: for Alluxio, whose flows list every peer node, the probe was a
    // second full build of every new flow (#13). Such a loader gets the full build, whatever
    // it calls: its described flows are the full build's, to the bit.
    for (const std::string name : {"alluxio", "dpp-saying-no-pool"})
    {
        TwinCase c{name == "alluxio" ? "alluxio" : "dpp", "Spread", "DominantShare", true, 3};
        Ptr<ProvisioningModel> slow = Model(c, true, {}, false);
        Ptr<ProvisioningModel> zero = Model(c, true, {}, true);
        if (name != "alluxio")
        {
            slow->SetLoader(CreateObject<DppSayingNoPool>());
            zero->SetLoader(CreateObject<DppSayingNoPool>());
        }
        INFO(name);
        uint32_t described = CheckSameDescriptions(slow, zero, 3);
        CHECK(described > 20);
        CHECK(zero->GetNPoolNodeZeroBuilds() == 0);
    }
}

TEST_CASE("provisioning: the kept usages are swept by their bytes, and a swept usage is built "
          "again the same",
          "[provisioning]")
{
    // Alluxio's usages list every peer node's resources: a table swept only when its count
    // doubled past 4096 held 354 MB on Philly (#13). With a small UsageCacheSweepBytes the
    // table stays near it, entries are built again after a sweep, and every described flow
    // is the one of a model that keeps everything.
    TwinCase c{"alluxio", "Spread", "DominantShare", true, 3};
    Ptr<ProvisioningModel> keep = Model(c, true);
    Ptr<ProvisioningModel> swept = Model(c, true);
    const uint64_t budget = 16 << 10;
    swept->SetAttribute("UsageCacheSweepBytes", UintegerValue(budget));
    uint64_t keepMost = 0;
    uint64_t sweptMost = 0;
    CheckSameDescriptions(keep, swept, 8, [&]() {
        keepMost = std::max(keepMost, keep->GetUsageCacheBytes());
        sweptMost = std::max(sweptMost, swept->GetUsageCacheBytes());
    });
    INFO("most bytes kept: " << keepMost << " unswept, " << sweptMost << " swept at " << budget);
    CHECK(keepMost > 4 * budget); // the case needs sweeping
    // a sweep keeps what was used since the one before (here more than the budget): a
    // fraction of the unswept table
    CHECK(4 * sweptMost < keepMost);
    CHECK(swept->GetNUsagesBuilt() > keep->GetNUsagesBuilt()); // swept entries came back
}
