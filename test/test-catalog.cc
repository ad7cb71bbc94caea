/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Tests of the workload-profile catalog: the bundled data, its traceability to the public
// measurements it was built from, interpolation, aliases and errors on bad files.

#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace ns3;

namespace
{

const std::string kFixtures = std::string(AICLUSTER_TEST_DATA) + "/catalog/";
const std::string kTraces = AICLUSTER_SHARED_TRACES;

/** Loads a bad fixture and returns the TraceError it must raise. */
TraceError
LoadError(const std::string& file)
{
    try
    {
        WorkloadCatalog::Load(kFixtures + file);
    }
    catch (const TraceError& e)
    {
        return e;
    }
    FAIL("loading " << file << " did not throw a TraceError");
    throw std::logic_error("unreachable");
}

std::vector<std::vector<std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    INFO("cannot read " << path << " (../shared/traces must sit beside the repository)");
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line))
    {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
        {
            cells.push_back(cell);
        }
        rows.push_back(cells);
    }
    return rows;
}

} // namespace

TEST_CASE("bundled catalog loads with every published workload", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    CHECK(catalog.Path() == WorkloadCatalog::DefaultPath());
    std::vector<std::string> names = catalog.Names();
    CHECK(std::is_sorted(names.begin(), names.end()));
    // 6 Pollux/Sia applications + 26 Gavel job types + 9 LLM entries (doc/workload-catalog.md).
    CHECK(names.size() == 41);
    for (const char* name : {"resnet18-cifar10",
                             "resnet50-imagenet",
                             "yolov3-voc",
                             "deepspeech2-arctic",
                             "bert-squad",
                             "neumf-movielens",
                             "resnet50-imagenet-gavel-b64",
                             "a3c-pong-gavel",
                             "cyclegan-monet2photo-gavel"})
    {
        CHECK(catalog.Has(name));
    }
    CHECK(&WorkloadCatalog::Default() == &catalog);
}

TEST_CASE("every catalog entry has sane positive numbers", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    for (const auto& name : catalog.Names())
    {
        const WorkloadProfile& w = catalog.Get(name);
        INFO(name);
        CHECK(w.name == name);
        CHECK_FALSE(w.source.empty());
        CHECK_FALSE(w.gpuType.empty());
        CHECK_FALSE(w.domain.empty());
        CHECK(w.localBatch >= 1);
        CHECK(w.localBatch <= 8192);
        REQUIRE_FALSE(w.computeTimeByGpus.empty());
        const bool llm = w.parameters > 0;
        for (const auto& [g, t] : w.computeTimeByGpus)
        {
            CHECK(g >= 1);
            CHECK(t > 1e-4);                // no model here runs an iteration in under 0.1 ms
            CHECK(t < (llm ? 60.0 : 10.0)); // a 70B model's iteration takes tens of seconds
        }
        for (const auto& [g, t] : w.syncTimeByGpus)
        {
            CHECK(t >= 0);
            CHECK(t < 1.0);
        }
        if (w.inference)
        {
            CHECK(w.gradientBytes == 0);
        }
        else if (llm)
        {
            // fp32 gradients of one pipeline stage, per rail: 4 x parameters / (PP x 8)
            CHECK(w.gradientBytes == Approx(4 * w.parameters / (8.0 * w.pipelineParallel)));
        }
        else
        {
            CHECK(w.gradientBytes >= 1e6); // >= 250k parameters
            CHECK(w.gradientBytes <= 1e9); // <= 250M parameters
        }
        if (w.dataset == "none")
        {
            CHECK(w.rawBytesPerSample == 0);
            CHECK(w.datasetBytes == 0);
        }
        else
        {
            CHECK(w.rawBytesPerSample > 0);
            CHECK(w.decodedBytesPerSample > 0);
            CHECK(w.cpuSecondsPerSample > 0);
            CHECK(w.cpuSecondsPerSample < 0.1);
            CHECK(w.datasetBytes > 1000 * w.rawBytesPerSample);
        }
        CHECK(w.samplesToTarget >= 0);
        CHECK(w.SamplesPerSecond(1) == Approx(w.localBatch / w.ComputeTime(1)));
    }
}

TEST_CASE("Pollux/Sia entries: measured 1..16 GPUs, per-iteration time and target", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    for (const char* app : {"cifar10", "deepspeech2", "bert", "yolov3", "imagenet", "ncf"})
    {
        INFO(app);
        const WorkloadProfile& w = catalog.Get(app);
        CHECK(w.computeTimeByGpus.size() == 16);
        CHECK(w.syncTimeByGpus.size() == 16);
        CHECK(w.samplesToTarget > 0);
        CHECK_FALSE(w.stepsCountedPerWorker);
    }
    // Target = Sia max_epochs x training samples (sia-simulator/applications.py).
    CHECK(catalog.Get("imagenet").samplesToTarget == 90.0 * 1281167);
    CHECK(catalog.Get("cifar10").samplesToTarget == 100.0 * 50000);
    CHECK(catalog.Get("bert").samplesToTarget == 2.0 * 88641);
}

