/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Benchmark: a full trace replay (Philly by default) with disaggregated storage on, per
// allocation policy, against the same replay without storage (ideal data loading). Each run
// is a forked child, so its peak memory (getrusage maxrss) is its own.
//
//   build/bench/storage-bench [--trace=...] [--policies=none,cba,...] [--nodes=64] [--runs=3]
//
// With --runs=N every policy runs N times, in turns (off, none, ..., off, none, ...), and the
// times printed are the medians (peak memory: the largest).
//
// A policy written "<policy>/alone" runs with StorageDataLoading::SharedPace false: the jobs
// at the common bandwidth level are re-timed one by one, as before pace groups; written
// "<policy>/per-job", with GroupIdenticalJobs false: one problem entry per running job.

#include "run-forked.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/storage-helper.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <stdexcept>

using namespace ns3;

namespace
{

struct Figures
{
    double wall{0};     //!< replay wall time [s] (engine Run only)
    double total{0};    //!< child wall time incl. trace reading [s]
    double finished{0}; //!< jobs finished
    double ioCost{0};   //!< [$]
    double solves{0};   //!< allocation solves
    double perSolve{0}; //!< mean running jobs in a solve
    double entries{0};  //!< mean entries (kinds of running job) in a solve
    double maxRssMb{0}; //!< the child's peak resident memory [MB] (set by the parent)
};

Figures
Replay(const std::string& trace, const std::string& policy, uint32_t nodes)
{
    auto start = std::chrono::steady_clock::now();
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    // "<policy>/alone": the bottlenecked jobs re-timed one by one (no shared pace);
    // "<policy>/per-job": one problem entry per running job.
    std::string name = policy.substr(0, policy.find('/'));
    std::string variant = name != policy ? policy.substr(name.size() + 1) : "";
    if (variant != "" && variant != "alone" && variant != "per-job")
    {
        throw std::invalid_argument("unknown variant '" + variant + "' in '" + policy +
                                    "'; expected <policy>, <policy>/alone or <policy>/per-job");
    }
    Config::SetDefault("ns3::StorageDataLoading::SharedPace", BooleanValue(variant != "alone"));
    Config::SetDefault("ns3::StorageDataLoading::GroupIdenticalJobs",
                       BooleanValue(variant != "per-job"));
    std::vector<JobRecord> jobs = ReadTrace(trace, TraceReadOptions());
    AnnotatorOptions options;
    options.datasetRule = "vc";
    TraceAnnotator annotator(WorkloadCatalog::Default(), options);
    annotator.Annotate(jobs);
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = nodes;
    topology.nodesPerRack = 16;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::FifoPolicy");
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    Ptr<StorageDataLoading> model;
    StorageOptions storage;
    storage.policy = name;
    if (name != "off")
    {
        model = StorageHelper(storage).Install(engine, jobs, annotator);
    }
    engine->Run();
    Figures f;
    f.wall = engine->WallSeconds();
    if (model)
    {
        StorageRunSummary s = StorageHelper::Summarize(engine, model, storage);
        f.ioCost = s.ioCost;
        f.solves = double(s.solves);
        const StorageTotals& t = model->Totals();
        f.perSolve = t.solves > 0 ? double(t.jobsSolved) / double(t.solves) : 0.0;
        f.entries = t.solves > 0 ? double(t.entriesSolved) / double(t.solves) : 0.0;
    }
    f.finished = double(engine->FinishedJobs());
    Simulator::Destroy();
    f.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return f;
}

/// The median of the runs' wall and total times, the largest peak memory, the rest of the
/// first run (the same in every run).
Figures
Median(std::vector<Figures> runs)
{
    Figures m = runs.front();
    auto middle = [&runs](double Figures::*field) {
        std::vector<double> v;
        for (const Figures& f : runs)
        {
            v.push_back(f.*field);
        }
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    m.wall = middle(&Figures::wall);
    m.total = middle(&Figures::total);
    for (const Figures& f : runs)
    {
        m.maxRssMb = std::max(m.maxRssMb, f.maxRssMb);
    }
    return m;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string trace = std::string(AICLUSTER_SOURCE_DIR) + "/../shared/traces/philly/philly.csv";
    std::string policies = "off,none,cache-all,fair,lru,quiver,silod,cba,autocba";
    uint32_t nodes = 352; // examples/scenarios/philly-full.json
    uint32_t runs = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("trace", "Trace to replay", trace);
    cmd.AddValue("policies",
                 "Storage policies (off = no storage model; <policy>/alone = without the "
                 "shared pace; <policy>/per-job = one problem entry per job), comma separated",
                 policies);
    cmd.AddValue("nodes", "Nodes of 8 GPUs", nodes);
    cmd.AddValue("runs", "Runs per policy (medians printed)", runs);
    cmd.Parse(argc, argv);
    std::vector<std::string> names = SplitList(policies);
    if (runs < 1 || names.empty())
    {
        std::cerr << "storage-bench: expected --runs >= 1 and at least one policy" << std::endl;
        return 1;
    }

    // In turns, so that a slow spell of a shared machine spreads over the policies.
    std::vector<std::vector<Figures>> results(names.size());
    for (uint32_t run = 0; run < runs; ++run)
    {
        for (size_t i = 0; i < names.size(); ++i)
        {
            Figures f;
            long maxRssKiB = 0;
            std::function<Figures()> run = [&]() { return Replay(trace, names[i], nodes); };
            if (RunForked("storage-bench: " + names[i], run, f, &maxRssKiB))
            {
                f.maxRssMb = maxRssKiB / 1024.0;
                results[i].push_back(f);
            }
        }
    }

    std::cout << "storage-bench: " << trace << ", " << nodes * 8 << " GPUs, FIFO, median of "
              << runs << " run(s)" << std::endl;
    std::cout << std::left << std::setw(17) << "policy" << std::right << std::setw(10)
              << "replay[s]" << std::setw(10) << "total[s]" << std::setw(12) << "maxRSS[MB]"
              << std::setw(11) << "replay/off" << std::setw(10) << "total/off" << std::setw(10)
              << "finished" << std::setw(12) << "IOcost[$]" << std::setw(9) << "solves"
              << std::setw(11) << "jobs/solve" << std::setw(14) << "entries/solve" << std::endl;
    double offWall = 0;
    double offTotal = 0;
    for (size_t i = 0; i < names.size(); ++i)
    {
        if (results[i].size() != runs)
        {
            std::cout << names[i] << ": failed" << std::endl;
            continue;
        }
        Figures f = Median(results[i]);
        if (names[i] == "off")
        {
            offWall = f.wall;
            offTotal = f.total;
        }
        std::cout << std::fixed << std::setprecision(2) << std::left << std::setw(17) << names[i]
                  << std::right << std::setw(10) << f.wall << std::setw(10) << f.total
                  << std::setw(12) << f.maxRssMb << std::setw(11)
                  << (offWall > 0 ? f.wall / offWall : 0.0) << std::setw(10)
                  << (offTotal > 0 ? f.total / offTotal : 0.0) << std::setw(10)
                  << std::setprecision(0) << f.finished << std::setw(12) << std::setprecision(2)
                  << f.ioCost << std::setw(9) << std::setprecision(0) << f.solves << std::setw(11)
                  << std::setprecision(1) << f.perSolve << std::setw(14) << f.entries << std::endl;
        std::cout.unsetf(std::ios::fixed);
    }
    return 0;
}
