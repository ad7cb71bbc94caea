/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Hostile inputs (issue #18), one class each: strict numbers and options, attribute values
// checked before ns-3 would abort, checked writes, JSON depth, and reader strictness.
// The random counterpart is test-fuzz.cc.

#include "temp-dir.h"

#include "ns3/cluster-scenario.h"
#include "ns3/strict-options.h"
#include "ns3/strict-parse.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;
using Catch::Matchers::Contains;

namespace
{

std::string
Fixture(const std::string& name)
{
    return std::string(AICLUSTER_TEST_DATA) + "/" + name;
}

std::string
TempPath(const std::string& name)
{
    static const std::string dir = TestTempDir("hostile");
    return dir + "/" + name;
}

std::string
WriteText(const std::string& name, const std::string& text)
{
    std::string path = TempPath(name);
    std::ofstream out(path, std::ios::binary);
    out << text;
    return path;
}

/** The message of the TraceError f throws; fails the test if it throws nothing or another. */
template <typename F>
std::string
TraceErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const TraceError& e)
    {
        return e.what();
    }
    FAIL("expected a TraceError");
    return "";
}

/** Parses args with a StrictCommandLine holding a few typical options. */
struct Options
{
    uint32_t nodes{16};
    uint64_t maxJobs{0};
    double scale{1};
    bool quiet{false};
    std::string list{"a,b"};

    void Parse(std::vector<std::string> args)
    {
        args.insert(args.begin(), "prog");
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        StrictCommandLine cmd;
        cmd.AddValue("nodes", "nodes", nodes, 1, 1000000);
        cmd.AddValue("max-jobs", "jobs", maxJobs);
        cmd.AddValue("load-scale", "factor", scale, 1e-6, 1e6);
        cmd.AddValue("quiet", "quiet", quiet);
        cmd.AddValue("list", "items", list);
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
    }
};

std::string
UsageErrorOf(const std::vector<std::string>& args)
{
    Options o;
    try
    {
        o.Parse(args);
    }
    catch (const UsageError& e)
    {
        return e.what();
    }
    FAIL("expected a UsageError for " << args.front());
    return "";
}

} // namespace

TEST_CASE("strict numbers: the whole token, decimal, in range", "[hostile]")
{
    int64_t i;
    uint64_t u;
    double d;
    for (const char* bad : {"1e3", "16abc", "2.5", "0x10", "2x", "", " 1", "1 ", "--1", "+"})
    {
        INFO(bad);
        CHECK_FALSE(strict::ParseInt64(bad, i));
        CHECK_FALSE(strict::ParseUint64(bad, u));
    }
    CHECK_FALSE(strict::ParseUint64("-1", u));
    CHECK_FALSE(strict::ParseUint64("18446744073709551616", u));
    CHECK_FALSE(strict::ParseInt64("9223372036854775808", i));
    CHECK(strict::ParseInt64("-42", i));
    CHECK(i == -42);
    CHECK(strict::ParseUint64("+7", u));
    CHECK(u == 7);
    for (const char* bad : {"0x10", "inf", "nan", "1e309", "2x", "", "1.5.", "e", "-"})
    {
        INFO(bad);
        CHECK_FALSE(strict::ParseDouble(bad, d));
    }
    CHECK(strict::ParseDouble("2.5e3", d));
    CHECK(d == 2500);
}

