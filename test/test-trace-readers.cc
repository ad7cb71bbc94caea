/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Tests of the trace readers (model/trace/trace-reader.h): every format on small
// fixtures written for these tests (test/data/traces/), on the public traces in
// AICLUSTER_SHARED_TRACES when they are present, on malformed input, and the
// selection options (window, VC, load scale, job limit, error policy).

#include "temp-dir.h"
#include "trace-fixture.h"

#include "ns3/strict-parse.h"
#include "ns3/trace-reader.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ns3;
using Catch::Matchers::Contains;

namespace
{

std::string
Shared(const std::string& relative)
{
    return std::string(AICLUSTER_SHARED_TRACES) + "/" + relative;
}

/** A fresh path in a per-process temporary folder. */
std::string
TempPath(const std::string& name)
{
    static const std::string dir = TestTempDir("trace-test");
    return dir + "/" + name;
}

void
WriteText(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/** Reads with the options, checking that every record was counted exactly once. */
std::vector<JobRecord>
Read(const std::string& path, TraceReadOptions options, TraceReadReport& report)
{
    auto jobs = ReadTrace(path, options, &report);
    CHECK(report.kept == jobs.size());
    CHECK(report.records == report.kept + report.malformed + report.notGpuJobs + report.unfinished +
                                report.outsideWindow + report.otherVc + report.overMaxJobs);
    bool idsInOrder = true;
    bool sorted = true;
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        idsInOrder = idsInOrder && jobs[i].id == i;
        sorted = sorted && (i == 0 || jobs[i - 1].submitTime <= jobs[i].submitTime);
    }
    CHECK(idsInOrder);
    CHECK(sorted);
    return jobs;
}

std::vector<JobRecord>
Read(const std::string& path, TraceReadReport& report)
{
    return Read(path, TraceReadOptions(), report);
}

/** Runs fn, which must throw a TraceError; returns it. */
template <typename Fn>
TraceError
ErrorOf(Fn fn)
{
    try
    {
        fn();
    }
    catch (const TraceError& e)
    {
        return e;
    }
    FAIL("expected a TraceError");
    return TraceError("", 0, "", "");
}

std::map<uint32_t, uint64_t>
GpuHistogram(const std::vector<JobRecord>& jobs)
{
    std::map<uint32_t, uint64_t> h;
    for (const auto& j : jobs)
    {
        ++h[j.numGpus];
    }
    return h;
}

/** Every field the native format stores (not id's origin, source or iterations). */
void
CheckSameFields(const JobRecord& a, const JobRecord& b)
{
    CHECK(a.id == b.id);
    CHECK(a.name == b.name);
    CHECK(a.submitTime == b.submitTime);
    CHECK(a.numGpus == b.numGpus);
    CHECK(a.gpuFraction == b.gpuFraction);
    CHECK(a.duration == b.duration);
    CHECK(a.totalSteps == b.totalSteps);
    CHECK(a.globalBatch == b.globalBatch);
    CHECK(a.user == b.user);
    CHECK(a.vc == b.vc);
    CHECK(a.status == b.status);
    CHECK(a.model == b.model);
    CHECK(a.dataset == b.dataset);
    CHECK(a.jobType == b.jobType);
    CHECK(a.numNodes == b.numNodes);
}

bool
Present(const std::string& path)
{
    if (std::filesystem::exists(path))
    {
        return true;
    }
    WARN("not present, skipped: " << path);
    return false;
}

} // namespace

TEST_CASE("philly-csv: sorted, shifted to 0, fields mapped", "[trace]")
{
    TraceReadReport report;
    auto jobs = Read(Fixture("philly-small.csv"), report);
    CHECK(report.format == "philly-csv");
    CHECK(report.records == 6);
    CHECK(report.unfinished == 1); // empty duration
    REQUIRE(jobs.size() == 5);
    // Earliest timestamp 2017-10-09 06:00:00 is 0; the tie at 06:13:03 keeps file order.
    CHECK(jobs[0].submitTime == 0);
    CHECK(jobs[0].numGpus == 2);
    CHECK(jobs[0].duration == 10);
    CHECK(jobs[0].vc == "11cb48");
    CHECK_THAT(jobs[0].source.Text(), Contains("philly-small.csv:6"));
    CHECK(jobs[1].submitTime == 783);
    CHECK(jobs[1].duration == 2951);
    CHECK_THAT(jobs[1].source.Text(), Contains("philly-small.csv:3"));
    // One file name for all of a trace's records, not a string per record (issue #13).
    CHECK(&jobs[0].source.File() == &jobs[4].source.File());
    CHECK(jobs[1].source.Line() == 3);
    CHECK(jobs[2].submitTime == 783);
    CHECK(jobs[2].numGpus == 8);
    CHECK(jobs[3].submitTime == 3715);
    CHECK(jobs[4].submitTime == 86400 + 783);
    CHECK(jobs[4].vc == "b436b2");
    CHECK(jobs[4].duration == 3600);
    CHECK(jobs[4].name.empty());
    CHECK(jobs[4].model.empty());
    CHECK(jobs[4].totalSteps == JobRecord::UNKNOWN);
}

