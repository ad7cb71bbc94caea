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
 * N training jobs of a model mix share one P4 switch's aggregator pool (packet level).
 * Compares the allocation policies of ESA (preemptive), ATP (best-effort hashed) and
 * SwitchML (static partition).
 *
 *   ./ns3 run "ina-shared-aggregation --policy=esa --pool-size=256 --jobs=4"
 *   ./ns3 run "ina-shared-aggregation --sweep"             # ESA/ATP/SwitchML over pool sizes
 *   ./ns3 run "ina-shared-aggregation --grid --packet-seeds=5"  # rate vs 5-seed packet mean
 *
 * The model mix cycles resnet50, vgg16, bert-base, gpt2-small (parameter counts
 * of the public models); --model-scale shrinks every gradient (and, with
 * --compute-scale, the compute time) so that a packet-level run takes seconds.
 * Prints per-job JCT, aggregator occupancy and useful occupancy, PS fallback
 * traffic and preemptions, and writes a JSON result file with the full
 * configuration and seed.
 */

#include "ns3/core-module.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/ina-helper.h"
#include "ns3/progress-reporter.h"
#include "ns3/strict-options.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

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
    double packetJitterNs{0};
    std::string esaPreemption{"Priority"};
    bool atpCc{false}; //!< ATP/ESA workers run ATP's ECN window control
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
    double avgJct{0};       //!< over finished jobs only (NaN if none)
    uint32_t unfinished{0}; //!< jobs that did not finish by the stop time
    double makespan{0};
    double occupancy{0};
    double usefulOccupancy{0};
    uint64_t psBytes{0};
    uint64_t psFallbackBytes{0};
    double endSeconds{0}; //!< simulated time the run covered (last finish, or the stop time)
    double wallSeconds{0};
    std::optional<uint32_t> atpHashSalt; //!< the salt ATP ran with (set for ATP only)
};

/// A bad option value: main() prints it as one line and exits 1.
struct OptionError : std::invalid_argument
{
    using std::invalid_argument::invalid_argument;
};

/// --skew: mean per-packet host/NIC jitter [ns] (doc/ina.md, "Skew").
constexpr double SKEW_PACKET_JITTER_NS = 500;
/// --skew: each worker starts each iteration's sync up to this late [us] (doc/ina.md).
constexpr double SKEW_ITERATION_JITTER_US = 10;

/// The simulated time a run may take before unfinished jobs are reported [s].
constexpr double STOP_SECONDS = 100;

/**
 * ATP's index-hash salt for a run: the seed draws the job ids too, so ATP's index placement is
 * one of many (seed 1: the hash of ATP's host library) and a mean over seeds is a mean over
 * placements. The seed adds to the salt the user set (`--ns3::AtpPolicy::HashSalt`, default 0)
 * rather than replacing it, so a salt given on the command line is never silently dropped.
 */
uint32_t
AtpHashSalt(uint32_t seed)
{
    TypeId::AttributeInformation info;
    const bool found =
        TypeId::LookupByName("ns3::AtpPolicy").LookupAttributeByName("HashSalt", &info);
    NS_ABORT_MSG_UNLESS(found, "AtpPolicy has no HashSalt attribute");
    const auto base = DynamicCast<const UintegerValue>(info.initialValue);
    return static_cast<uint32_t>(base->Get()) + (seed - 1);
}

RunOut
RunOnce(const InaRunConfig& cfg)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(cfg.seed);
    RunOut out;
    out.cfg = cfg;
    InaHelper helper;
    helper.SetPolicy(cfg.policy);
    if (cfg.policy == "atp")
    {
        out.atpHashSalt = AtpHashSalt(cfg.seed);
        helper.SetPolicyAttribute("HashSalt", UintegerValue(*out.atpHashSalt));
    }
    helper.SetSwitchAttribute("PoolSize", UintegerValue(cfg.poolSize));
    helper.SetLinkRate(DataRate(cfg.linkRate));
    helper.SetLossRate(cfg.loss);
    helper.SetWindow(cfg.window);
    helper.SetRacks(cfg.racks, DataRate(cfg.uplinkRate));
    helper.SetHierarchical(cfg.hierarchical);
    helper.SetWorkerAttribute("Seed", UintegerValue(cfg.seed));
    helper.SetWorkerAttribute("OutlierProbability", DoubleValue(cfg.outlierProb));
    helper.SetWorkerAttribute("IterationJitter", TimeValue(Seconds(cfg.jitterUs * 1e-6)));
    helper.SetWorkerAttribute("PacketJitter", TimeValue(Seconds(cfg.packetJitterNs * 1e-9)));
    if (cfg.atpCc)
    {
        helper.SetWorkerAttribute("CongestionControl", BooleanValue(true));
    }
    if (cfg.policy == "esa")
    {
        helper.SetPolicyAttribute("PriorityRule", StringValue(cfg.priorityRule));
        helper.SetPolicyAttribute("Preemption", StringValue(cfg.esaPreemption));
    }
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
    try
    {
        helper.Install();
    }
    catch (const std::exception&)
    {
        Simulator::Destroy();
        throw;
    }
    helper.AssignStreams(1000);
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        // Every worker receives the same results; checking rank 0 keeps the run fast.
        for (const auto& w : helper.GetWorkers(j))
        {
            w->SetAttribute("Verify", BooleanValue(cfg.verify && w == helper.GetWorkers(j)[0]));
        }
    }
    // The run ends when the last worker finishes its last iteration (or at the stop time, with
    // jobs unfinished), so occupancy counts exactly the time simulated.
    uint32_t running = 0;
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        for (const auto& worker : helper.GetWorkers(j))
        {
            ++running;
            worker->TraceConnectWithoutContext(
                "IterationDone",
                MakeBoundCallback(
                    +[](uint32_t* left, uint32_t iterations, uint16_t, uint32_t, uint32_t it) {
                        if (it + 1 == iterations && --*left == 0)
                        {
                            Simulator::Stop();
                        }
                    },
                    &running,
                    cfg.iterations));
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(STOP_SECONDS));
    Simulator::Run();
    out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Time end = Simulator::Now();
    out.endSeconds = end.GetSeconds();
    uint32_t finished = 0;
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        out.jobs[j].r = helper.GetResult(j);
        if (out.jobs[j].r.jct < 0)
        {
            ++out.unfinished; // never averaged in
            continue;
        }
        ++finished;
        out.avgJct += out.jobs[j].r.jct;
        out.makespan = std::max(out.makespan, out.jobs[j].r.jct);
    }
    out.avgJct = finished > 0 ? out.avgJct / finished : std::nan("");
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        out.psBytes += out.jobs[j].r.psBytes;
        out.psFallbackBytes += out.jobs[j].r.psFallbackBytes;
    }
    // Counters and occupancy over every switch (one, or the ToRs and the spine), over the
    // simulated time.
    double busy = 0;
    double useful = 0;
    std::vector<Ptr<InaSwitch>> switches = helper.GetSwitches();
    for (const auto& sw : switches)
    {
        const InaSwitchStats& st = sw->GetStats();
        out.sw.packetsIn += st.packetsIn;
        out.sw.preemptions += st.preemptions;
        out.sw.evictedPartials += st.evictedPartials;
        out.sw.earlyReleases += st.earlyReleases;
        out.sw.resendFrees += st.resendFrees;
        out.sw.collisions += st.collisions;
        out.sw.flushes += st.flushes;
        out.sw.upPackets += st.upPackets;
        out.sw.ecnMarks += st.ecnMarks;
        busy += sw->GetBusyAggregatorSeconds(end);
        useful += sw->GetUsefulAggregatorSeconds();
    }
    double capacity = static_cast<double>(cfg.poolSize) * switches.size() * end.GetSeconds();
    out.occupancy = capacity > 0 ? busy / capacity : 0;
    out.usefulOccupancy = capacity > 0 ? useful / capacity : 0;
    Simulator::Destroy();
    return out;
}

