/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Rate-level INA and ring all-reduce: formulas, trends, and agreement with the packet level.

#include "ina-rate-replay.h"
#include "running-job.h"

#include "ns3/cluster-job.h"
#include "ns3/core-module.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/ina-helper.h"
#include "ns3/ring-all-reduce-sync.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

struct Scenario
{
    std::string policy;
    uint32_t pool;
    std::vector<uint64_t> values; //!< gradient values per job
    uint32_t workers{4};
    uint32_t iterations{3};
};

/// Mean iteration time of every job at the packet level (and, if asked, its results).
std::vector<double>
PacketLevel(const Scenario& s, std::vector<InaJobResult>* results = nullptr)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    InaHelper h;
    h.SetPolicy(s.policy);
    h.SetSwitchAttribute("PoolSize", UintegerValue(s.pool));
    h.SetWorkerAttribute("Verify", BooleanValue(false));
    for (uint64_t v : s.values)
    {
        InaJobSpec spec;
        spec.workers = s.workers;
        spec.gradientValues = v;
        spec.iterations = s.iterations;
        h.AddJob(spec);
    }
    h.Install();
    Simulator::Run();
    std::vector<double> out;
    for (uint32_t j = 0; j < h.GetNJobs(); ++j)
    {
        InaJobResult r = h.GetResult(j);
        REQUIRE(r.iterationsDone == s.iterations);
        out.push_back(r.jct / s.iterations);
        if (results)
        {
            results->push_back(r);
        }
    }
    Simulator::Destroy();
    return out;
}

/**
 * The same jobs as ClusterJobs (one GPU per node, all in one rack) through the rate model,
 * advanced like the cluster engine does: constant rates between events, re-evaluated when a
 * job finishes. \return each job's mean iteration time (JCT / iterations).
 */
std::vector<double>
RateLevel(const Scenario& s, std::vector<WorkloadProfile>& profiles)
{
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue(s.policy));
    m->SetAttribute("PoolSize", UintegerValue(s.pool));
    // The packet level partitions SwitchML's pool once, over all jobs of the scenario.
    m->SetAttribute("SwitchMlPartitions", UintegerValue(s.values.size()));
    ClusterTopology topo;
    topo.numNodes = s.workers * static_cast<uint32_t>(s.values.size());
    topo.gpusPerNode = 1;
    topo.nodesPerRack = topo.numNodes;
    profiles.resize(s.values.size());
    std::vector<Ptr<ClusterJob>> jobs;
    uint32_t node = 0;
    for (size_t j = 0; j < s.values.size(); ++j)
    {
        profiles[j].gradientBytes = 4.0 * s.values[j];
        std::vector<uint32_t> nodes;
        for (uint32_t w = 0; w < s.workers; ++w)
        {
            nodes.push_back(node++);
        }
        jobs.push_back(JobOn(j, profiles[j], nodes, 0.04, s.iterations));
    }
    return ReplayLikeTheEngine(m, topo, jobs, s.iterations);
}

void
RequireAgreement(const Scenario& s, double tolerance)
{
    std::vector<WorkloadProfile> profiles;
    std::vector<double> pkt = PacketLevel(s);
    std::vector<double> rate = RateLevel(s, profiles);
    for (size_t j = 0; j < pkt.size(); ++j)
    {
        CAPTURE(s.policy, s.pool, j, pkt[j], rate[j]);
        REQUIRE(rate[j] == Approx(pkt[j]).epsilon(tolerance));
    }
}

/// \param x numbers \return their mean
double
Mean(const std::vector<double>& x)
{
    double sum = 0;
    for (double v : x)
    {
        sum += v;
    }
    return x.empty() ? 0.0 : sum / x.size();
}

/// The agreement grid: job j of n sends 62 x (400, 800, 1200)[j mod 3] values per iteration.
Scenario
GridScenario(const std::string& policy, uint32_t pool, uint32_t jobs, uint32_t workers)
{
    Scenario s{policy, pool, {}, workers, 2};
    for (uint32_t j = 0; j < jobs; ++j)
    {
        s.values.push_back(62 * 400 * (1 + j % 3));
    }
    return s;
}

} // namespace

