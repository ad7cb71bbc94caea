/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// AutoCBA: utilities, the solver against CBA with fixed GPUs under the same budget, and the
// engine's sizing hook.

#include "uniform-random.h"
#include "unit-workload.h"

#include "ns3/auto-cba-sizing.h"
#include "ns3/auto-cba-solver.h"
#include "ns3/cba-policy.h"
#include "ns3/cluster-engine.h"
#include "ns3/double.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <catch2/catch.hpp>
#include <random>

using namespace ns3;

namespace
{

AutoCbaJob
ScalableJob(uint64_t id, uint32_t dataset, uint32_t requested, double ratePerGpu, JobUtility u)
{
    AutoCbaJob j;
    j.id = id;
    j.dataset = dataset;
    for (uint32_t g : {requested / 2, requested, requested * 2})
    {
        if (g >= 1)
        {
            if (g == requested)
            {
                j.requested = j.gpus.size();
            }
            j.gpus.push_back(g);
            // Sub-linear scaling: g^0.8, as data-parallel training loses some to sync.
            j.demand.push_back(ratePerGpu * std::pow(double(g), 0.8));
        }
    }
    u.reference = j.demand[j.requested];
    u.needed = u.reference / 2;
    j.utility = u;
    return j;
}

} // namespace

TEST_CASE("utility functions", "[storage]")
{
    JobUtility lin{JobUtility::LINEAR, 2.0, 100.0, 0};
    CHECK(lin(50) == 1.0);
    CHECK(lin(200) == 4.0);
    JobUtility dl{JobUtility::DEADLINE, 3.0, 0, 100.0};
    CHECK(dl(50) == 1.5);
    CHECK(dl(150) == 3.0);
    CHECK(JobUtility::KindOf("deadline") == JobUtility::DEADLINE);
    JobUtility concave{JobUtility::CONCAVE, 2.0, 100.0, 0};
    CHECK(concave(100) == 2.0);
    CHECK(concave(400) == 4.0); // 4x the speed is worth 2x, not 4x
    CHECK(JobUtility::KindOf("concave") == JobUtility::CONCAVE);
    CHECK_THROWS_WITH(JobUtility::KindOf("log"), Catch::Contains("linear, deadline"));
}

TEST_CASE("AutoCBA uses idle GPUs: two jobs doubled on a half-empty cluster", "[storage]")
{
    StorageProblem base;
    base.datasetBytes = {100e9};
    base.cacheCapacity = 1e12;
    base.bandwidthCapacity = 1e12;
    base.bandwidthPrice = 1e-9;
    base.cachePrice = 1e-12;
    JobUtility lin;
    std::vector<AutoCbaJob> jobs = {ScalableJob(0, 0, 4, 1e8, lin), ScalableJob(1, 0, 4, 1e8, lin)};
    auto fixed = AutoCbaSolver::Solve(base, jobs, 16, 0, false);
    auto autoScaled = AutoCbaSolver::Solve(base, jobs, 16, 0, true);
    CHECK(fixed.welfare == Approx(2.0));
    CHECK(autoScaled.welfare == Approx(2 * std::pow(2.0, 0.8)));
    CHECK(jobs[0].gpus[autoScaled.choice[0]] == 8);
    CHECK(jobs[1].gpus[autoScaled.choice[1]] == 8);
    // Only 8 GPUs: nothing to gain, the requested counts stay.
    auto tight = AutoCbaSolver::Solve(base, jobs, 8, 0, true);
    CHECK(tight.welfare == Approx(2.0));
}

TEST_CASE("AutoCBA's welfare is never below CBA with fixed GPUs under the same budget", "[storage]")
{
    std::mt19937_64 rng(3);
    int better = 0;
    for (int trial = 0; trial < 150; ++trial)
    {
        StorageProblem base;
        size_t nd = 1 + rng() % 3;
        for (size_t k = 0; k < nd; ++k)
        {
            base.datasetBytes.push_back(1e10 * (1 + 9 * U01(rng)));
        }
        base.cacheCapacity = 3e10 * U01(rng);
        base.bandwidthCapacity = 1e9 * (1 + 4 * U01(rng));
        base.clientBandwidth = 0;
        base.bandwidthPrice = 1e-9;
        base.cachePrice = 1e-12 * std::pow(10.0, 2 * U01(rng));
        std::vector<AutoCbaJob> jobs;
        uint32_t requested = 0;
        size_t n = 2 + rng() % 4;
        for (size_t j = 0; j < n; ++j)
        {
            JobUtility u;
            u.kind = (rng() % 2) ? JobUtility::LINEAR : JobUtility::DEADLINE;
            u.weight = 0.5 + U01(rng);
            uint32_t g = 1u << (rng() % 4);
            jobs.push_back(ScalableJob(j, uint32_t(rng() % nd), g, 1e8 * (0.2 + 3 * U01(rng)), u));
            requested += g;
        }
        uint32_t gpus = requested + uint32_t(rng() % 16);
        double budget = (rng() % 3) ? 0.0 : 1.0 * U01(rng); // $/s, often binding
        auto fixed = AutoCbaSolver::Solve(base, jobs, gpus, budget, false);
        auto autoScaled = AutoCbaSolver::Solve(base, jobs, gpus, budget, true);
        INFO("trial " << trial);
        CHECK(autoScaled.welfare >= fixed.welfare * (1 - 1e-12));
        CHECK(autoScaled.allocation.Violation(autoScaled.problem).empty());
        if (budget > 0)
        {
            CHECK(autoScaled.allocation.CostRate(autoScaled.problem) <= budget * (1 + 1e-9));
        }
        uint32_t used = 0;
        for (size_t j = 0; j < n; ++j)
        {
            used += jobs[j].gpus[autoScaled.choice[j]];
        }
        CHECK(used <= gpus);
        better += autoScaled.welfare > fixed.welfare * (1 + 1e-9);
    }
    CHECK(better > 10); // scaling does matter on a fair share of the instances
}

