/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Whole replays of the bundled sample trace with storage: CBA against the baselines at the
// same throughput, and the value of caching against the sharing degree.

#include "ns3/cluster-engine-helper.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/storage-helper.h"
#include "ns3/trace-reader.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

StorageRunSummary
ReplaySample(const std::string& policy, const std::string& datasetRule, double cacheBytes)
{
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    std::vector<JobRecord> jobs =
        ReadTrace(std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv",
                  TraceReadOptions());
    AnnotatorOptions ann;
    ann.datasetRule = datasetRule;
    TraceAnnotator annotator(WorkloadCatalog::Default(), ann);
    annotator.Annotate(jobs);
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 16;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::FifoPolicy");
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    StorageOptions storage;
    storage.policy = policy;
    storage.cacheBytes = cacheBytes;
    Ptr<StorageDataLoading> model = StorageHelper(storage).Install(engine, jobs, annotator);
    engine->Run();
    StorageRunSummary s = StorageHelper::Summarize(engine, model, storage);
    Simulator::Destroy();
    return s;
}

} // namespace

TEST_CASE("sample replay: CBA's IO cost is below every baseline that is no faster", "[storage]")
{
    StorageRunSummary cba = ReplaySample("cba", "vc", 10e12);
    REQUIRE(cba.finished > 0);
    for (const char* policy : {"none", "cache-all", "fair", "lru", "quiver", "silod"})
    {
        StorageRunSummary base = ReplaySample(policy, "vc", 10e12);
        INFO(policy << ": cost " << base.ioCost << " mean JCT " << base.meanJct << " vs CBA "
                    << cba.ioCost << ", " << cba.meanJct);
        CHECK(base.finished == cba.finished);
        if (base.meanJct >= cba.meanJct * (1 - 1e-9))
        {
            CHECK(cba.ioCost <= base.ioCost);
        }
        CHECK(cba.meanJct <= base.meanJct * (1 + 1e-9)); // CBA serves full speed when it can
    }
}

TEST_CASE("sample replay: more sharing raises the value of caching", "[storage]")
{
    // Value of caching = IO cost without cache - IO cost under CBA; with every job on its own
    // copy ("job") each cached byte serves one reader, with one copy per workload ("model")
    // it serves all of them.
    double previous = -1;
    for (const char* rule : {"job", "vc", "model"})
    {
        double value =
            ReplaySample("none", rule, 10e12).ioCost - ReplaySample("cba", rule, 10e12).ioCost;
        INFO(rule << ": value " << value);
        CHECK(value > previous);
        previous = value;
    }
}