TEST_CASE("INA rate level: grid report", "[.ina-grid]")
{
    for (uint32_t jobs : {2, 3, 4, 8})
    {
        for (uint32_t workers : {2, 4, 8})
        {
            for (std::string policy : {"switchml", "atp", "esa"})
            {
                for (uint32_t pool : {1u << 20, 4096u, 1024u, 512u, 256u, 64u})
                {
                    Scenario s = GridScenario(policy, pool, jobs, workers);
                    std::vector<WorkloadProfile> profiles;
                    std::vector<InaJobResult> res;
                    std::vector<double> pkt = PacketLevel(s, &res);
                    std::vector<double> rate = RateLevel(s, profiles);
                    Ptr<InaGradientSync> model = CreateObject<InaGradientSync>();
                    model->SetAttribute("Policy", StringValue(policy));
                    model->SetAttribute("PoolSize", UintegerValue(pool));
                    std::vector<InaRateJob> rj;
                    for (size_t j = 0; j < s.values.size(); ++j)
                    {
                        rj.push_back({workers,
                                      4.0 * s.values[j],
                                      s.iterations * 4.0 * s.values[j],
                                      static_cast<double>(s.iterations)});
                    }
                    std::vector<double> fb;
                    model->SwitchSyncTimes(rj, 0, &fb);
                    double worst = 0;
                    std::ostringstream line;
                    for (size_t j = 0; j < pkt.size(); ++j)
                    {
                        double err = rate[j] / pkt[j] - 1;
                        worst = std::fabs(err) > std::fabs(worst) ? err : worst;
                        double chunks = std::ceil(s.values[j] / 62.0) * s.iterations;
                        line << " j" << j << ":" << pkt[j] * 1e6 << "/" << rate[j] * 1e6
                             << "us f=" << res[j].fallbackResults / chunks << "/" << fb[j];
                    }
                    std::cout << "GRID " << policy << " pool=" << pool << " jobs=" << jobs
                              << " w=" << workers << " worst=" << worst << line.str() << std::endl;
                }
            }
        }
    }
}

TEST_CASE("INA rate level agrees with the packet level on uncontended pools", "[ina]")
{
    for (std::string policy : {"switchml", "atp", "esa"})
    {
        RequireAgreement({policy, 1 << 20, {62 * 300, 62 * 1200}, 4, 3}, 0.10);
        RequireAgreement({policy, 1 << 20, {62 * 500, 62 * 800, 62 * 200, 62 * 1000}, 8, 2}, 0.10);
    }
}

TEST_CASE("INA rate level agrees with the packet level on a partitioned SwitchML pool", "[ina]")
{
    // 64 aggregators over 4 jobs: 8 slots each, so every job is window-limited.
    RequireAgreement({"switchml", 64, {62 * 400, 62 * 400, 62 * 800, 62 * 800}, 4, 2}, 0.10);
    RequireAgreement({"switchml", 16, {62 * 300, 62 * 600}, 8, 3}, 0.10);
}

TEST_CASE("INA rate level agrees with the packet level across the contention grid", "[ina]")
{
    // 2 to 8 jobs x 2 iterations (job j: 62 x 400 (1 + j mod 3) values), pools from roomy to
    // far below the jobs' window slots: 187 of the 216 points (with ATP's de-duplication,
    // free-list re-hash, free-on-resend and two passes at the packet level). Left out,
    // measured with [.ina-grid] and listed in doc/ina.md ("Agreement with the packet level"):
    // ATP and ESA on contended pools, where the model is optimistic (-10% .. -38%), and four
    // pessimistic points at 64 and 1024 aggregators (+12% .. +15%). Six ATP points came in
    // with the pairs that cannot split (PersistingPairFallback): 3 jobs x 2 workers at 256,
    // 3 x 4 at 512, 3 x 8 at 512 and 256, 4 x 4 at 256, 8 x 4 at 1024; four ESA points had
    // come in with earlier terms (2 x 4 at 256, 3 x 4 at 512 and 256, 4 x 4 at 512).
    struct Point
    {
        std::string policy;
        uint32_t jobs;
        uint32_t workers;
        uint32_t pool;
    };

    const std::vector<Point> outside{
        {"atp", 2, 4, 256},  {"atp", 2, 8, 512},  {"atp", 2, 8, 256}, {"esa", 2, 8, 256},
        {"atp", 3, 4, 256},  {"esa", 3, 8, 512},  {"esa", 3, 8, 256}, {"atp", 4, 4, 512},
        {"esa", 4, 4, 256},  {"atp", 4, 8, 1024}, {"atp", 4, 8, 512}, {"atp", 4, 8, 256},
        {"esa", 4, 8, 1024}, {"esa", 4, 8, 512},  {"esa", 4, 8, 256}, {"esa", 4, 8, 64},
        {"esa", 8, 2, 512},  {"esa", 8, 2, 256},  {"atp", 8, 4, 512}, {"esa", 8, 4, 1024},
        {"esa", 8, 4, 512},  {"esa", 8, 4, 256},  {"esa", 8, 4, 64},  {"atp", 8, 8, 1024},
        {"atp", 8, 8, 512},  {"esa", 8, 8, 1024}, {"esa", 8, 8, 512}, {"esa", 8, 8, 256},
        {"esa", 8, 8, 64},
    };
    const std::vector<uint32_t> pools{1u << 20, 4096, 1024, 512, 256, 64};
    uint32_t asserted = 0;
    for (std::string policy : {"switchml", "atp", "esa"})
    {
        for (uint32_t jobs : {2, 3, 4, 8})
        {
            for (uint32_t pool : pools)
            {
                for (uint32_t workers : {2, 4, 8})
                {
                    bool out = std::any_of(outside.begin(), outside.end(), [&](const Point& p) {
                        return p.policy == policy && p.jobs == jobs && p.workers == workers &&
                               p.pool == pool;
                    });
                    if (!out)
                    {
                        RequireAgreement(GridScenario(policy, pool, jobs, workers), 0.10);
                        ++asserted;
                    }
                }
            }
        }
    }
    REQUIRE(asserted == 187);
}

