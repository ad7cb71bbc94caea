/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

/**
 * \file
 * \ingroup aicluster
 * Disaggregated storage: replay a job trace under each cache/bandwidth allocation policy
 * (no cache, cache-all, fair share, shared LRU, Quiver-like, SiloD-like, CBA, AutoCBA) and
 * compare total IO cost, social welfare, mean JCT, cache hit ratio and bandwidth used.
 *
 *   ./ns3 run storage-allocation                          # bundled sample trace
 *   ./ns3 run "storage-allocation --trace=../shared/traces/philly/philly.csv --nodes=128"
 *   ./ns3 run "storage-allocation --dataset-rule=job --cache-tb=2 --io-budget=20"
 *
 * Writes <output>/<policy>/{jobs.csv,utilization.csv,summary.json} and
 * <output>/storage-summary.json (every policy's numbers with the configuration and seed).
 */

#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/progress-reporter.h"
#include "ns3/storage-helper.h"
#include "ns3/strict-options.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

using namespace ns3;

namespace
{

/** What the example adds to StorageRunSummary, from the engine's jobs. */
struct JobStats
{
    double medianJct{0}; //!< [s]
    double slowed{0};    //!< share of finished jobs with a longer JCT than under the first policy
    double gpuHours{0};  //!< GPU time the finished jobs received [GPU-h]
    double welfare{0};   //!< sum over jobs of the utility of ideal / JCT (linear, concave) or
                         //!< deadlines met, minus gpuCost x (GPUs / asked GPUs - 1)
};

/**
 * \param engine the engine after its run
 * \param baseline per job id, its JCT under the first policy (filled on the first call)
 * \param utility linear, deadline or concave
 * \param slack deadline slack
 * \param gpuCost welfare cost of a job's requested GPUs (0 = free)
 * \return the stats
 */
JobStats
StatsOf(Ptr<const ClusterEngine> engine,
        std::vector<double>& baseline,
        const std::string& utility,
        double slack,
        double gpuCost)
{
    JobStats s;
    std::vector<double> jcts;
    bool first = baseline.empty();
    uint64_t slowed = 0;
    for (const auto& job : engine->Jobs())
    {
        if (job->state != ClusterJob::FINISHED)
        {
            continue;
        }
        uint64_t id = job->record.id;
        double jct = job->finishTime - job->record.submitTime;
        jcts.push_back(jct);
        if (first)
        {
            baseline.resize(std::max<size_t>(baseline.size(), id + 1), -1.0);
            baseline[id] = jct;
        }
        else if (id < baseline.size() && baseline[id] >= 0 && jct > baseline[id] * (1 + 1e-9))
        {
            ++slowed;
        }
        s.gpuHours += job->attainedService / 3600;
        // As StorageHelper::Summarize: ideal = its work at compute speed on the asked GPUs.
        double ideal = job->record.iterations * job->profile->ComputeTime(job->record.numGpus);
        double speed = jct > 0 ? ideal / jct : 1.0;
        double value = utility == "deadline"  ? (jct <= slack * ideal * (1 + 1e-9) ? 1.0 : 0.0)
                       : utility == "concave" ? std::sqrt(speed)
                                              : speed;
        // As AutoCbaSizing prices GPU time: gpuCost x (GPUs / asked - 1), 0 on the asked count.
        s.welfare += value - gpuCost * (double(job->gpus) / job->record.numGpus - 1);
    }
    if (!jcts.empty())
    {
        size_t mid = jcts.size() / 2;
        std::nth_element(jcts.begin(), jcts.begin() + mid, jcts.end());
        double upper = jcts[mid];
        if (jcts.size() % 2 == 0)
        {
            double lower = *std::max_element(jcts.begin(), jcts.begin() + mid);
            s.medianJct = 0.5 * (lower + upper);
        }
        else
        {
            s.medianJct = upper;
        }
        s.slowed = double(slowed) / jcts.size();
    }
    return s;
}

void
PrintHeader(const std::string& utility)
{
    std::cout << std::left << std::setw(10) << "policy" << std::right << std::setw(7) << "jobs"
              << std::setw(12) << "IOcost[$]" << std::setw(11) << "bw[$]" << std::setw(11)
              << "cache[$]" << std::setw(12) << ("welfare:" + utility.substr(0, 3)) << std::setw(11)
              << "meanJCT[h]" << std::setw(10) << "medJCT[h]" << std::setw(8) << "slowed"
              << std::setw(10) << "GPU-kh" << std::setw(8) << "hit" << std::setw(14)
              << "meanBW[GB/s]" << std::setw(14) << "peakBW[GB/s]" << std::setw(15)
              << "peakCache[TB]" << std::setw(9) << "wall[s]" << std::endl;
}

void
PrintRow(const StorageRunSummary& s, const JobStats& j, double wall)
{
    std::cout << std::fixed << std::setprecision(2) << std::left << std::setw(10) << s.policy
              << std::right << std::setw(7) << s.finished << std::setw(12) << s.ioCost
              << std::setw(11) << s.bandwidthCost << std::setw(11) << s.cacheCost << std::setw(12)
              << j.welfare << std::setw(11) << s.meanJct / 3600 << std::setw(10)
              << j.medianJct / 3600 << std::setw(8) << std::setprecision(3) << j.slowed
              << std::setw(10) << std::setprecision(2) << j.gpuHours / 1000 << std::setw(8)
              << std::setprecision(3) << s.hitRatio << std::setw(14) << std::setprecision(2)
              << s.meanBandwidth / 1e9 << std::setw(14) << s.peakBandwidth / 1e9 << std::setw(15)
              << s.peakCache / 1e12 << std::setw(9) << wall << std::endl;
    std::cout.unsetf(std::ios::fixed);
}

nlohmann::json
ToJson(const StorageRunSummary& s, const JobStats& j, double wall)
{
    return {{"policy", s.policy},
            {"finished", s.finished},
            {"io_cost_usd", s.ioCost},
            {"bandwidth_cost_usd", s.bandwidthCost},
            {"cache_cost_usd", s.cacheCost},
            {"welfare_linear", s.welfareLinear},
            {"welfare_deadline", s.welfareDeadline},
            {"welfare", j.welfare},
            {"mean_jct_s", s.meanJct},
            {"median_jct_s", j.medianJct},
            {"slowed_share", j.slowed},
            {"gpu_hours", j.gpuHours},
            {"hit_ratio", s.hitRatio},
            {"mean_remote_bandwidth_Bps", s.meanBandwidth},
            {"peak_bandwidth_Bps", s.peakBandwidth},
            {"peak_cache_bytes", s.peakCache},
            {"makespan_s", s.makespan},
            {"allocation_solves", s.solves},
            {"wall_s", wall}};
}

int
Run(int argc, char* argv[])
{
    ClusterScenario scenario;
    scenario.policies = {"fifo"};
    scenario.outputDir = "results/storage-allocation";
    // The scenario's storage options: --cache-bytes, --storage-bandwidth, --io-budget and a
    // --scenario file land here too; this example adds friendlier units on top.
    StorageOptions& storage = scenario.storage;
    std::string policiesText = "none,cache-all,fair,lru,quiver,silod,cba,autocba";
    double cacheTb = storage.cacheBytes / 1e12;
    double bandwidthGBps = storage.bandwidth / 1e9;
    double clientGBps = storage.clientBandwidth / 1e9;
    bool quiet = false;
    AnnotatorOptions& ann = scenario.annotator;
    ann.datasetRule = "vc";
    // The storage tier alone on the data path (--provisioning puts a loader in front of it).
    scenario.provisioning = "ideal";

    StrictCommandLine cmd(__FILE__);
    cmd.Usage("Replay a trace under each storage cache/bandwidth allocation policy and compare "
              "IO cost, welfare, JCT, hit ratio and bandwidth (doc/storage.md).");
    scenario.AddCommandLineOptions(cmd);
    cmd.AddValue("storage-policies",
                 "Storage policies, comma separated, of: " + StorageAllocationPolicy::NameList(),
                 policiesText);
    cmd.AddValue("cache-tb", "Cache tier capacity", cacheTb, 0, 1e9, "TB");
    cmd.AddValue("cache-medium",
                 "Cache medium: ssd or memory (sets its default price)",
                 storage.medium);
    cmd.AddValue("cache-price",
                 "Cache price [$ per GB-hour]; < 0 = the medium's default",
                 storage.cachePrice);
    cmd.AddValue("bandwidth", "Aggregate remote bandwidth", bandwidthGBps, 0, 1e9, "GB/s");
    cmd.AddValue("client-bandwidth",
                 "Per-job remote bandwidth cap; 0 = none",
                 clientGBps,
                 0,
                 1e9,
                 "GB/s");
    cmd.AddValue("bandwidth-price",
                 "Remote bandwidth price [$ per (GB/s)-hour]; < 0 = default",
                 storage.bandwidthPrice);
    cmd.AddValue("prefetch",
                 "Prefetch grown caches instead of filling them lazily",
                 storage.prefetch);
    cmd.AddValue("utility",
                 "AutoCBA utility and welfare shown: linear, deadline or concave",
                 storage.utility);
    double gpuCost = 1;
    cmd.AddValue("gpu-cost",
                 "Welfare cost of GPU time [utility per requested GPU allocation, >= 0]: "
                 "ns3::AutoCbaSizing::GpuCost, and the welfare shown subtracts gpu-cost x "
                 "(GPUs / requested GPUs - 1) per job (0 for a job on what it asked)",
                 gpuCost);
    cmd.AddValue("deadline-slack",
                 "Deadline = submit + slack x requested run time",
                 storage.deadlineSlack);
    cmd.AddValue("share-probability",
                 "Probability a job reads its group's shared dataset",
                 ann.datasetShareProbability,
                 0,
                 1);
    cmd.AddValue("dataset-pool",
                 "Variants per catalog dataset for --dataset-rule=pool",
                 ann.datasetPoolSize,
                 1);
    cmd.AddValue("dataset-scale-min",
                 "Smallest dataset size factor (log-uniform per dataset)",
                 ann.datasetScaleMin,
                 1e-6,
                 1e6);
    cmd.AddValue("dataset-scale-max",
                 "Largest dataset size factor",
                 ann.datasetScaleMax,
                 1e-6,
                 1e6);
    cmd.AddValue("quiet", "No progress lines", quiet);
    cmd.Parse(argc, argv);
    // The options in GB/s and TB are checked in their own units (StorageOptions speaks bytes).
    if (!(bandwidthGBps > 0) || !std::isfinite(bandwidthGBps))
    {
        throw std::invalid_argument("--bandwidth: expected a number > 0 [GB/s], got " +
                                    std::to_string(bandwidthGBps));
    }
    if (!(clientGBps >= 0) || !std::isfinite(clientGBps))
    {
        throw std::invalid_argument("--client-bandwidth: expected a number >= 0 [GB/s], got " +
                                    std::to_string(clientGBps));
    }
    if (!(cacheTb >= 0) || !std::isfinite(cacheTb))
    {
        throw std::invalid_argument("--cache-tb: expected a number >= 0 [TB], got " +
                                    std::to_string(cacheTb));
    }
    if (!(gpuCost >= 0) || !std::isfinite(gpuCost))
    {
        throw std::invalid_argument("--gpu-cost: expected a number >= 0, got " +
                                    std::to_string(gpuCost));
    }
    Config::SetDefault("ns3::AutoCbaSizing::GpuCost", DoubleValue(gpuCost));
    scenario.Finalize();
    scenario.ApplyAttributes();
    // The TB and GB/s options win only when given (they start at the options' defaults), so a
    // --cache-bytes or a scenario file is not silently overwritten.
    if (cacheTb != StorageOptions().cacheBytes / 1e12)
    {
        storage.cacheBytes = cacheTb * 1e12;
    }
    if (bandwidthGBps != StorageOptions().bandwidth / 1e9)
    {
        storage.bandwidth = bandwidthGBps * 1e9;
    }
    if (clientGBps != StorageOptions().clientBandwidth / 1e9)
    {
        storage.clientBandwidth = clientGBps * 1e9;
    }
    std::vector<std::string> policies = strictopt::List("--storage-policies", policiesText);
    for (const std::string& p : policies)
    {
        StorageOptions check = storage;
        check.policy = p;
        check.Validate();
    }
    ProgressReporter::SetQuiet(quiet);
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(quiet ? 0.0 : 5.0));
    RngSeedManager::SetSeed(scenario.seed);
    RngSeedManager::SetRun(scenario.run);
    ann.seed = scenario.seed;