/// The same job mix through the rate model (InaGradientSync), advanced like the engine.
struct RateOut
{
    std::vector<double> jct; //!< per job [s]
    double avgJct{0};        //!< [s]
    double wallSeconds{0};
};

/**
 * \brief A term of the rate level that would leave a job unfinished (not a finite number, or
 *        below its range) is an error, not a JCT to average in.
 * \param what the term \param job its job \param value its value [s]
 * \param positive true: the term must be > 0 (an iteration time); false: >= 0 (a stall)
 * \throws std::runtime_error naming the job, the term and its value
 */
void
CheckRateTerm(const std::string& what, size_t job, double value, bool positive)
{
    if (!std::isfinite(value) || (positive ? !(value > 0) : !(value >= 0)))
    {
        std::ostringstream os;
        os << "rate level: job " << job << " got a " << what << " of " << value
           << " s from InaGradientSync (expected a finite number " << (positive ? "> 0" : ">= 0")
           << ")";
        throw std::runtime_error(os.str());
    }
}

/**
 * \brief Run cfg's jobs through InaGradientSync: constant per-iteration times between job
 *        completions, every running job re-evaluated when one finishes (as the cluster
 *        engine does); compute time added per iteration.
 * \param cfg the configuration (the packet level's)
 * \return per-job JCT and their mean
 */