TEST_CASE("catalog numbers trace back to the Sia profiles and Gavel's table", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    // Sia: compute = step_time - sync_time at the entry's local batch, placement "1" and "88".
    for (const char* app : {"imagenet", "bert", "cifar10"})
    {
        const WorkloadProfile& w = catalog.Get(app);
        auto rows = ReadCsv(kTraces + "/sia-pollux-workloads/throughput-profiles/" + app +
                            "/placements-dgx-ext.csv");
        int matched = 0;
        for (const auto& r : rows)
        {
            if (r.size() == 4 && r[0] == std::to_string(w.localBatch) &&
                (r[3] == "1" || r[3] == "88"))
            {
                uint32_t g = r[3] == "1" ? 1 : 16;
                CHECK(w.ComputeTime(g) == Approx(std::stod(r[1]) - std::stod(r[2])).epsilon(1e-12));
                CHECK(w.MeasuredSyncTime(g) == Approx(std::stod(r[2])).epsilon(1e-12));
                ++matched;
            }
        }
        CHECK(matched == 2);
    }
    // Gavel: one iteration on g GPUs = g / (isolated steps/s), steps summed over workers.
    std::string gavel = kTraces + "/gavel/simulation_throughputs.json";
    std::ifstream in(gavel);
    INFO("cannot read " << gavel << " (../shared/traces must sit beside the repository)");
    REQUIRE(in.good());
    auto table = nlohmann::json::parse(in)["v100"];
    double t1 = table["('ResNet-50 (batch size 64)', 1)"]["null"].get<double>();
    double t8 = table["('ResNet-50 (batch size 64)', 8)"]["null"].get<double>();
    const WorkloadProfile& r50 = catalog.Get("ResNet-50 (batch size 64)");
    CHECK(r50.ComputeTime(1) == Approx(1.0 / t1).epsilon(1e-12));
    CHECK(r50.ComputeTime(8) == Approx(8.0 / t8).epsilon(1e-12));
    CHECK(r50.MeasuredSyncTime(8) == 0); // included in Gavel's time
    CHECK(r50.stepsCountedPerWorker);
    CHECK(r50.localBatch == 64);
}

TEST_CASE("interpolation is exact at measured points and monotone between", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    for (const auto& name : catalog.Names())
    {
        const WorkloadProfile& w = catalog.Get(name);
        INFO(name);
        for (const auto* table : {&w.computeTimeByGpus, &w.syncTimeByGpus})
        {
            bool compute = table == &w.computeTimeByGpus;
            auto at = [&](uint32_t g) {
                return compute ? w.ComputeTime(g) : w.MeasuredSyncTime(g);
            };
            for (auto it = table->begin(); it != table->end(); ++it)
            {
                CHECK(at(it->first) == it->second);
                auto next = std::next(it);
                if (next == table->end())
                {
                    continue;
                }
                double lo = std::min(it->second, next->second);
                double hi = std::max(it->second, next->second);
                double previous = it->second;
                for (uint32_t g = it->first + 1; g < next->first; ++g)
                {
                    double t = at(g);
                    CHECK(t >= lo);
                    CHECK(t <= hi);
                    // same direction as the segment's end points
                    CHECK((t - previous) * (next->second - it->second) >= 0);
                    previous = t;
                }
            }
        }
    }
}

TEST_CASE("interpolation is log-linear in g and flat beyond the measured range", "[catalog]")
{
    WorkloadCatalog c = WorkloadCatalog::Load(kFixtures + "small.json");
    const WorkloadProfile& w = c.Get("tiny-cifar"); // compute {1: 1.0, 4: 0.5, 16: 0.25}
    CHECK(w.ComputeTime(1) == 1.0);
    CHECK(w.ComputeTime(2) == Approx(0.75).epsilon(1e-15)); // halfway in ln g between 1 and 4
    CHECK(w.ComputeTime(8) == Approx(0.375).epsilon(1e-15));
    CHECK(w.ComputeTime(16) == 0.25);
    CHECK(w.ComputeTime(64) == 0.25);
    CHECK(w.MeasuredSyncTime(2) == Approx(0.05).epsilon(1e-15)); // sync {1: 0, 4: 0.1, 16: 0.4}
    CHECK(w.SamplesPerSecond(2) == Approx(10.0 * 2 / 0.75));
    const WorkloadProfile& bert = c.Get("bert"); // compute {2: 0.8, 8: 0.2}
    CHECK(bert.ComputeTime(1) == 0.8);           // flat below the first measured point
    CHECK(bert.ComputeTime(4) == Approx(0.5).epsilon(1e-15));
    CHECK(c.Get("tiny-speech").MeasuredSyncTime(4) == 0); // no sync measured
    CHECK_THROWS_AS(w.ComputeTime(0), std::invalid_argument);
}