TEST_CASE("INA rate level: re-hashing splits shared slots over iterations", "[ina]")
{
    // ATP, 3 jobs x 4 workers. With 1024 aggregators the pool can give each of the 768 window
    // slots its own index: collisions split the slots that share one, so later iterations
    // collide less and a long run hardly at all (the packet level: job 0's f is 0.23 in its
    // first iteration, 0.08 over 8). With 64 aggregators slots must share: no such decay.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    auto fallback = [&](uint32_t pool, double iterations) {
        m->SetAttribute("PoolSize", UintegerValue(pool));
        std::vector<InaRateJob> jobs(3);
        for (size_t j = 0; j < jobs.size(); ++j)
        {
            jobs[j].workers = 4;
            jobs[j].gradientBytes = 4.0 * 62 * 400 * (1 + j);
            jobs[j].iterations = iterations;
        }
        std::vector<double> f;
        m->SwitchSyncTimes(jobs, 0, &f);
        return f[0];
    };
    const double first = fallback(1024, 1);
    const double eight = fallback(1024, 8);
    CAPTURE(first, eight);
    REQUIRE(first > 0.15);
    REQUIRE(eight < 0.6 * first);
    REQUIRE(fallback(1024, 1e4) < 0.01);
    REQUIRE(fallback(64, 1e4) == Approx(fallback(64, 1)).epsilon(0.05));
}

TEST_CASE("INA rate level: ATP slots beyond the pool keep colliding", "[ina]")
{
    // The example's resnet50 and vgg16 at 1/1000 scale (413 and 2,232 chunks an iteration),
    // 8 workers, window 256: S = 512 slots. On 384 aggregators at least S - P = 128 slots share
    // an index however often collisions re-hash them, so half the slots are in pairs and meet
    // their partner on every use. The packet level: vgg16 sends at half its rate while both
    // run, falling back on about 0.15 of its chunks (the sticky term alone gave it 0.03, and
    // the rate level was 19% fast); resnet50 falls back on 0.32.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    std::vector<InaRateJob> jobs(2);
    const double values[] = {62.0 * 413, 62.0 * 2232};
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        jobs[j].workers = 8;
        jobs[j].gradientBytes = 4 * values[j];
        jobs[j].iterations = 2;
    }
    auto solve = [&](uint32_t pool, std::vector<double>& f, std::vector<double>& held) {
        m->SetAttribute("PoolSize", UintegerValue(pool));
        m->SwitchSyncTimes(jobs, 0, &f, &held);
    };
    std::vector<double> f;
    std::vector<double> held;
    solve(384, f, held);
    CAPTURE(f[0], f[1], held[0], held[1]);
    // Each job's floor, by hand: pairs 2 (S - P) / S = 0.5, times the partner's held share of
    // its 256 slots, once per overlap (PairFiring: 1 / (a + b) past a + b = 1).
    const double a0 = held[0] / 256;
    const double a1 = held[1] / 256;
    const double firing = a0 + a1 > 1 ? 1 / (a0 + a1) : 1.0;
    REQUIRE(f[1] >= 0.5 * a0 * firing - 1e-6); // the fixed point's tolerance
    REQUIRE(f[0] >= 0.5 * a1 * firing - 1e-6);
    REQUIRE(f[1] > 0.1);
    REQUIRE(f[0] == Approx(0.32).epsilon(0.1));
    // With as many aggregators as slots every pair can split: no floor, the sticky term alone.
    solve(512, f, held);
    CAPTURE(f[1]);
    REQUIRE(f[1] < 0.03);
    // And the packet level, as the engine would replay it.
    RequireAgreement({"atp", 384, {62 * 413, 62 * 2232}, 8, 2}, 0.10);
}