TEST_CASE("strict options: bad values name the option and the range", "[hostile]")
{
    CHECK_THAT(UsageErrorOf({"--nodes=1e3"}), Contains("--nodes") && Contains("[1, 1000000]"));
    CHECK_THAT(UsageErrorOf({"--nodes=16abc"}), Contains("'16abc'"));
    CHECK_THAT(UsageErrorOf({"--nodes=2.5"}), Contains("--nodes"));
    CHECK_THAT(UsageErrorOf({"--nodes=0"}), Contains("--nodes"));
    CHECK_THAT(UsageErrorOf({"--max-jobs=-1"}), Contains("--max-jobs"));
    CHECK_THAT(UsageErrorOf({"--load-scale=2x"}), Contains("--load-scale"));
    CHECK_THAT(UsageErrorOf({"--load-scale=nan"}), Contains("--load-scale"));
    CHECK_THAT(UsageErrorOf({"--quiet=maybe"}), Contains("--quiet"));
    // --quiet alone means true; --quiet= names no value, which ns-3 would read as true
    CHECK_THAT(UsageErrorOf({"--quiet="}), Contains("--quiet") && Contains("true or false"));
    CHECK_THAT(UsageErrorOf({"--bogus=1"}), Contains("unknown option --bogus"));
    CHECK_THAT(UsageErrorOf({"stray"}), Contains("'stray'"));
    CHECK_THAT(UsageErrorOf({"--ns3::TiresiasPolicy::Thresholds=abc"}),
               Contains("Thresholds") && Contains("abc"));
    CHECK_THAT(UsageErrorOf({"--ns3::TiresiasPolicy::Nope=1"}), Contains("no attribute"));
    CHECK_THAT(UsageErrorOf({"--ns3::NoSuchType::X=1"}), Contains("no ns-3 type"));
    CHECK_THAT(UsageErrorOf({"--ns3::ClusterEngine::ProgressInterval=2x"}),
               Contains("ProgressInterval"));
    CHECK_THAT(UsageErrorOf({"--RngSeed=-1"}), Contains("--RngSeed"));
    CHECK_THAT(UsageErrorOf({"--PrintAttributes=ns3::Nope"}), Contains("PrintAttributes"));

    Options o;
    o.Parse({"--nodes=64",
             "--max-jobs=+5",
             "--load-scale=2.5e0",
             "--quiet",
             "--list=x",
             "--ns3::TiresiasPolicy::Thresholds=3600,36000",
             "--RngRun=3"});
    CHECK(o.nodes == 64);
    CHECK(o.maxJobs == 5);
    CHECK(o.scale == 2.5);
    CHECK(o.quiet);
    CHECK(o.list == "x");
}

TEST_CASE("strict lists and choices", "[hostile]")
{
    CHECK_THROWS_AS(strictopt::List("--workloads", ","), UsageError);
    CHECK_THROWS_AS(strictopt::List("--workloads", ""), UsageError);
    CHECK_THROWS_AS(strictopt::List("--workloads", "a,,b"), UsageError);
    CHECK(strictopt::List("--vc", "", true).empty());
    CHECK(strictopt::List("--w", "a,b") == std::vector<std::string>{"a", "b"});
    CHECK_THROWS_AS(strictopt::Choice("--mode", "bogus", {"a", "b"}), UsageError);
    CHECK_THROWS_AS(strictopt::CheckDataRate("--link-rate", "fast"), UsageError);
    CHECK_THROWS_AS(strictopt::CheckDataRate("--link-rate", "Gbps"), UsageError);
    CHECK_THROWS_AS(strictopt::CheckDataRate("--link-rate", "-5Gbps"), UsageError);
    CHECK_NOTHROW(strictopt::CheckDataRate("--link-rate", "100Gbps"));
}

TEST_CASE("checked writes: directories, /proc and /dev/null/x are errors", "[hostile]")
{
    std::string dir = TempPath("out-dir");
    std::filesystem::create_directories(dir);
    for (const std::string& path : {dir, std::string("/dev/null/x"), std::string("/proc/x.json")})
    {
        INFO(path);
        try
        {
            WriteTextFileChecked(path, "{}\n");
            FAIL("no error");
        }
        catch (const std::runtime_error& e)
        {
            CHECK_THAT(e.what(), Contains(path));
        }
    }
    CHECK_THROWS_WITH(PrepareOutputDirectory("/dev/null/x"), Contains("/dev/null/x"));
    CHECK_THROWS_WITH(PrepareOutputDirectory("/proc"), Contains("/proc"));
    std::string file = TempPath("ok.json");
    WriteTextFileChecked(file, "{}\n");
    CHECK(std::filesystem::file_size(file) == 3);
}

TEST_CASE("deep JSON is an error naming the file, in every loader", "[hostile]")
{
    std::string deep(100000, '[');
    std::string scenario = WriteText("deep-scenario.json", "{\"cluster\": " + deep);
    std::string catalog = WriteText("deep-catalog.json", "{\"workloads\": " + deep);
    std::string trace = WriteText("deep-trace.json", deep);
    CHECK_THAT(TraceErrorOf([&] { ClusterScenario::Load(scenario); }),
               Contains(scenario) && Contains("nested"));
    CHECK_THAT(TraceErrorOf([&] { WorkloadCatalog::Load(catalog); }),
               Contains(catalog) && Contains("nested"));
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(trace); }), Contains(trace) && Contains("nested"));
    // Brackets inside strings do not count.
    std::string quoted = WriteText("quoted.json", "[\"" + deep + "\"]");
    CHECK_NOTHROW(strict::CheckJsonDepth(quoted, "[\"" + deep + "\"]"));
}

