/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// INA fidelity: what the policies do as their public code does it, and what the reports mean.

#include "run-program.h"
#include "temp-dir.h"

#include "ns3/core-module.h"
#include "ns3/ina-atp-policy.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/ina-helper.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace ns3;

namespace
{

/// A packet-level scenario of equal jobs on one switch.
struct FidelityRun
{
    std::string policy{"atp"};
    uint32_t jobs{1};
    uint32_t workers{2};
    uint64_t values{62 * 64};
    uint32_t iterations{2};
    uint32_t pool{20000};
    uint32_t window{32};
    double loss{0};
    uint64_t seed{1};
    std::string retransmit; //!< InaWorker::Retransmit ("": the policy's default)
    bool cc{false};         //!< InaWorker::CongestionControl (ATP's ECN window control)
};

/// Results of every job and the switch's counters.
struct FidelityOut
{
    std::vector<InaJobResult> jobs;
    InaSwitchStats sw;
};

FidelityOut
RunPackets(const FidelityRun& cfg)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(cfg.seed);
    InaHelper helper;
    helper.SetPolicy(cfg.policy);
    helper.SetSwitchAttribute("PoolSize", UintegerValue(cfg.pool));
    helper.SetWindow(cfg.window);
    helper.SetLossRate(cfg.loss);
    helper.SetWorkerAttribute("Seed", UintegerValue(cfg.seed));
    if (!cfg.retransmit.empty())
    {
        helper.SetWorkerAttribute("Retransmit", StringValue(cfg.retransmit));
    }
    helper.SetWorkerAttribute("CongestionControl", BooleanValue(cfg.cc));
    for (uint32_t j = 0; j < cfg.jobs; ++j)
    {
        InaJobSpec s;
        s.workers = cfg.workers;
        s.gradientValues = cfg.values;
        s.iterations = cfg.iterations;
        helper.AddJob(s);
    }
    helper.Install();
    helper.AssignStreams(100);
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    FidelityOut out;
    for (uint32_t j = 0; j < helper.GetNJobs(); ++j)
    {
        out.jobs.push_back(helper.GetResult(j));
    }
    out.sw = helper.GetSwitch()->GetStats();
    Simulator::Destroy();
    return out;
}

} // namespace

TEST_CASE("INA SwitchML partitions below 2 aggregators are an error at both levels", "[ina]")
{
    Ptr<InaAllocationPolicy> sml = InaAllocationPolicy::Create("switchml");
    REQUIRE(sml->Layout(4, 2, 1, 256).window == 1); // 2 aggregators: one slot, two copies
    REQUIRE_THROWS_AS(sml->Layout(3, 2, 0, 256), std::invalid_argument);
    REQUIRE_THROWS_AS(sml->Layout(1, 1, 0, 256), std::invalid_argument);

    // The packet level refuses to build the scenario.
    {
        InaHelper helper;
        helper.SetPolicy("switchml");
        helper.SetSwitchAttribute("PoolSize", UintegerValue(3));
        for (int j = 0; j < 2; ++j)
        {
            InaJobSpec s;
            s.workers = 2;
            s.gradientValues = 62;
            helper.AddJob(s);
        }
        REQUIRE_THROWS_AS(helper.Install(), std::invalid_argument);
        Simulator::Destroy();
    }

    // The rate level refuses to invent a PS path, at one switch and across racks.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("switchml"));
    m->SetAttribute("PoolSize", UintegerValue(3));
    std::vector<InaRateJob> two(2);
    for (auto& j : two)
    {
        j.workers = 4;
        j.gradientBytes = 4.0 * 64 * 100;
    }
    REQUIRE_THROWS_AS(m->SwitchSyncTimes(two), std::invalid_argument);
    REQUIRE(m->SwitchSyncTimes({two[0]}).front() > 0); // one job fits: 3 / 1 >= 2
    two[0].racks = {{0, 2}, {1, 2}};
    two[1].racks = {{0, 2}, {1, 2}};
    REQUIRE_THROWS_AS(m->RackSyncTimes(two), std::invalid_argument);
    m->SetAttribute("PoolSize", UintegerValue(1));
    REQUIRE_THROWS_AS(m->SwitchSyncTimes({two[0]}), std::invalid_argument);
}