RateOut
RunRate(const InaRunConfig& cfg)
{
    auto t0 = std::chrono::steady_clock::now();
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue(cfg.policy));
    m->SetAttribute("PoolSize", UintegerValue(cfg.poolSize));
    m->SetAttribute("LinkRate", DataRateValue(DataRate(cfg.linkRate)));
    m->SetAttribute("Window", UintegerValue(cfg.window));
    m->SetAttribute("Hierarchical", BooleanValue(cfg.hierarchical));
    m->SetAttribute("UplinkRate", DataRateValue(DataRate(cfg.uplinkRate)));
    m->SetAttribute("PriorityRule", StringValue(cfg.priorityRule));
    m->SetAttribute("IterationJitter", TimeValue(Seconds(cfg.jitterUs * 1e-6)));
    m->SetAttribute("PacketJitter", TimeValue(Seconds(cfg.packetJitterNs * 1e-9)));
    // The packet level lays SwitchML's partitions out once, over the jobs at each switch.
    uint32_t atSwitch =
        cfg.crossRack || cfg.racks == 1 ? cfg.jobs : (cfg.jobs + cfg.racks - 1) / cfg.racks;
    m->SetAttribute("SwitchMlPartitions", UintegerValue(atSwitch));
    const size_t n = cfg.jobs;
    std::vector<double> bytes(n);
    std::vector<double> compute(n);
    std::vector<double> remaining(n, cfg.iterations);
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> racks(n);
    for (size_t j = 0; j < n; ++j)
    {
        const MixModel& mm = kMix[j % (sizeof(kMix) / sizeof(kMix[0]))];
        bytes[j] =
            4.0 * std::max<uint64_t>(1, static_cast<uint64_t>(mm.parameters * cfg.modelScale));
        compute[j] = mm.computeSeconds * cfg.computeScale;
        std::map<uint32_t, uint32_t> perRack;
        for (uint32_t w = 0; w < cfg.workers; ++w)
        {
            ++perRack[cfg.crossRack ? w % cfg.racks : j % cfg.racks];
        }
        racks[j].assign(perRack.begin(), perRack.end());
    }
    RateOut out;
    out.jct.assign(n, -1);
    // One-off seconds a job loses before it progresses again: ESA stalls that outlive the
    // holder that would have rescued them (InaGradientSync::DepartureStalls).
    std::vector<double> owed(n, 0.0);
    // Collided indices each job's PS has re-hashed so far (InaRateJob::rehashesUsed).
    std::vector<double> rehashes(n, 0.0);
    double now = 0;
    while (true)
    {
        std::vector<size_t> running;
        std::vector<InaRateJob> jobs;
        for (size_t j = 0; j < n; ++j)
        {
            if (remaining[j] > 1e-9)
            {
                running.push_back(j);
                InaRateJob r;
                r.workers = cfg.workers;
                r.gradientBytes = bytes[j];
                r.iterations = remaining[j];
                r.iterationsDone = cfg.iterations - remaining[j];
                r.rehashesUsed = rehashes[j];
                r.id = j;
                r.racks = racks[j];
                // As the switch ranks them: remaining work counted in whole iterations.
                r.priorityKey = cfg.priorityRule == "ShortestRemaining"
                                    ? std::ceil(remaining[j] - 1e-9) * bytes[j]
                                : cfg.priorityRule == "LeastAttained"
                                    ? std::floor(cfg.iterations - remaining[j] + 1e-9) * bytes[j]
                                    : 0.0;
                jobs.push_back(r);
            }
        }
        if (running.empty())
        {
            break;
        }
        std::vector<double> fallback;
        std::vector<std::vector<double>> overhang;
        std::vector<double> t = cfg.racks > 1
                                    ? m->RackSyncTimes(jobs, &fallback, nullptr, &overhang)
                                    : m->SwitchSyncTimes(jobs, 0, &fallback);
        if (cfg.racks <= 1)
        {
            overhang = m->DepartureStalls(jobs);
        }
        double dt = 1e30;
        for (size_t k = 0; k < running.size(); ++k)
        {
            t[k] += compute[running[k]];
            CheckRateTerm("iteration time", running[k], t[k], true);
            for (double stall : overhang[k])
            {
                CheckRateTerm("departure stall", running[k], stall, false);
            }
            dt = std::min(dt, owed[running[k]] + remaining[running[k]] * t[k]);
        }
        now += dt;
        std::vector<size_t> departed;
        for (size_t k = 0; k < running.size(); ++k)
        {
            size_t j = running[k];
            const double pay = std::min(owed[j], dt);
            owed[j] -= pay;
            const double progressed = std::min(remaining[j], (dt - pay) / t[k]);
            rehashes[j] += fallback[k] * m->ChunksPerIteration(bytes[j]) * progressed;
            remaining[j] -= (dt - pay) / t[k];
            if (remaining[j] < 1e-9)
            {
                remaining[j] = 0;
                out.jct[j] = now;
                departed.push_back(k);
            }
        }
        for (size_t i : departed)
        {
            for (size_t k = 0; k < running.size(); ++k)
            {
                owed[running[k]] += remaining[running[k]] > 0 ? overhang[k][i] : 0.0;
            }
        }
    }
    for (double x : out.jct)
    {
        out.avgJct += x / n;
    }
    out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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
                   {"packetJitterNs", o.cfg.packetJitterNs},
                   {"esaPreemption", o.cfg.esaPreemption},
                   {"atpCc", o.cfg.atpCc},
                   {"racks", o.cfg.racks},
                   {"crossRack", o.cfg.crossRack},
                   {"hierarchical", o.cfg.hierarchical},
                   {"uplinkRate", o.cfg.uplinkRate},
                   {"atpHashSalt", o.atpHashSalt ? nlohmann::json(*o.atpHashSalt) : nullptr}};
    j["summary"] = {{"avgJctSeconds", o.unfinished == 0 ? nlohmann::json(o.avgJct) : nullptr},
                    {"avgJctFinishedSeconds",
                     std::isnan(o.avgJct) ? nlohmann::json(nullptr) : nlohmann::json(o.avgJct)},
                    {"unfinishedJobs", o.unfinished},
                    {"simulatedSeconds", o.endSeconds},
                    {"makespanSeconds", o.makespan},
                    {"aggregatorOccupancy", o.occupancy},
                    {"usefulOccupancy", o.usefulOccupancy},
                    {"psFallbackBytes", o.psFallbackBytes},
                    {"psBytes", o.psBytes},
                    {"preemptions", o.sw.preemptions},
                    {"evictedPartials", o.sw.evictedPartials},
                    {"earlyReleases", o.sw.earlyReleases},
                    {"resendFrees", o.sw.resendFrees},
                    {"collisions", o.sw.collisions},
                    {"flushes", o.sw.flushes},
                    {"ecnMarks", o.sw.ecnMarks},
                    {"switchPacketsIn", o.sw.packetsIn},
                    {"uplinkPackets", o.sw.upPackets},
                    {"wallSeconds", o.wallSeconds}};
    for (const auto& jo : o.jobs)
    {
        j["jobs"].push_back({{"model", jo.model},
                             {"gradientValues", jo.values},
                             {"iterations", jo.iterations},
                             {"finished", jo.r.jct >= 0},
                             {"jctSeconds", jo.r.jct >= 0 ? nlohmann::json(jo.r.jct) : nullptr},
                             {"iterationsDone", jo.r.iterationsDone},
                             {"meanIterationSeconds", jo.r.meanIterationTime},
                             {"psPackets", jo.r.psPackets},
                             {"psBytes", jo.r.psBytes},
                             {"psFallbackBytes", jo.r.psFallbackBytes},
                             {"psEvictedPartials", jo.r.psEvicted},
                             {"resends", jo.r.resends},
                             {"fallbackResults", jo.r.fallbackResults},
                             {"ecnDecreases", jo.r.ecnDecreases},
                             {"valuesChecked", jo.r.valuesChecked},
                             {"valuesWrong", jo.r.valuesWrong}});
    }
    return j;
}

