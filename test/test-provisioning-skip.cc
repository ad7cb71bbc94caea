/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningModel::SkipFeasibleSolves: a Solve that finds every resource within capacity
// gives every flow its demand without the max-min solver; its rates, bottlenecks, utilisation
// and rail loads must equal, to the bit, those of the solver, over random sequences of jobs
// that start, stop and move, feasible and not.

#include "provisioning-compare.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
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

constexpr uint32_t kNodes = 8;
constexpr uint32_t kGpus = 8;

Ptr<ProvisioningModel>
Model(const std::string& loader,
      bool skip,
      const std::string& placement,
      bool reduced = true,
      uint32_t poolNodes = 2,
      const std::string& fairness = "DominantShare")
{
    RailClusterConfig c;
    c.nodes = kNodes;
    c.node.gpus = kGpus;
    c.node.nics = kGpus;
    auto m = CreateObject<ProvisioningModel>();
    m->SetAttribute("AggregatePerNode", BooleanValue(true));
    m->SetAttribute("ReuseUsages", BooleanValue(true));
    m->SetAttribute("SkipFeasibleSolves", BooleanValue(skip));
    m->SetAttribute("SolveOverloadedOnly", BooleanValue(reduced));
    m->SetAttribute("PoolNodes", UintegerValue(poolNodes));
    m->SetAttribute("Fairness", StringValue(fairness));
    m->SetCluster(c, CreateObject<StorageBackend>());
    Ptr<ProvisioningLoader> l = ProvisioningLoader::Create(loader);
    if (loader == "kspeed")
    {
        l->SetAttribute("Placement", StringValue(placement));
    }
    m->SetLoader(l);
    return m;
}

/// Random passes: jobs start (on free GPUs), stop and move; their GPUs' pace varies from a
/// small fraction of the catalog's to above it, so some passes fit and others overload.
std::vector<std::vector<ProvisioningJob>>
RandomPasses(uint32_t seed, uint32_t count)
{
    const char* profiles[] = {"resnet50-imagenet",
                              "bert-squad",
                              "yolov3-voc",
                              "resnet18-cifar10",
                              "deepspeech2-arctic",
                              "neumf-movielens"};
    const double paces[] = {0.001, 0.05, 1.0, 10.0, 100.0, 1000.0};
    std::mt19937 rng(seed);
    std::vector<std::vector<ProvisioningJob>> passes;
    std::vector<ProvisioningJob> running;
    uint32_t next = 0;
    auto place = [&](ProvisioningJob& j, uint32_t gpus) {
        std::vector<uint32_t> freeGpus(kNodes, kGpus);
        for (const auto& r : running)
        {
            for (const auto& [n, g] : r.gpusOnNode)
            {
                freeGpus[n] -= g;
            }
        }
        j.gpusOnNode.clear();
        uint32_t first = rng() % kNodes;
        for (uint32_t i = 0; i < kNodes && gpus > 0; ++i)
        {
            uint32_t n = (first + i) % kNodes;
            uint32_t g = std::min(gpus, freeGpus[n]);
            if (g > 0)
            {
                j.gpusOnNode.emplace_back(n, g);
                gpus -= g;
            }
        }
        return gpus == 0;
    };
    while (passes.size() < count)
    {
        uint32_t what = rng() % 4;
        if ((what <= 1 || running.empty()) && running.size() < 12)
        {
            ProvisioningJob j;
            j.name = "j" + std::to_string(next++);
            j.profile = &WorkloadCatalog::Default().Get(profiles[rng() % 6]);
            uint32_t g = 1u << (rng() % 5);
            double base = j.profile->SamplesPerSecond(g) / g;
            j.gpuRate = base * paces[rng() % 6];
            if (place(j, g))
            {
                // a new job joins at a random position, as running sets are ordered by id
                running.insert(running.begin() + rng() % (running.size() + 1), j);
            }
        }
        else if (what == 2 && !running.empty())
        {
            running.erase(running.begin() + rng() % running.size());
        }
        else if (!running.empty())
        {
            size_t k = rng() % running.size();
            ProvisioningJob j = running[k];
            running.erase(running.begin() + k);
            if (place(j, j.TotalGpus()))
            {
                running.insert(running.begin() + k, j);
            }
        }
        passes.push_back(running);
    }
    return passes;
}

} // namespace