TEST_CASE("philly-csv: malformed rows stop or are skipped and counted", "[trace]")
{
    const std::string bad = Fixture("philly-bad.csv");
    TraceError e = ErrorOf([&] { ReadTrace(bad); });
    CHECK_THAT(e.what(), Contains("philly-bad.csv:3") && Contains("num_gpus") && Contains("abc"));
    CHECK(e.Line() == 3);
    CHECK(e.Field() == "num_gpus");
    CHECK(e.File() == bad);

    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = Read(bad, skip, report);
    CHECK(jobs.size() == 2);
    CHECK(report.malformed == 6);
    REQUIRE(report.problems.size() == 6);
    CHECK_THAT(report.problems[0], Contains("philly-bad.csv:3") && Contains("num_gpus"));
    CHECK_THAT(report.problems[1], Contains("philly-bad.csv:4") && Contains("duration"));
    CHECK_THAT(report.problems[2], Contains("philly-bad.csv:5") && Contains("duration"));
    CHECK_THAT(report.problems[3], Contains("philly-bad.csv:6") && Contains("timestamp"));
    CHECK_THAT(report.problems[4], Contains("philly-bad.csv:7") && Contains("5 fields"));
    CHECK_THAT(report.problems[5], Contains("philly-bad.csv:8") && Contains("num_gpus"));
}

TEST_CASE("CSV tokenizer: quotes, escaped quotes, CRLF, BOM, multi-line fields", "[trace]")
{
    const std::string path = Fixture("philly-quoted.csv");
    CHECK(DetectTraceFormat(path) == "philly-csv");
    TraceError e = ErrorOf([&] { ReadTrace(path); });
    CHECK_THAT(e.what(), Contains("philly-quoted.csv:5") && Contains("duration"));

    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = Read(path, skip, report);
    REQUIRE(jobs.size() == 3);
    CHECK(report.malformed == 1);
    CHECK(jobs[0].vc == "vc \"a\", east");
    CHECK(jobs[0].duration == 66);
    CHECK(jobs[1].vc == "multi\r\nline");
    CHECK(jobs[1].submitTime == 60);
    CHECK(jobs[2].vc == "c");
    CHECK_THAT(jobs[2].source.Text(), Contains("philly-quoted.csv:7"));

    const std::string broken = TempPath("unterminated.csv");
    WriteText(broken,
              "timestamp,duration,num_gpus,gpu_time,cluster\n"
              "2017-10-09 07:01:55,5,1,5,ok\n"
              "2017-10-09 07:01:55,5,1,5,\"open\n");
    TraceError q = ErrorOf([&] { ReadTrace(broken, skip); }); // fatal even with SKIP
    CHECK_THAT(q.what(), Contains("unterminated.csv:3") && Contains("closing double quote"));

    const std::string trailing = TempPath("trailing.csv");
    WriteText(trailing,
              "timestamp,duration,num_gpus,gpu_time,cluster\n"
              "2017-10-09 07:01:55,5,1,5,\"vc\"x\n");
    CHECK_THAT(ErrorOf([&] { ReadTrace(trailing); }).what(),
               Contains("trailing.csv:2") && Contains("after a closing quote"));
}

TEST_CASE("garbage input never crashes: every record is a job or a counted problem", "[trace]")
{
    // Deterministic pseudo-random lines over a CSV-ish alphabet (quotes, separators,
    // digits, date characters, CR/LF), behind each CSV format's header.
    const std::string alphabet = "0123456789-: ,\"\r\n.eE+abcNn";
    uint64_t state = 12345;
    auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint32_t>(state >> 33);
    };
    const std::vector<std::string> headers = {
        "timestamp,duration,num_gpus,gpu_time,cluster",
        "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
        "deletion_time,scheduled_time",
        "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,"
        "queue",
        "name,time,application,num_replicas,batch_size",
        "job_id,num_gpu,submit_time,iterations,model_name,duration,interval"};
    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    for (size_t h = 0; h < headers.size(); ++h)
    {
        for (int round = 0; round < 20; ++round)
        {
            std::string text = headers[h] + "\n";
            for (int c = 0; c < 400; ++c)
            {
                text += alphabet[next() % alphabet.size()];
            }
            const std::string path = TempPath("garbage.csv");
            WriteText(path, text);
            try
            {
                TraceReadReport report;
                Read(path, skip, report);
            }
            catch (const TraceError& e)
            {
                // Only a broken quote may stop a SKIP read, and it names the file and line.
                CHECK_THAT(e.what(), Contains("garbage.csv:") && Contains("quote"));
            }
        }
    }
}