/** \param x a number \param digits decimals \return it formatted */
std::string
Fixed(double x, int digits)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << x;
    return os.str();
}

/** \param seconds a time [s] \return it in ms, 3 decimals */
std::string
Ms(double seconds)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << seconds * 1e3;
    return os.str();
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
                  << std::setw(12) << std::fixed << std::setprecision(3)
                  << (jo.r.jct >= 0 ? Ms(jo.r.jct) : "unfinished") << std::setw(10)
                  << jo.r.psPackets << std::setw(9) << jo.r.resends << std::setw(10)
                  << jo.r.fallbackResults << std::setw(8) << jo.r.valuesWrong << "\n";
    }
    if (o.unfinished > 0)
    {
        std::cout << "avg JCT n/a: " << o.unfinished << " of " << o.jobs.size()
                  << " jobs unfinished after " << o.endSeconds << " s simulated";
        if (o.unfinished < o.jobs.size())
        {
            std::cout << " (finished jobs: avg " << Ms(o.avgJct) << " ms)";
        }
    }
    else
    {
        std::cout << "avg JCT " << Ms(o.avgJct) << " ms, makespan " << Ms(o.makespan) << " ms";
    }
    std::cout << ", occupancy " << std::setprecision(4) << o.occupancy << ", useful occupancy "
              << std::defaultfloat << std::setprecision(3) << o.usefulOccupancy << std::fixed
              << ", PS fallback " << o.psFallbackBytes << " B (PS total " << o.psBytes
              << " B), preemptions " << o.sw.preemptions << " (evicted partials "
              << o.sw.evictedPartials << ", early releases " << o.sw.earlyReleases
              << "), collisions " << o.sw.collisions << ", uplink packets " << o.sw.upPackets
              << ", ECN marks " << o.sw.ecnMarks << ", wall " << std::setprecision(2)
              << o.wallSeconds << " s\n";
}

/// The largest aggregator pool accepted (memory grows with it).
constexpr uint32_t kMaxPool = 1 << 20;

/// The most jobs one switch takes (--jobs, --grid-jobs).
constexpr uint32_t kMaxJobs = 1000;

/**
 * \param option the option's name (--sweep-pools, --grid-jobs) \param text its value
 * \param max the largest item \param unit what an item counts
 * \return the comma-separated integers in [1, max]; one bad item is an OptionError naming the
 *         option
 */
std::vector<uint32_t>
ParseList(const std::string& option, const std::string& text, uint32_t max, const std::string& unit)
{
    std::vector<uint32_t> out;
    for (const auto& item : strictopt::List(option, text))
    {
        out.push_back(static_cast<uint32_t>(strictopt::Unsigned(option, item, 1, max, unit)));
    }
    return out;
}

/// \param text --sweep-pools' value \return its pool sizes
std::vector<uint32_t>
ParsePools(const std::string& text)
{
    return ParseList("--sweep-pools", text, kMaxPool, "aggregators");
}

/// \param text --grid-jobs' value \return its job counts
std::vector<uint32_t>
ParseGridJobs(const std::string& text)
{
    return ParseList("--grid-jobs", text, kMaxJobs, "jobs");
}

/**
 * \brief Reject option values a run cannot mean (one line naming the option).
 * \param cfg the configuration \param sweep whether --sweep runs (it skips SwitchML where a
 *        pool cannot be partitioned)
 */
void
Validate(const InaRunConfig& cfg, bool sweep)
{
    auto fail = [](const std::string& m) { throw OptionError(m); };
    if (cfg.policy != "switchml" && cfg.policy != "atp" && cfg.policy != "esa")
    {
        fail("--policy=" + cfg.policy + ": expected switchml, atp or esa");
    }
    if (cfg.jobs < 1 || cfg.jobs > kMaxJobs)
    {
        fail("--jobs=" + std::to_string(cfg.jobs) + ": expected 1.." + std::to_string(kMaxJobs));
    }
    if (cfg.iterations < 1)
    {
        fail("--iterations=0: expected at least 1");
    }
    if (cfg.crossRack && cfg.racks > cfg.workers)
    {
        fail("--cross-rack with --racks=" + std::to_string(cfg.racks) +
             " needs --workers >= " + std::to_string(cfg.racks) + " (a worker in every rack)");
    }
    if (cfg.window < 1)
    {
        fail("--window=" + std::to_string(cfg.window) +
             ": expected at least 1 outstanding chunk per worker (0 sends nothing)");
    }
    if (cfg.poolSize < 1)
    {
        fail("--pool-size=0: expected at least 1 aggregator");
    }
    if (!(cfg.loss >= 0 && cfg.loss < 1))
    {
        fail("--loss=" + std::to_string(cfg.loss) + ": expected a probability in [0, 1)");
    }
    if (!(cfg.modelScale > 0) || !std::isfinite(cfg.modelScale))
    {
        fail("--model-scale: expected a finite fraction > 0");
    }
    if (!(cfg.computeScale >= 0) || !std::isfinite(cfg.computeScale))
    {
        fail("--compute-scale: expected a finite fraction >= 0");
    }
    if (!(cfg.outlierProb >= 0 && cfg.outlierProb <= 1))
    {
        fail("--outliers: expected a probability in [0, 1]");
    }
    if (!(cfg.jitterUs >= 0) || !std::isfinite(cfg.jitterUs))
    {
        fail("--jitter-us: expected a finite time >= 0 [us]");
    }
    if (!(cfg.packetJitterNs >= 0) || !std::isfinite(cfg.packetJitterNs))
    {
        fail("--packet-jitter-ns: expected a finite time >= 0 [ns]");
    }
    if (cfg.esaPreemption != "Priority" && cfg.esaPreemption != "EarlyRelease" &&
        cfg.esaPreemption != "Both")
    {
        fail("--esa-preemption=" + cfg.esaPreemption + ": expected Priority, EarlyRelease or Both");
    }
    if (cfg.priorityRule != "Static" && cfg.priorityRule != "ShortestRemaining" &&
        cfg.priorityRule != "LeastAttained")
    {
        fail("--priority-rule=" + cfg.priorityRule +
             ": expected Static, ShortestRemaining or LeastAttained");
    }
    for (const auto& [name, text] :
         {std::pair<std::string, std::string>{"--link-rate", cfg.linkRate},
          {"--uplink-rate", cfg.uplinkRate}})
    {
        DataRateValue v;
        if (!v.DeserializeFromString(text, MakeDataRateChecker()) || v.Get().GetBitRate() == 0)
        {
            fail(name + "=" + text + ": expected a positive data rate such as 100Gbps");
        }
    }
    if (cfg.atpCc && cfg.policy == "switchml" && !sweep)
    {
        fail("--atp-cc: ATP's ECN window control applies to --policy=atp or esa, not switchml "
             "(its slots retransmit one by one)");
    }
    if (cfg.policy == "switchml" && !sweep)
    {
        // Jobs at the busiest switch: all of them (cross-rack jobs span every ToR and the
        // spine), or those filling one rack.
        uint32_t atSwitch =
            cfg.crossRack || cfg.racks == 1 ? cfg.jobs : (cfg.jobs + cfg.racks - 1) / cfg.racks;
        if (cfg.poolSize / atSwitch < 2)
        {
            fail("--pool-size=" + std::to_string(cfg.poolSize) +
                 ": SwitchML needs a static partition of at least 2 aggregators (one slot, two "
                 "shadow copies) for each of the " +
                 std::to_string(atSwitch) + " jobs at a switch");
        }
    }
}

