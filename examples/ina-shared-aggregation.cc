/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup aicluster
 * N training jobs of a model mix share one P4 switch's aggregator pool (packet level).
 * Compares the allocation policies of ESA (preemptive), ATP (best-effort hashed) and
 * SwitchML (static partition).
 *
 *   ./ns3 run "ina-shared-aggregation --policy=esa --pool-size=256 --jobs=4"
 *   ./ns3 run "ina-shared-aggregation --sweep"             # ESA/ATP/SwitchML over pool sizes
 *
 * The model mix cycles resnet50, vgg16, bert-base, gpt2-small (parameter counts
 * of the public models); --model-scale shrinks every gradient (and, with
 * --compute-scale, the compute time) so that a packet-level run takes seconds.
 * Prints per-job JCT, aggregator occupancy and useful occupancy, PS fallback
 * traffic and preemptions, and writes a JSON result file with the full
 * configuration and seed.
 */

#include "ns3/core-module.h"
#include "ns3/ina-helper.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{

/// A model of the mix: gradient size and an illustrative compute time per iteration.
struct MixModel
{
    const char* name;
    double parameters;     //!< float32 gradient elements (public parameter counts)
    double computeSeconds; //!< compute per iteration at full scale [s] (illustrative)
};

const MixModel kMix[] = {
    {"resnet50", 25557032, 0.10},
    {"vgg16", 138357544, 0.25},
    {"bert-base", 109482240, 0.20},
    {"gpt2-small", 124439808, 0.25},
};

struct InaRunConfig
{
    std::string policy{"esa"};
    uint32_t poolSize{20000};
    double loss{0};
    uint32_t jobs{4};
    uint32_t workers{8};
    uint32_t iterations{3};
    uint32_t seed{1};
    double modelScale{1e-3};
    double computeScale{0};
    std::string linkRate{"100Gbps"};
    uint32_t window{256};
    std::string priorityRule{"ShortestRemaining"};
    double outlierProb{0};
    double jitterUs{0};
    uint32_t racks{1};
    bool crossRack{false};
    bool hierarchical{true};
    std::string uplinkRate{"400Gbps"};
    bool verify{true};
};

struct JobOut
{
    std::string model;
    uint64_t values{0};
    uint32_t iterations{0};
    InaJobResult r;
};

struct RunOut
{
    InaRunConfig cfg;
    std::vector<JobOut> jobs;
    InaSwitchStats sw;
    double avgJct{0};
    double makespan{0};
    double occupancy{0};
    double usefulOccupancy{0};
    uint64_t psBytes{0};
    double wallSeconds{0};
};