TEST_CASE("INA rate level: ATP's PS free list runs out", "[ina]")
{
    // ATP's PS re-hashes a collided index from a list of the pool's indices its job has not
    // used, P - K of them for the whole run, and never refills it. The example's four models
    // at 1/1000 scale (413, 2,232, 1,766 and 2,007 chunks an iteration), 8 workers, window
    // 256, on 768 aggregators: S = 1,024 slots, so the 512 re-hashes of each job are gone
    // within the first iterations (at the packet level by about 150 us). When resnet50 leaves,
    // the other three fit the pool (S = P), but the slots they share then stay shared.
    // Measured with an unlimited list at the packet level: 5 iterations take 0.393 ms on
    // average instead of 0.465 (the rate level without the list's end gave 0.356, -23.5%).
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    m->SetAttribute("PoolSize", UintegerValue(768));
    // The three after resnet50 left: their fallback fractions, and their mean iteration time.
    const double chunks[] = {2232, 1766, 2007};
    auto solve = [&](double iterations, double used) {
        std::vector<InaRateJob> jobs(3);
        for (size_t j = 0; j < jobs.size(); ++j)
        {
            jobs[j].workers = 8;
            jobs[j].gradientBytes = 4 * 62 * chunks[j];
            jobs[j].iterations = iterations;
            jobs[j].rehashesUsed = used;
        }
        std::vector<double> f;
        const double mean = Mean(m->SwitchSyncTimes(jobs, 0, &f));
        f.push_back(mean);
        return f;
    };
    // With the list through nothing splits: a long run falls back as a single iteration does
    // (as with a pool too small to split anything), and is slower than one whose fresh list
    // splits its pairs over the first iterations.
    const std::vector<double> oneSpent = solve(1, 512);
    const std::vector<double> longSpent = solve(100, 512);
    const std::vector<double> longFresh = solve(100, 0);
    for (size_t j = 0; j < 4; ++j)
    {
        CAPTURE(j, oneSpent[j], longSpent[j], longFresh[j]);
        REQUIRE(longSpent[j] == Approx(oneSpent[j]).epsilon(0.02));
        REQUIRE(longSpent[j] > 1.2 * longFresh[j]);
    }
    // The engine's path counts the list between evaluations (InaGradientSync::Evaluate): 5
    // iterations against the packet level, the mean of the four jobs within 20% (-23.5%
    // before the list's end was modelled).
    Scenario s{"atp", 768, {62 * 413, 62 * 2232, 62 * 1766, 62 * 2007}, 8, 5};
    std::vector<WorkloadProfile> profiles;
    const double pktMean = Mean(PacketLevel(s));
    const double rateMean = Mean(RateLevel(s, profiles));
    CAPTURE(pktMean, rateMean);
    REQUIRE(rateMean == Approx(pktMean).epsilon(0.2));
}

TEST_CASE("INA rate level: the PS-link queue and re-hashing terms", "[ina]")
{
    // 3 jobs x 4 workers on 256 aggregators: without the PS-link queueing in the hold time the
    // fluid model was 35% optimistic; the held aggregators now include it.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    m->SetAttribute("PoolSize", UintegerValue(256));
    std::vector<InaRateJob> jobs(3);
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        jobs[j].workers = 4;
        jobs[j].gradientBytes = 4.0 * 62 * 400 * (1 + j);
    }
    std::vector<double> f;
    std::vector<double> t = m->SwitchSyncTimes(jobs, 0, &f);
    // The PS link carries W packets per fallen-back chunk and one aggregate otherwise, so a
    // job's iteration is at least (C - 1) chunks at that load.
    const double tx = 308 * 8 / 100e9;
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        double chunks = 400.0 * (1 + j);
        CAPTURE(j, f[j], t[j]);
        REQUIRE(f[j] > 0.4);
        REQUIRE(f[j] < 1);
        REQUIRE(t[j] >= (chunks - 1) * tx * (1 + 3 * f[j]));
    }
    // Re-hashing: a job with more chunks per window slot per iteration has a smaller share of
    // first uses, so a smaller fallback fraction at the same pool occupancy.
    REQUIRE(f[0] > f[1]);
    REQUIRE(f[1] > f[2]);
    // A job whose slots fit the pool alone: only its own other slots can collide with it.
    std::vector<double> alone;
    m->SetAttribute("PoolSize", UintegerValue(1 << 20));
    m->SwitchSyncTimes({jobs[0]}, 0, &alone);
    REQUIRE(alone[0] < 1e-3);
}

