/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Alibaba's LLM-era and PAI traces: the alibaba-spot-gpu-2026 reader (GFS, ASPLOS'26
// job_info_df.csv) and the alibaba-pai-2020-task reader (MLaaS, NSDI'22 pai_task_table.csv,
// headerless): field mapping, auto-detection, per-field errors, hostile bytes, and how the
// annotator treats their job types.

#include "temp-dir.h"
#include "trace-fixture.h"

#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

using namespace ns3;
using Catch::Matchers::Contains;

namespace
{

const char* const kSpotHeader = "job_name,organization,gpu_model,cpu_request,gpu_request,"
                                "worker_num,submit_time,duration,job_type\n";
const char* const kSpotGood = "1,13,A10,20,1,1,0,100,HP\n";
const char* const kPaiGood = "j0,worker,1.0,Terminated,100.0,200.0,600.0,10.0,100.0,V100\n";

/** Writes text to a fresh file and returns its path. */
std::string
Write(const std::string& name, const std::string& text)
{
    static const std::string dir = TestTempDir("alibaba-traces");
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/** Reads with the options, checking that every record was counted exactly once. */
std::vector<JobRecord>
Read(const std::string& path, const TraceReadOptions& options, TraceReadReport& report)
{
    auto jobs = ReadTrace(path, options, &report);
    CHECK(report.kept == jobs.size());
    CHECK(report.records == report.kept + report.malformed + report.notGpuJobs + report.unfinished +
                                report.outsideWindow + report.otherVc + report.overMaxJobs);
    return jobs;
}

/** The TraceError reading the file raises, or fails the test. */
TraceError
ErrorOf(const std::string& path, const TraceReadOptions& options = TraceReadOptions())
{
    try
    {
        ReadTrace(path, options);
    }
    catch (const TraceError& e)
    {
        return e;
    }
    FAIL("no TraceError for " << path);
    return TraceError("", 0, "", "");
}

TraceReadOptions
PaiFormat()
{
    TraceReadOptions o;
    o.format = "alibaba-pai-2020-task";
    return o;
}

} // namespace

TEST_CASE("alibaba-spot-gpu-2026: GPUs per worker, HP/Spot, GPU model, run time",
          "[trace][alibaba-spot]")
{
    TraceReadReport report;
    auto jobs = Read(Fixture("alibaba-spot-small.csv"), TraceReadOptions(), report);
    CHECK(report.format == "alibaba-spot-gpu-2026");
    CHECK(report.records == 8);
    CHECK(report.notGpuJobs == 1); // gpu_request 0
    CHECK(report.unfinished == 2); // duration 0 and duration empty
    CHECK(report.malformed == 0);
    REQUIRE(jobs.size() == 5);

    CHECK(jobs[0].name == "239255");
    CHECK(jobs[0].user == "13"); // organization
    CHECK(jobs[0].vc == "A10");  // gpu_model
    CHECK(jobs[0].jobType == "HP");
    CHECK(jobs[0].numGpus == 1);
    CHECK(jobs[0].duration == 2764799);
    CHECK(jobs[0].submitTime == 0);
    CHECK(jobs[0].status.empty()); // the trace records none

    CHECK(jobs[1].name == "500001");
    CHECK(jobs[1].numGpus == 32);   // 8 per worker x 4 workers
    CHECK(jobs[1].jobType == "HP"); // "hp" in the file: the canonical spelling
    CHECK(jobs[1].vc == "H800");
    CHECK(jobs[1].submitTime == 120);

    CHECK(jobs[2].name == "500003");
    CHECK(jobs[2].numGpus == 1);
    CHECK(jobs[2].gpuFraction == 0.5);

    CHECK(jobs[3].name == "437261");
    CHECK(jobs[3].numGpus == 94); // 1 per worker x 94 workers (the README's own example)
    CHECK(jobs[3].jobType == "Spot");
    CHECK(jobs[3].vc == "A100-SXM4-80GB");
    CHECK(jobs[3].duration == 71718);
    CHECK(jobs[3].submitTime == 9589663);
    CHECK(jobs[3].gpuFraction == 1);

    CHECK(jobs[4].numGpus == 128); // 8 x 16
    CHECK(jobs[4].jobType == "Spot");
    CHECK(jobs[4].numNodes == 0); // workers are instances, not nodes

    // --vcs selects one GPU pool, as GFS's simulator partitions the cluster by gpu_model.
    TraceReadOptions a100;
    a100.vcs = {"A100-SXM4-80GB"};
    TraceReadReport pool;
    CHECK(Read(Fixture("alibaba-spot-small.csv"), a100, pool).size() == 2);
    CHECK(pool.otherVc == 3);

    CHECK(DetectTraceFormat(Fixture("alibaba-spot-small.csv")) == "alibaba-spot-gpu-2026");
}

TEST_CASE("alibaba-spot-gpu-2026: a malformed row names file, line, field and expectation",
          "[trace][alibaba-spot]")
{
    struct Case
    {
        const char* name;
        const char* row;
        const char* field;
        const char* expected;
    };

    const Case cases[] = {
        {"type.csv", "2,13,A10,20,1,1,5,100,Batch", "job_type", "HP or Spot"},
        {"type-empty.csv", "2,13,A10,20,1,1,5,100,", "job_type", "HP or Spot"},
        {"workers0.csv", "2,13,A10,20,1,0,5,100,HP", "worker_num", "a positive integer"},
        {"workers-text.csv", "2,13,A10,20,1,two,5,100,HP", "worker_num", "non-negative integer"},
        {"workers-neg.csv", "2,13,A10,20,1,-4,5,100,HP", "worker_num", "non-negative integer"},
        {"gpus-neg.csv", "2,13,A10,20,-1,1,5,100,HP", "gpu_request", "a number >= 0"},
        {"gpus-text.csv", "2,13,A10,20,eight,1,5,100,HP", "gpu_request", "a finite number"},
        {"gpus-frac.csv", "2,13,A10,20,1.5,2,5,100,HP", "gpu_request", "a whole number of GPUs"},
        {"gpus-share.csv", "2,13,A10,20,0.5,2,5,100,Spot", "gpu_request", "one-worker job"},
        {"gpus-huge.csv", "2,13,A10,20,1e300,1,5,100,HP", "gpu_request", "<= 4294967295"},
        {"gpus-overflow.csv", "2,13,A10,20,70000,70000,5,100,HP", "gpu_request", "4294967295"},
        {"submit-neg.csv", "2,13,A10,20,1,1,-5,100,HP", "submit_time", "a number >= 0"},
        {"submit-text.csv", "2,13,A10,20,1,1,yesterday,100,HP", "submit_time", "a finite number"},
        {"duration-neg.csv", "2,13,A10,20,1,1,5,-100,HP", "duration", "a number >= 0"},
        {"duration-nan.csv", "2,13,A10,20,1,1,5,NaN,HP", "duration", "a finite number"},
        {"duration-inf.csv", "2,13,A10,20,1,1,5,1e400,HP", "duration", "a finite number"},
        {"fields.csv", "2,13,A10,20,1,1,5", "(record)", "9 fields"},
    };
    for (const Case& c : cases)
    {
        INFO(c.name);
        TraceError e = ErrorOf(Write(c.name, std::string(kSpotHeader) + kSpotGood + c.row + "\n"));
        CHECK(e.Line() == 3);
        CHECK_THAT(e.what(), Contains(std::string(c.name) + ":3"));
        CHECK(e.Field() == c.field);
        CHECK_THAT(e.what(), Contains(c.expected));
    }

    // With SKIP every bad row is counted and the good one kept.
    std::string all = std::string(kSpotHeader) + kSpotGood;
    for (const Case& c : cases)
    {
        all += std::string(c.row) + "\n";
    }
    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = Read(Write("skip.csv", all), skip, report);
    CHECK(jobs.size() == 1);
    CHECK(report.malformed == sizeof(cases) / sizeof(cases[0]));
    REQUIRE(report.problems.size() == report.malformed);
    CHECK_THAT(report.problems[0], Contains("skip.csv:3") && Contains("job_type"));

    // A named format that does not match the file names its missing column.
    TraceReadOptions named;
    named.format = "alibaba-spot-gpu-2026";
    TraceError e = ErrorOf(Fixture("acme-small.csv"), named);
    CHECK(e.Line() == 1);
    CHECK_THAT(e.what(), Contains("'job_name'"));
}

TEST_CASE("alibaba-pai-2020-task: headerless tasks, plan_gpu percent, statuses",
          "[trace][alibaba-pai]")
{
    for (const char* file : {"pai-task-small.csv", "pai-task-header.csv"})
    {
        INFO(file);
        TraceReadReport report;
        auto jobs = Read(Fixture(file), PaiFormat(), report);
        CHECK(report.format == "alibaba-pai-2020-task");
        CHECK(report.records == 7);    // a header line is not a record
        CHECK(report.notGpuJobs == 1); // the ps task: empty plan_gpu
        CHECK(report.unfinished == 3); // Running, Waiting, Failed before launch
        CHECK(report.malformed == 0);
        REQUIRE(jobs.size() == 3);

        CHECK(jobs[0].name == "aa01");
        CHECK(jobs[0].numGpus == 8); // 100% x 8 instances
        CHECK(jobs[0].duration == 3600);
        CHECK(jobs[0].submitTime == 0); // task launch, shifted to the first
        CHECK(jobs[0].status == "Terminated");
        CHECK(jobs[0].vc == "V100");    // gpu_type
        CHECK(jobs[0].jobType.empty()); // task_name is a role, not a workload type

        CHECK(jobs[1].name == "bb02");
        CHECK(jobs[1].numGpus == 16);      // 800% x 2 instances
        CHECK(jobs[1].status == "Failed"); // it ran: kept, as acme-csv keeps FAILED
        CHECK(jobs[1].submitTime == 100);
        CHECK(jobs[1].duration == 300);

        CHECK(jobs[2].name == "4f057009a5d481acec67b088");
        CHECK(jobs[2].numGpus == 1);
        CHECK(jobs[2].gpuFraction == 0.5); // 50% of one GPU
        CHECK(jobs[2].duration == 38);
        CHECK(jobs[2].vc == "MISC");
    }

    // With the published header prepended the format is detected; without it, the error
    // says which --format to name.
    CHECK(DetectTraceFormat(Fixture("pai-task-header.csv")) == "alibaba-pai-2020-task");
    TraceError headerless = ErrorOf(Fixture("pai-task-small.csv"));
    CHECK(headerless.Line() == 1);
    CHECK(headerless.Field() == "format");
    CHECK_THAT(headerless.what(),
               Contains("pai-task-small.csv:1") && Contains("--format=alibaba-pai-2020-task"));
}

TEST_CASE("alibaba-pai-2020-task: a malformed row names file, line, field and expectation",
          "[trace][alibaba-pai]")
{
    struct Case
    {
        const char* name;
        const char* row;
        const char* field;
        const char* expected;
    };

    const Case cases[] = {
        {"name.csv", ",worker,1,Terminated,1,2,600,10,100,V100", "job_name", "a job name"},
        {"inst.csv", "j1,worker,two,Terminated,1,2,600,10,100,V100", "inst_num", "integer"},
        {"inst-frac.csv", "j1,worker,1.5,Terminated,1,2,600,10,100,V100", "inst_num", "integer"},
        {"status.csv", "j1,worker,1,Done,1,2,600,10,100,V100", "status", "Terminated, Failed"},
        {"start.csv", "j1,worker,1,Terminated,-1,2,600,10,100,V100", "start_time", ">= 0"},
        {"end.csv", "j1,worker,1,Terminated,5,2,600,10,100,V100", "end_time", ">= start_time"},
        {"gpu-neg.csv", "j1,worker,1,Terminated,1,2,600,10,-50,V100", "plan_gpu", ">= 0"},
        {"gpu-frac.csv", "j1,worker,1,Terminated,1,2,600,10,150,V100", "plan_gpu", "whole number"},
        {"gpu-share.csv", "j1,worker,4,Terminated,1,2,600,10,50,V100", "plan_gpu", "one-worker"},
        {"gpu-huge.csv", "j1,worker,4,Terminated,1,2,600,10,1e12,V100", "plan_gpu", "4294967295"},
        {"fields.csv", "j1,worker,1,Terminated,1,2,600,10,100", "(record)", "10 fields"},
    };
    for (const Case& c : cases)
    {
        INFO(c.name);
        TraceError e = ErrorOf(Write(c.name, std::string(kPaiGood) + c.row + "\n"), PaiFormat());
        CHECK(e.Line() == 2);
        CHECK_THAT(e.what(), Contains(std::string(c.name) + ":2"));
        CHECK(e.Field() == c.field);
        CHECK_THAT(e.what(), Contains(c.expected));
    }

    std::string all = kPaiGood;
    for (const Case& c : cases)
    {
        all += std::string(c.row) + "\n";
    }
    TraceReadOptions skip = PaiFormat();
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = Read(Write("skip.csv", all), skip, report);
    CHECK(jobs.size() == 1);
    CHECK(report.malformed == sizeof(cases) / sizeof(cases[0]));
}

TEST_CASE("alibaba readers: hostile bytes never crash, every record is counted",
          "[trace][alibaba-spot][alibaba-pai][hostile]")
{
    TraceReadOptions spotSkip;
    spotSkip.onError = TraceErrorPolicy::SKIP;
    TraceReadOptions paiSkip = PaiFormat();
    paiSkip.onError = TraceErrorPolicy::SKIP;

    // Truncated last line (no newline, cut mid-field), a NUL inside a field, huge and
    // negative numbers: each bad record is one counted problem, the good one is kept.
    const std::string nul("\0", 1);
    const std::string spot = std::string(kSpotHeader) + kSpotGood + "3,13,A1" + nul +
                             "0,20,1,1,5,100,HP\n" + "4,13,A10,20,1,1,5,-1e308,Spot\n" +
                             "5,13,A10,20,1,1,5,1e999,Spot\n" +
                             "6,13,A10,20,18446744073709551617,1,5,100,Spot\n" +
                             "7,13,A10,20,1,1,5,10" + nul + "0,HP\n" + "8,13,A10,20,1,1";
    TraceReadReport report;
    auto jobs = Read(Write("hostile-spot.csv", spot), spotSkip, report);
    CHECK(jobs.size() == 2); // the good row and the NUL in gpu_model (a name, kept as bytes)
    CHECK(report.malformed == 5);
    CHECK_THAT(report.problems.back(), Contains("hostile-spot.csv:8") && Contains("fields"));

    const std::string pai =
        std::string(kPaiGood) + "j" + nul + "1,worker,1" + nul +
        ",Terminated,1,2,600,10,100,V100\n" + "j2,worker,1,Terminated,100,-7,600,10,100,V100\n" +
        "j3,worker,99999999999,Terminated,1,2,600,10,100,V100\n" +
        "j4,worker,1,Terminated,1e999,2,600,10,100,V100\n" + "j5,worker,1,Termin";
    TraceReadReport paiReport;
    auto paiJobs = Read(Write("hostile-pai.csv", pai), paiSkip, paiReport);
    CHECK(paiJobs.size() == 1);
    CHECK(paiReport.malformed == 5);

    // A submit time beyond what the simulator's clock holds is an error naming it.
    TraceError late =
        ErrorOf(Write("late-spot.csv",
                      std::string(kSpotHeader) + kSpotGood + "2,13,A10,20,1,1,9.3e9,1,HP\n"));
    CHECK_THAT(late.what(), Contains("late-spot.csv:3") && Contains("submit"));

    // Pseudo-random bytes (NUL, quotes, separators, digits, CR/LF) after each format's first
    // line: a read either succeeds with every record counted or stops on a broken quote.
    const std::string alphabet = std::string("0123456789-.,\"\r\n eE+HPSpotTerminatd") + nul;
    uint64_t state = 2026;
    auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    };
    for (int round = 0; round < 40; ++round)
    {
        bool isPai = round % 2 == 1;
        std::string text = isPai ? kPaiGood : std::string(kSpotHeader);
        for (int c = 0; c < 400; ++c)
        {
            text += alphabet[next() % alphabet.size()];
        }
        std::string path = Write("garbage.csv", text);
        try
        {
            TraceReadReport r;
            Read(path, isPai ? paiSkip : spotSkip, r);
        }
        catch (const TraceError& e)
        {
            CHECK_THAT(e.what(), Contains("garbage.csv:") && Contains("quote"));
        }
    }
}

TEST_CASE("annotator: HP and Spot are priority classes, annotated by the model rule",
          "[trace][alibaba-spot][annotator]")
{
    // The acme job-type rule maps Pretrain/SFT/Evaluation/Debug; HP and Spot say nothing about
    // the workload, so a job annotates exactly as it would without a job type.
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, AnnotatorOptions());
    auto jobs = ReadTrace(Fixture("alibaba-spot-small.csv"));
    REQUIRE(jobs.size() == 5);
    for (const JobRecord& job : jobs)
    {
        INFO(job.name);
        JobRecord typed = job;
        JobRecord untyped = job;
        untyped.jobType.clear();
        annotator.Annotate(typed);
        annotator.Annotate(untyped);
        CHECK(typed.model == untyped.model);
        CHECK(typed.dataset == untyped.dataset);
        CHECK(typed.iterations == untyped.iterations);
        CHECK(typed.jobType == job.jobType); // carried, not rewritten
    }
}