RunOut
RunOnce(const InaRunConfig& cfg)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(cfg.seed);
    InaHelper helper;
    helper.SetPolicy(cfg.policy);
    helper.SetSwitchAttribute("PoolSize", UintegerValue(cfg.poolSize));
    helper.SetLinkRate(DataRate(cfg.linkRate));
    helper.SetLossRate(cfg.loss);
    helper.SetWindow(cfg.window);
    helper.SetRacks(cfg.racks, DataRate(cfg.uplinkRate));
    helper.SetHierarchical(cfg.hierarchical);
    helper.SetWorkerAttribute("Seed", UintegerValue(cfg.seed));
    helper.SetWorkerAttribute("OutlierProbability", DoubleValue(cfg.outlierProb));
    helper.SetWorkerAttribute("IterationJitter", TimeValue(Seconds(cfg.jitterUs * 1e-6)));
    if (cfg.policy == "esa")
    {
        helper.SetPolicyAttribute("PriorityRule", StringValue(cfg.priorityRule));
    }
    RunOut out;
    out.cfg = cfg;
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        const MixModel& m = kMix[j % (sizeof(kMix) / sizeof(kMix[0]))];
        InaJobSpec s;
        s.workers = cfg.workers;
        s.gradientValues =
            std::max<uint64_t>(1, static_cast<uint64_t>(m.parameters * cfg.modelScale));
        s.iterations = cfg.iterations;
        s.computeTime = Seconds(m.computeSeconds * cfg.computeScale);
        for (uint32_t w = 0; w < cfg.workers; ++w)
        {
            // Jobs fill racks in turn, or (--cross-rack) spread every job over all racks.
            s.workerRacks.push_back(cfg.crossRack ? w % cfg.racks : j % cfg.racks);
        }
        helper.AddJob(s);
        JobOut jo;
        jo.model = m.name;
        jo.values = s.gradientValues;
        jo.iterations = s.iterations;
        out.jobs.push_back(jo);
    }
    helper.Install();
    helper.AssignStreams(1000);
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        // Every worker receives the same results; checking rank 0 keeps the run fast.
        for (const auto& w : helper.GetWorkers(j))
        {
            w->SetAttribute("Verify", BooleanValue(cfg.verify && w == helper.GetWorkers(j)[0]));
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(100));
    Simulator::Run();
    out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        out.jobs[j].r = helper.GetResult(j);
        out.avgJct += out.jobs[j].r.jct / cfg.jobs;
        out.makespan = std::max(out.makespan, out.jobs[j].r.jct);
        out.psBytes += out.jobs[j].r.psBytes;
    }
    // Counters and occupancy over every switch (one, or the ToRs and the spine), up to the last
    // job's finish: the run itself goes on to its stop time, with SwitchML's last shadow
    // copies still held.
    Time end;
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        for (const auto& worker : helper.GetWorkers(j))
        {
            end = std::max(end, worker->GetFinishTime());
        }
    }
    double busy = 0;
    double useful = 0;
    std::vector<Ptr<InaSwitch>> switches = helper.GetSwitches();
    for (const auto& sw : switches)
    {
        const InaSwitchStats& st = sw->GetStats();
        out.sw.packetsIn += st.packetsIn;
        out.sw.preemptions += st.preemptions;
        out.sw.evictedPartials += st.evictedPartials;
        out.sw.collisions += st.collisions;
        out.sw.flushes += st.flushes;
        out.sw.upPackets += st.upPackets;
        busy += sw->GetBusyAggregatorSeconds(end);
        useful += sw->GetUsefulAggregatorSeconds();
    }
    double capacity = static_cast<double>(cfg.poolSize) * switches.size() * end.GetSeconds();
    out.occupancy = capacity > 0 ? busy / capacity : 0;
    out.usefulOccupancy = capacity > 0 ? useful / capacity : 0;
    Simulator::Destroy();
    return out;
}

nlohmann::json
ToJson(const RunOut& o)
{
    nlohmann::json j;
    j["config"] = {{"policy", o.cfg.policy},
                   {"poolSize", o.cfg.poolSize},
                   {"loss", o.cfg.loss},
                   {"jobs", o.cfg.jobs},
                   {"workers", o.cfg.workers},
                   {"iterations", o.cfg.iterations},
                   {"seed", o.cfg.seed},
                   {"modelScale", o.cfg.modelScale},
                   {"computeScale", o.cfg.computeScale},
                   {"linkRate", o.cfg.linkRate},
                   {"window", o.cfg.window},
                   {"priorityRule", o.cfg.priorityRule},
                   {"outlierProbability", o.cfg.outlierProb},
                   {"iterationJitterUs", o.cfg.jitterUs},
                   {"racks", o.cfg.racks},
                   {"crossRack", o.cfg.crossRack},
                   {"hierarchical", o.cfg.hierarchical},
                   {"uplinkRate", o.cfg.uplinkRate}};
    j["summary"] = {{"avgJctSeconds", o.avgJct},
                    {"makespanSeconds", o.makespan},
                    {"aggregatorOccupancy", o.occupancy},
                    {"usefulOccupancy", o.usefulOccupancy},
                    {"psFallbackBytes", o.psBytes},
                    {"preemptions", o.sw.preemptions},
                    {"evictedPartials", o.sw.evictedPartials},
                    {"collisions", o.sw.collisions},
                    {"flushes", o.sw.flushes},
                    {"switchPacketsIn", o.sw.packetsIn},
                    {"uplinkPackets", o.sw.upPackets},
                    {"wallSeconds", o.wallSeconds}};
    for (const auto& jo : o.jobs)
    {
        j["jobs"].push_back({{"model", jo.model},
                             {"gradientValues", jo.values},
                             {"iterations", jo.iterations},
                             {"jctSeconds", jo.r.jct},
                             {"meanIterationSeconds", jo.r.meanIterationTime},
                             {"psPackets", jo.r.psPackets},
                             {"psBytes", jo.r.psBytes},
                             {"psEvictedPartials", jo.r.psEvicted},
                             {"resends", jo.r.resends},
                             {"fallbackResults", jo.r.fallbackResults},
                             {"valuesChecked", jo.r.valuesChecked},
                             {"valuesWrong", jo.r.valuesWrong}});
    }
    return j;
}

