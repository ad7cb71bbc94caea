/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// The whole-trace speed work (#13) keeps every result byte for byte: these tests hold the
// fast paths of reading and writing to what they replace.
//  - date-times: the reader counts days itself; it must give what timegm gives;
//  - ordering: the reader puts records in submit order one permutation cycle at a time; the
//    order must stay the stable one (ties in file order) with every record intact;
//  - numbers in the result files: the short cuts must write what std::to_chars writes, and
//    jobs.csv's look-up of recent numbers' text must never give another number's.

#include "temp-dir.h"
#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-results.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/trace-reader.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cfloat>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One row as written and what it must read as.
struct Row
{
    std::string timestamp; //!< the text written
    double seconds;        //!< timegm's count (+ fraction - offset)
    std::string duration;  //!< the text written
    bool missing;          //!< the duration is a "missing" word: the row is not a job
    double durationValue;  //!< the duration when not missing
};

/// A random date-time in the 20 years from baseYear and its timegm count.
Row
RandomRow(std::mt19937_64& rng, int baseYear)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int y = baseYear + pick(0, 19);
    int mo = pick(1, 12);
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int d = pick(1, (mo == 2 && leap) ? 29 : days[mo - 1]);
    int h = pick(0, 23);
    int mi = pick(0, 59);
    int s = pick(0, 60); // 60: a leap second, counted into the next minute as timegm does
    bool half = pick(0, 3) == 0;
    int zone = pick(0, 3); // none, Z, +hh:mm, -hhmm
    int oh = pick(0, 23);
    int om = pick(0, 59);
    char text[64];
    std::snprintf(text,
                  sizeof text,
                  "%04d-%02d-%02d%c%02d:%02d:%02d%s",
                  y,
                  mo,
                  d,
                  pick(0, 1) ? ' ' : 'T',
                  h,
                  mi,
                  s,
                  half ? ".5" : "");
    std::string timestamp = text;
    int offset = 0;
    if (zone == 1)
    {
        timestamp += "Z";
    }
    else if (zone == 2)
    {
        std::snprintf(text, sizeof text, "+%02d:%02d", oh, om);
        timestamp += text;
        offset = oh * 3600 + om * 60;
    }
    else if (zone == 3)
    {
        std::snprintf(text, sizeof text, "-%02d%02d", oh, om);
        timestamp += text;
        offset = -(oh * 3600 + om * 60);
    }
    if (pick(0, 7) == 0)
    {
        timestamp = " " + timestamp + "\t"; // trimmed before parsing
    }
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    Row row;
    row.timestamp = timestamp;
    row.seconds = static_cast<double>(timegm(&tm)) + (half ? 0.5 : 0.0) - offset;
    static const char* const missingWords[] = {"None", "null", "NaT", " none "};
    static const char* const numbers[] = {"0", "66.0", " 12", "7 ", "1e3", "0.25"};
    static const double numberValues[] = {0, 66, 12, 7, 1000, 0.25};
    row.missing = pick(0, 9) == 0;
    if (row.missing)
    {
        row.duration = missingWords[pick(0, 3)];
        row.durationValue = 0;
    }
    else
    {
        int k = pick(0, 5);
        row.duration = numbers[k];
        row.durationValue = numberValues[k];
    }
    return row;
}

std::string
ToChars(double value)
{
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

} // namespace

TEST_CASE("Date-times read as timegm counts them; records sorted stably and intact",
          "[trace][exactness]")
{
    const std::string dir = TestTempDir("whole-trace-exactness");
    std::mt19937_64 rng(20261202);
    // Base years over the whole four-digit range, with the calendar's corner cases
    // (1600/2000 leap, 1700/1900/2100 not, 1970 the epoch, year 0).
    for (int baseYear : {0, 385, 1599, 1690, 1890, 1960, 1969, 1990, 2010, 2090, 3999, 7777, 9980})
    {
        CAPTURE(baseYear);
        const std::string path = dir + "/philly-" + std::to_string(baseYear) + ".csv";
        std::vector<Row> rows;
        {
            std::ofstream out(path);
            out << "timestamp,duration,num_gpus,gpu_time,cluster\n";
            for (int i = 0; i < 600; ++i)
            {
                Row row = RandomRow(rng, baseYear);
                if (i > 0 && std::uniform_int_distribution<int>(0, 3)(rng) == 0)
                {
                    // A tie with an earlier row (same instant, maybe written otherwise).
                    const Row& earlier =
                        rows[std::uniform_int_distribution<size_t>(0, rows.size() - 1)(rng)];
                    row.timestamp = earlier.timestamp;
                    row.seconds = earlier.seconds;
                }
                rows.push_back(row);
                // The VC names the row (its index), so a record can be traced to its row.
                out << row.timestamp << ',' << row.duration << ",1,0,vc" << i << '\n';
            }
        }
        TraceReadOptions options;
        options.format = "philly-csv";
        std::vector<JobRecord> jobs = ReadTrace(path, options);

        // The expected order: rows that are jobs, stably sorted by submit time.
        std::vector<size_t> expected;
        double origin = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < rows.size(); ++i)
        {
            if (!rows[i].missing)
            {
                expected.push_back(i);
                origin = std::min(origin, rows[i].seconds);
            }
        }
        std::stable_sort(expected.begin(), expected.end(), [&rows](size_t a, size_t b) {
            return rows[a].seconds < rows[b].seconds;
        });
        REQUIRE(jobs.size() == expected.size());
        size_t wrong = 0;
        std::string first;
        for (size_t k = 0; k < jobs.size(); ++k)
        {
            const Row& row = rows[expected[k]];
            const JobRecord& job = jobs[k];
            std::string line = path + ":" + std::to_string(expected[k] + 2);
            bool ok = job.id == k && job.vc == "vc" + std::to_string(expected[k]) &&
                      job.source.Text() == line && job.submitTime == row.seconds - origin &&
                      job.duration == row.durationValue && job.numGpus == 1;
            if (!ok && wrong++ == 0)
            {
                first = "position " + std::to_string(k) + ": expected row '" + row.timestamp +
                        "' (" + line + ", " + ToChars(row.seconds - origin) + " s, duration " +
                        ToChars(row.durationValue) + "), got " + job.source.Text() + " vc " +
                        job.vc + " at " + ToChars(job.submitTime) + " s, duration " +
                        ToChars(job.duration);
            }
        }
        INFO(first);
        CHECK(wrong == 0);
    }
}

