/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// One cluster: the builder, its one set of defaults and alias table, the composed data path.

#include "temp-dir.h"

#include "ns3/cluster-builder.h"
#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-replay.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/provisioning-data-loading.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/staged-data-loading.h"
#include "ns3/storage-policy.h"
#include "ns3/string.h"
#include "ns3/trace-reader.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{

std::string
Slurp(const std::string& path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string
TempDir(const std::string& name)
{
    return TestTempDir("test-cluster-builder-" + name);
}

/// trace-replay's code path, in-process, with these options (quiet, one policy).
void
RunCommandLine(std::vector<std::string> args)
{
    args.insert(args.begin(), "trace-replay");
    args.push_back("--quiet");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    std::ostringstream out;
    REQUIRE(RunTraceReplay(static_cast<int>(argv.size()), argv.data(), "trace-replay", out) == 0);
    Config::Reset();
}

/// The first maxJobs jobs of the bundled sample (0 = all), annotated by the builder.
std::vector<JobRecord>
SampleJobs(Ptr<ClusterBuilder> builder, uint64_t maxJobs)
{
    TraceReadOptions options;
    options.maxJobs = maxJobs;
    std::vector<JobRecord> jobs = ReadTrace(ClusterScenario::DefaultTracePath(), options);
    builder->Annotate(jobs, WorkloadCatalog::Default());
    return jobs;
}

/// What summary.json says about the run itself (not how it was asked for, not the wall time).
nlohmann::json
RunPart(const std::string& path)
{
    nlohmann::json j = nlohmann::json::parse(Slurp(path));
    j.erase("command_line");
    j.erase("settings");
    j.erase("experiment");
    j["performance"].erase("wall_s");
    return j;
}

/// Per job: finish time and iteration time terms, from a finished engine.
struct JobTimes
{
    std::vector<double> finish;
    std::vector<double> data;
    std::vector<double> sync;
};

JobTimes
TimesOf(Ptr<ClusterEngine> engine)
{
    JobTimes t;
    for (const auto& j : engine->Jobs())
    {
        t.finish.push_back(j->finishTime);
        t.data.push_back(j->dataTime);
        t.sync.push_back(j->syncTime);
    }
    return t;
}

/// A storage cluster small enough that storage and loaders bind some jobs [bytes/s].
constexpr double kPairBandwidth = 1e9;

/// The first 150 jobs of the sample on the default cluster, built by the builder.
JobTimes
BuilderRun(const std::string& sync, const std::string& loader, const std::string& storage)
{
    RngSeedManager::SetSeed(1);
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
    b->SetAttribute("GradientSync", StringValue(sync));
    b->SetAttribute("Provisioning", StringValue(loader));
    b->SetAttribute("StoragePolicy", StringValue(storage));
    b->SetAttribute("DatasetRule", StringValue("vc"));
    b->SetAttribute("StorageBandwidth", DoubleValue(kPairBandwidth));
    std::vector<JobRecord> jobs = SampleJobs(b, 150);
    Ptr<ClusterEngine> engine = b->Build(jobs, WorkloadCatalog::Default());
    engine->Run();
    JobTimes t = TimesOf(engine);
    Simulator::Destroy();
    Config::Reset();
    return t;
}

/// The same jobs with two components wired by hand, the way examples did before the builder.
JobTimes
HandWiredRun(const std::string& sync, const std::string& loader, const std::string& storage)
{
    RngSeedManager::SetSeed(1);
    AnnotatorOptions ann;
    ann.datasetRule = "vc";
    TraceReadOptions options;
    options.maxJobs = 150;
    std::vector<JobRecord> jobs = ReadTrace(ClusterScenario::DefaultTracePath(), options);
    TraceAnnotator annotator(WorkloadCatalog::Default(), ann);
    annotator.Annotate(jobs);
    ClusterEngineHelper helper;
    ClusterTopology topology; // the one set of defaults
    helper.SetTopology(topology);
    if (sync != "ideal")
    {
        helper.SetGradientSyncModel("ns3::InaGradientSync", "Policy", StringValue(sync));
    }
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    Ptr<StorageDataLoading> st;
    if (storage != "ideal")
    {
        StorageOptions o;
        o.policy = storage;
        o.bandwidth = kPairBandwidth;
        st = StorageHelper(o).Install(engine, jobs, annotator);
    }
    if (loader != "ideal")
    {
        Ptr<ProvisioningDataLoading> dl = CreateObject<ProvisioningDataLoading>();
        Ptr<StorageBackend> backend = CreateObject<StorageBackend>();
        backend->SetAttribute("AggregateBandwidth",
                              DataRateValue(DataRate(uint64_t(kPairBandwidth * 8))));
        if (st)
        {
            backend->SetAttribute("AggregateBandwidth", DataRateValue(DataRate(uint64_t(1e18))));
            backend->SetAttribute("ClientBandwidth", DataRateValue(DataRate(uint64_t(0))));
        }
        dl->Configure(loader, backend);
        if (st)
        {
            Ptr<StagedDataLoading> staged = CreateObject<StagedDataLoading>();
            staged->SetStages(st, dl);
            engine->SetDataLoadingModel(staged);
        }
        else
        {
            engine->SetDataLoadingModel(dl);
        }
    }
    engine->Run();
    JobTimes t = TimesOf(engine);
    Simulator::Destroy();
    Config::Reset();
    return t;
}

double
MeanFinish(const JobTimes& t)
{
    double sum = 0;
    for (double f : t.finish)
    {
        sum += f;
    }
    return t.finish.empty() ? 0.0 : sum / t.finish.size();
}

/// Writes a run engine's result files (as trace-replay does) into dir, then ends the simulation.
void
WriteResults(Ptr<ClusterBuilder> cluster, Ptr<ClusterEngine> engine, const std::string& dir)
{
    RunInfo info;
    info.components = cluster->Figures(engine);
    ClusterResults::Write(dir, engine, info);
    cluster->WriteComponentSeries(dir);
    Simulator::Destroy();
    Config::Reset();
}

/// The command line's result files in cliDir equal the C++ script's in cppDir (summary.json
/// without its run-dependent part).
void
CheckSameFiles(const std::string& cliDir, const std::string& cppDir)
{
    for (const char* file : {"jobs.csv", "utilization.csv", "components.csv"})
    {
        INFO(file);
        CHECK(Slurp(cliDir + "/" + file) == Slurp(cppDir + "/" + file));
    }
    CHECK(RunPart(cliDir + "/summary.json") == RunPart(cppDir + "/summary.json"));
}

} // namespace