void
Print(const RunOut& o)
{
    std::cout << "policy=" << o.cfg.policy << " pool=" << o.cfg.poolSize << " jobs=" << o.cfg.jobs
              << "x" << o.cfg.workers << " loss=" << o.cfg.loss << " seed=" << o.cfg.seed << "\n";
    std::cout << std::setw(4) << "job" << std::setw(12) << "model" << std::setw(10) << "values"
              << std::setw(12) << "JCT[ms]" << std::setw(10) << "PSpkts" << std::setw(9)
              << "resends" << std::setw(10) << "fallback" << std::setw(8) << "wrong"
              << "\n";
    for (size_t i = 0; i < o.jobs.size(); ++i)
    {
        const auto& jo = o.jobs[i];
        std::cout << std::setw(4) << i << std::setw(12) << jo.model << std::setw(10) << jo.values
                  << std::setw(12) << std::fixed << std::setprecision(3) << jo.r.jct * 1e3
                  << std::setw(10) << jo.r.psPackets << std::setw(9) << jo.r.resends
                  << std::setw(10) << jo.r.fallbackResults << std::setw(8) << jo.r.valuesWrong
                  << "\n";
    }
    std::cout << "avg JCT " << o.avgJct * 1e3 << " ms, makespan " << o.makespan * 1e3
              << " ms, occupancy " << std::setprecision(4) << o.occupancy << ", useful occupancy "
              << std::defaultfloat << std::setprecision(3) << o.usefulOccupancy << std::fixed
              << ", PS fallback " << o.psBytes << " B, preemptions " << o.sw.preemptions
              << " (evicted partials " << o.sw.evictedPartials << "), collisions "
              << o.sw.collisions << ", uplink packets " << o.sw.upPackets << ", wall "
              << std::setprecision(2) << o.wallSeconds << " s\n";
}

