/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

/**
 * \file
 * Benchmark: replay the full public Philly trace (82,247 jobs) on a cluster of Philly's size,
 * end to end as trace-replay does it (read, annotate, replay, write the result files), under
 * each scheduling policy and each component configuration, side by side. Per row: the time of
 * each phase, the total, events, scheduling passes and peak memory, each the median of
 * --runs runs; every run is a child process of its own, so that its peak resident memory is
 * its own. Then, in the same run:
 *  - the Python FIFO loop of ../shared/anchors/py-fifo-replay.py on the same trace, timed the
 *    same way (medians, wall and CPU time), and the ratio of the scheduling-only FIFO row's
 *    total to it; then trace-replay itself run as a process on the same row (start, ns-3's
 *    initialisation and exit included, as for the anchor), and its ratio. On a shared machine
 *    the CPU ratios are the steadier ones;
 *  - with --tenfold: the trace with ten copies of every job at the same submit times on ten
 *    times the cluster, and how wall time and memory grow from 1x to 10x;
 *  - the solver alone: one KSpeed provisioning pass (ProvisioningModel::Solve, every node
 *    busy with one 8-GPU job) per cluster size, time per pass and per flow: as a replay runs
 *    it (usages kept), cold (every usage built) and warm (every usage kept), and with no
 *    usage kept (ReuseUsages false).
 *
 *   ./ns3 run philly-replay-bench
 *   ./ns3 run "philly-replay-bench --configs=sched,esa --policy=fifo --runs=5"
 *   ./ns3 run "philly-replay-bench --tenfold=1 --configs=sched --tenfold-configs=all-on"
 *   ./ns3 run "philly-replay-bench --configs=all-on-pool88,all-on-pool22 --tenfold=0
 *              --anchor=none --solver-sizes=none"
 *   ./ns3 run "philly-replay-bench --configs=sched --policy=fifo --tenfold=0 --anchor=none
 *              --solver-sizes=none --storage-grid=all --timeout=120"
 *
 * A configuration is a name from the table below or "name:options" with trace-replay options
 * (e.g. "big:--storage-policy=cba --cache-bytes=5e12"); a configuration the scenario rejects
 * (e.g. two data-loading models at once, before they compose) is listed as such.
 *
 * Philly's size: 352 nodes x 8 GPUs (the per-VC node counts in
 * ../shared/traces/philly/philly_vc.csv), 16 nodes per rack.
 */

#include "run-forked.h"

#include "ns3/cluster-builder.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/provisioning-model.h"
#include "ns3/replay-process.h"
#include "ns3/storage-backend.h"
#include "ns3/strict-options.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace ns3;