TEST_CASE("builder: one set of defaults for C++, command line and scenario files", "[builder]")
{
    Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
    ClusterTopology plain;
    ClusterScenario scenario;
    CHECK(b->GetTopology().numNodes == plain.numNodes);
    CHECK(b->GetTopology().nodesPerRack == plain.nodesPerRack);
    CHECK(b->GetTopology().gpusPerNode == plain.gpusPerNode);
    CHECK(scenario.topology.numNodes == plain.numNodes);
    CHECK(scenario.topology.nodesPerRack == plain.nodesPerRack);
    CHECK(scenario.annotator.datasetRule == b->GetAnnotatorOptions().datasetRule);
    CHECK(scenario.annotator.datasetRule == AnnotatorOptions().datasetRule);
    // The quick start's components: all three on (doc/cluster.md).
    CHECK(scenario.ina == "esa");
    CHECK(scenario.storageEnabled);
    CHECK(scenario.storage.policy == "cba");
    CHECK(scenario.provisioning == "kspeed");
    CHECK(scenario.storage.cacheBytes == b->GetStorageOptions().cacheBytes);
    CHECK(scenario.storage.bandwidth == b->GetStorageOptions().bandwidth);
    CHECK(scenario.storage.clientBandwidth == StorageOptions().clientBandwidth);
    RailClusterConfig rail;
    CHECK(b->GetRailConfig().railRateBps == rail.railRateBps);
    CHECK(b->GetRailConfig().spines == rail.spines);
    CHECK(b->GetRailConfig().node.pcieSwitches == rail.node.pcieSwitches);
}

TEST_CASE("builder: every attribute's default passes its own checker", "[builder]")
{
    // A default the checker refuses leaves the field unset (ns-3 does not stop): the
    // components' struct defaults and the builder's checkers must agree.
    TypeId tid = ClusterBuilder::GetTypeId();
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        TypeId::AttributeInformation info = tid.GetAttribute(i);
        INFO(info.name << " = " << info.initialValue->SerializeToString(info.checker));
        CHECK(info.checker->Check(*info.initialValue));
    }
}