namespace
{

/**
 * A lone 2-GPU, 400-iteration job of the unit catalog's profile on an idle 2 x 4-GPU cluster,
 * its samples read through storage (dataset "ds": 1 MB of 1 kB samples).
 */
Ptr<ClusterEngine>
LoneJobEngine(Ptr<StorageDataLoading> storage)
{
    Ptr<ClusterEngine> engine = UnitEngine({UnitJob(0, 0, 2, 400, "ds")});
    storage->AddDataset({"ds", 1e6, 1e3});
    engine->SetDataLoadingModel(storage);
    return engine;
}

/** A lone 2-GPU job of a linearly scaling profile on an idle 8-GPU cluster: its GPUs. */
uint32_t
LoneJobGpus(const std::string& utility, double gpuCost, double gpuPrice, double budget)
{
    Ptr<StorageDataLoading> storage = CreateObject<StorageDataLoading>();
    Ptr<CbaPolicy> cba = CreateObject<CbaPolicy>();
    cba->SetAttribute("Budget", DoubleValue(budget));
    storage->SetPolicy(cba);
    Ptr<ClusterEngine> engine = LoneJobEngine(storage);
    Ptr<AutoCbaSizing> sizing = CreateObject<AutoCbaSizing>();
    sizing->SetAttribute("Utility", StringValue(utility));
    sizing->SetAttribute("GpuCost", DoubleValue(gpuCost));
    sizing->SetAttribute("GpuPrice", DoubleValue(gpuPrice));
    sizing->SetStorage(storage);
    engine->SetAttribute("JobSizingPolicy", PointerValue(sizing));
    engine->Run();
    Simulator::Destroy();
    return engine->Jobs()[0]->gpus;
}

} // namespace

TEST_CASE("AutoCBA prices GPU time in its welfare and its budget", "[storage][autocba]")
{
    // Free GPUs, linear utility: 4x the GPUs for 4x the speed.
    CHECK(LoneJobGpus("linear", 0, 0, 0) == 8);
    // GPUs that cost what the progress is worth: a linear speedup gains nothing net.
    CHECK(LoneJobGpus("linear", 1, 0, 0) == 2);
    // Half that: still worth it (4 - 0.5 x 3 > 1).
    CHECK(LoneJobGpus("linear", 0.5, 0, 0) == 8);
    // Concave utility: sqrt(4) - 0.5 x 3 = 0.5 < 1 at 8 GPUs; sqrt(2) - 0.5 = 0.91 < 1 at 4;
    // at 1 GPU sqrt(0.5) + 0.5 x 0.5 = 0.96 < 1: the requested count.
    CHECK(LoneJobGpus("concave", 0.5, 0, 0) == 2);
    // Concave, free GPUs: more is still better.
    CHECK(LoneJobGpus("concave", 0, 0, 0) == 8);
    // GPU time charged to an IO budget of $1/h: at $0.4 per GPU-hour, 6 extra GPUs ($2.4/h)
    // leave nothing for IO, 2 extra ($0.8/h) do.
    CHECK(LoneJobGpus("linear", 0, 0.4, 1.0) == 4);
    CHECK(LoneJobGpus("linear", 0, 0, 1.0) == 8);
}

TEST_CASE("AutoCBA sizing in the engine scales a lone job up on an idle cluster", "[storage]")
{
    Ptr<StorageDataLoading> storage = CreateObject<StorageDataLoading>();
    Ptr<ClusterEngine> engine = LoneJobEngine(storage);
    Ptr<AutoCbaSizing> sizing = CreateObject<AutoCbaSizing>();
    sizing->SetAttribute("GpuCost", DoubleValue(0)); // GPUs free
    sizing->SetStorage(storage);
    engine->SetAttribute("JobSizingPolicy", PointerValue(sizing));
    engine->Run();
    Simulator::Destroy();
    // Linear utility, free storage: 4x the GPUs (8) gives 4x the throughput, same samples.
    Ptr<ClusterJob> job = engine->Jobs()[0];
    CHECK(job->gpus == 8);
    CHECK(job->finishTime == Approx(100));
}