namespace
{

/// What a child reports back through its pipe.
struct Figures
{
    double readSeconds;
    double annotateSeconds;
    double replaySeconds; //!< engine set-up and run
    double writeSeconds;  //!< result files
    double totalSeconds;  //!< the whole child, from start to the files written
    double cpuSeconds;    //!< the child's CPU time (user + system) over the same span
    uint64_t events;
    uint64_t passes;
    uint64_t finished;
    double meanJct;
    long peakRssKiB;
    bool rejected; //!< the scenario refused the options
    char reason[200];
};

double
SecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// \param who RUSAGE_SELF or RUSAGE_CHILDREN \return user + system CPU time [s]
double
CpuSeconds(int who)
{
    struct rusage usage;
    getrusage(who, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

/// The options of a named configuration.
std::string
ConfigOptions(const std::string& config)
{
    auto colon = config.find(':');
    if (colon != std::string::npos)
    {
        return config.substr(colon + 1);
    }
    static const std::map<std::string, std::string> known = {
        // Scheduling only: every component explicitly ideal (the builder's defaults turn ESA
        // and CBA on), so this row is the GPU scheduler alone.
        {"sched", "--ina=ideal --provisioning=ideal --storage-policy=ideal"},
        {"esa", "--ina=esa --provisioning=ideal --storage-policy=ideal"},
        {"atp", "--ina=atp --provisioning=ideal --storage-policy=ideal"},
        {"switchml", "--ina=switchml --provisioning=ideal --storage-policy=ideal"},
        {"local", "--ina=ideal --provisioning=local --storage-policy=ideal"},
        {"dpp", "--ina=ideal --provisioning=dpp --storage-policy=ideal"},
        {"alluxio", "--ina=ideal --provisioning=alluxio --storage-policy=ideal"},
        {"kspeed", "--ina=ideal --provisioning=kspeed --storage-policy=ideal"},
        // Ring all-reduce on the rails local loading's model keeps a reserve of (LinkShare):
        // every start or stop of a job that spans nodes moves the reserve of its nodes.
        {"local-ring", "--ina=none --provisioning=local --storage-policy=ideal"},
        // The loaders whose flows cross the rails: a reserve move marks the jobs on its nodes,
        // each kept only if its flows' units stand (ProvisioningModel::KeptFlowUnit).
        {"dpp-ring", "--ina=none --provisioning=dpp --storage-policy=ideal"},
        {"kspeed-ring", "--ina=none --provisioning=kspeed --storage-policy=ideal"},
        {"alluxio-ring", "--ina=none --provisioning=alluxio --storage-policy=ideal"},
        {"cba", "--ina=ideal --provisioning=ideal --storage-policy=cba"},
        {"cba-vc-10tb",
         "--ina=ideal --provisioning=ideal --storage-policy=cba --dataset-rule=vc "
         "--cache-bytes=1e13"},
        {"cba-job-0.5tb",
         "--ina=ideal --provisioning=ideal --storage-policy=cba --dataset-rule=job "
         "--cache-bytes=5e11"},
        {"cba-job-2tb",
         "--ina=ideal --provisioning=ideal --storage-policy=cba --dataset-rule=job "
         "--cache-bytes=2e12"},
        {"cba-0.01tb", "--ina=ideal --provisioning=ideal --storage-policy=cba --cache-bytes=1e10"},
        {"cba-job", "--ina=ideal --provisioning=ideal --storage-policy=cba --dataset-rule=job"},
        {"cba-job-0.01tb",
         "--ina=ideal --provisioning=ideal --storage-policy=cba --dataset-rule=job "
         "--cache-bytes=1e10"},
        // The other storage policies with a small cache: their hits move at nearly every pass.
        {"fair-0.01tb",
         "--ina=ideal --provisioning=ideal --storage-policy=fair --cache-bytes=1e10"},
        {"lru-0.01tb", "--ina=ideal --provisioning=ideal --storage-policy=lru --cache-bytes=1e10"},
        {"autocba-0.01tb",
         "--ina=ideal --provisioning=ideal --storage-policy=autocba --cache-bytes=1e10"},
        {"silod-0.01tb",
         "--ina=ideal --provisioning=ideal --storage-policy=silod --cache-bytes=1e10"},
        {"quiver-0.01tb",
         "--ina=ideal --provisioning=ideal --storage-policy=quiver --cache-bytes=1e10"},
        // One dataset per job under the other policies that keep a cache.
        {"autocba-job",
         "--ina=ideal --provisioning=ideal --storage-policy=autocba --dataset-rule=job"},
        {"fair-job-0.5tb",
         "--ina=ideal --provisioning=ideal --storage-policy=fair --dataset-rule=job "
         "--cache-bytes=5e11"},
        {"lru-job-0.5tb",
         "--ina=ideal --provisioning=ideal --storage-policy=lru --dataset-rule=job "
         "--cache-bytes=5e11"},
        // ESA with no storage model at all: every sample read remotely, the queue builds and
        // many multi-node jobs share pools (INA's rate level at its busiest).
        {"esa-nostorage", "--ina=esa --provisioning=ideal --storage-policy=none"},
        // Every component but provisioning (for the tenfold trace while its solves are slow).
        {"esa-cba", "--ina=esa --provisioning=ideal --storage-policy=cba"},
        {"all-on", "--ina=esa --provisioning=kspeed --storage-policy=cba"},
        // All-on with the KSpeed pool sized for Philly (about one pool node per 4 training
        // nodes: 88) and a quarter of that: the pool's size sets what a provisioning solve costs.
        {"all-on-pool88",
         "--ina=esa --provisioning=kspeed --storage-policy=cba --provisioning-pool-nodes=88"},
        {"all-on-pool22",
         "--ina=esa --provisioning=kspeed --storage-policy=cba --provisioning-pool-nodes=22"},
    };
    auto it = known.find(config);
    if (it == known.end())
    {
        throw std::invalid_argument("--configs: unknown configuration '" + config +
                                    "' (expected a known name or name:options)");
    }
    return it->second;
}

std::string
ConfigLabel(const std::string& config)
{
    return config.substr(0, config.find(':'));
}

/// One replay as trace-replay runs it, phase by phase.
Figures
RunReplay(const std::string& trace,
          uint32_t nodes,
          uint32_t copies,
          const std::string& policy,
          const std::string& options,
          const std::string& outDir)
{
    // As trace-replay's main does first (a fresh child per run, the simulator not yet used).
    PrepareReplayProcess();
    auto start = std::chrono::steady_clock::now();
    double cpuStart = CpuSeconds(RUSAGE_SELF);
    Figures f{};
    ClusterScenario scenario;
    std::vector<std::string> args = {"trace-replay",
                                     "--trace=" + trace,
                                     "--nodes=" + std::to_string(nodes),
                                     "--policy=" + policy,
                                     "--output=" + outDir};
    std::istringstream words(options);
    for (std::string w; words >> w;)
    {
        args.push_back(w);
    }
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    try
    {
        StrictCommandLine cmd(__FILE__);
        scenario.AddCommandLineOptions(cmd);
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
        scenario.Finalize();
    }
    catch (const std::invalid_argument& e)
    {
        f.rejected = true;
        std::snprintf(f.reason, sizeof f.reason, "%s", e.what());
        return f;
    }
    scenario.ApplyAttributes();
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    RngSeedManager::SetSeed(scenario.seed);
    RngSeedManager::SetRun(scenario.run);

    auto t = std::chrono::steady_clock::now();
    TraceReadReport report;
    std::vector<JobRecord> jobs = ReadTrace(scenario.tracePath, scenario.traceOptions, &report);
    if (copies > 1)
    {
        // Ten copies of every job at the same submit times, ids kept distinct.
        std::size_t n = jobs.size();
        uint64_t maxId = 0;
        for (const auto& j : jobs)
        {
            maxId = std::max<uint64_t>(maxId, j.id);
        }
        jobs.reserve(n * copies);
        for (uint32_t c = 1; c < copies; ++c)
        {
            for (std::size_t i = 0; i < n; ++i)
            {
                JobRecord copy = jobs[i];
                copy.id = jobs[i].id + c * (maxId + 1);
                jobs.push_back(copy);
            }
        }
        std::stable_sort(jobs.begin(), jobs.end(), [](const JobRecord& a, const JobRecord& b) {
            return a.submitTime < b.submitTime;
        });
    }
    f.readSeconds = SecondsSince(t);

    t = std::chrono::steady_clock::now();
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    // As trace-replay does it (helper/cluster-replay.cc): one ClusterBuilder per policy
    // installs every chosen component, so a row measures exactly what trace-replay runs.
    Ptr<ClusterBuilder> builder = scenario.Builder(policy);
    builder->Annotate(jobs, catalog);
    f.annotateSeconds = SecondsSince(t);

    t = std::chrono::steady_clock::now();
    // Shared with the engine, as trace-replay does it (the records are not copied).
    Ptr<ClusterEngine> engine =
        builder->Build(std::make_shared<const std::vector<JobRecord>>(std::move(jobs)), catalog);
    engine->Run();
    f.replaySeconds = SecondsSince(t);

    t = std::chrono::steady_clock::now();
    RunInfo info;
    info.experiment = "philly-replay-bench";
    info.seed = scenario.seed;
    info.run = scenario.run;
    info.settings = scenario.Settings();
    info.components = builder->Figures(engine);
    RunSummary summary = ClusterResults::Write(outDir + "/" + policy, engine, info);
    builder->WriteComponentSeries(outDir + "/" + policy);
    f.writeSeconds = SecondsSince(t);

    f.events = engine->EventsProcessed();
    f.passes = engine->Passes();
    f.finished = summary.finished;
    f.meanJct = summary.meanJct;
    f.totalSeconds = SecondsSince(start);
    f.cpuSeconds = CpuSeconds(RUSAGE_SELF) - cpuStart;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    f.peakRssKiB = usage.ru_maxrss;
    Simulator::Destroy();
    return f;
}

double
Median(std::vector<double> v)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Medians of a row's runs; ok false if a run failed or timed out.
struct Row
{
    bool ok{false};
    bool rejected{false};
    std::string reason;
    Figures median{};
};

Row
RunMedian(const std::string& label,
          int runs,
          int timeoutSeconds,
          const std::function<Figures()>& work)
{
    Row row;
    std::vector<double> read;
    std::vector<double> annotate;
    std::vector<double> replay;
    std::vector<double> write;
    std::vector<double> total;
    std::vector<double> cpu;
    std::vector<double> rss;
    for (int i = 0; i < runs; ++i)
    {
        Figures f{};
        std::function<Figures()> timed = [&]() {
            alarm(timeoutSeconds); // a run that overstays is killed and reported as such
            return work();
        };
        if (!RunForked("philly-replay-bench: " + label, timed, f))
        {
            return row;
        }
        if (f.rejected)
        {
            row.rejected = true;
            row.reason = f.reason;
            return row;
        }
        read.push_back(f.readSeconds);
        annotate.push_back(f.annotateSeconds);
        replay.push_back(f.replaySeconds);
        write.push_back(f.writeSeconds);
        total.push_back(f.totalSeconds);
        cpu.push_back(f.cpuSeconds);
        rss.push_back(f.peakRssKiB);
        row.median = f;
    }
    row.ok = true;
    row.median.readSeconds = Median(read);
    row.median.annotateSeconds = Median(annotate);
    row.median.replaySeconds = Median(replay);
    row.median.writeSeconds = Median(write);
    row.median.totalSeconds = Median(total);
    row.median.cpuSeconds = Median(cpu);
    row.median.peakRssKiB = static_cast<long>(Median(rss));
    return row;
}

void
PrintHeader()
{
    std::cout << std::left << std::setw(24) << "policy/config" << std::right << std::setw(9)
              << "jobs" << std::setw(9) << "read[s]" << std::setw(9) << "annot[s]" << std::setw(10)
              << "replay[s]" << std::setw(9) << "write[s]" << std::setw(9) << "total[s]"
              << std::setw(8) << "cpu[s]" << std::setw(11) << "events" << std::setw(10) << "passes"
              << std::setw(12) << "peakRSS[MB]" << std::setw(12) << "meanJCT[h]" << std::endl;
}

/// Targets of issue #13 for a row: end-to-end seconds and peak memory [MB].
struct Target
{
    double seconds;
    double megabytes;
};

Target
TargetOf(const std::string& config, bool tenfold)
{
    if (ConfigLabel(config).rfind("all-on", 0) == 0 || ConfigLabel(config) == "esa-cba")
    {
        return tenfold ? Target{60, 4096} : Target{5, 500};
    }
    return tenfold ? Target{60, 4096} : Target{2, 500};
}

void
PrintRow(const std::string& label, const Row& row, int timeoutSeconds, Target target)
{
    std::cout << std::left << std::setw(24) << label << std::right;
    if (row.rejected)
    {
        std::cout << "  not run: " << row.reason << std::endl;
        return;
    }
    if (!row.ok)
    {
        std::cout << "  FAILED or over --timeout=" << timeoutSeconds
                  << " s (target <= " << target.seconds << " s)" << std::endl;
        return;
    }
    const Figures& f = row.median;
    std::cout << std::fixed << std::setprecision(3) << std::setw(9) << f.finished << std::setw(9)
              << f.readSeconds << std::setw(9) << f.annotateSeconds << std::setw(10)
              << f.replaySeconds << std::setw(9) << f.writeSeconds << std::setw(9) << f.totalSeconds
              << std::setw(8) << f.cpuSeconds << std::setw(11) << f.events << std::setw(10)
              << f.passes << std::setw(12) << std::setprecision(1) << f.peakRssKiB / 1024.0
              << std::setw(12) << std::setprecision(2) << f.meanJct / 3600;
    bool ok = f.totalSeconds <= target.seconds && f.peakRssKiB / 1024.0 <= target.megabytes;
    std::cout << "  " << (ok ? "ok" : "OVER") << " (<= " << std::setprecision(0) << target.seconds
              << " s, " << target.megabytes << " MB)" << std::endl;
}

/// Medians of a command's runs.
struct ProcessTimes
{
    double wall{-1}; //!< [s], negative if it could not run
    double cpu{-1};  //!< user + system [s]
};

/// Median wall and CPU time of a shell command (its output discarded), run as a process.
ProcessTimes
RunProcess(const std::string& line, int runs)
{
    std::vector<double> walls;
    std::vector<double> cpus;
    std::string command = line + " > /dev/null 2>&1";
    for (int i = 0; i < runs; ++i)
    {
        auto t = std::chrono::steady_clock::now();
        double cpu = CpuSeconds(RUSAGE_CHILDREN); // the shell and its command, once waited for
        int rc = std::system(command.c_str());
        if (rc != 0)
        {
            return ProcessTimes{};
        }
        walls.push_back(SecondsSince(t));
        cpus.push_back(CpuSeconds(RUSAGE_CHILDREN) - cpu);
    }
    return ProcessTimes{Median(walls), Median(cpus)};
}

/// The Python anchor on the trace.
ProcessTimes
RunAnchor(const std::string& script, const std::string& trace, uint32_t nodes, int runs)
{
    return RunProcess("python3 '" + script + "' '" + trace + "' " + std::to_string(nodes) + " 8",
                      runs);
}

/// trace-replay itself, built next to this bench, scheduling only under FIFO: the whole
/// process (start, ns-3's initialisation, exit) as the anchor's is.
ProcessTimes
RunTraceReplayProcess(const std::string& trace, uint32_t nodes, const std::string& outDir, int runs)
{
    std::error_code error;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    std::filesystem::path binary = self.parent_path().parent_path() / "examples" / "trace-replay";
    if (error || !std::filesystem::exists(binary))
    {
        return ProcessTimes{};
    }
    return RunProcess("'" + binary.string() + "' --quiet --trace='" + trace +
                          "' --nodes=" + std::to_string(nodes) + " --policy=fifo " +
                          ConfigOptions("sched") + " --output='" + outDir + "/process'",
                      runs);
}

/// The median time of one KSpeed provisioning pass over these jobs, and of a pass after it.
struct SolverPass
{
    double first; //!< the pass [s]
    double again; //!< the next pass, on the same jobs [s]; 0 when usages are not kept
};

/**
 * \param nodes busy nodes, one 8-GPU job each
 * \param reuse as a replay configures the model (ProvisioningDataLoading): usages kept
 *        between passes, so a first pass builds every flow's usage and the next keeps them
 *        all; else usages not kept (ReuseUsages' default), every flow's usage built at
 *        every pass over every pool node
 * \param runs passes of each kind; the medians are kept
 * \return the medians
 */
SolverPass
TimeSolverPass(uint32_t nodes, bool reuse, int runs)
{
    RailClusterConfig c;
    c.nodes = nodes;
    auto m = CreateObject<ProvisioningModel>();
    m->SetAttribute("AggregatePerNode", BooleanValue(true));
    m->SetAttribute("ReuseUsages", BooleanValue(reuse));
    m->SetCluster(c, CreateObject<StorageBackend>());
    m->SetLoader(ProvisioningLoader::Create("kspeed"));
    const WorkloadProfile* profile = &WorkloadCatalog::Default().Get("resnet50-imagenet");
    std::vector<ProvisioningJob> jobs(nodes);
    for (uint32_t n = 0; n < nodes; ++n)
    {
        jobs[n].name = std::to_string(n);
        jobs[n].profile = profile;
        jobs[n].gpusOnNode.emplace_back(n, 8);
    }
    m->Solve(jobs); // builds the topology
    std::vector<double> first;
    std::vector<double> again;
    for (int i = 0; i < std::max(1, runs); ++i)
    {
        m->SetLoader(ProvisioningLoader::Create("kspeed")); // forgets every kept usage
        auto t = std::chrono::steady_clock::now();
        m->Solve(jobs);
        first.push_back(SecondsSince(t));
        if (reuse) // without kept usages the next pass is the first again: not timed twice
        {
            t = std::chrono::steady_clock::now();
            m->Solve(jobs);
            again.push_back(SecondsSince(t));
        }
    }
    return {Median(first), reuse ? Median(again) : 0.0};
}

/// Time per KSpeed provisioning pass with every node busy (one 8-GPU job per node): as a
/// replay runs it (cold: every flow new; warm: none), and with no usage kept.
void
SolverAlone(const std::vector<uint32_t>& sizes, int runs)
{
    std::cout << "\nsolver alone: one KSpeed provisioning pass (ProvisioningModel::Solve), every "
                 "node busy with one 8-GPU job, per flow [us] and its growth from the first "
                 "size;\n  as a replay runs it (usages kept between passes): cold = every "
                 "flow's usage built, warm = every usage kept;\n  unkept = ReuseUsages "
                 "false (its default), every flow's usage built over every pool node\n"
              << std::setw(8) << "nodes" << std::setw(12) << "cold[ms]" << std::setw(12)
              << "per flow" << std::setw(9) << "growth" << std::setw(12) << "warm[ms]"
              << std::setw(12) << "per flow" << std::setw(9) << "growth" << std::setw(14)
              << "unkept[ms]" << std::setw(12) << "per flow" << std::setw(9) << "growth"
              << std::endl;
    std::vector<double> firstPerFlow;
    for (uint32_t nodes : sizes)
    {
        SolverPass replay = TimeSolverPass(nodes, true, runs);
        SolverPass unkept = TimeSolverPass(nodes, false, runs);
        // Growth linear in the running flows keeps the time per flow flat.
        std::vector<double> perFlow = {replay.first / nodes,
                                       replay.again / nodes,
                                       unkept.first / nodes};
        if (firstPerFlow.empty())
        {
            firstPerFlow = perFlow;
        }
        std::cout << std::setw(8) << nodes << std::fixed;
        for (size_t k = 0; k < perFlow.size(); ++k)
        {
            std::cout << std::setprecision(3) << std::setw(k == 2 ? 14 : 12)
                      << perFlow[k] * nodes * 1e3 << std::setw(12) << perFlow[k] * 1e6
                      << std::setprecision(2) << std::setw(8) << perFlow[k] / firstPerFlow[k]
                      << "x";
        }
        std::cout << std::endl;
    }
}

/// The storage grid of --storage-grid: every storage policy x dataset rule x cache size.
struct StorageGrid
{
    std::vector<std::string> policies; //!< --storage-policy values
    std::vector<std::string> rules;    //!< --dataset-rule values
    std::vector<std::string> caches;   //!< --cache-bytes values

    /// \return the configuration "policy-rule-cache:options" of one cell
    static std::string Config(const std::string& policy,
                              const std::string& rule,
                              const std::string& cache)
    {
        return policy + "-" + rule + "-" + cache +
               ":--ina=ideal --provisioning=ideal --storage-policy=" + policy +
               " --dataset-rule=" + rule + " --cache-bytes=" + cache;
    }
};

/**
 * \param spec --storage-grid: "all", or "POLICIES/RULES/CACHES" (each a comma-separated list;
 *        an empty or "all" part is every value), or "" / "none" for no grid
 * \return the grid (empty policies: none) \throws UsageError
 */
StorageGrid
ParseStorageGrid(const std::string& spec)
{
    StorageGrid grid;
    if (spec.empty() || spec == "none")
    {
        return grid;
    }
    const std::vector<std::string> allPolicies =
        {"none", "cache-all", "fair", "lru", "quiver", "silod", "cba", "autocba"};
    const std::vector<std::string> allRules = {"model", "vc", "user", "pool", "job"};
    const std::vector<std::string> allCaches = {"1e10", "5e11", "2e12", "1e13"};
    std::vector<std::string> parts;
    std::string rest = spec == "all" ? "//" : spec;
    for (size_t slash; (slash = rest.find('/')) != std::string::npos;)
    {
        parts.push_back(rest.substr(0, slash));
        rest = rest.substr(slash + 1);
    }
    parts.push_back(rest);
    if (parts.size() != 3)
    {
        throw UsageError("--storage-grid: expected all or POLICIES/RULES/CACHES, got '" + spec +
                         "'");
    }
    auto pick = [](const std::string& part, const std::vector<std::string>& all) {
        return part.empty() || part == "all" ? all : SplitList(part);
    };
    grid.policies = pick(parts[0], allPolicies);
    grid.rules = pick(parts[1], allRules);
    grid.caches = pick(parts[2], allCaches);
    for (const std::string& p : grid.policies)
    {
        if (std::find(allPolicies.begin(), allPolicies.end(), p) == allPolicies.end())
        {
            throw UsageError("--storage-grid: unknown storage policy '" + p + "'");
        }
    }
    for (const std::string& r : grid.rules)
    {
        if (std::find(allRules.begin(), allRules.end(), r) == allRules.end())
        {
            throw UsageError("--storage-grid: unknown dataset rule '" + r + "'");
        }
    }
    for (const std::string& c : grid.caches)
    {
        strictopt::Real("--storage-grid", c, 0, 1e30, "bytes");
    }
    return grid;
}

/// The grid side by side: one line per storage policy and rule, one cell per cache size.
void
PrintGrid(const StorageGrid& grid,
          const std::string& policy,
          const std::map<std::string, Row>& rows,
          Target target)
{
    std::cout << "\nstorage grid under " << policy
              << " (cell: total wall [s] / CPU [s] / peak RSS [MB], medians; * = over "
              << std::setprecision(0) << std::fixed << target.seconds << " s or "
              << target.megabytes << " MB)\n"
              << std::left << std::setw(20) << "policy/rule" << std::right;
    for (const std::string& c : grid.caches)
    {
        std::cout << std::setw(24) << ("cache " + c);
    }
    std::cout << std::endl;
    for (const std::string& p : grid.policies)
    {
        for (const std::string& r : grid.rules)
        {
            std::cout << std::left << std::setw(20) << (p + "/" + r) << std::right;
            for (const std::string& c : grid.caches)
            {
                auto it = rows.find(StorageGrid::Config(p, r, c));
                std::ostringstream cell;
                if (it == rows.end() || !it->second.ok)
                {
                    cell << "failed";
                }
                else
                {
                    const Figures& f = it->second.median;
                    double mb = f.peakRssKiB / 1024.0;
                    bool over = f.totalSeconds > target.seconds || mb > target.megabytes;
                    cell << std::fixed << std::setprecision(2) << f.totalSeconds << " / "
                         << f.cpuSeconds << " / " << std::setprecision(0) << mb
                         << (over ? "*" : " ");
                }
                std::cout << std::setw(24) << cell.str();
            }
            std::cout << std::endl;
        }
    }
}

/// \param list --solver-sizes ("none": none) \return its cluster sizes \throws UsageError
std::vector<uint32_t>
SolverSizes(const std::string& list)
{
    std::vector<uint32_t> sizes;
    for (const std::string& s : SplitList(list == "none" ? "" : list))
    {
        sizes.push_back(static_cast<uint32_t>(strictopt::Unsigned("--solver-sizes", s, 1, 100000)));
    }
    return sizes;
}

/** The bench itself; RunMain turns its errors into one line. */
int
BenchMain(int argc, char* argv[])
{
    std::string trace = std::string(AICLUSTER_SOURCE_DIR) + "/../shared/traces/philly/philly.csv";
    std::string anchor = std::string(AICLUSTER_SOURCE_DIR) + "/../shared/anchors/py-fifo-replay.py";
    std::string policies = "fifo,sjf,tiresias";
    // esa-cba and sched: also tenfold rows, so each shows its growth from 1x to 10x.
    std::string configs = "sched,esa,local,dpp,alluxio,kspeed,cba,cba-job-0.5tb,cba-job-2tb,"
                          "cba-0.01tb,esa-cba,all-on";
    std::string solverSizes = "16,32,64,128,256,512";
    std::string outDir = "/tmp/philly-replay-bench." + std::to_string(getpid());
    uint32_t nodes = 352;
    int runs = 3;
    int timeoutSeconds = 20;
    int tenfoldTimeoutSeconds = 120;
    bool tenfold = true;
    // Scheduling alone, every component but provisioning, and every component (issue #13's row).
    std::string tenfoldConfigs = "sched,esa-cba,all-on";
    std::string storageGrid;
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("trace", "Philly job CSV", trace);
    cmd.AddValue("policy", "Policies, comma separated", policies);
    cmd.AddValue("configs",
                 "Configurations, comma separated: sched, esa, atp, switchml, local, dpp, "
                 "alluxio, kspeed, local-ring, dpp-ring, kspeed-ring, alluxio-ring, cba, "
                 "cba-vc-10tb, cba-job, cba-job-0.5tb, cba-job-2tb, "
                 "cba-0.01tb, cba-job-0.01tb, fair-0.01tb, lru-0.01tb, autocba-0.01tb, "
                 "silod-0.01tb, quiver-0.01tb, autocba-job, fair-job-0.5tb, lru-job-0.5tb, "
                 "esa-nostorage, esa-cba, all-on, all-on-pool88, all-on-pool22, or "
                 "name:trace-replay options",
                 configs);
    cmd.AddValue("nodes", "Nodes (8 GPUs each)", nodes, 1, 100000);
    cmd.AddValue("runs", "Runs per row; the row shows medians", runs, 1, 1000);
    cmd.AddValue("timeout",
                 "Time a run may take before it is stopped",
                 timeoutSeconds,
                 1,
                 86400,
                 "s");
    cmd.AddValue("tenfold-timeout",
                 "Time a tenfold run may take before it is stopped",
                 tenfoldTimeoutSeconds,
                 1,
                 86400,
                 "s");
    cmd.AddValue("tenfold", "Also run the tenfold trace on ten times the cluster", tenfold);
    cmd.AddValue("tenfold-configs", "Configurations of the tenfold rows", tenfoldConfigs);
    cmd.AddValue("anchor", "The Python FIFO loop to time side by side (none = none)", anchor);
    cmd.AddValue("solver-sizes",
                 "Cluster sizes [nodes] of the solver-alone lines (none = none)",
                 solverSizes);
    cmd.AddValue("output", "Scratch directory for the result files", outDir);
    cmd.AddValue("storage-grid",
                 "Also run the storage grid (issue #13) and print it side by side: all, or "
                 "POLICIES/RULES/CACHES, comma-separated lists, an empty part = all of it "
                 "(e.g. cba,fair/job/1e10,5e11 or //1e10); none = no grid",
                 storageGrid);
    cmd.Parse(argc, argv);
    try
    {
        for (const std::string& c : SplitList(configs + "," + tenfoldConfigs))
        {
            ConfigOptions(c); // rejects unknown names before anything runs
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw UsageError(e.what());
    }
    std::vector<uint32_t> sizes = SolverSizes(solverSizes);
    StorageGrid grid = ParseStorageGrid(storageGrid);

    std::cout << "Philly replay benchmark: " << trace << "\ncluster " << nodes
              << " nodes x 8 GPUs; end to end per row (read, annotate, replay, write); "
              << "medians of " << runs << " runs, one process each\n\n";
    PrintHeader();
    bool allOk = true;
    std::map<std::string, Figures> oneFold;
    for (const std::string& config : SplitList(configs))
    {
        for (const std::string& policy : SplitList(policies))
        {
            std::string label = policy + "/" + ConfigLabel(config);
            std::string options = ConfigOptions(config);
            Row row = RunMedian(label, runs, timeoutSeconds, [&]() {
                return RunReplay(trace, nodes, 1, policy, options, outDir);
            });
            PrintRow(label, row, timeoutSeconds, TargetOf(config, false));
            allOk = allOk && (row.ok || row.rejected);
            if (row.ok)
            {
                oneFold[label] = row.median;
            }
        }
    }

    for (const std::string& policy :
         grid.policies.empty() ? std::vector<std::string>() : SplitList(policies))
    {
        std::cout << "\nstorage grid rows under " << policy << "\n";
        PrintHeader();
        std::map<std::string, Row> gridRows;
        for (const std::string& p : grid.policies)
        {
            for (const std::string& r : grid.rules)
            {
                for (const std::string& c : grid.caches)
                {
                    std::string config = StorageGrid::Config(p, r, c);
                    std::string label = policy + "/" + ConfigLabel(config);
                    Row row = RunMedian(label, runs, timeoutSeconds, [&]() {
                        return RunReplay(trace, nodes, 1, policy, ConfigOptions(config), outDir);
                    });
                    PrintRow(label, row, timeoutSeconds, TargetOf(config, false));
                    allOk = allOk && (row.ok || row.rejected);
                    gridRows[config] = row;
                }
            }
        }
        PrintGrid(grid, policy, gridRows, TargetOf("grid", false));
    }

    if (anchor != "none")
    {
        ProcessTimes py = RunAnchor(anchor, trace, nodes, runs);
        auto it = oneFold.find("fifo/sched");
        std::cout << "\nanchor: python3 " << anchor << " (strict FIFO, GPU counts only): ";
        if (py.wall < 0)
        {
            std::cout << "could not run" << std::endl;
        }
        else
        {
            std::cout << std::fixed << std::setprecision(3) << py.wall << " s, CPU " << py.cpu
                      << " s (medians of " << runs << ")";
            if (it != oneFold.end())
            {
                // CPU time as well: on a shared machine the wall times carry the others' load.
                std::cout << "; fifo/sched end to end " << it->second.totalSeconds
                          << " s = " << std::setprecision(2) << it->second.totalSeconds / py.wall
                          << "x the anchor's time (target <= 0.5x), CPU " << std::setprecision(3)
                          << it->second.cpuSeconds << " s = " << std::setprecision(2)
                          << it->second.cpuSeconds / py.cpu << "x";
            }
            std::cout << std::endl;
            ProcessTimes process = RunTraceReplayProcess(trace, nodes, outDir, runs);
            if (process.wall >= 0)
            {
                std::cout << "process: trace-replay --policy=fifo (sched), start to exit: "
                          << std::setprecision(3) << process.wall << " s = " << std::setprecision(2)
                          << process.wall / py.wall << "x the anchor's time, CPU "
                          << std::setprecision(3) << process.cpu << " s = " << std::setprecision(2)
                          << process.cpu / py.cpu << "x" << std::endl;
            }
        }
    }

    if (tenfold)
    {
        std::cout << "\ntenfold: ten copies of every job at the same submit times, " << nodes * 10
                  << " nodes\n";
        PrintHeader();
        for (const std::string& config : SplitList(tenfoldConfigs))
        {
            for (const std::string& policy : SplitList(policies))
            {
                std::string label = policy + "/" + ConfigLabel(config);
                std::string options = ConfigOptions(config);
                Row row = RunMedian(label + " x10", runs, tenfoldTimeoutSeconds, [&]() {
                    return RunReplay(trace, nodes * 10, 10, policy, options, outDir);
                });
                PrintRow(label + " x10", row, tenfoldTimeoutSeconds, TargetOf(config, true));
                allOk = allOk && (row.ok || row.rejected);
                auto it = oneFold.find(label);
                if (row.ok && it != oneFold.end())
                {
                    std::cout << std::left << std::setw(24) << "  growth 1x -> 10x" << std::right
                              << std::fixed << std::setprecision(1) << "  wall x"
                              << row.median.totalSeconds / it->second.totalSeconds << ", replay x"
                              << row.median.replaySeconds / it->second.replaySeconds
                              << ", peak memory x"
                              << double(row.median.peakRssKiB) / it->second.peakRssKiB << std::endl;
                }
            }
        }
    }

    if (!sizes.empty())
    {
        SolverAlone(sizes, runs);
    }
    std::error_code ignored;
    std::filesystem::remove_all(outDir, ignored);
    return allOk ? 0 : 1;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("philly-replay-bench", argc, argv, BenchMain);
}