TEST_CASE("date-times: separators, fractions, UTC offsets, calendar checks", "[trace]")
{
    const std::string path = TempPath("times.csv");
    WriteText(path,
              "job_id,gpu_num,submit_time,start_time,end_time,duration\n"
              "a,1,2020-01-01 00:00:00,,,10\n"
              "b,1,2020-01-01T00:00:01.5Z,,,10\n"
              "c,1,2020-01-01 01:00:02+01:00,,,10\n"
              "d,1,2019-12-31 23:00:03-01:00,,,10\n"
              "e,1,2020-02-29 00:00:00,,,10\n"
              "f,1,2019-02-29 00:00:00,,,10\n"
              "g,1,2020-01-01 00:00,,,10\n");
    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = Read(path, skip, report);
    REQUIRE(jobs.size() == 5);
    CHECK(jobs[1].submitTime == 1.5);
    CHECK(jobs[2].submitTime == 2);
    CHECK(jobs[3].submitTime == 3);
    CHECK(jobs[4].submitTime == 59 * 86400); // 2020 is a leap year
    REQUIRE(report.problems.size() == 2);
    CHECK_THAT(report.problems[0], Contains("times.csv:7") && Contains("submit_time"));
    CHECK_THAT(report.problems[1], Contains("times.csv:8") && Contains("submit_time"));
}

TEST_CASE("philly-json: attempts, GPUs, unfinished and GPU-less jobs", "[trace]")
{
    TraceReadReport report;
    auto jobs = Read(Fixture("philly-jobs.json"), report);
    CHECK(report.format == "philly-json");
    CHECK(report.records == 6);
    CHECK(report.unfinished == 2); // no attempt; still running
    CHECK(report.notGpuJobs == 1); // empty detail
    REQUIRE(jobs.size() == 3);
    // application_5: first attempt lacks start_time (not counted), second ran 600 s.
    CHECK(jobs[0].name == "application_5");
    CHECK(jobs[0].submitTime == 0);
    CHECK(jobs[0].duration == 600);
    CHECK(jobs[0].numGpus == 1);
    CHECK(jobs[0].user == "d4e5f6");
    CHECK(jobs[0].vc == "b436b2");
    CHECK_THAT(jobs[0].source.Text(), Contains("philly-jobs.json:22"));
    // The README's example job: 74 s + 193,182 s over two attempts on 8 GPUs.
    CHECK(jobs[1].name == "application_1506638472019_14199");
    CHECK(jobs[1].submitTime == 699);
    CHECK(jobs[1].duration == 193256);
    CHECK(jobs[1].numGpus == 8);
    CHECK(jobs[1].status == "Pass");
    CHECK_THAT(jobs[1].source.Text(), Contains("philly-jobs.json:2"));
    // Multi-line job: two machines of 8 GPUs; its line is where its object opens.
    CHECK(jobs[2].name == "application_3");
    CHECK(jobs[2].numGpus == 16);
    CHECK(jobs[2].duration == 3600);
    CHECK(jobs[2].submitTime == 1800);
    CHECK(jobs[2].status == "Failed");
    CHECK_THAT(jobs[2].source.Text(), Contains("philly-jobs.json:4"));
}

TEST_CASE("philly-json: malformed jobs and broken JSON", "[trace]")
{
    const std::string bad = Fixture("philly-bad.json");
    TraceError e = ErrorOf([&] { ReadTrace(bad); });
    CHECK_THAT(e.what(), Contains("philly-bad.json:3") && Contains("submitted_time"));

    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport report;
    auto jobs = Read(bad, skip, report);
    CHECK(jobs.size() == 1);
    CHECK(report.malformed == 3);
    REQUIRE(report.problems.size() == 3);
    CHECK_THAT(report.problems[1],
               Contains("philly-bad.json:4") && Contains("attempts[0].end_time"));
    CHECK_THAT(report.problems[2], Contains("philly-bad.json:6") && Contains("JSON object"));

    TraceError syntax = ErrorOf([&] { ReadTrace(Fixture("philly-broken.json"), skip); });
    CHECK_THAT(syntax.what(), Contains("philly-broken.json:3") && Contains("valid JSON"));

    const std::string object = TempPath("object.json");
    WriteText(object, "{\"jobs\": []}\n");
    CHECK_THAT(ErrorOf([&] { ReadTrace(object); }).what(), Contains("JSON array"));
}

