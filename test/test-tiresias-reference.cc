/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// The Tiresias reference simulator (NSDI'19) side by side: its own trace files load
// (both schemas, empty values as "not recorded", a recorded zero duration kept), and
// TiresiasPolicy::LevelOrder reproduces its order inside a queue level.

#include "temp-dir.h"
#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ns3-compat.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tiresias-policy.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/** Writes text to a fresh file in a per-process temporary folder and returns its path. */
std::string
TempTrace(const std::string& name, const std::string& text)
{
    static const std::string dir = TestTempDir("tiresias-test");
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/** One job's schedule under Tiresias. */
struct Schedule
{
    std::map<uint64_t, double> start;
    std::map<uint64_t, double> finish;
    std::map<uint64_t, uint32_t> preemptions;
};

/**
 * 8 GPUs, one Tiresias level. A (4 GPUs) runs; B (8 GPUs, submitted at 1) cannot start;
 * C (4 GPUs, submitted at 2) starts beside A. When A ends at 100, B is the earliest
 * submitted job of the level but C is running.
 */
Schedule
RunLevelOrder(const std::string& order)
{
    ClusterTopology topology;
    topology.numNodes = 1;
    topology.gpusPerNode = 8;
    ClusterEngineHelper helper;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::TiresiasPolicy",
                        "Thresholds",
                        StringValue("1e12"),
                        "StarvationFactor",
                        DoubleValue(0),
                        "LevelOrder",
                        StringValue(order));
    auto engine =
        helper.Create({UnitJob(0, 0, 4, 100), UnitJob(1, 1, 8, 10), UnitJob(2, 2, 4, 1000)},
                      UnitCatalog());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->Run();
    Schedule s;
    for (const auto& job : engine->Jobs())
    {
        s.start[job->record.id] = job->startTime;
        s.finish[job->record.id] = job->finishTime;
        s.preemptions[job->record.id] = job->preemptions;
    }
    Simulator::Destroy();
    return s;
}

} // namespace

TEST_CASE("tiresias-csv reads the simulator's tf_job.csv schema (no iterations column)",
          "[trace][tiresias]")
{
    std::string path = TempTrace("tf_job.csv",
                                 "job_id,num_gpu,submit_time,start_time,duration,model_size,"
                                 "aggr_interval,model_name,model_scale\n"
                                 "10,12,11,14,20,400,0,vgg19,1\n"
                                 "11,2,15,,,100,0,resnet50,1\n"
                                 "12,1,16,16,0,100,0,alexnet,1\n");
    CHECK(DetectTraceFormat(path) == "tiresias-csv");
    TraceReadReport report;
    auto jobs = ReadTrace(path, TraceReadOptions(), &report);
    REQUIRE(jobs.size() == 3);
    CHECK(report.malformed == 0);
    CHECK(jobs[0].name == "10");
    CHECK(jobs[0].numGpus == 12);
    CHECK(jobs[0].duration == 20);
    CHECK(jobs[0].model == "vgg19");
    CHECK(jobs[0].totalSteps == JobRecord::UNKNOWN); // no iterations column: not recorded
    CHECK(jobs[1].duration == JobRecord::UNKNOWN);   // empty: not recorded
    CHECK(jobs[2].duration == 0);                    // a recorded zero stays zero
}

TEST_CASE("tiresias-csv: an empty iterations or duration value is not recorded, not an error",
          "[trace][tiresias]")
{
    std::string path = TempTrace("60_job.csv",
                                 "job_id,num_gpu,submit_time,iterations,model_name,duration,"
                                 "interval\n"
                                 "0,1,0,,vgg19,164,30\n"
                                 "1,8,30,133,vgg11,,23\n");
    TraceReadReport report;
    auto jobs = ReadTrace(path, TraceReadOptions(), &report);
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].totalSteps == JobRecord::UNKNOWN);
    CHECK(jobs[0].duration == 164);
    CHECK(jobs[1].totalSteps == 133);
    CHECK(jobs[1].duration == JobRecord::UNKNOWN);

    // A value that is there but malformed is still an error naming the field.
    std::string bad = TempTrace("bad.csv",
                                "job_id,num_gpu,submit_time,model_name,duration\n"
                                "0,1,0,vgg19,soon\n");
    TraceError error("", 0, "", "");
    try
    {
        ReadTrace(bad, TraceReadOptions(), nullptr);
        FAIL("a malformed duration was accepted");
    }
    catch (const TraceError& e)
    {
        error = e;
    }
    CHECK(error.Field() == "duration");
    CHECK(error.Line() == 2);
}

TEST_CASE("the Tiresias simulator's own tf_job.csv loads", "[trace][tiresias][public]")
{
    const std::string path = std::string(AICLUSTER_SHARED_TRACES) + "/tiresias/tf_job.csv";
    if (!std::filesystem::exists(path))
    {
        WARN("skipped: " << path << " is not there (../shared/traces beside the repository)");
        return;
    }
    TraceReadReport report;
    auto jobs = ReadTrace(path, TraceReadOptions(), &report);
    CHECK(report.format == "tiresias-csv");
    CHECK(report.malformed == 0);
    REQUIRE(!jobs.empty());
    for (const auto& j : jobs)
    {
        CHECK(j.numGpus == 12);
        CHECK(j.duration == 20);
        CHECK(j.model == "vgg19");
    }
}

TEST_CASE("a recorded zero duration is no work, not the catalog's samples to target",
          "[annotator][tiresias]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, AnnotatorOptions());
    JobRecord j;
    j.name = "zero";
    j.numGpus = 2;
    j.model = "resnet18-cifar10"; // has samplesToTarget in the catalog
    j.source = RecordSource("tf_job.csv", 4);
    j.duration = 0;
    annotator.Annotate(j);
    CHECK(j.iterations == 0);

    JobRecord unknown = j;
    unknown.duration = JobRecord::UNKNOWN;
    annotator.Annotate(unknown);
    CHECK(unknown.iterations > 0); // not recorded: the catalog's work
}

TEST_CASE("TiresiasPolicy::LevelOrder: submit time (default) or the reference's order",
          "[engine][tiresias]")
{
    auto policy = CreateObject<TiresiasPolicy>();
    AiclusterEnumValue<TiresiasPolicy::LevelOrder> order;
    policy->GetAttribute("LevelOrder", order);
    CHECK(order.Get() == TiresiasPolicy::SUBMIT_TIME);

    // By submit time, B (submitted before C) preempts C when A ends; B then runs 100-110.
    Schedule bySubmit = RunLevelOrder("SubmitTime");
    CHECK(bySubmit.start[2] == Approx(2));
    CHECK(bySubmit.preemptions[2] == 1);
    CHECK(bySubmit.start[1] == Approx(100));
    CHECK(bySubmit.finish[1] == Approx(110));
    CHECK(bySubmit.finish[2] == Approx(1012));

    // As the reference simulator: no preemption inside a level; B waits for C.
    Schedule byEntry = RunLevelOrder("LevelEntry");
    CHECK(byEntry.start[2] == Approx(2));
    CHECK(byEntry.preemptions[2] == 0);
    CHECK(byEntry.finish[2] == Approx(1002));
    CHECK(byEntry.start[1] == Approx(1002));
    CHECK(byEntry.finish[1] == Approx(1012));
}