TEST_CASE("provisioning: solves skipped when every demand fits equal the solver's, bit for bit",
          "[provisioning]")
{
    for (const std::string loader : {"kspeed", "kspeed-local", "dpp", "alluxio", "local"})
    {
        std::string name = loader == "kspeed-local" ? "kspeed" : loader;
        std::string placement = loader == "kspeed-local" ? "Local" : "Spread";
        Ptr<ProvisioningModel> solver = Model(name, false, placement);
        Ptr<ProvisioningModel> skip = Model(name, true, placement);
        auto passes = RandomPasses(loader.size() * 7 + 1, 60);
        uint32_t stalled = 0;
        for (size_t p = 0; p < passes.size(); ++p)
        {
            INFO("loader " << loader << ", pass " << p);
            // gradient sync's share of the rails varies from pass to pass
            std::vector<double> reserve(kNodes, 0.0);
            for (uint32_t n = 0; n < kNodes; ++n)
            {
                reserve[n] = (p % 3) * 1e9 * (n + 1);
            }
            solver->SetRailReserve(reserve);
            skip->SetRailReserve(reserve);
            for (const auto& r : CheckSameSolve(solver, skip, passes[p]))
            {
                stalled += r.stallFraction > 0 ? 1 : 0;
            }
        }
        // Both cases occur: passes that skip the solver and passes that need it.
        INFO("loader " << loader);
        CHECK(solver->GetNSkippedSolves() == 0);
        CHECK(skip->GetNSkippedSolves() > 5);
        CHECK(skip->GetNSkippedSolves() + 5 < passes.size());
        CHECK(stalled > 0);
        // The passes that need a solver take the reduced one (over-capacity resources only).
        CHECK(solver->GetNReducedSolves() == 0);
        CHECK(skip->GetNReducedSolves() > 5);
    }
}

TEST_CASE("provisioning: the reduced solver (over-capacity resources only, identical "
          "constraints once) equals the full solver, bit for bit",
          "[provisioning]")
{
    // Every solver pass of a model that skips feasible solves, with and without the reduced
    // solver; pools of 1 to 5 nodes (Spread's identical pool constraints) and every fairness.
    uint32_t reducedSolves = 0;
    uint32_t seed = 100;
    for (const std::string fairness : {"DominantShare", "DemandFraction", "Samples"})
    {
        for (const std::string loader : {"kspeed", "kspeed-local", "dpp", "alluxio", "local"})
        {
            for (uint32_t pool : {1u, 3u, 5u})
            {
                std::string name = loader == "kspeed-local" ? "kspeed" : loader;
                std::string placement = loader == "kspeed-local" ? "Local" : "Spread";
                Ptr<ProvisioningModel> full = Model(name, true, placement, false, pool, fairness);
                Ptr<ProvisioningModel> reduced = Model(name, true, placement, true, pool, fairness);
                auto passes = RandomPasses(++seed, 25);
                for (size_t p = 0; p < passes.size(); ++p)
                {
                    INFO("loader " << loader << ", pool " << pool << ", fairness " << fairness
                                   << ", pass " << p);
                    std::vector<double> reserve(kNodes, 0.0);
                    for (uint32_t n = 0; n < kNodes; ++n)
                    {
                        reserve[n] = (p % 3) * 2e9 * (n + 1);
                    }
                    full->SetRailReserve(reserve);
                    reduced->SetRailReserve(reserve);
                    CheckSameSolve(full, reduced, passes[p]);
                }
                CHECK(full->GetNReducedSolves() == 0);
                reducedSolves += reduced->GetNReducedSolves();
            }
        }
    }
    CHECK(reducedSolves > 200);
}