std::vector<uint32_t>
ParseList(const std::string& text)
{
    std::vector<uint32_t> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        try
        {
            size_t used = 0;
            long v = std::stol(item, &used);
            if (used != item.size() || v <= 0)
            {
                throw std::invalid_argument(item);
            }
            out.push_back(static_cast<uint32_t>(v));
        }
        catch (const std::exception&)
        {
            NS_FATAL_ERROR("--sweep-pools: '" << item << "' is not a positive integer");
        }
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    InaRunConfig cfg;
    bool sweep = false;
    std::string pools = "64,128,256,512,1024,4096,20000";
    std::string output = "ina-shared-aggregation.json";
    CommandLine cmd(__FILE__);
    cmd.AddValue("policy", "switchml, atp or esa", cfg.policy);
    cmd.AddValue("pool-size", "aggregators in the switch pool", cfg.poolSize);
    cmd.AddValue("loss", "packet loss probability per link direction", cfg.loss);
    cmd.AddValue("jobs", "jobs sharing the switch", cfg.jobs);
    cmd.AddValue("workers", "workers per job (1..32)", cfg.workers);
    cmd.AddValue("iterations", "iterations per job", cfg.iterations);
    cmd.AddValue("seed", "run seed (gradients and loss)", cfg.seed);
    cmd.AddValue("model-scale", "fraction of each model's gradient simulated", cfg.modelScale);
    cmd.AddValue("compute-scale",
                 "fraction of each model's compute time simulated (0: sync only)",
                 cfg.computeScale);
    cmd.AddValue("link-rate", "host link rate", cfg.linkRate);
    cmd.AddValue("window", "outstanding chunks per worker", cfg.window);
    cmd.AddValue("priority-rule",
                 "ESA rule: Static, ShortestRemaining, LeastAttained",
                 cfg.priorityRule);
    cmd.AddValue("outliers",
                 "probability of an outlier gradient element (forces overflow)",
                 cfg.outlierProb);
    cmd.AddValue("jitter-us",
                 "stragglers: each worker starts each iteration's sync up to this late [us]",
                 cfg.jitterUs);
    cmd.AddValue("racks", "racks, each with a ToR switch under a spine (1: one switch)", cfg.racks);
    cmd.AddValue("cross-rack", "spread every job over all racks", cfg.crossRack);
    cmd.AddValue("hierarchical",
                 "cross-rack jobs aggregate at their ToRs, then the spine (false: spine only)",
                 cfg.hierarchical);
    cmd.AddValue("uplink-rate", "ToR-to-spine link rate", cfg.uplinkRate);
    cmd.AddValue("verify",
                 "check every sum rank 0 of each job receives against the exact float sum",
                 cfg.verify);
    cmd.AddValue("sweep", "compare ESA, ATP and SwitchML over pool sizes", sweep);
    cmd.AddValue("sweep-pools", "pool sizes of --sweep, comma separated", pools);
    cmd.AddValue("output", "result JSON file", output);
    cmd.Parse(argc, argv);
    if (cfg.policy != "switchml" && cfg.policy != "atp" && cfg.policy != "esa")
    {
        NS_FATAL_ERROR("--policy=" << cfg.policy << ": expected switchml, atp or esa");
    }
    if (cfg.workers < 1 || cfg.workers > 32 || cfg.jobs < 1 || cfg.iterations < 1 || cfg.racks < 1)
    {
        NS_FATAL_ERROR("--workers must be 1..32, --jobs, --iterations and --racks >= 1");
    }
    if (cfg.loss < 0 || cfg.loss >= 1 || cfg.modelScale <= 0 || cfg.computeScale < 0)
    {
        NS_FATAL_ERROR("--loss must be in [0,1), --model-scale > 0, --compute-scale >= 0");
    }

    nlohmann::json results;
    if (!sweep)
    {
        RunOut o = RunOnce(cfg);
        Print(o);
        results = ToJson(o);
    }
    else
    {
        std::cout << "avg JCT [ms] over pool sizes (" << cfg.jobs << " jobs x " << cfg.workers
                  << " workers, loss " << cfg.loss << ", seed " << cfg.seed << ")\n";
        std::cout << std::setw(8) << "pool" << std::setw(12) << "switchml" << std::setw(12) << "atp"
                  << std::setw(12) << "esa" << std::setw(12) << "atp/esa" << std::setw(12)
                  << "esa preempt" << std::setw(14) << "atp PS MB" << std::setw(14) << "esa PS MB"
                  << "\n";
        for (uint32_t pool : ParseList(pools))
        {
            std::map<std::string, RunOut> row;
            for (std::string p : {"switchml", "atp", "esa"})
            {
                InaRunConfig c = cfg;
                c.policy = p;
                c.poolSize = pool;
                if (p == "switchml" && pool < 2 * cfg.jobs)
                {
                    continue; // no room for a partition per job
                }
                row[p] = RunOnce(c);
                results["runs"].push_back(ToJson(row[p]));
            }
            std::cout << std::setw(8) << pool << std::fixed << std::setprecision(3) << std::setw(12)
                      << (row.count("switchml") ? row["switchml"].avgJct * 1e3 : 0.0)
                      << std::setw(12) << row["atp"].avgJct * 1e3 << std::setw(12)
                      << row["esa"].avgJct * 1e3 << std::setw(12)
                      << row["atp"].avgJct / row["esa"].avgJct << std::setw(12)
                      << row["esa"].sw.preemptions << std::setw(14) << row["atp"].psBytes / 1e6
                      << std::setw(14) << row["esa"].psBytes / 1e6 << "\n";
        }
    }
    std::ofstream f(output);
    if (!f)
    {
        NS_FATAL_ERROR("cannot write " << output);
    }
    f << results.dump(2) << "\n";
    std::cout << "results written to " << output << "\n";
    return 0;
}
