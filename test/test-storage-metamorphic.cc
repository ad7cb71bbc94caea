/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Metamorphic checks on whole replays of the bundled sample: more cache or more remote
// bandwidth at the same prices never raises CBA's IO cost; with an unbounded cache every
// caching policy serves every job at compute speed (the same JCTs); AutoCBA's welfare is
// never below CBA's; a speedup above the GPU ratio is never counted on.

#include "storage-sample-run.h"

#include "ns3/simulator.h"

#include <catch2/catch.hpp>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

struct Sample
{
    StorageRunSummary summary;
    std::vector<uint32_t> gpus;     //!< per job, the GPUs it ran on
    std::vector<uint32_t> asked;    //!< per job, the GPUs it asked for
    std::vector<double> perGpuRate; //!< per job, compute samples/s per GPU on what it ran on
    std::vector<double> askedRate;  //!< per job, compute samples/s per GPU on what it asked
};

Sample
Replay(const std::string& policy, double cacheBytes, double bandwidth)
{
    StorageOptions storage;
    storage.policy = policy;
    storage.cacheBytes = cacheBytes;
    storage.bandwidth = bandwidth;
    StorageSampleRun run = RunStorageSample(storage);
    Ptr<ClusterEngine> engine = run.engine;
    Sample s;
    s.summary = StorageHelper::Summarize(engine, run.storage, storage);
    for (const auto& job : engine->Jobs())
    {
        s.gpus.push_back(job->gpus);
        s.asked.push_back(job->record.numGpus);
        s.perGpuRate.push_back(job->profile->SamplesPerSecond(job->gpus) / job->gpus);
        s.askedRate.push_back(job->profile->SamplesPerSecond(job->record.numGpus) /
                              job->record.numGpus);
    }
    Simulator::Destroy();
    return s;
}

} // namespace

TEST_CASE("sample: more cache or bandwidth at the same prices never lowers CBA's welfare, nor "
          "raises its IO cost at the same welfare",
          "[storage][metamorphic]")
{
    // Under scarcity CBA buys throughput first, so more capacity may cost a little more for
    // more welfare; at the same welfare it never costs more.
    for (bool cache : {true, false})
    {
        double previousCost = std::numeric_limits<double>::infinity();
        double previousWelfare = 0;
        for (double x : cache ? std::vector<double>{0.02, 0.05, 0.2, 1.0, 10.0}
                              : std::vector<double>{0.5, 1.0, 2.0, 25.0})
        {
            StorageRunSummary s =
                Replay("cba", cache ? x * 1e12 : 0.05e12, cache ? 1e9 : x * 1e9).summary;
            INFO((cache ? "cache TB " : "bandwidth GB/s ")
                 << x << ": cost " << s.ioCost << " welfare " << s.welfareLinear);
            CHECK(s.welfareLinear >= previousWelfare * (1 - 1e-9));
            if (s.welfareLinear <= previousWelfare * (1 + 1e-9))
            {
                CHECK(s.ioCost <= previousCost * (1 + 1e-9));
            }
            previousCost = s.ioCost;
            previousWelfare = s.welfareLinear;
        }
    }
}

TEST_CASE("sample: with an unbounded cache every caching policy runs every job at speed",
          "[storage][metamorphic]")
{
    double reference = Replay("cba", 1e18, 25e9).summary.meanJct;
    for (const char* policy : {"cache-all", "lru", "quiver", "silod", "fair"})
    {
        Sample s = Replay(policy, 1e18, 25e9);
        INFO(policy << ": mean JCT " << s.summary.meanJct << " vs " << reference);
        CHECK(s.summary.meanJct == Approx(reference).epsilon(1e-9));
    }
}

TEST_CASE("sample: AutoCBA's welfare is never below CBA's, and it never counts on a "
          "superlinear speedup",
          "[storage][metamorphic]")
{
    for (double tb : {0.05, 10.0})
    {
        Sample cba = Replay("cba", tb * 1e12, 1e9);
        Sample autoCba = Replay("autocba", tb * 1e12, 1e9);
        // Welfare with GPU time priced as AutoCbaSizing prices it (GpuCost 1 by default):
        // sum of speeds minus (GPUs / asked GPUs - 1) per job.
        double net = autoCba.summary.welfareLinear;
        int resized = 0;
        for (size_t j = 0; j < autoCba.gpus.size(); ++j)
        {
            INFO("job " << j << ": " << autoCba.asked[j] << " -> " << autoCba.gpus[j]);
            net -= double(autoCba.gpus[j]) / autoCba.asked[j] - 1;
            if (autoCba.gpus[j] > autoCba.asked[j])
            {
                ++resized;
                // Per-GPU speed on more GPUs never above the asked count's.
                CHECK(autoCba.perGpuRate[j] <= autoCba.askedRate[j] * (1 + 1e-12));
            }
            else if (autoCba.gpus[j] < autoCba.asked[j])
            {
                ++resized;
                CHECK(autoCba.perGpuRate[j] >= autoCba.askedRate[j] * (1 - 1e-12));
            }
        }
        INFO(tb << " TB: welfare " << net << " vs " << cba.summary.welfareLinear << ", " << resized
                << " jobs resized");
        CHECK(net >= cba.summary.welfareLinear);
        CHECK(autoCba.summary.meanJct <= cba.summary.meanJct);
        CHECK(resized > 0);
    }
}