TEST_CASE("builder: one alias table, in step with the components' own names", "[builder]")
{
    // Every storage policy the storage module knows has the same TypeId in the table.
    for (const auto& name : StorageAllocationPolicy::Names())
    {
        INFO(name);
        CHECK(ComponentRegistry::Find("storage", name).typeId ==
              StorageAllocationPolicy::TypeNameOf(name));
    }
    for (const auto& name : StorageHelper::PolicyNames())
    {
        CHECK_NOTHROW(ComponentRegistry::Find("storage", name));
    }
    // Every TypeId in the table exists.
    for (const auto& a : ComponentRegistry::Aliases())
    {
        INFO(a.kind << " " << a.name);
        TypeId tid;
        CHECK((a.typeId.empty() || TypeId::LookupByNameFailSafe(a.typeId, &tid)));
    }
    CHECK(ClusterEngineHelper::SchedulerTypeName("tiresias") == "ns3::TiresiasPolicy");
    CHECK(ComponentRegistry::Find("sync", "ring").typeId == "ns3::RingAllReduceSync");
    CHECK_THROWS_WITH(ComponentRegistry::Find("provisioning", "fast"),
                      Catch::Contains("fast") && Catch::Contains("kspeed"));
    Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
    b->SetAttribute("GradientSync", StringValue("magic"));
    CHECK_THROWS_WITH(b->Validate(), Catch::Contains("magic") && Catch::Contains("esa"));
}

TEST_CASE("builder: a C++ script with defaults writes the trace-replay command line's files",
          "[builder]")
{
    std::string dir = TempDir("defaults");
    RunCommandLine({"--policy=tiresias", "--output=" + dir + "/cli"});

    RngSeedManager::SetSeed(1);
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    Ptr<ClusterBuilder> cluster = CreateObject<ClusterBuilder>();
    cluster->SetAttribute("Scheduler", StringValue("tiresias"));
    std::vector<JobRecord> jobs = SampleJobs(cluster, 0);
    Ptr<ClusterEngine> engine = cluster->Build(jobs, WorkloadCatalog::Default());
    engine->Run();
    WriteResults(cluster, engine, dir + "/cpp");
    CheckSameFiles(dir + "/cli/tiresias", dir + "/cpp");
    std::filesystem::remove_all(dir);
}

TEST_CASE("builder: all three components, C++ and command line give the same files", "[builder]")
{
    std::string dir = TempDir("all");
    RunCommandLine({"--policy=fifo",
                    "--max-jobs=150",
                    "--ina=esa",
                    "--provisioning=kspeed",
                    "--storage-policy=cba",
                    "--dataset-rule=vc",
                    "--output=" + dir + "/cli"});

    RngSeedManager::SetSeed(1);
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    Ptr<ClusterBuilder> cluster = CreateObject<ClusterBuilder>();
    cluster->SetAttribute("GradientSync", StringValue("esa"));
    cluster->SetAttribute("Provisioning", StringValue("kspeed"));
    cluster->SetAttribute("StoragePolicy", StringValue("cba"));
    cluster->SetAttribute("DatasetRule", StringValue("vc"));
    std::vector<JobRecord> jobs = SampleJobs(cluster, 150);
    Ptr<ClusterEngine> engine = cluster->Build(jobs, WorkloadCatalog::Default());
    CHECK(DynamicCast<StagedDataLoading>(engine->GetDataLoadingModel()));
    CHECK(DynamicCast<InaGradientSync>(engine->GetGradientSyncModel()));
    engine->Run();
    CHECK(engine->FinishedJobs() == engine->Jobs().size());
    WriteResults(cluster, engine, dir + "/cpp");
    CheckSameFiles(dir + "/cli/fifo", dir + "/cpp");
    std::filesystem::remove_all(dir);
}

TEST_CASE("data path: gradient sync ideal gives storage -> provisioning alone", "[builder]")
{
    for (const char* loader : {"kspeed", "local"})
    {
        INFO(loader);
        JobTimes built = BuilderRun("ideal", loader, "cba");
        JobTimes alone = HandWiredRun("ideal", loader, "cba");
        CHECK(built.finish == alone.finish);
        CHECK(built.data == alone.data);
    }
}

TEST_CASE("data path: the storage tier binds the local loader when remote bandwidth is short",
          "[builder]")
{
    JobTimes built = BuilderRun("ideal", "local", "none");
    JobTimes alone = HandWiredRun("ideal", "local", "none");
    CHECK(built.finish == alone.finish);
    CHECK(built.data == alone.data);
}

TEST_CASE("data path: provisioning ideal gives INA + storage alone", "[builder]")
{
    JobTimes built = BuilderRun("esa", "ideal", "cba");
    JobTimes alone = HandWiredRun("esa", "ideal", "cba");
    CHECK(built.finish == alone.finish);
    CHECK(built.data == alone.data);
    CHECK(built.sync == alone.sync);
}