std::string AvgCell(const RunOut& o);

/// The packet level over consecutive seeds (--packet-seeds): the first run and the spread.
struct SeedRuns
{
    RunOut first;                //!< the run at the configured seed
    std::vector<double> avgJcts; //!< mean JCT of each seed's run [s] (NaN if unfinished)
    uint32_t unfinished{0};      //!< runs with unfinished jobs
    double mean{0};              //!< mean over seeds of the mean JCT [s] (NaN if any unfinished)
    double min{0};               //!< smallest seed's mean JCT [s]
    double max{0};               //!< largest seed's mean JCT [s]
    double stdError{0};          //!< standard error of the mean over seeds [s] (0 for one seed)
    double wallSeconds{0};       //!< packet wall time per seed, averaged [s]
};

/**
 * \brief Run the packet level at seeds cfg.seed .. cfg.seed + seeds - 1.
 * \param cfg the configuration \param seeds how many consecutive seeds (>= 1)
 * \return the runs' mean JCTs, their mean, range and standard error
 */
SeedRuns
RunSeeds(const InaRunConfig& cfg, uint32_t seeds)
{
    SeedRuns out;
    double sum = 0;
    for (uint32_t s = 0; s < seeds; ++s)
    {
        InaRunConfig c = cfg;
        c.seed = cfg.seed + s;
        RunOut o = RunOnce(c);
        out.unfinished += o.unfinished > 0 ? 1 : 0;
        const double x = o.unfinished == 0 ? o.avgJct : std::nan("");
        out.avgJcts.push_back(x);
        out.wallSeconds += o.wallSeconds / seeds;
        sum += x;
        if (s == 0)
        {
            out.first = o;
        }
    }
    out.mean = out.unfinished == 0 ? sum / seeds : std::nan("");
    out.min = *std::min_element(out.avgJcts.begin(), out.avgJcts.end());
    out.max = *std::max_element(out.avgJcts.begin(), out.avgJcts.end());
    if (seeds > 1 && out.unfinished == 0)
    {
        double ss = 0;
        for (double x : out.avgJcts)
        {
            ss += (x - out.mean) * (x - out.mean);
        }
        out.stdError = std::sqrt(ss / (seeds - 1) / seeds);
    }
    return out;
}

/**
 * \param r the packet level over seeds \return the JSON of the spread
 */
nlohmann::json
SeedsJson(const SeedRuns& r)
{
    nlohmann::json per = nlohmann::json::array();
    for (double x : r.avgJcts)
    {
        per.push_back(std::isnan(x) ? nlohmann::json(nullptr) : nlohmann::json(x));
    }
    auto num = [](double x) { return std::isnan(x) ? nlohmann::json(nullptr) : nlohmann::json(x); };
    return {{"seeds", r.avgJcts.size()},
            {"firstSeed", r.first.cfg.seed},
            {"avgJctSeconds", per},
            {"meanAvgJctSeconds", num(r.mean)},
            {"minAvgJctSeconds", num(r.min)},
            {"maxAvgJctSeconds", num(r.max)},
            {"stdErrorSeconds", num(r.stdError)},
            {"unfinishedRuns", r.unfinished}};
}

/**
 * \param o the packet-level run \param r the rate-level run of the same configuration
 */