TEST_CASE("INA PS fallback bytes leave out ATP's normal result path", "[ina]")
{
    // One job alone on a roomy pool: every chunk completes in the switch, and its aggregate
    // reaching the PS is the normal path, not a fallback.
    FidelityRun cfg;
    cfg.workers = 4;
    FidelityOut alone = RunPackets(cfg);
    REQUIRE(alone.jobs[0].jct > 0);
    REQUIRE(alone.sw.collisions == 0);
    REQUIRE(alone.jobs[0].psBytes > 0);
    REQUIRE(alone.jobs[0].psFallbackBytes == 0);
    REQUIRE(alone.jobs[0].psFallbackPackets == 0);

    // Two jobs on 16 aggregators: collisions put worker packets on the PS link.
    cfg.jobs = 2;
    cfg.pool = 16;
    FidelityOut contended = RunPackets(cfg);
    REQUIRE(contended.sw.collisions > 0);
    uint64_t fallback = 0;
    for (const auto& r : contended.jobs)
    {
        REQUIRE(r.jct > 0);
        REQUIRE(r.psFallbackBytes <= r.psBytes);
        fallback += r.psFallbackPackets;
    }
    REQUIRE(fallback >= contended.sw.collisions);
}

TEST_CASE("INA ATP's hash salt draws another index placement", "[ina]")
{
    // Two jobs' windows of 256 slots on 20,000 aggregators share 256 x 256 / 20,000 = 3.3
    // indices on average over placements; ATP's hash of job ids 0 and 1 is one placement
    // (the example's seed picks the salt, so a mean over seeds is one over placements).
    InaJobSlots slots;
    slots.poolSize = 20000;
    slots.window = 256;
    auto shared = [&](uint32_t salt) {
        Ptr<AtpPolicy> atp = CreateObject<AtpPolicy>();
        atp->SetAttribute("HashSalt", UintegerValue(salt));
        const auto& a = atp->SlotIndices(0, slots);
        const auto& b = atp->SlotIndices(1, slots);
        REQUIRE(std::set<uint32_t>(a.begin(), a.end()).size() == 256); // still de-duplicated
        std::set<uint32_t> first(a.begin(), a.end());
        return std::count_if(b.begin(), b.end(), [&](uint32_t i) { return first.count(i) > 0; });
    };
    double sum = 0;
    std::set<long> counts;
    const uint32_t salts = 200;
    for (uint32_t salt = 1; salt <= salts; ++salt)
    {
        long n = shared(salt);
        sum += n;
        counts.insert(n);
    }
    CAPTURE(shared(0), sum / salts);
    REQUIRE(sum / salts == Approx(256.0 * 256 / 20000).epsilon(0.15));
    REQUIRE(counts.size() >= 5); // placements differ, not one shifted copy
}

TEST_CASE("ina-shared-aggregation adds its seed to a salt given on the command line",
          "[ina][examples]")
{
    // The example draws ATP's placement from its seed (HashSalt = the salt set + seed - 1). A
    // salt the user sets must not be replaced: seed 1 with salt 1 is seed 2's placement
    // (without skew or loss the seed changes nothing else ATP's times depend on).
    const std::string program = ExampleProgram("ina-shared-aggregation").string();
    const std::string dir = TestTempDir("ina-salt");
    auto summary = [&](const std::string& args) {
        ProgramOutcome o = RunProgram(program,
                                      "--policy=atp --jobs=2 --pool-size=1024 --iterations=1 "
                                      "--granularity=packet --output=out.json " +
                                          args,
                                      dir);
        INFO(args << " -> exit " << o.code << ":\n" << o.output);
        REQUIRE(o.code == 0);
        const size_t at = o.output.find("avg JCT");
        REQUIRE(at != std::string::npos);
        const std::string line = o.output.substr(at, o.output.find('\n', at) - at);
        return line.substr(0, line.find(", wall")); // wall time differs between runs
    };
    const std::string seed2 = summary("--seed=2");
    REQUIRE(summary("--seed=1 --ns3::AtpPolicy::HashSalt=1") == seed2);
    REQUIRE(summary("--seed=1") != seed2); // the salt changes the placement here
}