TEST_CASE("philly-json: a top-level scalar is an error, not an empty trace", "[hostile]")
{
    for (const std::string& text : {"42", "\"x\"", "null", "[]", "true"})
    {
        INFO(text);
        std::string path = WriteText("scalar.json", text);
        TraceReadOptions options;
        options.format = "philly-json";
        CHECK_THAT(TraceErrorOf([&] { ReadTrace(path, options); }), Contains(path));
    }
}

TEST_CASE("readers: CR-only lines, hex counts, end before submit, empty Gavel field", "[hostile]")
{
    std::string cr = WriteText("cr.csv",
                               "timestamp,duration,num_gpus,gpu_time,cluster\r"
                               "0,100,1,100,a\r10,200,2,400,a\r20,300,4,1200,b\r");
    TraceReadReport report;
    CHECK(ReadTrace(cr, TraceReadOptions(), &report).size() == 3);
    CHECK(report.format == "philly-csv");

    std::string hex = WriteText("hex.csv",
                                "timestamp,duration,num_gpus,gpu_time,cluster\n"
                                "0,100,0x10,100,a\n");
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(hex); }), Contains("num_gpus") && Contains("0x10"));

    const std::string helios = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,"
                               "start_time,end_time,duration\n"
                               "1,u,v,1,1,1,COMPLETED,1000,1100,1200,100\n"
                               "2,u,v,1,1,1,COMPLETED,5000,100,900,800\n";
    std::string bad = WriteText("helios-end.csv", helios);
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(bad); }),
               Contains(":3") && Contains("end_time") && Contains("submit_time"));
    TraceReadOptions skip;
    skip.onError = TraceErrorPolicy::SKIP;
    CHECK(ReadTrace(bad, skip, &report).size() == 1);
    CHECK(report.malformed == 1);

    std::string gavel = WriteText("gavel-empty.trace",
                                  "ResNet-18 (batch size 64)\tcmd\t--num_steps\t1\t1000\t0\t\n");
    CHECK(DetectTraceFormat(gavel) == "gavel");
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(gavel); }), Contains("scale_factor"));
}

TEST_CASE("times beyond what ns-3's clock can hold are errors with the bound", "[hostile]")
{
    std::string longRun = WriteText("long.csv",
                                    "timestamp,duration,num_gpus,gpu_time,cluster\n"
                                    "0,100,1,100,a\n0,9.3e9,1,1,a\n");
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(longRun); }),
               Contains(":3") && Contains("duration") && Contains("9.2e9"));
    std::string lateSubmit = WriteText("late.csv",
                                       "timestamp,duration,num_gpus,gpu_time,cluster\n"
                                       "0,100,1,100,a\n9.3e9,100,1,100,a\n");
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(lateSubmit); }),
               Contains(":3") && Contains("submit") && Contains("9.2e9"));
    std::string ok = WriteText("ok.csv",
                               "timestamp,duration,num_gpus,gpu_time,cluster\n"
                               "0,100,1,100,a\n1e6,100,1,100,a\n");
    TraceReadOptions scaled;
    scaled.loadScale = 1e-6; // 1e6 s becomes 1e12 s
    CHECK_THAT(TraceErrorOf([&] { ReadTrace(ok, scaled); }), Contains("load-scale"));
}

TEST_CASE("scenario and catalog files: directories, huge numbers, overflowing counts", "[hostile]")
{
    std::string dir = TempPath("scenario-dir");
    std::filesystem::create_directories(dir);
    CHECK_THAT(TraceErrorOf([&] { ClusterScenario::Load(dir); }),
               Contains(dir) && Contains("directory"));
    std::string nodes = WriteText("nodes.json", "{\"cluster\": {\"nodes\": 4294967297}}");
    CHECK_THAT(TraceErrorOf([&] { ClusterScenario::Load(nodes); }), Contains("cluster.nodes"));
    std::string attr =
        WriteText("attr.json", "{\"attributes\": {\"ns3::TiresiasPolicy::Thresholds\": \"x\"}}");
    CHECK_THAT(TraceErrorOf([&] { ClusterScenario::Load(attr); }),
               Contains("attributes.ns3::TiresiasPolicy::Thresholds"));
    std::string huge = WriteText("huge.json", "{\"workloads\": [{\"x\": 1e309}]}");
    CHECK_THAT(TraceErrorOf([&] { WorkloadCatalog::Load(huge); }), Contains(huge));
    CHECK_THAT(TraceErrorOf([&] { WorkloadCatalog::Load(dir); }), Contains(dir));
}