TEST_CASE("INA rate level: host jitter per window round matches a simulated in-order delay",
          "[ina]")
{
    // The closed form (stationary D = max(X, D' - I), the latest of W) against a direct
    // simulation of W workers whose packets, sent every I, reach the NIC after an exponential
    // delay of mean m but in order, as InaWorker does. A window-limited job (R / K > tx) must
    // come out at I = (R + E[max D]) / K, and SkewSeconds must add E[max D] once.
    const double m = 500e-9;
    const double tx = 316 * 8 / 100e9;
    const double rtt = 2 * tx + 2 * 500e-9 + 400e-9; // SwitchML's round trip
    Ptr<InaGradientSync> model = CreateObject<InaGradientSync>();
    model->SetAttribute("Policy", StringValue("switchml"));
    model->SetAttribute("PacketJitter", TimeValue(Seconds(m)));
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(7);
    for (uint32_t workers : {2u, 8u})
    {
        for (double window : {16.0, 64.0, 256.0})
        {
            const double interval = model->WindowInterval(rtt, window, tx, workers);
            const double latest = model->SkewSeconds(workers, interval);
            std::vector<double> d(workers, 0.0);
            double sum = 0;
            const int chunks = 200000;
            for (int c = 0; c < chunks; ++c)
            {
                double worst = 0;
                for (auto& x : d)
                {
                    x = std::max(-m * std::log(1 - u->GetValue()), x - interval);
                    worst = std::max(worst, x);
                }
                sum += worst;
            }
            const double simulated = sum / chunks;
            CAPTURE(workers, window, interval, latest, simulated);
            REQUIRE(latest == Approx(simulated).epsilon(0.03));
            REQUIRE(interval == Approx(std::max(tx, (rtt + simulated) / window)).epsilon(0.03));
            if ((rtt + simulated) / window > 1.05 * tx)
            {
                REQUIRE(interval > 1.05 * std::max(tx, rtt / window)); // window-limited: it costs
            }
        }
    }
    // Without jitter nothing is added.
    model->SetAttribute("PacketJitter", TimeValue(Seconds(0)));
    REQUIRE(model->WindowInterval(rtt, 16, tx, 8) == Approx(rtt / 16));
    REQUIRE(model->SkewSeconds(8, tx) == 0);
}

TEST_CASE("INA rate level: trends and placement", "[ina]")
{
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    std::vector<InaRateJob> jobs(4);
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        jobs[j].workers = 8;
        jobs[j].gradientBytes = 100e6;
        jobs[j].priorityKey = static_cast<double>(j);
    }
    // A roomy pool: every policy runs at line rate, C chunks x wire time (plus one round
    // trip and the odd hash collision: 0.5%).
    const double lineRate = std::ceil(100e6 / 248) * 308 * 8 / 100e9;
    for (std::string p : {"switchml", "atp", "esa"})
    {
        m->SetAttribute("Policy", StringValue(p));
        m->SetAttribute("PoolSize", UintegerValue(1 << 20));
        double t = m->SwitchSyncTimes(jobs)[0];
        if (p == "switchml")
        {
            REQUIRE(t == Approx(std::ceil(100e6 / 256) * 316 * 8 / 100e9).epsilon(0.005));
        }
        else
        {
            REQUIRE(t == Approx(lineRate).epsilon(0.005));
        }
    }
    // A small pool: the top-priority job is not slowed by the others under ESA, and over a
    // whole run (re-evaluated as jobs finish, like the engine) ESA's average JCT beats ATP's.
    m->SetAttribute("PoolSize", UintegerValue(256));
    m->SetAttribute("Policy", StringValue("esa"));
    std::vector<double> esa = m->SwitchSyncTimes(jobs);
    std::vector<double> alone = m->SwitchSyncTimes({jobs[0]});
    REQUIRE(esa[0] == Approx(alone[0]));
    REQUIRE(esa[0] < esa[3]);
    std::vector<WorkloadProfile> profiles;
    Scenario mix{"atp", 256, {62 * 2000, 62 * 2000, 62 * 3000, 62 * 4000}, 8, 10};
    const double atpAvg = Mean(RateLevel(mix, profiles));
    mix.policy = "esa";
    const double esaAvg = Mean(RateLevel(mix, profiles));
    CAPTURE(atpAvg, esaAvg);
    REQUIRE(esaAvg < atpAvg);

    // Placement: one node only reduces over NVLink; a job across racks aggregates at the spine.
    WorkloadProfile prof;
    prof.gradientBytes = 100e6;
    ClusterTopology topo;
    topo.numNodes = 16;
    topo.gpusPerNode = 8;
    topo.nodesPerRack = 4;
    auto make = [&](std::vector<std::pair<uint32_t, uint32_t>> nodes) {
        return JobOnGpus(0, prof, nodes, 0.04, 10);
    };
    m->SetAttribute("PoolSize", UintegerValue(20000));
    std::vector<double> sec(3);
    m->Evaluate(topo, {make({{0, 8}}), make({{0, 1}, {1, 1}}), make({{3, 1}, {4, 1}})}, sec);
    REQUIRE(sec[0] == Approx(2.0 * 7 / 8 * 100e6 * 8 / 2400e9));
    REQUIRE(sec[1] > 0);
    REQUIRE(sec[2] > sec[1]); // two more hops each way through the spine

    Ptr<RingAllReduceSync> ring = CreateObject<RingAllReduceSync>();
    REQUIRE(ring->SyncTime(1, 1, 100e6) == 0);
    REQUIRE(ring->SyncTime(8, 1, 100e6) == Approx(2.0 * 7 / 8 * 100e6 * 8 / 2400e9 + 14e-6));
    REQUIRE(ring->SyncTime(16, 2, 100e6) == Approx(2.0 * 15 / 16 * 100e6 * 8 / 100e9 + 30 * 2e-6));
    std::vector<double> rs(2);
    ring->Evaluate(topo, {make({{0, 8}}), make({{0, 8}, {1, 8}})}, rs);
    REQUIRE(rs[0] == Approx(ring->SyncTime(8, 1, 100e6)));
    REQUIRE(rs[1] == Approx(ring->SyncTime(16, 2, 100e6)));
    // INA beats the ring across nodes: each node sends the gradient once, not 2(n-1)/n times.
    std::vector<double> ina(1);
    m->Evaluate(topo, {make({{0, 8}, {1, 8}})}, ina);
    REQUIRE(ina[0] < rs[1]);
}