TEST_CASE("INA ATP de-duplicates a job's indices as its host library", "[ina]")
{
    Ptr<AtpPolicy> atp = CreateObject<AtpPolicy>();
    InaJobSlots slots;
    slots.poolSize = 1024;
    slots.window = 256;
    const auto& idx = atp->SlotIndices(3, slots);
    REQUIRE(std::set<uint32_t>(idx.begin(), idx.end()).size() == 256);
    for (uint32_t s = 0; s < 256; ++s)
    {
        REQUIRE(atp->InitialIndex(3, s + 256 * 7, slots) == idx[s]);
    }
    // More slots than aggregators: every index used, none more than twice.
    slots.poolSize = 100;
    const auto& wrap = atp->SlotIndices(3, slots);
    std::map<uint32_t, int> uses;
    for (uint32_t i : wrap)
    {
        ++uses[i];
    }
    REQUIRE(uses.size() == 100);
    for (const auto& [i, n] : uses)
    {
        REQUIRE(n <= 3);
    }
    // Without de-duplication the plain hash puts some of 256 slots on one index.
    Ptr<AtpPolicy> plain = CreateObject<AtpPolicy>();
    plain->SetAttribute("DeduplicateIndices", BooleanValue(false));
    slots.poolSize = 1024;
    const auto& p = plain->SlotIndices(3, slots);
    REQUIRE(std::set<uint32_t>(p.begin(), p.end()).size() < 256);

    // One job alone never collides with itself (the issue measured 336 collisions).
    FidelityRun cfg;
    cfg.workers = 8;
    cfg.pool = 1024;
    cfg.window = 256;
    cfg.values = 62 * 1024;
    FidelityOut out = RunPackets(cfg);
    REQUIRE(out.jobs[0].jct > 0);
    REQUIRE(out.jobs[0].valuesWrong == 0);
    REQUIRE(out.sw.collisions == 0);
}

TEST_CASE("INA ATP's PS re-hashes collided slots from its free list", "[ina]")
{
    // Two jobs whose 2 x 128 slots fit the pool of 512: collisions of the first iteration
    // move slots to indices the job does not use, so later iterations collide less.
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    InaHelper helper;
    helper.SetPolicy("atp");
    helper.SetSwitchAttribute("PoolSize", UintegerValue(512));
    helper.SetWindow(128);
    const uint32_t chunks = 512;
    const uint32_t iterations = 4;
    for (int j = 0; j < 2; ++j)
    {
        InaJobSpec s;
        s.workers = 4;
        s.gradientValues = 62 * chunks;
        s.iterations = iterations;
        helper.AddJob(s);
    }
    helper.Install();
    helper.AssignStreams(100);
    std::vector<uint32_t> perIteration(iterations, 0);
    helper.GetSwitch()->TraceConnectWithoutContext(
        "Collision",
        MakeBoundCallback(
            +[](std::vector<uint32_t>* v, uint32_t chunks, uint16_t, uint32_t seq) {
                ++(*v)[std::min<size_t>(seq / chunks, v->size() - 1)];
            },
            &perIteration,
            chunks));
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    uint64_t rehashes = 0;
    for (uint32_t j = 0; j < 2; ++j)
    {
        REQUIRE(helper.GetResult(j).iterationsDone == iterations);
        REQUIRE(helper.GetResult(j).valuesWrong == 0);
        rehashes += helper.GetParameterServer(j)->GetRehashes();
    }
    Simulator::Destroy();
    INFO("collisions per iteration " << perIteration[0] << " " << perIteration[1] << " "
                                     << perIteration[2] << " " << perIteration[3]);
    REQUIRE(perIteration[0] > 0);
    REQUIRE(rehashes > 0);
    REQUIRE(perIteration[iterations - 1] * 4 <= perIteration[0]);
}

TEST_CASE("INA ATP frees a resent key's aggregator and takes two pipeline passes", "[ina]")
{
    FidelityRun cfg;
    cfg.jobs = 2;
    cfg.workers = 4;
    cfg.pool = 64;
    cfg.loss = 0.01;
    cfg.values = 62 * 256;
    FidelityOut out = RunPackets(cfg);
    for (const auto& r : out.jobs)
    {
        REQUIRE(r.iterationsDone == cfg.iterations);
        REQUIRE(r.valuesWrong == 0);
        REQUIRE(r.resends > 0);
    }
    REQUIRE(out.sw.resendFrees > 0);

    InaHelper h;
    h.SetPolicy("esa");
    InaJobSpec s;
    s.workers = 2;
    s.gradientValues = 62;
    h.AddJob(s);
    h.Install();
    UintegerValue passes;
    h.GetSwitch()->GetAttribute("PipelinePasses", passes);
    REQUIRE(passes.Get() == 2);
    Simulator::Destroy();

    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    REQUIRE(m->PipelineSeconds() == Approx(800e-9));
    m->SetAttribute("Policy", StringValue("switchml"));
    REQUIRE(m->PipelineSeconds() == Approx(400e-9));
}