    PrepareOutputDirectory(scenario.outputDir);
    TraceReadReport report;
    std::vector<JobRecord> jobs = scenario.ReadJobs(std::cout, &report);
    const WorkloadCatalog catalog = scenario.Catalog();
    TraceAnnotator annotator(catalog, ann);
    annotator.Annotate(jobs);
    std::set<std::string> datasets;
    for (const JobRecord& j : jobs)
    {
        datasets.insert(j.dataset);
    }
    const ClusterTopology& topology = scenario.topology;
    std::cout << "trace " << report.file << ": " << jobs.size() << " jobs, " << datasets.size()
              << " datasets (rule " << ann.datasetRule << ", share probability "
              << ann.datasetShareProbability << ") | cluster " << topology.TotalGpus()
              << " GPUs, scheduler " << scenario.policies.front() << " | cache "
              << storage.cacheBytes / 1e12 << " TB " << storage.medium << ", remote "
              << storage.bandwidth / 1e9 << " GB/s (per job " << storage.clientBandwidth / 1e9
              << "), IO budget " << storage.ioBudgetPerHour << " $/h | seed " << scenario.seed
              << std::endl;

    RunInfo info;
    info.experiment = "storage-allocation";
    info.seed = scenario.seed;
    info.run = scenario.run;
    info.commandLine = CommandLineText(argc, argv);
    info.settings = scenario.Settings();
    info.settings["storage.cache_bytes"] = std::to_string(storage.cacheBytes);
    info.settings["storage.cache_medium"] = storage.medium;
    info.settings["storage.cache_price"] = std::to_string(storage.cachePrice);
    info.settings["storage.bandwidth_Bps"] = std::to_string(storage.bandwidth);
    info.settings["storage.client_bandwidth_Bps"] = std::to_string(storage.clientBandwidth);
    info.settings["storage.bandwidth_price"] = std::to_string(storage.bandwidthPrice);
    info.settings["storage.io_budget_per_hour"] = std::to_string(storage.ioBudgetPerHour);
    info.settings["storage.prefetch"] = storage.prefetch ? "true" : "false";
    info.settings["storage.utility"] = storage.utility;
    info.settings["storage.deadline_slack"] = std::to_string(storage.deadlineSlack);
    info.settings["annotator.dataset_rule"] = ann.datasetRule;
    info.settings["annotator.dataset_share_probability"] =
        std::to_string(ann.datasetShareProbability);
    info.settings["annotator.dataset_pool_size"] = std::to_string(ann.datasetPoolSize);
    info.settings["annotator.dataset_scale_min"] = std::to_string(ann.datasetScaleMin);
    info.settings["annotator.dataset_scale_max"] = std::to_string(ann.datasetScaleMax);