TEST_CASE("alibaba-gpu-2023: sharing pods, CPU pods, pending pods", "[trace]")
{
    TraceReadReport report;
    auto jobs = Read(Fixture("alibaba-small.csv"), report);
    CHECK(report.format == "alibaba-gpu-2023");
    CHECK(report.records == 5);
    CHECK(report.notGpuJobs == 1);
    CHECK(report.unfinished == 1);
    REQUIRE(jobs.size() == 3);
    CHECK(jobs[0].name == "openb-pod-0000");
    CHECK(jobs[0].gpuFraction == 1.0);
    CHECK(jobs[0].duration == 12537496);
    CHECK(jobs[0].status == "Running");
    CHECK(jobs[1].numGpus == 1);
    CHECK(jobs[1].gpuFraction == Approx(0.46));
    CHECK(jobs[1].submitTime == 427061);
    CHECK(jobs[1].duration == 12902960 - 427061);
    CHECK(jobs[2].numGpus == 8);
    CHECK(jobs[2].duration == 99900); // deletion - scheduled, not - creation
    CHECK(jobs[2].status == "Succeeded");

    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    TraceReadReport bad;
    auto kept = Read(Fixture("alibaba-bad.csv"), skip, bad);
    CHECK(kept.size() == 1);
    REQUIRE(bad.problems.size() == 3);
    CHECK_THAT(bad.problems[0], Contains("alibaba-bad.csv:2") && Contains("gpu_milli"));
    CHECK_THAT(bad.problems[1], Contains("alibaba-bad.csv:3") && Contains("deletion_time"));
    CHECK_THAT(bad.problems[2], Contains("alibaba-bad.csv:4") && Contains("gpu_milli"));

    // The upstream multigpu list has no phase or time columns: it cannot be a trace.
    TraceError e = ErrorOf([&] { ReadTrace(Fixture("alibaba-nocols.csv"), skip); });
    CHECK_THAT(e.what(), Contains("alibaba-nocols.csv:1") && Contains("'pod_phase'"));
    CHECK(e.Field() == "pod_phase");
}

TEST_CASE("helios-csv: Helios and Acme logs, date-times with offsets, numeric times", "[trace]")
{
    TraceReadReport report;
    auto jobs = Read(Fixture("helios-small.csv"), report);
    CHECK(report.format == "helios-csv");
    CHECK(report.records == 5);
    CHECK(report.notGpuJobs == 1);
    CHECK(report.unfinished == 1);
    REQUIRE(jobs.size() == 3);
    CHECK(jobs[0].name == "1425511");
    CHECK(jobs[0].user == "uXBbc");
    CHECK(jobs[0].vc == "vcJkd");
    CHECK(jobs[0].status == "COMPLETED");
    CHECK(jobs[0].duration == 36848);
    CHECK(jobs[1].submitTime == 26);
    CHECK(jobs[1].numGpus == 4);
    CHECK(jobs[2].submitTime == 539);
    CHECK(jobs[2].duration == 3600); // no duration column value: end - start

    TraceReadReport acme;
    auto ajobs = Read(Fixture("acme-small.csv"), acme);
    CHECK(acme.format == "acme-csv");
    CHECK(acme.notGpuJobs == 1);
    REQUIRE(ajobs.size() == 3);
    CHECK(ajobs[0].name == "5778432");
    CHECK(ajobs[0].vc.empty());
    CHECK(ajobs[0].numGpus == 8);
    CHECK(ajobs[0].duration == 117);
    // 2023-02-28 16:20:00+00:00 is 00:20:00+08:00, 98 s after 00:18:22+08:00.
    CHECK(ajobs[1].name == "5778470");
    CHECK(ajobs[1].submitTime == 98);
    CHECK(ajobs[2].submitTime == 336);

    TraceReadReport numeric;
    auto njobs = Read(Fixture("helios-numeric.csv"), numeric);
    REQUIRE(njobs.size() == 2);
    CHECK(njobs[0].duration == 100);
    CHECK(njobs[1].submitTime == 500.5);
    CHECK(njobs[1].duration == 99.5);
}