TEST_CASE("INA SwitchML retransmits per slot, not the whole window", "[ina]")
{
    FidelityRun cfg;
    cfg.policy = "switchml";
    cfg.workers = 4;
    cfg.window = 32;
    cfg.values = 64 * 512;
    cfg.loss = 0.01;
    FidelityOut slot = RunPackets(cfg);
    REQUIRE(slot.jobs[0].iterationsDone == cfg.iterations);
    REQUIRE(slot.jobs[0].valuesWrong == 0);
    REQUIRE(slot.jobs[0].resends > 0);
    // Each loss costs one slot's packet per worker waiting on it; the cumulative idle timer
    // resends every unacknowledged chunk of the window.
    cfg.retransmit = "Window";
    FidelityOut window = RunPackets(cfg);
    REQUIRE(window.jobs[0].iterationsDone == cfg.iterations);
    REQUIRE(window.jobs[0].valuesWrong == 0);
    INFO("resends: per slot " << slot.jobs[0].resends << ", per window " << window.jobs[0].resends);
    REQUIRE(slot.jobs[0].resends * 3 < window.jobs[0].resends);
}

TEST_CASE("INA ATP's ECN window control: deep queues are marked, the window halves", "[ina]")
{
    // CC_manager::adjustWindow of ATP's client: halve on ECN, else + 1500 B, in whole 308 B
    // packets, between one packet and 100.
    uint64_t cwnd = 256 * 308;
    REQUIRE(InaWorker::AdjustCongestionWindow(cwnd, false, 308, 1500, 100) == 100);
    REQUIRE(InaWorker::AdjustCongestionWindow(cwnd, true, 308, 1500, 100) == 50);
    REQUIRE(InaWorker::AdjustCongestionWindow(cwnd, false, 308, 1500, 100) == 54);
    cwnd = 308;
    REQUIRE(InaWorker::AdjustCongestionWindow(cwnd, true, 308, 1500, 100) == 1);

    // Two jobs of 8 workers on 16 aggregators: most chunks collide, so up to 8 x 64 worker
    // packets queue towards each PS, beyond the 100 kB marking threshold.
    FidelityRun cfg;
    cfg.jobs = 2;
    cfg.workers = 8;
    cfg.values = 62 * 512;
    cfg.pool = 16;
    cfg.window = 64;
    FidelityOut off = RunPackets(cfg);
    cfg.cc = true;
    FidelityOut on = RunPackets(cfg);
    uint64_t halvings = 0;
    for (size_t j = 0; j < cfg.jobs; ++j)
    {
        REQUIRE(off.jobs[j].iterationsDone == cfg.iterations);
        REQUIRE(on.jobs[j].iterationsDone == cfg.iterations);
        REQUIRE(on.jobs[j].valuesWrong == 0);
        REQUIRE(off.jobs[j].ecnDecreases == 0); // marked, but ATP's default client ignores it
        halvings += on.jobs[j].ecnDecreases;
    }
    CAPTURE(off.sw.ecnMarks, on.sw.ecnMarks, halvings);
    REQUIRE(off.sw.ecnMarks > 0);
    REQUIRE(halvings > 0); // the PS echoes the mark in its result, the worker halves
    REQUIRE(on.sw.ecnMarks < off.sw.ecnMarks / 2); // and the queue stays shorter
    // One job alone on a roomy pool queues nothing: no marks.
    cfg.jobs = 1;
    cfg.pool = 20000;
    REQUIRE(RunPackets(cfg).sw.ecnMarks == 0);
}

