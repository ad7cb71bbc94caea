/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Acme (Shanghai AI Lab, NSDI'24) job traces: the acme-csv reader (type, state, node_num,
// per-row errors) and node_num honoured by the GPU allocator and the engine.

#include "temp-dir.h"
#include "trace-fixture.h"
#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/gpu-allocator.h"
#include "ns3/simulator.h"
#include "ns3/trace-reader.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace ns3;
using Catch::Matchers::Contains;

namespace
{

const char* const kHeader = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,"
                            "start_time,end_time,duration,queue,gpu_time\n";
const char* const kGood = "j1,u1,1,8,128,Other,COMPLETED,2023-03-01 00:18:22+08:00,"
                          "2023-03-01 00:18:54+08:00,2023-03-01 00:20:51+08:00,117,32,936.0\n";

/** Writes a trace with the header, one good row, then `row` (line 3), and returns its path. */
std::string
WithRow(const std::string& name, const std::string& row)
{
    static const std::string dir = TestTempDir("acme");
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << kHeader << kGood << row << "\n";
    return path;
}

/** The TraceError a malformed third line raises (STOP), or fails the test. */
TraceError
ErrorOf(const std::string& name, const std::string& row)
{
    std::string path = WithRow(name, row);
    try
    {
        ReadTrace(path);
    }
    catch (const TraceError& e)
    {
        return e;
    }
    FAIL("no TraceError for " << row);
    return TraceError("", 0, "", "");
}

/** JobStarted sink: the nodes of the job's placement. */
void
CountNodes(uint32_t* nodes, Ptr<const ClusterJob> job)
{
    *nodes = job->placement.gpusOnNode.size();
}

} // namespace

TEST_CASE("acme-csv: type, state, node_num and run time from a Kalos-style log", "[trace][acme]")
{
    TraceReadReport report;
    auto jobs = ReadTrace(Fixture("acme-llm.csv"), TraceReadOptions(), &report);
    CHECK(report.format == "acme-csv");
    CHECK(report.records == 10);
    CHECK(report.notGpuJobs == 1); // dlc-cpu
    // dlc-queued (no start), dlc-running (no end), dlc-zero (0 s), dlc-running-cut (RUNNING:
    // still running when the log was cut, whatever its times say)
    CHECK(report.unfinished == 4);
    CHECK(report.malformed == 0);
    REQUIRE(jobs.size() == 5);
    CHECK(report.kept == 5);

    CHECK(jobs[0].name == "dlc-pre-512");
    CHECK(jobs[0].jobType == "Pretrain");
    CHECK(jobs[0].numGpus == 512);
    CHECK(jobs[0].numNodes == 64);
    CHECK(jobs[0].status == "COMPLETED");
    CHECK(jobs[0].duration == 7200);
    CHECK(jobs[0].submitTime == 0);
    CHECK(jobs[0].user == "u1");

    CHECK(jobs[1].jobType == "SFT"); // "sft" in the file: the canonical spelling
    CHECK(jobs[1].status == "FAILED");
    CHECK(jobs[1].numNodes == 8);
    CHECK(jobs[1].submitTime == 30);

    CHECK(jobs[2].name == "dlc-eval-1");
    CHECK(jobs[2].jobType == "Evaluation"); // "Eval" in the file: the released traces' spelling
    CHECK(jobs[2].duration == 60);          // empty duration: end_time - start_time
    CHECK(jobs[2].status == "CANCELLED");

    CHECK(jobs[3].name == "dlc-debug-12");
    CHECK(jobs[3].status == "TIMEOUT");
    CHECK(jobs[3].numNodes == 2);
    CHECK(jobs[4].jobType == "MLLM"); // a type outside the five is kept as written
    CHECK(jobs[4].status == "NODE_FAIL");

    CHECK(DetectTraceFormat(Fixture("acme-llm.csv")) == "acme-csv");
    CHECK(DetectTraceFormat(Fixture("helios-small.csv")) == "helios-csv");
}

TEST_CASE("acme-csv: a malformed row names file, line and field", "[trace][acme]")
{
    struct Case
    {
        const char* name;
        const char* row;
        const char* field;
        const char* expected;
    };

    const Case cases[] = {
        {"gpus.csv",
         "j2,u1,1,eight,128,Other,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "gpu_num",
         "a non-negative integer"},
        {"nodes0.csv",
         "j2,u1,0,8,128,Other,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "node_num",
         "1..8"},
        {"nodes9.csv",
         "j2,u1,9,8,128,Other,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "node_num",
         "1..8"},
        {"type.csv",
         "j2,u1,1,8,128,,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "type",
         "a job type"},
        {"state.csv",
         "j2,u1,1,8,128,SFT,DONE,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "state",
         "COMPLETED, CANCELLED"},
        {"submit.csv",
         "j2,u1,1,8,128,SFT,COMPLETED,yesterday,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "submit_time",
         "a date-time"},
        {"start.csv",
         "j2,u1,1,8,128,SFT,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 00:59:00+08:00,2023-03-01 01:00:02+08:00,1,1,8",
         "start_time",
         "a time >= submit_time"},
        {"end.csv",
         "j2,u1,1,8,128,SFT,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:00+08:00,1,1,8",
         "end_time",
         "a time >= start_time"},
        {"duration.csv",
         "j2,u1,1,8,128,SFT,COMPLETED,2023-03-01 01:00:00+08:00,"
         "2023-03-01 01:00:01+08:00,2023-03-01 01:00:02+08:00,-5,1,8",
         "duration",
         "a number >= 0"},
        {"fields.csv", "j2,u1,1,8,128,SFT,COMPLETED,2023-03-01 01:00:00+08:00", "", "fields"},
    };
    for (const Case& c : cases)
    {
        INFO(c.name);
        TraceError e = ErrorOf(c.name, c.row);
        CHECK(e.Line() == 3);
        CHECK_THAT(e.what(), Contains(std::string(c.name) + ":3"));
        if (*c.field)
        {
            CHECK(e.Field() == c.field);
        }
        CHECK_THAT(e.what(), Contains(c.expected));
    }

    // With SKIP the bad row is counted and the good one kept.
    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = ReadTrace(WithRow("skip.csv", cases[1].row), skip, &report);
    CHECK(jobs.size() == 1);
    CHECK(report.malformed == 1);
    REQUIRE(report.problems.size() == 1);
    CHECK_THAT(report.problems[0], Contains("skip.csv:3") && Contains("node_num"));
}

TEST_CASE("GpuAllocator: a node count is honoured", "[cluster][acme]")
{
    ClusterTopology t;
    t.numNodes = 16;
    t.gpusPerNode = 8;
    t.nodesPerRack = 8;
    Ptr<GpuAllocator> a = CreateObject<GpuAllocator>();
    a->Reset(t);
    // Fragment the first rack: 4 GPUs taken on each of its nodes but one.
    for (int i = 0; i < 7; ++i)
    {
        a->Allocate(4);
    }
    REQUIRE(a->FreeGpus() == 128 - 28);

    // 64 GPUs on 8 nodes: 8 whole nodes (rack 1, the only rack with 8 nodes that hold 8).
    JobPlacement big = a->Allocate(64, 8);
    REQUIRE(big.gpusOnNode.size() == 8);
    for (const auto& [node, gpus] : big.gpusOnNode)
    {
        CHECK(gpus == 8);
        CHECK(node >= 8);
    }
    // 12 GPUs on 2 nodes: 6 + 6, never 8 + 4 (the plain rule's choice).
    JobPlacement twelve = a->Allocate(12, 2);
    REQUIRE(twelve.gpusOnNode.size() == 2);
    CHECK(twelve.gpusOnNode[0].second == 6);
    CHECK(twelve.gpusOnNode[1].second == 6);
    CHECK(a->NodeShapeFallbacks() == 0);
    // 9 GPUs on 1 node cannot be: placed by the rule, and counted.
    JobPlacement nine = a->Allocate(9, 1);
    CHECK(nine.TotalGpus() == 9);
    CHECK(a->NodeShapeFallbacks() == 1);
}

TEST_CASE("engine: an Acme job's node_num shapes its placement", "[engine][acme]")
{
    // Without node_num, consolidated placement puts 16 GPUs on 2 nodes; with node_num 4 the
    // job spreads over 4 nodes x 4 GPUs.
    for (uint32_t nodes : {0u, 4u})
    {
        JobRecord job = UnitJob(0, 0, 16, 100);
        job.numNodes = nodes;
        ClusterTopology t;
        t.numNodes = 4;
        t.gpusPerNode = 8;
        t.nodesPerRack = 4;
        ClusterEngineHelper helper;
        helper.SetTopology(t);
        uint32_t used = 0;
        Ptr<ClusterEngine> engine = helper.Create({job}, UnitCatalog());
        engine->SetAttribute("ProgressInterval", DoubleValue(0));
        engine->TraceConnectWithoutContext("JobStarted", MakeBoundCallback(&CountNodes, &used));
        engine->Run();
        Simulator::Destroy();
        CHECK(used == (nodes == 0 ? 2u : 4u));
    }
}