TEST_CASE("data path: storage ideal gives INA + provisioning alone", "[builder]")
{
    // The local loader reads every sample from the storage cluster, so its limits matter.
    JobTimes built = BuilderRun("esa", "local", "ideal");
    JobTimes alone = HandWiredRun("esa", "local", "ideal");
    CHECK(built.finish == alone.finish);
    CHECK(built.data == alone.data);
    CHECK(built.sync == alone.sync);
}

TEST_CASE("data path: the loader reads its misses at the storage policy's bandwidth", "[builder]")
{
    // Scarce remote bandwidth and no cache: the storage tier binds the composed path, so it
    // is slower than the loader on the default storage cluster, and never faster than the
    // storage tier alone (the loader is a second stage in series).
    auto run = [](const std::string& loader, const std::string& storage, double bandwidth) {
        RngSeedManager::SetSeed(1);
        Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
        Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
        b->SetAttribute("GradientSync", StringValue("ideal"));
        b->SetAttribute("Provisioning", StringValue(loader));
        b->SetAttribute("StoragePolicy", StringValue(storage));
        b->SetAttribute("StorageBandwidth", DoubleValue(bandwidth));
        b->SetAttribute("CacheBytes", DoubleValue(0));
        std::vector<JobRecord> jobs = SampleJobs(b, 120);
        Ptr<ClusterEngine> engine = b->Build(jobs, WorkloadCatalog::Default());
        engine->Run();
        JobTimes t = TimesOf(engine);
        Simulator::Destroy();
        Config::Reset();
        return t;
    };
    JobTimes composed = run("local", "none", 2e8);
    JobTimes loaderAlone = run("local", "ideal", 25e9);
    JobTimes storageAlone = run("ideal", "none", 2e8);
    REQUIRE(composed.finish.size() == loaderAlone.finish.size());
    INFO("mean finish: composed " << MeanFinish(composed) << ", loader alone "
                                  << MeanFinish(loaderAlone) << ", storage alone "
                                  << MeanFinish(storageAlone));
    CHECK(MeanFinish(composed) > MeanFinish(loaderAlone) * 1.01);
    CHECK(MeanFinish(composed) >= MeanFinish(storageAlone) * (1 - 1e-9));
}

TEST_CASE("attribution: GPU time held = computing + lost to data + lost to sync", "[builder]")
{
    // FIFO never preempts: each job holds its GPUs from start to finish.
    for (const auto& [sync, storage] :
         std::vector<std::pair<std::string, std::string>>{{"esa", "ideal"},
                                                          {"ideal", "none"},
                                                          {"ring", "fair"}})
    {
        RngSeedManager::SetSeed(1);
        Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
        Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
        b->SetAttribute("GradientSync", StringValue(sync));
        // The storage tier alone on the data path: a loader's own cache would hide its stalls.
        b->SetAttribute("Provisioning", StringValue("ideal"));
        b->SetAttribute("StoragePolicy", StringValue(storage));
        b->SetAttribute("StorageBandwidth", DoubleValue(3e8));
        b->SetAttribute("CacheBytes", DoubleValue(storage == "fair" ? 0.0 : 10e12));
        std::vector<JobRecord> jobs = SampleJobs(b, 150);
        Ptr<ClusterEngine> engine = b->Build(jobs, WorkloadCatalog::Default());
        engine->Run();
        std::map<std::string, uint32_t> bounds;
        double lostData = 0;
        double lostSync = 0;
        for (const auto& j : engine->Jobs())
        {
            REQUIRE(j->state == ClusterJob::FINISHED);
            double held = j->gpus * (j->finishTime - j->startTime);
            double computing = j->gpus * j->record.iterations * j->computeTime;
            INFO(sync << "/" << storage << " job " << j->record.id);
            CHECK(held == Approx(computing + j->stallData + j->stallSync).epsilon(1e-6));
            ++bounds[j->bound.substr(0, j->bound.find(':'))];
            lostData += j->stallData;
            lostSync += j->stallSync;
        }
        INFO(sync << "/" << storage);
        if (sync == "ideal")
        {
            CHECK(lostSync == 0);
            CHECK(bounds["sync"] == 0);
        }
        else
        {
            CHECK(lostSync > 0);
            CHECK(bounds["sync"] > 0);
        }
        if (storage == "ideal")
        {
            CHECK(lostData == 0);
            CHECK(bounds["data"] == 0);
        }
        else
        {
            CHECK(lostData > 0);
            CHECK(bounds["data"] > 0);
        }
        CHECK(bounds["compute"] > 0);
        Simulator::Destroy();
        Config::Reset();
    }
}