TEST_CASE("sia-workload, gavel and tiresias-csv fixtures", "[trace]")
{
    TraceReadReport sia;
    auto s = Read(Fixture("sia-small.csv"), sia);
    CHECK(sia.format == "sia-workload");
    REQUIRE(s.size() == 3);
    CHECK(s[0].name == "bert-2");
    CHECK(s[0].model == "bert");
    CHECK(s[0].globalBatch == 12);
    CHECK(s[0].duration == JobRecord::UNKNOWN);
    CHECK(s[1].submitTime == 57);
    CHECK(s[1].numGpus == 6);
    CHECK(s[2].model == "deepspeech2");

    TraceReadReport gavel;
    auto g = Read(Fixture("gavel-small.trace"), gavel);
    CHECK(gavel.format == "gavel");
    REQUIRE(g.size() == 3);
    CHECK(g[0].model == "Transformer (batch size 128)");
    CHECK(g[0].totalSteps == 95121);
    CHECK(g[0].numGpus == 1);
    CHECK(g[1].submitTime == 3.5);
    CHECK(g[1].numGpus == 2);
    CHECK(g[2].model == "Recommendation (batch size 8192)");
    CHECK(g[2].numGpus == 4);
    CHECK(g[2].duration == JobRecord::UNKNOWN);

    TraceReadOptions gavelFormat;
    gavelFormat.format = "gavel";
    TraceError e = ErrorOf([&] { ReadTrace(Fixture("gavel-bad.trace"), gavelFormat); });
    CHECK_THAT(e.what(), Contains("gavel-bad.trace:2") && Contains("7 tab-separated fields"));
    gavelFormat.onError = TraceErrorPolicy::SKIP;
    TraceReadReport gbad;
    auto gk = Read(Fixture("gavel-bad.trace"), gavelFormat, gbad);
    CHECK(gk.size() == 1);
    REQUIRE(gbad.problems.size() == 2);
    CHECK_THAT(gbad.problems[1], Contains("gavel-bad.trace:3") && Contains("total_steps"));

    TraceReadReport tiresias;
    auto t = Read(Fixture("tiresias-small.csv"), tiresias);
    CHECK(tiresias.format == "tiresias-csv");
    REQUIRE(t.size() == 3);
    CHECK(t[1].name == "1");
    CHECK(t[1].numGpus == 8);
    CHECK(t[1].submitTime == 30);
    CHECK(t[1].totalSteps == 133);
    CHECK(t[1].model == "vgg11");
    CHECK(t[1].duration == 147);
}

TEST_CASE("selection: VC filter, window, load scale, job limit", "[trace]")
{
    const std::string path = Fixture("philly-small.csv");
    TraceReadOptions vc;
    vc.vcs = {"6214e9"};
    TraceReadReport r1;
    auto v = Read(path, vc, r1);
    CHECK(v.size() == 2);
    CHECK(r1.otherVc == 3);
    CHECK(r1.unfinished == 1);
    CHECK(v[0].submitTime == 783); // the origin is the whole file's first job, not the VC's

    TraceReadOptions window;
    window.windowStart = 783;
    window.windowEnd = 3715; // [start, end): the job at 3715 is out
    TraceReadReport r2;
    auto w = Read(path, window, r2);
    CHECK(w.size() == 2);
    CHECK(r2.outsideWindow == 3);

    window.windowEnd = 4000;
    window.loadScale = 2;
    TraceReadReport r3;
    auto s = Read(path, window, r3);
    REQUIRE(s.size() == 3);
    CHECK(s[0].submitTime == 783);
    CHECK(s[2].submitTime == 783 + (3715 - 783) / 2.0);

    TraceReadOptions limit;
    limit.maxJobs = 2;
    TraceReadReport r4;
    auto l = Read(path, limit, r4);
    REQUIRE(l.size() == 2);
    CHECK(r4.overMaxJobs == 3);
    CHECK(l[1].submitTime == 783); // the first jobs by submit time

    TraceReadOptions badScale;
    badScale.loadScale = 0;
    CHECK_THAT(ErrorOf([&] { ReadTrace(path, badScale); }).what(), Contains("loadScale"));
    TraceReadOptions badWindow;
    badWindow.windowStart = 10;
    badWindow.windowEnd = 5;
    CHECK_THAT(ErrorOf([&] { ReadTrace(path, badWindow); }).what(), Contains("window"));
}

