/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The engine's objects die with it: no reference cycle between a job and the events that
// re-rank it, and a second replay in one process does not grow the heap.

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"

#include <catch2/catch.hpp>
#include <malloc.h>

using namespace ns3;

namespace
{

std::vector<JobRecord>
SampleJobs()
{
    TraceReadOptions options;
    std::vector<JobRecord> jobs =
        ReadTrace(std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv", options);
    AnnotatorOptions annotatorOptions;
    TraceAnnotator(WorkloadCatalog::Default(), annotatorOptions).Annotate(jobs);
    return jobs;
}

/// Tiresias on a small cluster: many priority-change events, many still pending at the end.
Ptr<ClusterEngine>
RunTiresias(const std::vector<JobRecord>& jobs)
{
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 8;
    topology.gpusPerNode = 8;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::TiresiasPolicy");
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->Run();
    return engine;
}

/// Bytes the allocator hands out now.
size_t
HeapInUse()
{
    return mallinfo2().uordblks;
}

} // namespace

TEST_CASE("a finished replay's jobs are held by nothing but the engine", "[engine][lifetime]")
{
    std::vector<JobRecord> jobs = SampleJobs();
    Ptr<ClusterEngine> engine = RunTiresias(jobs);
    std::vector<Ptr<ClusterJob>> kept = engine->Jobs();
    uint32_t preempted = 0;
    for (const auto& job : kept)
    {
        preempted += job->preemptions > 0;
    }
    REQUIRE(preempted > 0); // priority events were scheduled and fired
    auto countHeldBeyond = [&kept](uint32_t expected) {
        uint32_t held = 0;
        for (const auto& job : kept)
        {
            held += job->GetReferenceCount() != expected;
        }
        return held;
    };
    // With the simulator gone, no event may still hold a job: only the engine and `kept` do.
    Simulator::Destroy();
    CHECK(countHeldBeyond(2) == 0);
    // And a disposed engine lets go of them.
    engine->Dispose();
    engine = nullptr;
    CHECK(countHeldBeyond(1) == 0);
}

TEST_CASE("a second replay in one process leaves the heap as it found it", "[engine][lifetime]")
{
    std::vector<JobRecord> jobs = SampleJobs();
    auto replay = [&jobs]() {
        // As a script would: drop the engine without an explicit Dispose.
        RunTiresias(jobs);
        Simulator::Destroy();
    };
    replay(); // first run: ns-3's registries and caches are filled once, not leaked
    size_t before = HeapInUse();
    replay();
    size_t after = HeapInUse();
    // The cycle this guards against kept about 1 MB per replay of the sample alive.
    CHECK(after <= before + 64 * 1024);
}

TEST_CASE("engines of one trace share its records, and a job keeps its own alive",
          "[engine][lifetime]")
{
    // Every policy's engine refers to the one list of records (issue #13: a copy per job and
    // engine doubled what a full replay touches); the vector overload copies once.
    SharedJobRecords shared = std::make_shared<const std::vector<JobRecord>>(SampleJobs());
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 8;
    topology.gpusPerNode = 8;
    helper.SetTopology(topology);
    Ptr<ClusterEngine> first = helper.Create(std::vector<JobRecord>(), WorkloadCatalog::Default());
    Ptr<ClusterEngine> second = helper.Create(std::vector<JobRecord>(), WorkloadCatalog::Default());
    first->SetJobs(shared, WorkloadCatalog::Default());
    second->SetJobs(shared, WorkloadCatalog::Default());
    REQUIRE(first->Jobs().size() == shared->size());
    REQUIRE(second->Jobs().size() == shared->size());
    uint32_t notShared = 0;
    for (size_t i = 0; i < shared->size(); ++i)
    {
        // The sample is sorted by submit time, so job i is record i.
        notShared += &first->Jobs()[i]->record != &(*shared)[i];
        notShared += &second->Jobs()[i]->record != &(*shared)[i];
    }
    CHECK(notShared == 0);

    std::vector<JobRecord> plain = *shared;
    Ptr<ClusterEngine> copied = helper.Create(plain, WorkloadCatalog::Default());
    REQUIRE(copied->Jobs().size() == plain.size());
    CHECK(&copied->Jobs().front()->record != &plain.front());
    CHECK(copied->Jobs().back()->record.source.Text() == plain.back().source.Text());

    // A job handed out (a model's or a test's handle) outlives its engine and the list.
    Ptr<ClusterJob> kept = first->Jobs().back();
    const std::string source = kept->record.source.Text();
    const uint64_t id = kept->record.id;
    first->Dispose();
    second->Dispose();
    first = nullptr;
    second = nullptr;
    shared = nullptr;
    CHECK(kept->record.id == id);
    CHECK(kept->record.source.Text() == source);
    copied->Dispose();
}
