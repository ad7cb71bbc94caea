/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Model-weight loading at job start (StorageDataLoading's ModelLoading, doc/llm.md) inside the
// cluster engine: hand-computed replays. The fixture's load-model computes 1 s per iteration
// and has 50 M parameters: 100 MB of bf16 weights (2 B/parameter) read before its first
// iteration, stopped; from the remote storage, or from the cache tier once a policy that keeps
// a cache holds them.

#include "temp-dir.h"
#include "unit-workload.h"

#include "ns3/boolean.h"
#include "ns3/cache-all-policy.h"
#include "ns3/cba-policy.h"
#include "ns3/cluster-engine.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/no-cache-policy.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/storage-data-loading.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

using namespace ns3;

namespace
{

const WorkloadCatalog&
LoadCatalog()
{
    static const WorkloadCatalog catalog =
        WorkloadCatalog::Load(std::string(AICLUSTER_TEST_DATA) + "/engine/checkpoint-catalog.json");
    return catalog;
}

/// A 1-GPU job of load-model (or another model), reading nothing ("zero").
JobRecord
Job(uint64_t id, double submit, double seconds, const std::string& model = "load-model")
{
    JobRecord r = UnitJob(id, submit, 1, seconds, "zero");
    r.model = model;
    return r;
}

struct Run
{
    Ptr<ClusterEngine> engine;
    Ptr<StorageDataLoading> storage;

    double Finish(size_t i) const
    {
        return engine->Jobs()[i]->finishTime;
    }
};

/// Remote storage: 100 MB/s aggregate, 100 MB/s per client; cache reads 200 MB/s.
Run
Replay(const std::vector<JobRecord>& jobs,
       Ptr<StorageAllocationPolicy> policy,
       const std::function<void(StorageDataLoading&)>& configure = {})
{
    Run run;
    run.engine = CreateObject<ClusterEngine>();
    run.engine->SetAttribute("ProgressInterval", DoubleValue(0));
    ClusterTopology topology;
    topology.numNodes = 2;
    topology.gpusPerNode = 4;
    run.engine->SetTopology(topology);
    run.engine->SetJobs(jobs, LoadCatalog());
    run.storage = CreateObject<StorageDataLoading>();
    run.storage->AddDataset({"zero", 0, 0});
    run.storage->SetPolicy(policy);
    run.storage->GetBackend()->SetAttribute("AggregateBandwidth",
                                            DataRateValue(DataRate("800Mbps")));
    run.storage->GetBackend()->SetAttribute("ClientBandwidth", DataRateValue(DataRate("800Mbps")));
    run.storage->SetAttribute("WeightsCacheBandwidth", DataRateValue(DataRate("1600Mbps")));
    if (configure)
    {
        configure(*run.storage);
    }
    run.engine->SetDataLoadingModel(run.storage);
    run.engine->Run();
    run.storage->Settle();
    Simulator::Destroy();
    return run;
}

} // namespace

TEST_CASE("a job that starts from trained weights loads them first, stopped", "[model-load]")
{
    // 100 MB at the 100 MB/s client cap: 1 s stopped, then 100 iterations of 1 s.
    Run run = Replay({Job(0, 0, 100)}, CreateObject<NoCachePolicy>());
    Ptr<ClusterJob> job = run.engine->Jobs()[0];
    CHECK(job->finishTime == Approx(101));
    CHECK(job->stallData == Approx(1).epsilon(1e-6));
    CHECK(job->bound == "data:storage-model-load");
    const StorageTotals& t = run.storage->Totals();
    CHECK(t.modelLoads == 1);
    CHECK(t.modelLoadsFromCache == 0);
    CHECK(t.modelLoadBytesRemote == Approx(100e6));
    CHECK(t.modelLoadStallGpuSeconds == Approx(1));
    double pb = run.storage->GetBackend()->BandwidthPricePerByte();
    CHECK(t.bandwidthCost == Approx(pb * 100e6)); // the remote read is charged

    // Off, or a workload that loads nothing: no stop.
    Run off = Replay({Job(0, 0, 100)}, CreateObject<NoCachePolicy>(), [](auto& s) {
        s.SetAttribute("ModelLoading", BooleanValue(false));
    });
    CHECK(off.Finish(0) == Approx(100));
    CHECK(off.storage->Totals().modelLoads == 0);
    Run plain = Replay({Job(0, 0, 100, "unit-model")}, CreateObject<NoCachePolicy>());
    CHECK(plain.Finish(0) == Approx(100));
    // 4 B/parameter (fp32 weights): 200 MB, 2 s.
    Run fp32 = Replay({Job(0, 0, 100)}, CreateObject<NoCachePolicy>(), [](auto& s) {
        s.SetAttribute("WeightBytesPerParameter", DoubleValue(4));
    });
    CHECK(fp32.Finish(0) == Approx(102));
}

TEST_CASE("simultaneous loads share the remote bandwidth", "[model-load]")
{
    // Two loads against 100 MB/s aggregate: 50 MB/s each, 2 s.
    Run run = Replay({Job(0, 0, 100), Job(1, 0, 100)}, CreateObject<NoCachePolicy>());
    CHECK(run.Finish(0) == Approx(102));
    CHECK(run.Finish(1) == Approx(102));
}

TEST_CASE("a caching policy keeps loaded weights; none reads them remotely every time",
          "[model-load]")
{
    // The second job starts at 200, after the first ended (101).
    std::vector<JobRecord> jobs = {Job(0, 0, 100), Job(1, 200, 100)};
    Run none = Replay(jobs, CreateObject<NoCachePolicy>());
    CHECK(none.Finish(1) == Approx(301)); // remote again: 1 s
    CHECK(none.storage->Totals().modelLoadsFromCache == 0);
    CHECK(none.storage->Totals().cacheCost == 0);
    // Cache-all (and CBA) keep a cache: the second load reads 100 MB at 200 MB/s, 0.5 s.
    Run cached = Replay(jobs, CreateObject<CacheAllPolicy>());
    CHECK(cached.Finish(0) == Approx(101));
    CHECK(cached.Finish(1) == Approx(300.5));
    CHECK(cached.storage->Totals().modelLoadsFromCache == 1);
    CHECK(cached.storage->Totals().modelLoadBytesRemote == Approx(100e6));
    CHECK(cached.storage->Totals().modelLoadBytesCached == Approx(100e6));
    // Kept from the end of the first load (1 s) to the end of the replay (300.5 s), charged.
    CHECK(cached.storage->Totals().weightsCacheByteSeconds == Approx(100e6 * 299.5));
    CHECK(cached.storage->Totals().cacheCost > 0);
    Run cba = Replay(jobs, CreateObject<CbaPolicy>());
    CHECK(cba.Finish(1) == Approx(300.5));
    // Weights that do not fit in the cache tier are not kept.
    Run small = Replay(jobs, CreateObject<CacheAllPolicy>(), [](auto& s) {
        s.GetCacheTier()->SetAttribute("Capacity", DoubleValue(50e6));
    });
    CHECK(small.Finish(1) == Approx(301));
}

TEST_CASE("catalog: fine-tuning and evaluation load trained weights, pre-training does not",
          "[model-load][catalog][llm]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    for (const std::string stem : {"llama2-7b", "llama2-13b", "llama2-70b"})
    {
        INFO(stem);
        CHECK_FALSE(catalog.Get(stem + "-pretrain").loadsWeights);
        CHECK(catalog.Get(stem + "-sft").loadsWeights);
        CHECK(catalog.Get(stem + "-eval").loadsWeights);
        CHECK(catalog.Get(stem + "-eval").parameters > 0);
    }
    CHECK_FALSE(catalog.Get("resnet50-imagenet").loadsWeights);
}

TEST_CASE("catalog: loadsWeights must be a boolean, with parameters", "[model-load][catalog]")
{
    std::string text;
    {
        std::ifstream in(std::string(AICLUSTER_TEST_DATA) + "/engine/checkpoint-catalog.json");
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::string path = TestTempDir("model-load") + "/catalog.json";
    auto loadWith = [&](const std::string& from, const std::string& to) -> std::string {
        std::string bad = text;
        size_t at = bad.find(from);
        REQUIRE(at != std::string::npos);
        bad.replace(at, from.size(), to);
        std::ofstream(path) << bad;
        try
        {
            WorkloadCatalog::Load(path);
        }
        catch (const std::exception& e)
        {
            return e.what();
        }
        return "";
    };
    using Catch::Matchers::Contains;
    CHECK_THAT(loadWith("\"loadsWeights\": true", "\"loadsWeights\": \"yes\""),
               Contains("loadsWeights") && Contains("true or false"));
    CHECK_THAT(loadWith("\"parameters\": 50000000,", ""),
               Contains("loadsWeights") && Contains("parameters"));
    std::filesystem::remove(path);
}
