/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// trace-convert: read any supported trace, print what was read, kept and dropped,
// and write the kept jobs in aicluster's native trace format (traces/README.md).
//
//   ./ns3 run "trace-convert --input=philly.csv --output=philly-native.csv"
//   ./ns3 run "trace-convert --input=x.json --format=philly-json --window-start=0
//              --window-end=86400 --vc=6214e9,11cb48 --load-scale=2 --on-error=skip
//              --output=day1.csv"
//   ./ns3 run "trace-convert --input=philly.csv --bench=10"   (read-time benchmark)

#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/strict-options.h"
#include "ns3/trace-reader.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <limits>
#include <sstream>

using namespace ns3;

namespace
{

std::string
FormatNames()
{
    std::string names = "auto";
    for (const auto& f : TraceFormats())
    {
        names += "|" + f;
    }
    return names;
}

void
PrintReport(const TraceReadReport& r)
{
    std::cout << "trace-convert: " << r.file << " (format " << r.format << ")\n"
              << "  records        " << r.records << "\n"
              << "  kept           " << r.kept << "\n"
              << "  malformed      " << r.malformed << "\n"
              << "  no GPU         " << r.notGpuJobs << "\n"
              << "  unfinished     " << r.unfinished << "\n"
              << "  other VC       " << r.otherVc << "\n"
              << "  outside window " << r.outsideWindow << "\n"
              << "  over max jobs  " << r.overMaxJobs << "\n";
    for (const auto& p : r.problems)
    {
        std::cout << "  skipped: " << p << "\n";
    }
}

/**
 * Reads the trace `runs` times and prints the fastest and the median wall time, and the
 * same for CPU time (which other processes on a shared machine disturb less).
 */
void
Bench(const std::string& input, const TraceReadOptions& options, uint32_t runs)
{
    std::vector<double> wallMs;
    std::vector<double> cpuMs;
    size_t jobs = 0;
    for (uint32_t i = 0; i < runs; ++i)
    {
        auto start = std::chrono::steady_clock::now();
        std::clock_t cpuStart = std::clock();
        jobs = ReadTrace(input, options).size();
        std::clock_t cpuStop = std::clock();
        auto stop = std::chrono::steady_clock::now();
        wallMs.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
        cpuMs.push_back(1000.0 * (cpuStop - cpuStart) / CLOCKS_PER_SEC);
    }
    std::sort(wallMs.begin(), wallMs.end());
    std::sort(cpuMs.begin(), cpuMs.end());
    std::cout << "bench: " << jobs << " jobs, " << runs << " reads: wall min " << wallMs.front()
              << " ms, median " << wallMs[wallMs.size() / 2] << " ms; cpu min " << cpuMs.front()
              << " ms, median " << cpuMs[cpuMs.size() / 2] << " ms\n";
}

} // namespace

int
ConvertMain(int argc, char* argv[])
{
    std::string input;
    std::string format = "auto";
    std::string output;
    double windowStart = 0;
    std::string windowEnd;
    uint64_t maxJobs = 0;
    std::string vcs;
    double loadScale = 1.0;
    std::string onError = "stop";
    uint32_t bench = 0;

    StrictCommandLine cmd(__FILE__);
    cmd.Usage("Convert a supported trace to aicluster's native format and print the read report.");
    cmd.AddValue("input", "trace file to read", input);
    cmd.AddValue("format", "trace format: " + FormatNames(), format);
    cmd.AddValue("output", "native trace to write (empty: only print the report)", output);
    cmd.AddValue("window-start",
                 "keep jobs submitted at or after this time [s]",
                 windowStart,
                 0,
                 std::numeric_limits<double>::max(),
                 "s");
    cmd.AddValue("window-end",
                 "keep jobs submitted before this time [s]; empty: no end",
                 windowEnd);
    cmd.AddValue("max-jobs", "keep at most this many jobs (first by submit time); 0: all", maxJobs);
    cmd.AddValue("vc", "comma-separated virtual clusters to keep; empty: all", vcs);
    cmd.AddValue("load-scale",
                 "divide inter-arrival times by this (> 1: more load)",
                 loadScale,
                 1e-6,
                 1e6);
    cmd.AddValue("on-error", "malformed records: stop|skip", onError);
    cmd.AddValue("bench",
                 "read the trace this many times and print the read time [runs]",
                 bench,
                 0,
                 1000,
                 "runs");
    cmd.Parse(argc, argv);

    if (input.empty())
    {
        throw UsageError("--input: expected a trace file, got nothing");
    }
    TraceReadOptions options;
    auto formats = TraceFormats();
    if (format != "auto" && std::find(formats.begin(), formats.end(), format) == formats.end())
    {
        throw UsageError("--format: expected " + FormatNames() + ", got '" + format + "'");
    }
    options.format = format;
    if (onError == "stop")
    {
        options.onError = TraceErrorPolicy::STOP;
    }
    else if (onError == "skip")
    {
        options.onError = TraceErrorPolicy::SKIP;
    }
    else
    {
        throw UsageError("--on-error: expected stop or skip, got '" + onError + "'");
    }
    options.windowStart = windowStart;
    if (!windowEnd.empty())
    {
        options.windowEnd =
            strictopt::Real("--window-end", windowEnd, 0, std::numeric_limits<double>::max(), "s");
    }
    options.loadScale = loadScale;
    options.maxJobs = maxJobs;
    std::vector<std::string> vcList = strictopt::List("--vc", vcs, true);
    options.vcs = std::set<std::string>(vcList.begin(), vcList.end());

    TraceReadReport report;
    auto jobs = ReadTrace(input, options, &report);
    PrintReport(report);
    if (!output.empty())
    {
        WriteNativeTrace(output, jobs);
        std::cout << "wrote " << jobs.size() << " jobs to " << output << "\n";
    }
    if (bench > 0)
    {
        Bench(input, options, bench);
    }
    return 0;
}

int
main(int argc, char* argv[])
{
    return RunMain("trace-convert", argc, argv, ConvertMain);
}