    nlohmann::json out;
    out["experiment"] = info.experiment;
    out["aicluster_version"] = AICLUSTER_VERSION;
    out["seed"] = scenario.seed;
    out["run"] = scenario.run;
    out["command_line"] = info.commandLine;
    out["settings"] = info.settings;
    out["datasets"] = datasets.size();
    out["policies"] = nlohmann::json::array();
    std::vector<std::tuple<StorageRunSummary, JobStats, double>> rows;
    std::vector<double> baseline; // per job id, its JCT under the first policy
    for (const std::string& policy : policies)
    {
        ClusterEngineHelper helper;
        helper.SetTopology(topology);
        helper.SetScheduler(ClusterEngineHelper::SchedulerTypeName(scenario.policies.front()));
        helper.SetAllocator("ns3::GpuAllocator",
                            "Rule",
                            EnumValue(scenario.placement == "spread" ? GpuAllocator::SPREAD
                                                                     : GpuAllocator::CONSOLIDATED));
        Ptr<ClusterEngine> engine = helper.Create(jobs, catalog);
        StorageOptions options = storage;
        options.policy = policy;
        Ptr<StorageDataLoading> model = StorageHelper(options).Install(engine, jobs, annotator);
        engine->Run();
        StorageRunSummary s = StorageHelper::Summarize(engine, model, options);
        info.settings["storage.policy"] = policy;
        ClusterResults::Write(scenario.outputDir + "/" + policy, engine, info);
        JobStats stats = StatsOf(engine, baseline, storage.utility, storage.deadlineSlack, gpuCost);
        rows.emplace_back(s, stats, engine->WallSeconds());
        out["policies"].push_back(ToJson(s, stats, engine->WallSeconds()));
        Simulator::Destroy();
    }
    std::cout << std::endl;
    PrintHeader(storage.utility);
    for (const auto& [s, stats, wall] : rows)
    {
        PrintRow(s, stats, wall);
    }
    std::cout << "(welfare: sum over jobs of " << storage.utility << " utility"
              << (gpuCost > 0 ? " minus gpu-cost x (GPUs / requested GPUs - 1)" : "")
              << "; slowed: share of jobs with a longer JCT than under " << policies.front() << ")"
              << std::endl;
    std::string path = scenario.outputDir + "/storage-summary.json";
    WriteTextFileChecked(path, out.dump(2) + "\n");
    std::cout << "\nresults: " << path << " and " << scenario.outputDir
              << "/<policy>/{jobs.csv,utilization.csv,summary.json}" << std::endl;
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("storage-allocation", argc, argv, Run);
}