TEST_CASE("format detection, unknown names, missing and empty files", "[trace]")
{
    CHECK(DetectTraceFormat(Fixture("philly-small.csv")) == "philly-csv");
    CHECK(DetectTraceFormat(Fixture("philly-jobs.json")) == "philly-json");
    CHECK(DetectTraceFormat(Fixture("alibaba-small.csv")) == "alibaba-gpu-2023");
    CHECK(DetectTraceFormat(Fixture("helios-small.csv")) == "helios-csv");
    CHECK(DetectTraceFormat(Fixture("acme-small.csv")) == "acme-csv");
    CHECK(DetectTraceFormat(Fixture("sia-small.csv")) == "sia-workload");
    CHECK(DetectTraceFormat(Fixture("gavel-small.trace")) == "gavel");
    CHECK(DetectTraceFormat(Fixture("tiresias-small.csv")) == "tiresias-csv");
    CHECK(DetectTraceFormat(Fixture("native-bad.csv")) == "aicluster");
    auto formats = TraceFormats();
    CHECK(formats.size() == 11);
    CHECK(std::set<std::string>(formats.begin(), formats.end()).count("philly-json") == 1);

    TraceError unknown = ErrorOf([] { DetectTraceFormat(Fixture("unknown-header.csv")); });
    CHECK_THAT(unknown.what(), Contains("unknown-header.csv:1") && Contains("foo,bar,baz"));

    TraceError missing = ErrorOf([] { ReadTrace(Fixture("no-such-trace.csv")); });
    CHECK(missing.Line() == 0);
    CHECK_THAT(missing.what(), Contains("no-such-trace.csv") && Contains("cannot be opened"));
    CHECK_THROWS_AS(DetectTraceFormat(Fixture("no-such-trace.csv")), TraceError);

    const std::string empty = TempPath("empty.csv");
    WriteText(empty, "");
    CHECK_THAT(ErrorOf([&] { ReadTrace(empty); }).what(), Contains("empty"));

    TraceReadOptions named;
    named.format = "philly";
    TraceError badName = ErrorOf([&] { ReadTrace(Fixture("philly-small.csv"), named); });
    CHECK(badName.Field() == "format");
    CHECK_THAT(badName.what(), Contains("philly-csv"));

    // A named format that does not match the file: its missing column is named.
    named.format = "sia-workload";
    CHECK_THAT(ErrorOf([&] { ReadTrace(Fixture("philly-small.csv"), named); }).what(),
               Contains("philly-small.csv:1") && Contains("'name'"));
}

TEST_CASE("aicluster native format: round trip field for field", "[trace]")
{
    std::vector<JobRecord> jobs(4);
    jobs[0].name = "job,1 \"quoted\"";
    jobs[0].submitTime = 0;
    jobs[0].numGpus = 1;
    jobs[0].gpuFraction = 0.46;
    jobs[0].duration = 0.1;
    jobs[0].user = "u1";
    jobs[0].vc = " vc a ";
    jobs[0].status = "Pass";
    jobs[0].model = "resnet50";
    jobs[0].dataset = "imagenet";
    jobs[0].totalSteps = 1e7 + 0.5;
    jobs[0].globalBatch = 256;
    jobs[0].jobType = "Pretrain, \"v2\"";
    jobs[0].numNodes = 1;
    jobs[1].name = "#not-a-comment";
    jobs[1].submitTime = 1.0 / 3.0;
    jobs[1].numGpus = 8;
    jobs[1].status = "line\nbreak";
    jobs[2].submitTime = 1.0 / 3.0;
    jobs[2].numGpus = 64;
    jobs[2].duration = 123456789.123456;
    jobs[2].jobType = "SFT";
    jobs[2].numNodes = 8;
    jobs[3].name = "last";
    jobs[3].submitTime = 1e6 + 1e-6;
    jobs[3].numGpus = 2;
    jobs[3].duration = 0;
    jobs[3].totalSteps = 0;
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        jobs[i].id = i;
    }
    const std::string path = TempPath("roundtrip.csv");
    WriteNativeTrace(path, jobs);
    CHECK(DetectTraceFormat(path) == "aicluster");
    TraceReadReport report;
    auto back = Read(path, report);
    CHECK(report.format == "aicluster");
    REQUIRE(back.size() == jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        CheckSameFields(jobs[i], back[i]);
    }

    // A converted trace reads back identically, window times included (no shift).
    TraceReadOptions window;
    window.windowStart = 700;
    auto philly = ReadTrace(Fixture("philly-small.csv"), window);
    const std::string converted = TempPath("converted.csv");
    WriteNativeTrace(converted, philly);
    auto again = ReadTrace(converted);
    REQUIRE(again.size() == philly.size());
    for (size_t i = 0; i < philly.size(); ++i)
    {
        CheckSameFields(philly[i], again[i]);
    }
    CHECK(again[0].submitTime == 783);

    // Acme's job type and node count survive a conversion (placement and the annotator read them).
    auto acme = ReadTrace(Fixture("acme-llm.csv"));
    const std::string acmeNative = TempPath("acme-native.csv");
    WriteNativeTrace(acmeNative, acme);
    auto acmeBack = ReadTrace(acmeNative);
    REQUIRE(acmeBack.size() == acme.size());
    for (size_t i = 0; i < acme.size(); ++i)
    {
        CheckSameFields(acme[i], acmeBack[i]);
    }
    CHECK(acmeBack[0].jobType == "Pretrain");
    CHECK(acmeBack[0].numNodes == 64);
}