void
PrintBoth(const RunOut& o, const RateOut& r)
{
    std::cout << "policy=" << o.cfg.policy << " pool=" << o.cfg.poolSize << " jobs=" << o.cfg.jobs
              << "x" << o.cfg.workers << " jitter " << o.cfg.jitterUs << " us + "
              << o.cfg.packetJitterNs << " ns/packet, seed " << o.cfg.seed << "\n";
    std::cout << std::setw(4) << "job" << std::setw(12) << "model" << std::setw(14) << "packet[ms]"
              << std::setw(12) << "rate[ms]" << std::setw(10) << "error"
              << "\n";
    for (size_t j = 0; j < o.jobs.size(); ++j)
    {
        double p = o.jobs[j].r.jct;
        std::cout << std::setw(4) << j << std::setw(12) << o.jobs[j].model << std::setw(14)
                  << (p >= 0 ? Ms(p) : "unfinished") << std::setw(12) << Ms(r.jct[j])
                  << std::setw(9) << (p > 0 ? Fixed(100 * (r.jct[j] / p - 1), 1) : "-") << "%\n";
    }
    if (o.unfinished == 0)
    {
        std::cout << "avg JCT packet " << Ms(o.avgJct) << " ms, rate " << Ms(r.avgJct)
                  << " ms, error " << Fixed(100 * (r.avgJct / o.avgJct - 1), 1) << "%; wall packet "
                  << Fixed(o.wallSeconds, 3) << " s, rate " << Fixed(r.wallSeconds * 1e3, 3)
                  << " ms (rate " << Fixed(o.wallSeconds / std::max(r.wallSeconds, 1e-9), 0)
                  << "x faster)\n";
    }
}

/**
 * \brief The grid of doc/ina.md: every job count x pool x policy, without and with skew,
 *        at both levels; one line per point, progress on stderr.
 * \param base the configuration \param jobs job counts \param pools pool sizes
 * \param results out: every point
 * \return runs with unfinished jobs
 */
uint32_t
RunGrid(const InaRunConfig& base,
        const std::vector<uint32_t>& jobs,
        const std::vector<uint32_t>& pools,
        uint32_t seeds,
        nlohmann::json& results)
{
    const size_t total = jobs.size() * pools.size() * 3 * 2;
    size_t done = 0;
    uint32_t unfinished = 0;
    size_t within = 0;
    size_t compared = 0;
    double worst = 0;
    std::cout << std::setw(5) << "skew" << std::setw(6) << "jobs" << std::setw(8) << "pool"
              << std::setw(10) << "policy" << std::setw(13)
              << (seeds > 1 ? "mean[ms]" : "packet[ms]") << std::setw(11) << "rate[ms]"
              << std::setw(9) << "error" << std::setw(10) << "speed";
    if (seeds > 1)
    {
        std::cout << std::setw(17) << "min-max[ms]" << std::setw(10) << "sem[ms]";
    }
    std::cout << "\n";
    for (bool skew : {false, true})
    {
        for (uint32_t n : jobs)
        {
            for (uint32_t pool : pools)
            {
                for (std::string policy : {"switchml", "atp", "esa"})
                {
                    InaRunConfig c = base;
                    c.jobs = n;
                    c.poolSize = pool;
                    c.policy = policy;
                    c.jitterUs = skew ? SKEW_ITERATION_JITTER_US : 0;
                    c.packetJitterNs = skew ? SKEW_PACKET_JITTER_NS : 0;
                    ++done;
                    if (policy == "switchml" && pool / n < 2)
                    {
                        continue; // SwitchML cannot partition this pool
                    }
                    SeedRuns sr = RunSeeds(c, seeds);
                    const RunOut& o = sr.first;
                    RateOut r = RunRate(c);
                    // Against the mean over seeds (with one seed, the packet run itself).
                    double err = sr.unfinished == 0 ? r.avgJct / sr.mean - 1 : std::nan("");
                    unfinished += sr.unfinished;
                    if (!std::isnan(err))
                    {
                        ++compared;
                        within += std::fabs(err) <= 0.10 ? 1 : 0;
                        worst = std::max(worst, std::fabs(err));
                    }
                    std::cout << std::setw(5) << (skew ? "yes" : "no") << std::setw(6) << n
                              << std::setw(8) << pool << std::setw(10) << policy << std::setw(13)
                              << (seeds > 1 ? (sr.unfinished > 0 ? "unfinished" : Ms(sr.mean))
                                            : AvgCell(o))
                              << std::setw(11) << Ms(r.avgJct) << std::setw(8)
                              << (std::isnan(err) ? "-" : Fixed(100 * err, 1)) << "%"
                              << std::setw(9)
                              << Fixed(sr.wallSeconds / std::max(r.wallSeconds, 1e-9), 0) << "x";
                    if (seeds > 1)
                    {
                        std::cout << std::setw(17)
                                  << (sr.unfinished > 0 ? "-" : Ms(sr.min) + "-" + Ms(sr.max))
                                  << std::setw(10) << (sr.unfinished > 0 ? "-" : Ms(sr.stdError));
                    }
                    std::cout << std::endl;
                    nlohmann::json point = ToJson(o);
                    point["rate"] = {{"avgJctSeconds", r.avgJct},
                                     {"jctSeconds", r.jct},
                                     {"wallSeconds", r.wallSeconds}};
                    if (seeds > 1)
                    {
                        point["packetSeeds"] = SeedsJson(sr);
                        point["rate"]["errorVsSeedMean"] =
                            std::isnan(err) ? nlohmann::json(nullptr) : nlohmann::json(err);
                    }
                    results["grid"].push_back(point);
                    ProgressReporter::Report("ina-shared-aggregation",
                                             "grid: " + std::to_string(done) + "/" +
                                                 std::to_string(total) + " points");
                }
            }
        }
    }
    std::cout << "within 10%"
              << (seeds > 1 ? " of the mean over " + std::to_string(seeds) + " packet seeds (" +
                                  std::to_string(base.seed) + ".." +
                                  std::to_string(base.seed + seeds - 1) + ")"
                            : std::string())
              << ": " << within << " of " << compared << " points; worst |error| "
              << Fixed(100 * worst, 1) << "%\n";
    return unfinished;
}

/**
 * \param o a run \return its average JCT in ms, or "unfinished"
 */
std::string
AvgCell(const RunOut& o)
{
    return o.unfinished > 0 ? "unfinished" : Ms(o.avgJct);
}

} // namespace