TEST_CASE("aliases resolve Pollux, Gavel and Tiresias names", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    CHECK(catalog.Get("imagenet").name == "resnet50-imagenet");
    CHECK(catalog.Get("cifar10").name == "resnet18-cifar10");
    CHECK(catalog.Get("ncf").name == "neumf-movielens");
    CHECK(catalog.Get("Transformer (batch size 128)").name == "transformer-multi30k-gavel-b128");
    CHECK(catalog.Get("A3C").name == "a3c-pong-gavel");
    CHECK(catalog.Get("vgg16").name == "resnet50-imagenet");
    CHECK(catalog.Get("resnet50-imagenet").name == "resnet50-imagenet");
    CHECK_FALSE(catalog.Has("ResNet-50"));

    // Every model name in the public traces we read resolves.
    std::ifstream gavel(kTraces + "/gavel/simulation_throughputs.json");
    auto table = nlohmann::json::parse(gavel)["v100"];
    for (auto it = table.begin(); it != table.end(); ++it)
    {
        std::string key = it.key(); // "('<job type>', <scale>)"
        std::string jobType = key.substr(2, key.rfind('\'') - 2);
        INFO(jobType);
        CHECK(catalog.Has(jobType));
    }
    for (const auto& row : ReadCsv(kTraces + "/tiresias/60_job.csv"))
    {
        if (row[0] != "job_id")
        {
            INFO(row[4]);
            CHECK(catalog.Has(row[4]));
        }
    }
    std::set<std::string> apps;
    for (const auto& row :
         ReadCsv(kTraces + "/sia-pollux-workloads/workloads/philly/workload-1.csv"))
    {
        if (row[0] != "name")
        {
            CHECK(catalog.Has(row[2]));
            apps.insert(row[2]);
        }
    }
    CHECK(apps.size() >= 4);
}

TEST_CASE("unknown workload names the name and lists the known ones", "[catalog]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    try
    {
        catalog.Get("gpt5-secret");
        FAIL("no exception");
    }
    catch (const std::invalid_argument& e)
    {
        std::string msg = e.what();
        CHECK(msg.find("'gpt5-secret'") != std::string::npos);
        CHECK(msg.find("resnet50-imagenet") != std::string::npos);
        CHECK(msg.find("bert-squad") != std::string::npos);
        CHECK(msg.find("'ResNet-50 (batch size 64)'") != std::string::npos);
    }
    CHECK_FALSE(catalog.Has("gpt5-secret"));
}

TEST_CASE("bad catalog files give errors naming file, workload and field", "[catalog]")
{
    SECTION("missing file")
    {
        TraceError e = LoadError("does-not-exist.json");
        CHECK(e.File() == kFixtures + "does-not-exist.json");
        CHECK(std::string(e.what()).find("does-not-exist.json") != std::string::npos);
    }
    SECTION("malformed JSON, with its line")
    {
        TraceError e = LoadError("bad-json.json");
        CHECK(e.Line() == 3);
        CHECK(std::string(e.what()).find("bad-json.json") != std::string::npos);
        CHECK(std::string(e.what()).find("JSON") != std::string::npos);
    }
    SECTION("missing field")
    {
        TraceError e = LoadError("missing-field.json");
        CHECK(e.Field() == "tiny-bert.gradientBytes");
        CHECK(e.Line() == 55); // the workload's name: the field has no line
        CHECK(std::string(e.what()).find("missing-field.json") != std::string::npos);
        CHECK(std::string(e.what()).find("missing") != std::string::npos);
    }
    SECTION("negative time")
    {
        TraceError e = LoadError("negative-time.json");
        CHECK(e.Field() == "tiny-cifar.computeTimeByGpus.4");
        CHECK(e.Line() == 11); // the line of "4": -0.5
        CHECK(std::string(e.what()).find("positive") != std::string::npos);
    }
    SECTION("zero size")
    {
        TraceError e = LoadError("zero-size.json");
        CHECK(e.Field() == "tiny-yolo.datasetBytes");
        CHECK(e.Line() == 101);
    }
    SECTION("GPU count key that is not a number")
    {
        CHECK(LoadError("bad-gpus-key.json").Field() == "tiny-imagenet.computeTimeByGpus.two");
    }
    SECTION("misspelt field")
    {
        CHECK(LoadError("unknown-field.json").Field() == "tiny-speech.gradientByte");
    }
    SECTION("one alias for two workloads")
    {
        CHECK(LoadError("duplicate-alias.json").Field() == "tiny-yolo.aliases");
    }
    SECTION("data sizes on a workload without dataset")
    {
        CHECK(LoadError("none-with-data.json").Field() == "tiny-rl.rawBytesPerSample");
    }
    SECTION("unknown format version")
    {
        TraceError e = LoadError("bad-schema.json");
        CHECK(e.Field() == "schemaVersion");
        CHECK(e.Line() == 2);
    }
    SECTION("fractional batch")
    {
        CHECK(LoadError("fractional-batch.json").Field() == "tiny-cifar.localBatch");
    }
}

TEST_CASE("Default() is loaded once, also under concurrent first use", "[catalog]")
{
    std::vector<const WorkloadCatalog*> seen(4, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i)
    {
        threads.emplace_back([&seen, i] { seen[i] = &WorkloadCatalog::Default(); });
    }
    for (auto& t : threads)
    {
        t.join();
    }
    for (const auto* c : seen)
    {
        CHECK(c == &WorkloadCatalog::Default());
    }
}