TEST_CASE("aicluster native format: a file without job_type and num_nodes still reads", "[trace]")
{
    // Files written before the two columns existed (the bundled sample is one).
    const std::string path = TempPath("native-old.csv");
    std::ofstream(path) << "# aicluster-trace v1\n"
                           "job_id,submit_time_s,num_gpus,duration_s,user,vc,model,dataset,"
                           "total_steps,global_batch,gpu_fraction,status\n"
                           "a,0,16,100,u,vc,,,,,1,Pass\n";
    auto jobs = ReadTrace(path);
    REQUIRE(jobs.size() == 1);
    CHECK(jobs[0].jobType.empty());
    CHECK(jobs[0].numNodes == 0);
    CHECK(jobs[0].numGpus == 16);
}

TEST_CASE("aicluster native format: a bad num_nodes names the line and the field", "[trace]")
{
    const std::string header = "# aicluster-trace v1\n"
                               "job_id,submit_time_s,num_gpus,duration_s,user,vc,model,dataset,"
                               "total_steps,global_batch,gpu_fraction,status,job_type,num_nodes\n"
                               "ok,0,16,100,u,vc,,,,,1,Pass,SFT,2\n";
    for (const std::string bad : {"0", "17", "x", "-1", "1.5"})
    {
        INFO(bad);
        const std::string path = TempPath("native-nodes.csv");
        std::ofstream(path) << header << "b,1,16,100,u,vc,,,,,1,Pass,SFT," << bad << "\n";
        TraceError e = ErrorOf([&] { ReadTrace(path); });
        CHECK(e.Line() == 4);
        CHECK(e.Field() == "num_nodes");
        if (bad == "0" || bad == "17")
        {
            CHECK_THAT(e.what(), Contains("1..16 (num_gpus)"));
        }
    }
}

TEST_CASE("aicluster native format: malformed input", "[trace]")
{
    TraceError e = ErrorOf([] { ReadTrace(Fixture("native-bad.csv")); });
    CHECK_THAT(e.what(), Contains("native-bad.csv:5") && Contains("gpu_fraction"));
    TraceError v = ErrorOf([] { ReadTrace(Fixture("native-v2.csv")); });
    CHECK(v.Line() == 1);
    CHECK(v.Field() == "version");
    CHECK_THROWS_AS(WriteNativeTrace("/nonexistent-dir/x.csv", {}), TraceError);
}

TEST_CASE("bundled sample trace reads cleanly", "[trace]")
{
    const std::string path = std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv";
    TraceReadReport report;
    auto jobs = Read(path, report);
    CHECK(report.format == "aicluster");
    CHECK(report.records == 1500);
    CHECK(jobs.size() == 1500);
    CHECK(jobs.front().submitTime == 0);
    std::set<uint32_t> allowed = {1, 2, 4, 8, 16, 32, 64};
    for (const auto& j : jobs)
    {
        CHECK(allowed.count(j.numGpus) == 1);
        CHECK(j.duration > 0);
        CHECK(j.model.empty());
        CHECK(j.dataset.empty());
    }
    CHECK(GpuHistogram(jobs)[1] > 1300); // Philly's share of one-GPU jobs is 93%
}

// ---- The public traces (only when ../shared/traces is present) -------------------------

TEST_CASE("public Philly job table: 82,247 jobs and its GPU histogram", "[trace][public]")
{
    const std::string path = Shared("philly/philly.csv");
    if (!Present(path))
    {
        return;
    }
    TraceReadReport report;
    auto jobs = Read(path, report);
    CHECK(report.records == 82247);
    CHECK(report.malformed == 0);
    REQUIRE(jobs.size() == 82247);
    std::map<uint32_t, uint64_t> expected = {{1, 76627},
                                             {2, 1818},
                                             {4, 1870},
                                             {8, 1643},
                                             {12, 7},
                                             {16, 199},
                                             {24, 7},
                                             {32, 67},
                                             {64, 6},
                                             {128, 3}};
    CHECK(GpuHistogram(jobs) == expected);
    CHECK(jobs.front().submitTime == 0);
    // 2017-09-04 10:30:41 .. 2017-12-22 08:02:11
    CHECK(jobs.back().submitTime == 9408690);
    double total = 0;
    std::set<std::string> vcs;
    for (const auto& j : jobs)
    {
        total += j.duration;
        vcs.insert(j.vc);
    }
    CHECK(total == 1080390950.0);
    CHECK(vcs.size() == 15);

    TraceReadOptions one;
    one.vcs = {"6214e9"};
    one.loadScale = 2;
    TraceReadReport r2;
    auto v = Read(path, one, r2);
    CHECK(v.size() == 41226);
    CHECK(r2.otherVc == 82247 - 41226);

    TraceReadOptions scaled;
    scaled.loadScale = 2;
    scaled.maxJobs = 1000;
    TraceReadReport r3;
    auto s = Read(path, scaled, r3);
    CHECK(s.size() == 1000);
    CHECK(r3.overMaxJobs == 81247);
}