int
Main(int argc, char* argv[])
{
    InaRunConfig cfg;
    bool sweep = false;
    std::string pools = "64,128,256,512,1024,4096,20000";
    std::string output = "results/ina-shared-aggregation/results.json"; // never the repository root
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("policy", "switchml, atp or esa", cfg.policy);
    cmd.AddValue("pool-size", "aggregators in the switch pool", cfg.poolSize, 1, kMaxPool);
    cmd.AddValue("loss", "packet loss probability per link direction", cfg.loss, 0, 1);
    cmd.AddValue("jobs", "jobs sharing the switch", cfg.jobs, 1, kMaxJobs);
    cmd.AddValue("workers", "workers per job (the bitmap's width)", cfg.workers, 1, 32);
    cmd.AddValue("iterations", "iterations per job", cfg.iterations, 1, 100000);
    cmd.AddValue("seed",
                 "run seed (gradients, loss, jitter; with ATP also its index placement, "
                 "AtpPolicy::HashSalt + seed - 1)",
                 cfg.seed);
    cmd.AddValue("model-scale",
                 "fraction of each model's gradient simulated",
                 cfg.modelScale,
                 1e-9,
                 1);
    cmd.AddValue("compute-scale",
                 "fraction of each model's compute time simulated (0: sync only)",
                 cfg.computeScale,
                 0,
                 1000);
    cmd.AddValue("link-rate", "host link rate", cfg.linkRate);
    cmd.AddValue("window", "outstanding chunks per worker", cfg.window, 1);
    cmd.AddValue("priority-rule",
                 "ESA rule: Static, ShortestRemaining, LeastAttained",
                 cfg.priorityRule);
    cmd.AddValue("outliers",
                 "probability of an outlier gradient element (forces overflow)",
                 cfg.outlierProb);
    cmd.AddValue("jitter-us",
                 "stragglers: each worker starts each iteration's sync up to this late [us]",
                 cfg.jitterUs,
                 0,
                 1e6,
                 "us");
    cmd.AddValue("packet-jitter-ns",
                 "host/NIC jitter: mean of an exponential per-packet delay [ns]",
                 cfg.packetJitterNs,
                 0,
                 1e9,
                 "ns");
    bool skew = false;
    cmd.AddValue("skew",
                 "realistic skew: --packet-jitter-ns=500 and --jitter-us=10 unless given "
                 "(doc/ina.md, \"Skew\")",
                 skew);
    cmd.AddValue("esa-preemption",
                 "ESA ablation: Priority (as published), EarlyRelease (take only complete "
                 "aggregators waiting for the PS) or Both",
                 cfg.esaPreemption);
    cmd.AddValue("atp-cc",
                 "ATP/ESA workers run ATP's ECN window control (off in ATP's public client; "
                 "doc/ina.md, \"ECN window control\")",
                 cfg.atpCc);
    cmd.AddValue("racks",
                 "racks, each with a ToR switch under a spine (1: one switch)",
                 cfg.racks,
                 1,
                 32);
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
    std::string granularity = "packet";
    cmd.AddValue("granularity",
                 "packet (ns-3 packets), rate (InaGradientSync, as the cluster engine) or both "
                 "(side by side, with the rate level's error)",
                 granularity);
    bool grid = false;
    std::string gridJobs = "2,4,8";
    cmd.AddValue("grid",
                 "rate vs packet over --grid-jobs x --sweep-pools x three policies, without and "
                 "with --skew (doc/ina.md)",
                 grid);
    cmd.AddValue("grid-jobs", "job counts of --grid, comma separated", gridJobs);
    uint32_t packetSeeds = 1;
    cmd.AddValue("packet-seeds",
                 "with --granularity=both or --grid: run the packet level at seeds --seed .. "
                 "--seed + N - 1 and compare the rate level with their mean (1: that one run)",
                 packetSeeds,
                 1,
                 1000);
    cmd.AddValue("output", "result JSON file", output);
    cmd.Parse(argc, argv);
    if (skew)
    {
        std::string given = " ";
        for (int i = 1; i < argc; ++i)
        {
            given += std::string(argv[i]) + " ";
        }
        if (given.find("--packet-jitter-ns") == std::string::npos)
        {
            cfg.packetJitterNs = SKEW_PACKET_JITTER_NS;
        }
        if (given.find("--jitter-us") == std::string::npos)
        {
            cfg.jitterUs = SKEW_ITERATION_JITTER_US;
        }
    }
    Validate(cfg, sweep);
    // checked even without --sweep or --grid: a bad value is never silently unused
    ParsePools(pools);
    ParseGridJobs(gridJobs);
    PrepareOutputFile(output);

    if (granularity != "packet" && granularity != "rate" && granularity != "both")
    {
        throw OptionError("--granularity=" + granularity + ": expected packet, rate or both");
    }
    if (packetSeeds > 1 && granularity != "both" && !grid)
    {
        throw OptionError("--packet-seeds=" + std::to_string(packetSeeds) +
                          ": averages the packet level against the rate level; expected "
                          "--granularity=both or --grid (or --packet-seeds=1)");
    }
    if (static_cast<uint64_t>(cfg.seed) + packetSeeds - 1 > std::numeric_limits<uint32_t>::max())
    {
        throw OptionError("--packet-seeds=" + std::to_string(packetSeeds) + " from --seed=" +
                          std::to_string(cfg.seed) + ": the last seed exceeds 4294967295");
    }
    if (granularity != "packet" || grid)
    {
        if (sweep)
        {
            throw OptionError("--sweep runs the packet level only; use --grid to compare levels");
        }
        if (cfg.loss > 0)
        {
            throw OptionError("--loss: the rate level models no loss; use --granularity=packet");
        }
        if (cfg.atpCc)
        {
            throw OptionError("--atp-cc: the rate level models ATP's fixed window (its public "
                              "client's default); use --granularity=packet");
        }
        if (cfg.esaPreemption != "Priority")
        {
            throw OptionError("--esa-preemption=" + cfg.esaPreemption +
                              ": the rate level models ESA as published (Priority); use "
                              "--granularity=packet");
        }
    }

    nlohmann::json results;
    uint32_t unfinishedRuns = 0;
    if (grid)
    {
        unfinishedRuns =
            RunGrid(cfg, ParseGridJobs(gridJobs), ParsePools(pools), packetSeeds, results);
    }
    else if (granularity == "rate")
    {
        RateOut r = RunRate(cfg);
        std::cout << "policy=" << cfg.policy << " pool=" << cfg.poolSize << " jobs=" << cfg.jobs
                  << "x" << cfg.workers << " (rate level)\n";
        for (size_t j = 0; j < r.jct.size(); ++j)
        {
            std::cout << std::setw(4) << j << std::setw(12) << Ms(r.jct[j]) << " ms\n";
        }
        std::cout << "avg JCT " << Ms(r.avgJct) << " ms, wall " << r.wallSeconds << " s\n";
        results["rate"] = {{"avgJctSeconds", r.avgJct}, {"jctSeconds", r.jct}};
    }
    else if (granularity == "both")
    {
        SeedRuns sr = RunSeeds(cfg, packetSeeds);
        const RunOut& o = sr.first;
        RateOut r = RunRate(cfg);
        unfinishedRuns += sr.unfinished;
        PrintBoth(o, r);
        results = ToJson(o);
        results["rate"] = {{"avgJctSeconds", r.avgJct},
                           {"jctSeconds", r.jct},
                           {"wallSeconds", r.wallSeconds}};
        if (packetSeeds > 1)
        {
            const double err = sr.unfinished == 0 ? r.avgJct / sr.mean - 1 : std::nan("");
            std::cout << "packet over seeds " << cfg.seed << ".." << cfg.seed + packetSeeds - 1
                      << ": ";
            for (double x : sr.avgJcts)
            {
                std::cout << (std::isnan(x) ? "unfinished" : Ms(x)) << " ";
            }
            if (sr.unfinished == 0)
            {
                std::cout << "ms; mean " << Ms(sr.mean) << " ms (min-max " << Ms(sr.min) << "-"
                          << Ms(sr.max) << ", std error " << Ms(sr.stdError) << "), rate "
                          << Ms(r.avgJct) << " ms, error vs mean " << Fixed(100 * err, 1) << "%\n";
            }
            else
            {
                std::cout << "ms; " << sr.unfinished << " of " << packetSeeds
                          << " runs left jobs unfinished\n";
            }
            results["packetSeeds"] = SeedsJson(sr);
            results["rate"]["errorVsSeedMean"] =
                std::isnan(err) ? nlohmann::json(nullptr) : nlohmann::json(err);
        }
    }
    else if (!sweep)
    {
        RunOut o = RunOnce(cfg);
        Print(o);
        results = ToJson(o);
        unfinishedRuns += o.unfinished > 0 ? 1 : 0;
    }
    else
    {
        std::vector<uint32_t> poolList = ParsePools(pools);
        std::cout << "avg JCT [ms] over pool sizes (" << cfg.jobs << " jobs x " << cfg.workers
                  << " workers, loss " << cfg.loss << ", seed " << cfg.seed
                  << "; -: SwitchML cannot partition the pool)\n";
        std::cout << std::setw(8) << "pool" << std::setw(12) << "switchml" << std::setw(12) << "atp"
                  << std::setw(12) << "esa" << std::setw(12) << "atp/esa" << std::setw(12)
                  << "esa preempt" << std::setw(14) << "atp fb MB" << std::setw(14) << "esa fb MB"
                  << "\n";
        size_t done = 0;
        for (uint32_t pool : poolList)
        {
            std::map<std::string, RunOut> row;
            for (std::string p : {"switchml", "atp", "esa"})
            {
                InaRunConfig c = cfg;
                c.policy = p;
                c.poolSize = pool;
                try
                {
                    row[p] = RunOnce(c);
                }
                catch (const std::invalid_argument&)
                {
                    if (p != "switchml")
                    {
                        throw;
                    }
                    continue; // no room for a partition per job
                }
                unfinishedRuns += row[p].unfinished > 0 ? 1 : 0;
                results["runs"].push_back(ToJson(row[p]));
            }
            const bool both = row["atp"].unfinished == 0 && row["esa"].unfinished == 0;
            std::cout << std::setw(8) << pool << std::fixed << std::setprecision(3) << std::setw(12)
                      << (row.count("switchml") ? AvgCell(row["switchml"]) : "-") << std::setw(12)
                      << AvgCell(row["atp"]) << std::setw(12) << AvgCell(row["esa"])
                      << std::setw(12)
                      << (both ? Fixed(row["atp"].avgJct / row["esa"].avgJct, 2) : "-")
                      << std::setw(12) << row["esa"].sw.preemptions << std::setw(14)
                      << row["atp"].psFallbackBytes / 1e6 << std::setw(14)
                      << row["esa"].psFallbackBytes / 1e6 << "\n";
            ProgressReporter::Report("ina-shared-aggregation",
                                     "sweep: " + std::to_string(++done) + "/" +
                                         std::to_string(poolList.size()) + " pools done");
        }
    }
    WriteTextFileChecked(output, results.dump(2) + "\n");
    std::cout << "results written to " << output << "\n";
    if (unfinishedRuns > 0)
    {
        std::cerr << "ina-shared-aggregation: error: " << unfinishedRuns
                  << " run(s) left jobs unfinished after " << STOP_SECONDS
                  << " s simulated (see the JCT column)" << std::endl;
        return 1;
    }
    return 0;
}

int
main(int argc, char* argv[])
{
    return RunMain("ina-shared-aggregation", argc, argv, Main);
}