TEST_CASE("INA rate level: fallback over iterations report", "[.ina-grid]")
{
    for (uint32_t it : {1, 2, 4, 8})
    {
        for (uint32_t pool : {4096u, 1024u, 256u})
        {
            Scenario s = GridScenario("atp", pool, 3, 4);
            s.iterations = it;
            std::vector<InaJobResult> res;
            std::vector<double> pkt = PacketLevel(s, &res);
            std::cout << "ITER it=" << it << " pool=" << pool;
            for (size_t j = 0; j < pkt.size(); ++j)
            {
                double chunks = std::ceil(s.values[j] / 62.0) * s.iterations;
                std::cout << " j" << j << ":" << pkt[j] * 1e6
                          << "us f=" << res[j].fallbackResults / chunks;
            }
            std::cout << std::endl;
        }
    }
    for (uint32_t pool : {1024u, 256u, 128u})
    {
        Scenario s = GridScenario("atp", pool, 1, 4);
        s.values = {62 * 2000};
        for (uint32_t it : {1, 4})
        {
            s.iterations = it;
            std::vector<InaJobResult> res;
            std::vector<double> pkt = PacketLevel(s, &res);
            std::cout << "ALONE it=" << it << " pool=" << pool << " " << pkt[0] * 1e6
                      << "us f=" << res[0].fallbackResults / (2000.0 * it) << std::endl;
        }
    }
}

TEST_CASE("INA rate level: ESA stalls outlive the holder that would rescue them", "[ina]")
{
    // doc/ina.md ("Departures"): job 1's keys split against job 0 (the higher priority) wait
    // for job 0's slot to come back, one iteration of job 0 later (its single pass: 200 chunks
    // in a window of 256). When job 0 leaves, keys split in its last window wait for the whole
    // ResendTimeout instead, once for all of them: DepartureStalls[1][0] = (1 - e^-N) x
    // (T - cycle0), N the keys split then. N does not depend on T while cycle0 < T, so two
    // timeouts give the ratio (T1 - cycle0) / (T2 - cycle0), with cycle0 computed here by
    // hand. Mid-iteration a key splits by the host spread alone (the window has gathered the
    // workers again), so the packet jitter is on, small enough that job 0 stays at line rate.
    auto model = [](const std::string& policy, Time timeout, Time jitter) {
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue(policy));
        m->SetAttribute("PoolSize", UintegerValue(256));
        m->SetAttribute("Window", UintegerValue(256));
        m->SetAttribute("LinkRate", DataRateValue(DataRate("100Gbps")));
        m->SetAttribute("LinkDelay", TimeValue(NanoSeconds(500)));
        m->SetAttribute("PipelineLatency", TimeValue(NanoSeconds(400)));
        m->SetAttribute("PipelinePasses", UintegerValue(2));
        m->SetAttribute("IterationJitter", TimeValue(jitter));
        m->SetAttribute("PacketJitter",
                        TimeValue(jitter > Seconds(0) ? NanoSeconds(50) : Seconds(0)));
        m->SetAttribute("ResendTimeout", TimeValue(timeout));
        std::vector<InaRateJob> jobs(2);
        for (size_t j = 0; j < 2; ++j)
        {
            jobs[j].id = j;
            jobs[j].workers = 8;
            jobs[j].iterations = 2;
            jobs[j].priorityKey = j + 1;
            jobs[j].gradientBytes = 4.0 * 62 * (j == 0 ? 200 : 2000);
        }
        return m->DepartureStalls(jobs);
    };
    const double tx = (4 * 62 + 60) * 8 / 100e9;
    const double pass = 2 * 400e-9;                  // two pipeline passes per switch visit
    const double rtt = 4 * (tx + 500e-9) + 2 * pass; // worker, switch, PS, switch, worker
    const double cycle0 = rtt + 199 * tx;            // job 0 unblocked: line rate
    const double t1 = 200e-6;
    const double t2 = 400e-6;
    auto d1 = model("esa", Seconds(t1), MicroSeconds(10));
    auto d2 = model("esa", Seconds(t2), MicroSeconds(10));
    CAPTURE(cycle0, d1[1][0], d2[1][0]);
    REQUIRE(d1[1][0] > 0);
    REQUIRE(d1[1][0] < t1 - cycle0); // 1 - e^-N < 1
    CHECK(d1[1][0] / d2[1][0] == Approx((t1 - cycle0) / (t2 - cycle0)).epsilon(1e-6));
    CHECK(d1[0][1] == 0); // the highest priority is never split against job 1
    CHECK(d1[0][0] == 0);
    // ATP: a split key waits the timeout whoever leaves; no skew: nothing is split.
    for (const auto& d :
         {model("atp", Seconds(t1), MicroSeconds(10)), model("esa", Seconds(t1), Seconds(0))})
    {
        for (const auto& row : d)
        {
            for (double x : row)
            {
                CHECK(x == 0);
            }
        }
    }
}