TEST_CASE("INA ESA ablations: early release takes only complete aggregators", "[ina]")
{
    auto run = [](const std::string& preemption) {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        InaHelper helper;
        helper.SetPolicy("esa");
        helper.SetPolicyAttribute("Preemption", StringValue(preemption));
        helper.SetSwitchAttribute("PoolSize", UintegerValue(256));
        helper.SetWindow(128);
        helper.SetWorkerAttribute("PacketJitter", TimeValue(NanoSeconds(500)));
        helper.SetWorkerAttribute("IterationJitter", TimeValue(MicroSeconds(10)));
        for (int j = 0; j < 3; ++j)
        {
            InaJobSpec s;
            s.workers = 4;
            s.gradientValues = 62 * 256 * (j + 1);
            s.iterations = 2;
            helper.AddJob(s);
        }
        helper.Install();
        helper.AssignStreams(100);
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        for (uint32_t j = 0; j < 3; ++j)
        {
            REQUIRE(helper.GetResult(j).iterationsDone == 2);
            REQUIRE(helper.GetResult(j).valuesWrong == 0);
        }
        InaSwitchStats st = helper.GetSwitch()->GetStats();
        Simulator::Destroy();
        return st;
    };
    InaSwitchStats early = run("EarlyRelease");
    INFO("early: preemptions " << early.preemptions << " partials " << early.evictedPartials
                               << " releases " << early.earlyReleases);
    REQUIRE(early.earlyReleases > 0);
    REQUIRE(early.evictedPartials == 0);
    REQUIRE(early.earlyReleases == early.preemptions);
    // With skew, priority preemption meets partial aggregates too, reported apart.
    InaSwitchStats prio = run("Priority");
    INFO("priority: preemptions " << prio.preemptions << " partials " << prio.evictedPartials
                                  << " releases " << prio.earlyReleases);
    REQUIRE(prio.evictedPartials > 0);
    REQUIRE(prio.evictedPartials + prio.earlyReleases <= prio.preemptions);
}

