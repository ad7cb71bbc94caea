/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-replay.h"

#include "cluster-builder.h"
#include "cluster-scenario.h"
#include "strict-options.h"
#include "sweep-runner.h"

#include "ns3/cluster-results.h"
#include "ns3/core-module.h"
#include "ns3/progress-reporter.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <cstring>
#include <iomanip>
#include <map>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterReplay");

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
PrintTableHeader(std::ostream& out)
{
    out << std::left << std::setw(10) << "policy" << std::right << std::setw(8) << "jobs"
        << std::setw(9) << "rejected" << std::setw(12) << "meanJCT[h]" << std::setw(12)
        << "medJCT[h]" << std::setw(12) << "p95JCT[h]" << std::setw(12) << "p99JCT[h]"
        << std::setw(13) << "meanQueue[h]" << std::setw(13) << "makespan[d]" << std::setw(10)
        << "GPUalloc" << std::setw(9) << "preempt" << std::setw(10) << "wall[s]" << std::endl;
}

void
PrintTableRow(std::ostream& out, const std::string& policy, const RunSummary& s, double wall)
{
    out << std::fixed << std::setprecision(2) << std::left << std::setw(10) << policy << std::right
        << std::setw(8) << s.finished << std::setw(9) << s.rejected << std::setw(12)
        << s.meanJct / 3600 << std::setw(12) << s.medianJct / 3600 << std::setw(12)
        << s.p95Jct / 3600 << std::setw(12) << s.p99Jct / 3600 << std::setw(13)
        << s.meanQueueing / 3600 << std::setw(13) << s.makespan / 86400 << std::setw(10)
        << s.gpuAllocation << std::setw(9) << s.preemptions << std::setw(10) << std::setprecision(3)
        << wall << std::endl;
    out.unsetf(std::ios::fixed);
}

} // namespace

int
RunTraceReplay(int argc, char* argv[], const std::string& program, std::ostream& out)
{
    NS_LOG_FUNCTION(argc << program);
    ClusterScenario scenario = ScenarioFromArguments(argc, argv);
    std::string scenarioPath;
    bool quiet = false;
    StrictCommandLine cmd(program);
    cmd.Usage("Replay a production job trace through a simulated GPU cluster.\n"
              "Writes <output>/<policy>/{jobs.csv,utilization.csv,components.csv,summary.json}.");
    cmd.AddValue("scenario",
                 "JSON scenario file (doc/scenario.md); options below override it",
                 scenarioPath);
    scenario.AddCommandLineOptions(cmd);
    cmd.AddValue("quiet", "No progress lines", quiet);
    SweepRunner::DescribeOptions(cmd);
    cmd.Parse(argc, argv);
    scenario.Finalize();
    scenario.ApplyAttributes();
    PrepareOutputDirectory(scenario.outputDir);
    ProgressReporter::SetQuiet(quiet);
    if (quiet)
    {
        Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    }
    RngSeedManager::SetSeed(scenario.seed);
    RngSeedManager::SetRun(scenario.run);

    TraceReadReport report;
    std::vector<JobRecord> records = scenario.ReadJobs(out, &report);
    const WorkloadCatalog catalog = scenario.Catalog();
    scenario.Builder(scenario.policies.front())->Annotate(records, catalog);
    // Every policy's engine refers to these records; none copies them.
    const SharedJobRecords jobs =
        std::make_shared<const std::vector<JobRecord>>(std::move(records));

    const ClusterTopology& topology = scenario.topology;
    out << "cluster: " << topology.numNodes << " nodes x " << topology.gpusPerNode
        << " GPUs = " << topology.TotalGpus() << " GPUs, " << topology.NumRacks()
        << " racks; placement " << scenario.placement << "; gradient sync " << scenario.ina
        << "; provisioning " << scenario.provisioning << "; storage "
        << (scenario.storageEnabled ? scenario.storage.policy : "ideal") << "; seed "
        << scenario.seed << std::endl;

    RunInfo info;
    info.experiment = "trace-replay";
    info.seed = scenario.seed;
    info.run = scenario.run;
    info.commandLine = CommandLineText(argc, argv);
    info.settings = scenario.Settings();
    info.settings["trace.records"] = std::to_string(report.records);
    info.settings["trace.kept"] = std::to_string(report.kept);
    info.settings["trace.malformed_skipped"] = std::to_string(report.malformed);

    struct Run
    {
        std::string policy;
        Ptr<ClusterEngine> engine;
        std::map<std::string, std::map<std::string, double>> figures;
        RunSummary summary; //!< as ClusterResults::Write computed it
    };

    std::vector<Run> runs;
    for (const std::string& policy : scenario.policies)
    {
        Ptr<ClusterBuilder> builder = scenario.Builder(policy);
        Ptr<ClusterEngine> engine = builder->Build(jobs, catalog);
        NS_LOG_INFO("policy " << policy << ": replaying " << jobs->size() << " jobs");
        engine->Run();
        RunInfo policyInfo = info;
        policyInfo.components = builder->Figures(engine);
        std::string dir = scenario.outputDir + "/" + policy;
        RunSummary summary = ClusterResults::Write(dir, engine, policyInfo);
        builder->WriteComponentSeries(dir);
        runs.push_back({policy, engine, policyInfo.components, summary});
        Simulator::Destroy();
    }

    out << std::endl;
    PrintTableHeader(out);
    for (const auto& run : runs)
    {
        PrintTableRow(out, run.policy, run.summary, run.engine->WallSeconds());
    }
    if (!runs.front().figures.empty())
    {
        out << "\nper component (doc/cluster.md):" << std::endl;
    }
    for (const auto& run : runs)
    {
        for (const auto& [component, figures] : run.figures)
        {
            out << std::left << std::setw(10) << run.policy << std::setw(14) << component;
            for (const auto& [name, value] : figures)
            {
                out << ' ' << name << '=' << std::setprecision(4) << value;
            }
            out << std::endl;
        }
    }
    out << "\nresults: " << scenario.outputDir
        << "/<policy>/{jobs.csv,utilization.csv,components.csv,summary.json}" << std::endl;
    return 0;
}

} // namespace ns3
