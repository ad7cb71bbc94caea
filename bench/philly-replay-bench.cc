/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Benchmark: replay the full public Philly trace (82,247 jobs) on a cluster of
 * Philly's size under each scheduling policy, and print per policy the wall
 * time (load = read + annotate, replay = the engine run), events processed,
 * scheduling passes and peak memory. Each policy runs in a child process of
 * its own so that its peak resident memory is its own.
 *
 *   ./ns3 run philly-replay-bench
 *   ./ns3 run "philly-replay-bench --nodes=40"     # a heavily contended variant
 *   ./ns3 run "philly-replay-bench --ina=ideal,esa" # the cost of the INA rate model
 *
 * Philly's size: 352 nodes x 8 GPUs (the per-VC node counts in
 * ../shared/traces/philly/philly_vc.csv), 16 nodes per rack.
 */

#include "run-forked.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// What a child reports back through its pipe.
struct Figures
{
    double loadSeconds;
    double replaySeconds;
    uint64_t events;
    uint64_t passes;
    uint64_t finished;
    uint64_t preemptions;
    double meanJct;
    long peakRssKiB;
};

double
SecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Figures
RunPolicy(const std::string& trace,
          const std::string& policy,
          const std::string& ina,
          const ClusterTopology& topology)
{
    auto start = std::chrono::steady_clock::now();
    std::vector<JobRecord> jobs = ReadTrace(trace);
    TraceAnnotator(WorkloadCatalog::Default(), AnnotatorOptions()).Annotate(jobs);
    Figures f{};
    f.loadSeconds = SecondsSince(start);

    ClusterEngineHelper helper;
    helper.SetTopology(topology);
    helper.SetScheduler(ClusterEngineHelper::SchedulerTypeName(policy));
    helper.SetGradientSyncByName(ina);
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->Run();
    RunSummary summary = ClusterResults::Summarize(engine);
    f.replaySeconds = engine->WallSeconds();
    f.events = engine->EventsProcessed();
    f.passes = engine->Passes();
    f.finished = summary.finished;
    f.preemptions = summary.preemptions;
    f.meanJct = summary.meanJct;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    f.peakRssKiB = usage.ru_maxrss;
    Simulator::Destroy();
    return f;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string trace = std::string(AICLUSTER_SOURCE_DIR) + "/../shared/traces/philly/philly.csv";
    std::string policies = "fifo,sjf,tiresias";
    std::string inaModes = "ideal";
    ClusterTopology topology;
    topology.numNodes = 352;
    topology.gpusPerNode = 8;
    topology.nodesPerRack = 16;
    CommandLine cmd(__FILE__);
    cmd.AddValue("trace", "Philly job CSV", trace);
    cmd.AddValue("policy", "Policies, comma separated", policies);
    cmd.AddValue("nodes", "Nodes (8 GPUs each)", topology.numNodes);
    cmd.AddValue("ina",
                 "Gradient-sync models to compare, comma separated: ideal, none (ring), "
                 "switchml, atp, esa",
                 inaModes);
    cmd.Parse(argc, argv);

    std::cout << "Philly replay benchmark: " << trace << "\ncluster " << topology.numNodes
              << " nodes x 8 GPUs = " << topology.TotalGpus()
              << " GPUs; one process per policy\n\n";
    std::cout << std::left << std::setw(20) << "policy/sync" << std::right << std::setw(9) << "jobs"
              << std::setw(10) << "load[s]" << std::setw(11) << "replay[s]" << std::setw(10)
              << "total[s]" << std::setw(11) << "events" << std::setw(10) << "passes"
              << std::setw(12) << "events/s" << std::setw(10) << "preempt" << std::setw(12)
              << "peakRSS[MB]" << std::setw(12) << "meanJCT[h]" << std::endl;
    bool allOk = true;
    for (const std::string& policy : SplitList(policies))
    {
        for (const std::string& ina : SplitList(inaModes))
        {
            Figures f{};
            std::string label = policy + "/" + ina;
            std::function<Figures()> run = [&]() {
                return RunPolicy(trace, policy, ina, topology);
            };
            if (!RunForked("philly-replay-bench: " + policy, run, f))
            {
                std::cout << label << ": FAILED" << std::endl;
                allOk = false;
                continue;
            }
            std::cout << std::fixed << std::setprecision(3) << std::left << std::setw(20) << label
                      << std::right << std::setw(9) << f.finished << std::setw(10) << f.loadSeconds
                      << std::setw(11) << f.replaySeconds << std::setw(10)
                      << f.loadSeconds + f.replaySeconds << std::setw(11) << f.events
                      << std::setw(10) << f.passes << std::setw(12) << std::setprecision(0)
                      << f.events / f.replaySeconds << std::setw(10) << f.preemptions
                      << std::setw(12) << std::setprecision(1) << f.peakRssKiB / 1024.0
                      << std::setw(12) << std::setprecision(2) << f.meanJct / 3600 << std::endl;
        }
    }
    return allOk ? 0 : 1;
}
