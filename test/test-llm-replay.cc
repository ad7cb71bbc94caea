/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The LLM scenario end to end on an Acme-format (Kalos columns) trace it was not built from:
// every component on (INA esa, the kspeed provisioning loader, CBA storage with checkpoint
// writes), trace-replay's code path in-process. Checks what follows from the mechanism by hand.

#include "temp-dir.h"

#include "ns3/cluster-replay.h"
#include "ns3/config.h"
#include "ns3/trace-reader.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::string
Slurp(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// jobs.csv as one map (column -> value) per job.
std::vector<std::map<std::string, std::string>>
ReadJobsCsv(const std::string& path)
{
    std::istringstream in(Slurp(path));
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    std::stringstream h(line);
    for (std::string cell; std::getline(h, cell, ',');)
    {
        header.push_back(cell);
    }
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line))
    {
        std::stringstream r(line);
        std::map<std::string, std::string> row;
        size_t i = 0;
        for (std::string cell; std::getline(r, cell, ',') && i < header.size(); ++i)
        {
            row[header[i]] = cell;
        }
        rows.push_back(row);
    }
    return rows;
}

/// Runs trace-replay's code path in-process on the LLM scenario with \p extra options.
void
ReplayLlm(std::vector<std::string> extra)
{
    std::vector<std::string> args = {"trace-replay",
                                     "--scenario=" + std::string(AICLUSTER_SOURCE_DIR) +
                                         "/examples/scenarios/llm-cluster.json",
                                     "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    std::ostringstream out;
    REQUIRE(RunTraceReplay(int(argv.size()), argv.data(), "trace-replay", out) == 0);
    Config::Reset();
}

/// fifo's jobs.csv rows of a replay of \p trace, without their source column.
std::vector<std::map<std::string, std::string>>
ReplayRows(const std::string& trace, const std::string& format, const std::string& dir)
{
    ReplayLlm({"--trace=" + trace, "--trace-format=" + format, "--policy=fifo", "--output=" + dir});
    auto rows = ReadJobsCsv(dir + "/fifo/jobs.csv");
    for (auto& row : rows)
    {
        row.erase("source"); // file:line of the record: the two files differ there by design
    }
    return rows;
}

} // namespace

TEST_CASE("an LLM trace converted to the native format replays as the original", "[llm][replay]")
{
    // trace-convert keeps what placement (node_num) and the annotator (type) read, so a
    // converted Acme trace gives the same jobs, workloads and JCTs as the trace itself.
    std::string dir = TestTempDir("test-llm-convert");
    const std::string acme = std::string(AICLUSTER_TEST_DATA) + "/traces/acme-llm.csv";
    const std::string native = dir + "/acme-native.csv";
    WriteNativeTrace(native, ReadTrace(acme));
    auto direct = ReplayRows(acme, "acme-csv", dir + "/direct");
    auto converted = ReplayRows(native, "aicluster", dir + "/converted");
    REQUIRE(direct.size() == 5);
    REQUIRE(converted.size() == direct.size());
    for (size_t i = 0; i < direct.size(); ++i)
    {
        INFO(direct[i].at("name"));
        CHECK(converted[i] == direct[i]);
    }
}

TEST_CASE("LLM scenario with every component replays an unseen Acme trace", "[llm][replay]")
{
    std::string dir = TestTempDir("test-llm-replay");
    ReplayLlm({"--trace=" + std::string(AICLUSTER_TEST_DATA) + "/traces/acme-llm.csv",
               "--output=" + dir});

    nlohmann::json summary = nlohmann::json::parse(Slurp(dir + "/fifo/summary.json"));
    CHECK(summary["settings"]["provisioning"] == "kspeed");
    REQUIRE(summary["components"].contains("ina"));
    REQUIRE(summary["components"].contains("provisioning"));
    REQUIRE(summary["components"].contains("storage"));
    auto rows = ReadJobsCsv(dir + "/fifo/jobs.csv");
    REQUIRE(rows.size() == 5); // the fixture's kept jobs (test-acme.cc)
    for (const auto& row : rows)
    {
        INFO(row.at("name"));
        double jct = std::stod(row.at("jct_s"));
        CHECK(std::isfinite(jct));
        // Never faster than the trace's run time (its ideal compute-bound run).
        CHECK(jct >= std::stod(row.at("trace_duration_s")) - 1e-6);
    }
    // The 512-GPU pre-training job is a Llama-2-70B job (acme rule): 7,200 s of compute, a
    // 965,673,074,688-byte checkpoint (14 B x 68,976,648,192 parameters) after every 1,800 s
    // of running, each alone on the storage cluster at the 25 Gb/s client cap: 309.015 s
    // stopped on 512 GPUs each. At least 3 of them (7,200 / 1,800, minus the one at its end).
    const auto& pre = rows[0];
    REQUIRE(pre.at("name") == "dlc-pre-512");
    CHECK(pre.at("model") == "llama2-70b-pretrain");
    double write = 965673074688.0 / (25e9 / 8);
    double writes = std::stod(pre.at("data_stall_gpu_s")) / (512 * write);
    CHECK(writes >= 3);
    CHECK(writes == Approx(std::round(writes)).margin(1e-3));
    // The 64-GPU SFT job (Llama-2-13B, 14 B x 13,015,864,320 parameters) runs 1,800 s of
    // compute, slower with its sync: one checkpoint at 1,800 s of running, 58.31 s on 64 GPUs.
    // Before its first iteration it loads the pre-trained weights (2 B x 13,015,864,320
    // parameters, bf16), alone on the storage cluster at the client cap: 8.33 s on 64 GPUs.
    // The loader (kspeed) holds its small dataset in host memory, but a checkpoint write and
    // a weights load bypass the loader: the stops must survive the staged composition.
    const auto& sft = rows[1];
    REQUIRE(sft.at("name") == "dlc-sft-64");
    CHECK(sft.at("model") == "llama2-13b-sft");
    double sftWrite = 182222100480.0 / (25e9 / 8);
    double sftLoad = 26031728640.0 / (25e9 / 8);
    CHECK(std::stod(sft.at("data_stall_gpu_s")) == Approx(64 * (sftWrite + sftLoad)).epsilon(1e-4));
    CHECK(summary["components"]["storage"]["checkpoints"].get<double>() == std::round(writes) + 1);
}