TEST_CASE("public Alibaba GPU 2023 default pod list", "[trace][public]")
{
    const std::string path = Shared("alibaba-gpu-v2023/openb_pod_list_default.csv");
    if (!Present(path))
    {
        return;
    }
    TraceReadReport report;
    auto jobs = Read(path, report);
    CHECK(report.records == 8152);
    CHECK(report.notGpuJobs == 1088);
    CHECK(report.unfinished == 861); // GPU pods never scheduled (Pending)
    CHECK(jobs.size() == 6203);
    uint64_t sharing = 0;
    uint64_t gpus = 0;
    for (const auto& j : jobs)
    {
        sharing += j.gpuFraction < 1.0;
        gpus += j.numGpus;
    }
    CHECK(sharing == 2573);
    CHECK(gpus == 6571);
}

TEST_CASE("public Gavel msr seed-0 traces", "[trace][public]")
{
    const std::string dir = Shared("gavel/msr_seed0");
    if (!Present(dir))
    {
        return;
    }
    std::map<uint32_t, uint64_t> histogram;
    uint64_t total = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        CHECK(DetectTraceFormat(entry.path().string()) == "gavel");
        TraceReadReport report;
        auto jobs = Read(entry.path().string(), report);
        CHECK(report.malformed == 0);
        total += jobs.size();
        for (const auto& [g, n] : GpuHistogram(jobs))
        {
            histogram[g] += n;
        }
        if (entry.path().filename() == "6214e9.trace")
        {
            CHECK(jobs.size() == 2000);
            CHECK(jobs.back().submitTime == 4184082);
        }
    }
    CHECK(total == 15264);
    std::map<uint32_t, uint64_t> expected = {{1, 10480},
                                             {2, 463},
                                             {4, 2044},
                                             {7, 2},
                                             {8, 1916},
                                             {12, 6},
                                             {16, 255},
                                             {20, 1},
                                             {24, 5},
                                             {32, 91},
                                             {64, 1}};
    CHECK(histogram == expected);
}

TEST_CASE("public Sia/Pollux workloads and Tiresias example", "[trace][public]")
{
    const std::string dir = Shared("sia-pollux-workloads/workloads");
    if (!Present(dir))
    {
        return;
    }
    uint64_t total = 0;
    uint64_t files = 0;
    std::set<std::string> models;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    {
        if (entry.path().extension() != ".csv")
        {
            continue;
        }
        TraceReadReport report;
        auto jobs = Read(entry.path().string(), report);
        CHECK(report.format == "sia-workload");
        CHECK(report.malformed == 0);
        ++files;
        total += jobs.size();
        for (const auto& j : jobs)
        {
            models.insert(j.model);
            CHECK(j.globalBatch > 0);
        }
    }
    CHECK(files == 28);
    CHECK(total == 8 * 160 + 10 * 160 + 10 * 960);
    CHECK(models == std::set<std::string>{"bert", "cifar10", "deepspeech2", "imagenet", "yolov3"});

    const std::string tiresias = Shared("tiresias/60_job.csv");
    if (!Present(tiresias))
    {
        return;
    }
    TraceReadReport report;
    auto jobs = Read(tiresias, report);
    CHECK(jobs.size() == 60);
    std::map<uint32_t, uint64_t> expected = {{1, 30}, {2, 10}, {4, 10}, {8, 10}};
    CHECK(GpuHistogram(jobs) == expected);
    double total60 = 0;
    for (const auto& j : jobs)
    {
        total60 += j.duration;
    }
    CHECK(total60 == 10705);
    CHECK(jobs.back().submitTime == 1779);
}

TEST_CASE("a text file reads back byte for byte, across read blocks and from a pipe", "[trace]")
{
    // ReadTextFile fills one string block by block (issue #13): a size that is no multiple of
    // the block, every byte value but none (NUL included), and a pipe, which has no size.
    std::string text;
    for (size_t i = 0; i < 200000 + 17; ++i)
    {
        text.push_back(static_cast<char>((i * 131 + i / 7) % 256));
    }
    std::string path = TempPath("blocks.bin");
    WriteText(path, text);
    CHECK(strict::ReadTextFile(path, "test file") == text);
    WriteText(path, "");
    CHECK(strict::ReadTextFile(path, "test file").empty());

    std::string fifo = TempPath("pipe");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::thread writer([&fifo, &text]() { WriteText(fifo, text); });
    std::string piped = strict::ReadTextFile(fifo, "test file");
    writer.join();
    CHECK(piped == text);
}