TEST_CASE("Result files write numbers as std::to_chars does", "[results][exactness]")
{
    std::vector<double> values = {0.0,
                                  -0.0,
                                  1,
                                  -1,
                                  2,
                                  -2,
                                  10,
                                  -10,
                                  100,
                                  1e5,
                                  -1e5,
                                  1e15,
                                  1e16,
                                  -1e16,
                                  1e17,
                                  1e21,
                                  -1e22,
                                  123456789,
                                  -123456789,
                                  9007199254740991.0,
                                  9007199254740992.0,
                                  9007199254740994.0,
                                  -9007199254740991.0,
                                  -9007199254740992.0,
                                  0.5,
                                  -0.5,
                                  -0.999,
                                  -1.5,
                                  -1.0000000000000002,
                                  1e-7,
                                  -1e-7,
                                  5e-324,
                                  -5e-324,
                                  DBL_MIN,
                                  DBL_MAX,
                                  -DBL_MAX,
                                  3600,
                                  -3600,
                                  2240194,
                                  0.2723313504904509,
                                  -3256045.25};
    for (double v : values)
    {
        CAPTURE(v);
        CHECK(ClusterResults::NumberText(v) == ToChars(v));
    }
    // Random numbers of every kind: any finite bit pattern, signed whole numbers of every
    // size, and decimals with a few digits (times, seconds per iteration).
    std::mt19937_64 rng(13);
    size_t wrong = 0;
    std::string first;
    for (int i = 0; i < 300000; ++i)
    {
        double v;
        switch (i % 3)
        {
        case 0: {
            uint64_t bits = rng();
            std::memcpy(&v, &bits, sizeof v);
            if (!std::isfinite(v))
            {
                continue;
            }
            break;
        }
        case 1: {
            int shift = static_cast<int>(rng() % 64);
            auto whole = static_cast<int64_t>(rng() >> shift);
            v = static_cast<double>(rng() % 2 ? whole : -whole);
            break;
        }
        default:
            v = static_cast<double>(static_cast<int64_t>(rng() % 2000000001) - 1000000000) /
                std::pow(10.0, static_cast<double>(rng() % 8));
            break;
        }
        if (ClusterResults::NumberText(v) != ToChars(v) && wrong++ == 0)
        {
            first = ToChars(v) + " written as " + ClusterResults::NumberText(v);
        }
    }
    INFO(first);
    CHECK(wrong == 0);
}

TEST_CASE("jobs.csv writes every job's numbers as std::to_chars does", "[results][exactness]")
{
    // Iteration counts of every kind: whole, distinct fractions (each a miss of the writer's
    // look-up of recent numbers, many sharing its slots) and fractions that come back.
    std::vector<JobRecord> jobs;
    std::mt19937_64 rng(21);
    for (uint64_t id = 0; id < 600; ++id)
    {
        double seconds = id % 5 == 0   ? double(1 + rng() % 1000)
                         : id % 5 == 1 ? 0.25 + double(id % 7) / 3
                                       : double(rng() % 1000000) / 997.0 + 0.5;
        jobs.push_back(UnitJob(id, double(id), 1 + rng() % 4, seconds));
    }
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 4;
    topology.gpusPerNode = 4;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::FifoPolicy");
    Ptr<ClusterEngine> engine = helper.Create(jobs, UnitCatalog());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->Run();
    std::string dir = TestTempDir("test-jobs-csv-numbers");
    RunInfo info;
    info.experiment = "unit";
    ClusterResults::Write(dir, engine, info);
    Simulator::Destroy();

    std::map<uint64_t, Ptr<ClusterJob>> byId;
    for (const auto& job : engine->Jobs())
    {
        byId[job->record.id] = job;
    }
    std::ifstream in(dir + "/jobs.csv");
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line); // header
    size_t lines = 0;
    size_t wrong = 0;
    std::string first;
    while (std::getline(in, line))
    {
        std::vector<std::string> fields;
        std::stringstream split(line);
        for (std::string field; std::getline(split, field, ',');)
        {
            fields.push_back(field);
        }
        REQUIRE(fields.size() >= 22);
        const ClusterJob& job = *byId.at(std::stoull(fields[0]));
        // iterations, finish_s, compute_s_per_iter and iteration_s
        const std::pair<size_t, double> expected[] = {{15, job.record.iterations},
                                                      {4, job.finishTime},
                                                      {18, job.computeTime},
                                                      {21, job.iterationTime}};
        for (const auto& [column, value] : expected)
        {
            if (fields[column] != ToChars(value) && wrong++ == 0)
            {
                first = "job " + fields[0] + " column " + std::to_string(column) + ": " +
                        fields[column] + ", expected " + ToChars(value);
            }
        }
        ++lines;
    }
    CHECK(lines == jobs.size());
    INFO(first);
    CHECK(wrong == 0);
}