namespace
{
/**
 * \param policy the policy \param pool aggregators \param window chunks
 * \param jitter IterationJitter \param packetJitter PacketJitter
 * \return an InaGradientSync with the packet level's link and pipeline defaults
 */
Ptr<InaGradientSync>
SkewModel(const std::string& policy, uint32_t pool, uint32_t window, Time jitter, Time packetJitter)
{
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue(policy));
    m->SetAttribute("PoolSize", UintegerValue(pool));
    m->SetAttribute("Window", UintegerValue(window));
    m->SetAttribute("LinkRate", DataRateValue(DataRate("100Gbps")));
    m->SetAttribute("LinkDelay", TimeValue(NanoSeconds(500)));
    m->SetAttribute("PipelineLatency", TimeValue(NanoSeconds(400)));
    m->SetAttribute("PipelinePasses", UintegerValue(2));
    m->SetAttribute("IterationJitter", TimeValue(jitter));
    m->SetAttribute("PacketJitter", TimeValue(packetJitter));
    m->SetAttribute("ResendTimeout", TimeValue(MicroSeconds(200)));
    return m;
}
} // namespace

TEST_CASE("INA rate level: ESA never rescues a key split against the job's own slot", "[ina]")
{
    // doc/ina.md ("Skew (rate level)"): a job with more window slots than aggregators shares
    // indices with itself; a key split against its own slot waits for the ResendTimeout,
    // because a job does not preempt itself (EsaPolicy::PreemptOwnJob false). Alone at the
    // switch, ESA has no other holder, so it must take exactly ATP's time.
    InaRateJob job;
    job.id = 0;
    job.workers = 8;
    job.iterations = 2;
    job.priorityKey = 1;
    job.gradientBytes = 4.0 * 62 * 2000;
    auto time = [&](const std::string& policy, Time jitter, Time packetJitter) {
        return SkewModel(policy, 64, 256, jitter, packetJitter)->SwitchSyncTimes({job})[0];
    };
    const double esa = time("esa", MicroSeconds(10), NanoSeconds(500));
    const double atp = time("atp", MicroSeconds(10), NanoSeconds(500));
    const double unskewed = time("esa", Seconds(0), Seconds(0));
    CAPTURE(esa, atp, unskewed);
    CHECK(esa == Approx(atp).epsilon(1e-12));
    CHECK(esa > unskewed + 200e-6); // split keys do stall it: at least one resend timeout
}