namespace
{

/// The model mix of ina-shared-aggregation at 1/1000 scale: gradient values per iteration.
const uint64_t kMixValues[] = {25557, 138357, 109482, 124439};

/**
 * \brief A point of the doc/ina.md grid at both levels (as `ina-shared-aggregation
 *        --granularity=both --packet-seeds=seeds`): n jobs of the mix x 8 workers, 2
 *        iterations, window 256; the packet level at seeds 1 .. seeds, averaged.
 * \return (packet mean over the seeds, rate) mean JCT [s]
 */
std::pair<double, double>
GridPoint(const std::string& policy, uint32_t n, uint32_t pool, bool skew, uint32_t seeds = 1)
{
    const uint32_t workers = 8;
    const uint32_t iterations = 2;
    const Time jitter = skew ? MicroSeconds(10) : Seconds(0);
    const Time packetJitter = skew ? NanoSeconds(500) : Seconds(0);
    double packet = 0;
    for (uint32_t seed = 1; seed <= seeds; ++seed)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(seed);
        InaHelper helper;
        helper.SetPolicy(policy);
        helper.SetSwitchAttribute("PoolSize", UintegerValue(pool));
        helper.SetWorkerAttribute("Seed", UintegerValue(seed));
        helper.SetWorkerAttribute("IterationJitter", TimeValue(jitter));
        helper.SetWorkerAttribute("PacketJitter", TimeValue(packetJitter));
        helper.SetWorkerAttribute("Verify", BooleanValue(false));
        for (uint32_t j = 0; j < n; ++j)
        {
            InaJobSpec s;
            s.workers = workers;
            s.gradientValues = kMixValues[j % 4];
            s.iterations = iterations;
            helper.AddJob(s);
        }
        helper.Install();
        helper.AssignStreams(1000);
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        for (uint32_t j = 0; j < n; ++j)
        {
            REQUIRE(helper.GetResult(j).jct > 0);
            packet += helper.GetResult(j).jct / n / seeds;
        }
        Simulator::Destroy();
    }

    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue(policy));
    m->SetAttribute("PoolSize", UintegerValue(pool));
    m->SetAttribute("SwitchMlPartitions", UintegerValue(n));
    m->SetAttribute("IterationJitter", TimeValue(jitter));
    m->SetAttribute("PacketJitter", TimeValue(packetJitter));
    std::vector<double> remaining(n, iterations);
    std::vector<double> owed(n, 0.0); // InaGradientSync::DepartureStalls, as the example
    double now = 0;
    double rate = 0;
    while (true)
    {
        std::vector<size_t> running;
        std::vector<InaRateJob> jobs;
        for (size_t j = 0; j < n; ++j)
        {
            if (remaining[j] > 1e-9)
            {
                InaRateJob r;
                r.workers = workers;
                r.gradientBytes = 4.0 * kMixValues[j % 4];
                r.iterations = remaining[j];
                r.iterationsDone = iterations - remaining[j];
                r.id = j;
                r.priorityKey = std::ceil(remaining[j] - 1e-9) * r.gradientBytes;
                running.push_back(j);
                jobs.push_back(r);
            }
        }
        if (running.empty())
        {
            break;
        }
        std::vector<double> t = m->SwitchSyncTimes(jobs);
        const std::vector<std::vector<double>> overhang = m->DepartureStalls(jobs);
        double dt = 1e30;
        for (size_t k = 0; k < running.size(); ++k)
        {
            dt = std::min(dt, owed[running[k]] + remaining[running[k]] * t[k]);
        }
        now += dt;
        std::vector<size_t> departed;
        for (size_t k = 0; k < running.size(); ++k)
        {
            const size_t j = running[k];
            const double pay = std::min(owed[j], dt);
            owed[j] -= pay;
            remaining[j] -= (dt - pay) / t[k];
            if (remaining[j] < 1e-9)
            {
                remaining[j] = 0;
                rate += now / n;
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
    return {packet, rate};
}

} // namespace

TEST_CASE("INA rate level: mean JCT within 10% of the packet level on a subset of the grid",
          "[ina]")
{
    // Points of the doc/ina.md grid (`ina-shared-aggregation --grid`) that the rate model
    // meets; the table there lists every point, including those it does not.
    struct Point
    {
        std::string policy;
        uint32_t jobs;
        uint32_t pool;
        bool skew;
        uint32_t seeds{1}; //!< packet seeds averaged (`--packet-seeds`)
    };

    const std::vector<Point> subset{
        {"switchml", 2, 256, false},
        {"atp", 2, 64, false},
        {"atp", 2, 1024, false},
        {"esa", 2, 1024, false},
        // ESA's lower jobs meet the jobs above afresh on every use once the drift of their
        // phases passes the holder's hold as the priorities above it cut it (keptHold), not
        // its whole sojourn: -10.6% with the sojourn, -9.1% now (close to the bound).
        {"esa", 4, 256, false},
        // With skew: host jitter lengthens every window round by the latest of the W packets
        // (SwitchML's partition at 256 / 2 jobs and at 64 / 4 jobs is window-limited). ATP's
        // keys split by skew stall for its resend timeout; a first-window collision splits
        // as often as the jobs' first packets leave it (FirstWindowSplit: 8 jobs at 64, +18%
        // with the iteration-average split), and a timed-out stall shifts the job's phase, so
        // its next pass collides afresh (RestallingEpisodes: 4 jobs at 1024, -64% without).
        // ESA's stranded partials are preempted by the holder's next use, a little after the
        // key's last packet (2 jobs at 20000, where departures strand nothing: the shared
        // indices are gone by the holder's last iteration), or wait for the timeout when
        // split against the job's own slot (4 jobs at 64). When a holder leaves, a victim's
        // keys split against its last window are stranded until the victim's timeout, once
        // for the whole window (2 jobs at 256: every vgg16 window collides with resnet50; 4
        // jobs at 1024: the shared indices that remain at resnet50's last iteration; 8 jobs
        // at 20000: none remain, one pass that fires every shared pair re-hashes them apart).
        // A split needs the freed index still free when the key's late packets come; a chunk
        // of a blocking job hashed there first sends them to the PS too (stillFree: ATP 4
        // jobs at 256, +12.7% without).
        {"switchml", 2, 256, true},
        {"switchml", 4, 64, true},
        {"atp", 4, 256, true},
        {"atp", 4, 1024, true},
        {"atp", 8, 64, true},
        {"esa", 2, 20000, true},
        {"esa", 4, 64, true},
        {"esa", 2, 256, true},
        {"esa", 4, 1024, true},
        {"esa", 8, 20000, true},
        // Against the mean over packet seeds 1-5 (`--grid --packet-seeds=5`): whether a key
        // split by skew is stranded until a resend timeout is a lottery per seed (ATP 4 jobs
        // at 20000: 0.277-0.383 ms, seed 1 +18% against the model; ESA 2 jobs at 1024:
        // 0.111-0.217 ms, seed 1 -18%), and the model's expectation meets the mean (-0.6%,
        // +0.0%).
        {"atp", 4, 20000, true, 5},
        {"esa", 2, 1024, true, 5},
    };
    for (const Point& p : subset)
    {
        auto [packet, rate] = GridPoint(p.policy, p.jobs, p.pool, p.skew, p.seeds);
        CAPTURE(p.policy, p.jobs, p.pool, p.skew, p.seeds, packet, rate);
        CHECK(rate == Approx(packet).epsilon(0.10));
    }
}
