/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup aicluster
 * The main whole-cluster experiment: replay a production job trace through a
 * simulated GPU cluster under one or more scheduling policies, write per-job
 * and summary result files, and print a comparison table.
 *
 *   ./ns3 run trace-replay                       # bundled sample, 16 x 8 GPUs, fifo/sjf/tiresias
 *   ./ns3 run "trace-replay --trace=../shared/traces/philly/philly.csv --nodes=352
 * --policy=tiresias"
 *   ./ns3 run "trace-replay --scenario=examples/scenarios/philly-full.json"
 *
 * Options come from a JSON scenario file (--scenario, documented in
 * doc/scenario.md) and the command line, which wins. Any ns-3 attribute can
 * be set too, e.g. --ns3::TiresiasPolicy::Thresholds=3600,36000.
 */

#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/provisioning-data-loading.h"
#include "ns3/storage-backend.h"
#include "ns3/storage-helper.h"
#include "ns3/strict-options.h"
#include "ns3/sweep-runner.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <cstring>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// The scenario file named by --scenario=..., read before the other options so they override it.
ClusterScenario
ScenarioFromArguments(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i)
    {
        for (const std::string flag : {"--scenario=", "-scenario="}) // as ns-3 reads options
        {
            if (std::strncmp(argv[i], flag.c_str(), flag.size()) == 0)
            {
                return ClusterScenario::Load(argv[i] + flag.size());
            }
        }
    }
    return ClusterScenario();
}

void
PrintReport(const TraceReadReport& r)
{
    std::cout << "trace " << r.file << " (" << r.format << "): " << r.records << " records, "
              << r.kept << " jobs kept";
    std::cout << " | dropped: " << r.malformed << " malformed, " << r.notGpuJobs
              << " without GPUs, " << r.unfinished << " never ran, " << r.outsideWindow
              << " outside the window, " << r.otherVc << " other VCs, " << r.overMaxJobs
              << " over --max-jobs" << std::endl;
    for (const auto& problem : r.problems)
    {
        std::cout << "  skipped: " << problem << std::endl;
    }
}

void
PrintTableHeader()
{
    std::cout << std::left << std::setw(10) << "policy" << std::right << std::setw(8) << "jobs"
              << std::setw(9) << "rejected" << std::setw(12) << "meanJCT[h]" << std::setw(12)
              << "medJCT[h]" << std::setw(12) << "p95JCT[h]" << std::setw(12) << "p99JCT[h]"
              << std::setw(13) << "meanQueue[h]" << std::setw(13) << "makespan[d]" << std::setw(10)
              << "GPUalloc" << std::setw(9) << "preempt" << std::setw(10) << "wall[s]" << std::endl;
}

void
PrintTableRow(const std::string& policy, const RunSummary& s, double wall)
{
    std::cout << std::fixed << std::setprecision(2) << std::left << std::setw(10) << policy
              << std::right << std::setw(8) << s.finished << std::setw(9) << s.rejected
              << std::setw(12) << s.meanJct / 3600 << std::setw(12) << s.medianJct / 3600
              << std::setw(12) << s.p95Jct / 3600 << std::setw(12) << s.p99Jct / 3600
              << std::setw(13) << s.meanQueueing / 3600 << std::setw(13) << s.makespan / 86400
              << std::setw(10) << s.gpuAllocation << std::setw(9) << s.preemptions << std::setw(10)
              << std::setprecision(3) << wall << std::endl;
    std::cout.unsetf(std::ios::fixed);
}