TEST_CASE("INA rate level: ESA rescues a split key when the holder's slot comes back", "[ina]")
{
    // doc/ina.md ("Skew (rate level)"): job 1's first-window keys split against job 0 (the
    // higher priority: 64 chunks, window 32, so half of its slot uses come back within the
    // iteration). No packet jitter: only the first window splits, with N expected stalls
    // (episodes: 1 - exp(-32 rho p), p the first-window split probability), each the rescue
    // wait, computed here by hand:
    //   wait = again x R + (1 - again) x min(timeout, cycle0), again = 1 - 32 / 64,
    //   R = E[max(0, gap - O)], gap = one trip switch - worker - switch (job 0's earliest
    //   workers wait for its last one to start), O uniform on [0, s], s the start spread
    //   J (W - 1) / (W + 1): R = gap^2 / (2 s); cycle0 = rtt + 63 I0, I0 = rtt / 32
    //   (window-bound, unblocked).
    // The episodes do not depend on the timeout, so two timeouts below cycle0 give them:
    // stall(T1) - stall(T2) = N (T1 - T2) / 2; then stall(T1) must be N x wait(T1).
    const double tx = (4 * 62 + 60) * 8 / 100e9;
    const double hop = tx + 500e-9;
    const double pass = 2 * 400e-9;
    const double rtt = 4 * hop + pass * 2;
    const double start = 10e-6 * 7 / 9;
    const double gap = 2 * hop;
    const double rescue = gap * gap / (2 * start);
    const double cycle0 = rtt + 63 * rtt / 32;
    std::vector<InaRateJob> jobs(2);
    for (size_t j = 0; j < 2; ++j)
    {
        jobs[j].id = j;
        jobs[j].workers = 8;
        jobs[j].iterations = 2;
        jobs[j].priorityKey = j + 1;
        jobs[j].gradientBytes = 4.0 * 62 * (j == 0 ? 64 : 640);
    }
    Ptr<InaGradientSync> m = SkewModel("esa", 48, 32, MicroSeconds(10), Seconds(0));
    // Job 1's stall: its sync time less rtt + 639 I1 + the last worker's start J W / (W + 1).
    auto stallAt = [&](double timeout, std::vector<double>& f, std::vector<double>& t) {
        m->SetAttribute("ResendTimeout", TimeValue(Seconds(timeout)));
        t = m->SwitchSyncTimes(jobs, 0, &f);
        const double i1 = std::max({tx, rtt / 32, tx * (8 * f[1] + 1 - f[1])});
        return t[1] - (rtt + 639 * i1 + 10e-6 * 8 / 9);
    };
    std::vector<double> f;
    std::vector<double> t;
    const double t1 = cycle0 * 0.9;
    const double t2 = cycle0 * 0.5;
    const double stall2 = stallAt(t2, f, t);
    const double stall1 = stallAt(t1, f, t);
    const double episodes = 2 * (stall1 - stall2) / (t1 - t2);
    const double wait = 0.5 * rescue + 0.5 * t1;
    CAPTURE(f[0], f[1], t[0], t[1], rescue, cycle0, stall1, stall2, episodes);
    CHECK(f[0] == 0);
    CHECK(t[0] == Approx(cycle0 + 10e-6 * 8 / 9).epsilon(1e-9)); // job 0 runs unblocked
    CHECK(episodes > 0.1);
    CHECK(episodes <= 1 + 1e-9); // one first window an iteration, nothing split after it
    CHECK(stall1 == Approx(episodes * wait).epsilon(1e-6));
    m->SetAttribute("ResendTimeout", TimeValue(MicroSeconds(200)));

    // Departures: a key split against the last use of job 0's slot is stranded when job 0
    // leaves, but past its first window job 1's workers are gathered again by the window (a
    // chunk goes out when the result of the one a window before comes back to all of them),
    // so without packet jitter no key splits in job 0's last window: nothing is owed.
    CHECK(m->DepartureStalls(jobs)[1][0] == 0);
}

TEST_CASE("INA rate level: finite times and stalls where the slots far outnumber the aggregators",
          "[ina]")
{
    // Found by random points of ina-shared-aggregation --granularity=rate: with 512 window
    // slots on 8 aggregators the pair-decay closed form (IterationShare) divided E0 by
    // a + E0 = P e^(-S/P), which rounds to 0 in doubles, and the departure stalls came out
    // NaN (the example then averaged jobs that never finished in as -1 s). Every time must be
    // finite and positive, every stall finite and at least 0, with skew and without, ESA and
    // ATP, 2 and 12 jobs.
    for (const char* policy : {"esa", "atp"})
    {
        for (uint32_t pool : {1u, 8u, 32u})
        {
            for (size_t n : {2u, 12u})
            {
                for (bool skew : {false, true})
                {
                    Ptr<InaGradientSync> m = SkewModel(policy,
                                                       pool,
                                                       256,
                                                       skew ? MicroSeconds(10) : Seconds(0),
                                                       skew ? NanoSeconds(500) : Seconds(0));
                    std::vector<InaRateJob> jobs(n);
                    for (size_t j = 0; j < n; ++j)
                    {
                        jobs[j].id = j;
                        jobs[j].workers = 8;
                        jobs[j].iterations = 2;
                        jobs[j].priorityKey = 1 + j % 4; // 12 jobs: equal keys, as the mix
                        jobs[j].gradientBytes = 4.0 * 62 * (400 + 600 * (j % 4));
                    }
                    CAPTURE(policy, pool, n, skew);
                    for (double t : m->SwitchSyncTimes(jobs))
                    {
                        CHECK(std::isfinite(t));
                        CHECK(t > 0);
                    }
                    for (const std::vector<double>& row : m->DepartureStalls(jobs))
                    {
                        for (double stall : row)
                        {
                            CHECK(std::isfinite(stall));
                            CHECK(stall >= 0);
                        }
                    }
                }
            }
        }
    }
}