int
Replay(int argc, char* argv[])
{
    ClusterScenario scenario = ScenarioFromArguments(argc, argv);
    std::string scenarioPath;
    bool quiet = false;
    StrictCommandLine cmd(__FILE__);
    cmd.Usage("Replay a production job trace through a simulated GPU cluster.\n"
              "Writes <output>/<policy>/{jobs.csv,utilization.csv,summary.json}.");
    cmd.AddValue("scenario",
                 "JSON scenario file (doc/scenario.md); options below override it",
                 scenarioPath);
    scenario.AddCommandLineOptions(cmd);
    cmd.AddValue("quiet", "No progress lines", quiet);
    cmd.Parse(argc, argv);
    scenario.Finalize();
    scenario.ApplyAttributes();
    PrepareOutputDirectory(scenario.outputDir);
    if (quiet)
    {
        Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    }
    RngSeedManager::SetSeed(scenario.seed);
    RngSeedManager::SetRun(scenario.run);

    TraceReadReport report;
    std::vector<JobRecord> jobs = ReadTrace(scenario.tracePath, scenario.traceOptions, &report);
    PrintReport(report);
    if (jobs.empty())
    {
        throw TraceError(scenario.tracePath,
                         0,
                         "",
                         "expected at least one job left after the filters (window, VC, "
                         "max-jobs, error policy), got none");
    }
    WorkloadCatalog loaded;
    if (!scenario.catalogPath.empty())
    {
        loaded = WorkloadCatalog::Load(scenario.catalogPath);
    }
    const WorkloadCatalog& catalog =
        scenario.catalogPath.empty() ? WorkloadCatalog::Default() : loaded;
    TraceAnnotator annotator(catalog, scenario.annotator);
    annotator.Annotate(jobs);

    const ClusterTopology& topology = scenario.topology;
    std::cout << "cluster: " << topology.numNodes << " nodes x " << topology.gpusPerNode
              << " GPUs = " << topology.TotalGpus() << " GPUs, " << topology.NumRacks()
              << " racks; placement " << scenario.placement << "; gradient sync " << scenario.ina
              << "; data loading "
              << (scenario.storageEnabled ? "storage " + scenario.storage.policy
                                          : scenario.provisioning)
              << "; seed " << scenario.seed << std::endl;

    RunInfo info;
    info.experiment = "trace-replay";
    info.seed = scenario.seed;
    info.run = scenario.run;
    info.commandLine = CommandLineText(argc, argv);
    info.settings = scenario.Settings();
    info.settings["trace.records"] = std::to_string(report.records);
    info.settings["trace.kept"] = std::to_string(report.kept);
    info.settings["trace.malformed_skipped"] = std::to_string(report.malformed);

    std::vector<std::pair<std::string, Ptr<ClusterEngine>>> runs;
    std::vector<std::pair<std::string, StorageRunSummary>> storageRows;
    for (const std::string& policy : scenario.policies)
    {
        ClusterEngineHelper helper;
        helper.SetTopology(topology);
        helper.SetScheduler(ClusterEngineHelper::SchedulerTypeName(policy));
        helper.SetAllocator("ns3::GpuAllocator",
                            "Rule",
                            EnumValue(scenario.placement == "spread" ? GpuAllocator::SPREAD
                                                                     : GpuAllocator::CONSOLIDATED));
        helper.SetGradientSyncByName(scenario.ina, scenario.inaPoolSize);
        Ptr<ClusterEngine> engine = helper.Create(jobs, catalog);
        Ptr<StorageDataLoading> storage;
        if (scenario.storageEnabled)
        {
            storage = StorageHelper(scenario.storage).Install(engine, jobs, annotator);
        }
        else if (scenario.provisioning != "ideal")
        {
            Ptr<ProvisioningDataLoading> loading = CreateObject<ProvisioningDataLoading>();
            loading->Configure(scenario.provisioning, CreateObject<StorageBackend>());
            loading->SetNodeTemplate(RailClusterConfig{});
            engine->SetDataLoadingModel(loading);
        }
        engine->Run();
        if (storage)
        {
            storageRows.push_back(
                {policy, StorageHelper::Summarize(engine, storage, scenario.storage)});
        }
        std::string dir = scenario.outputDir + "/" + policy;
        ClusterResults::Write(dir, engine, info);
        runs.push_back({policy, engine});
        Simulator::Destroy();
    }

    std::cout << std::endl;
    PrintTableHeader();
    for (const auto& [policy, engine] : runs)
    {
        PrintTableRow(policy, ClusterResults::Summarize(engine), engine->WallSeconds());
    }
    for (const auto& [policy, st] : storageRows)
    {
        std::cout << "storage (" << st.policy << ") under " << policy << ": IO cost $" << st.ioCost
                  << " (bandwidth $" << st.bandwidthCost << ", cache $" << st.cacheCost
                  << "), cache hit ratio " << st.hitRatio << ", mean remote bandwidth "
                  << st.meanBandwidth / 1e9 << " GB/s" << std::endl;
    }
    std::cout << "\nresults: " << scenario.outputDir
              << "/<policy>/{jobs.csv,utilization.csv,summary.json}" << std::endl;
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("trace-replay", argc, argv, [](int argc, char* argv[]) {
        // An option with a list of values (or a scenario's sweep block) makes this a sweep:
        // one child process per point (doc/sweeps.md).
        SweepRunner sweep("trace-replay", argc, argv, {"policy", "vc"}, "results/trace-replay");
        if (sweep.IsSweep())
        {
            return sweep.Run();
        }
        return Replay(argc, argv);
    });
}
