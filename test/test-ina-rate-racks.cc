/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Rate-level INA over racks: cross-rack jobs aggregated in two levels (each ToR, then the
// spine) or at the spine only, against the packet level (InaHelper with racks).

#include "ina-rate-replay.h"
#include "running-job.h"

#include "ns3/cluster-job.h"
#include "ns3/core-module.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/ina-helper.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>

using namespace ns3;

namespace
{

struct RackScenario
{
    std::string name;                        //!< placement name (for reports)
    uint32_t racks{2};                       //!< racks
    std::vector<std::vector<uint32_t>> jobs; //!< per job: rack of each worker
    std::string policy{"atp"};               //!< switchml, atp or esa
    uint32_t pool{20000};                    //!< aggregators per switch
    std::string uplink{"400Gbps"};           //!< ToR-to-spine rate
    bool hierarchical{true};                 //!< two-level (true) or spine-only
    uint32_t iterations{2};                  //!< iterations per job

    uint64_t ValuesOf(size_t j) const //!< job j: 62 x 400 (1 + j mod 3) values
    {
        return 62 * 400 * (1 + j % 3);
    }
};

/// The placements: 2-3 racks, 1-4 jobs, cross-rack and rack-local jobs mixed.
std::vector<RackScenario>
Placements()
{
    return {
        {"1 cross 4+4", 2, {{0, 0, 0, 0, 1, 1, 1, 1}}},
        {"cross 2+2, local 3 | local 2", 2, {{0, 0, 1, 1}, {0, 0, 0}, {1, 1}}},
        {"3 racks: cross 2+2+2, cross 2+2, local 3",
         3,
         {{0, 1, 2, 0, 1, 2}, {0, 0, 1, 1}, {2, 2, 2}}},
        {"4 cross 4+4",
         2,
         {{0, 0, 0, 0, 1, 1, 1, 1},
          {0, 0, 0, 0, 1, 1, 1, 1},
          {0, 0, 0, 0, 1, 1, 1, 1},
          {0, 0, 0, 0, 1, 1, 1, 1}}},
    };
}

/// Mean iteration time of every job at the packet level (and the fraction of its chunks
/// completed at the PS, worker 0's view).
std::vector<double>
PacketLevel(const RackScenario& s,
            std::vector<double>* fallback = nullptr,
            std::vector<uint64_t>* resends = nullptr)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    InaHelper h;
    h.SetPolicy(s.policy);
    h.SetRacks(s.racks, DataRate(s.uplink));
    h.SetHierarchical(s.hierarchical);
    h.SetSwitchAttribute("PoolSize", UintegerValue(s.pool));
    h.SetWorkerAttribute("Verify", BooleanValue(false));
    for (size_t j = 0; j < s.jobs.size(); ++j)
    {
        InaJobSpec spec;
        spec.workers = static_cast<uint32_t>(s.jobs[j].size());
        spec.workerRacks = s.jobs[j];
        spec.gradientValues = s.ValuesOf(j);
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
        if (fallback)
        {
            double chunks = std::ceil(s.ValuesOf(j) / double(h.GetValuesPerPacket()));
            fallback->push_back(r.fallbackResults / (chunks * s.iterations));
        }
        if (resends)
        {
            resends->push_back(r.resends);
        }
    }
    Simulator::Destroy();
    return out;
}

/// The rate model for a scenario's policy, pool, uplink and mode.
Ptr<InaGradientSync>
RateModel(const RackScenario& s)
{
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue(s.policy));
    m->SetAttribute("PoolSize", UintegerValue(s.pool));
    m->SetAttribute("UplinkRate", DataRateValue(DataRate(s.uplink)));
    m->SetAttribute("Hierarchical", BooleanValue(s.hierarchical));
    return m;
}

/// \return the largest number of jobs aggregating at one switch (ToR or spine)
uint32_t
MostJobsAtASwitch(const RackScenario& s)
{
    std::vector<uint32_t> at(s.racks + 1, 0);
    for (const auto& racks : s.jobs)
    {
        std::vector<uint32_t> r = racks;
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
        if (r.size() > 1)
        {
            ++at[s.racks];
            if (!s.hierarchical)
            {
                continue;
            }
        }
        for (uint32_t x : r)
        {
            ++at[x];
        }
    }
    return *std::max_element(at.begin(), at.end());
}

/// The rate model's fallback fractions for the scenario's jobs all running.
std::vector<double>
RateFallback(const RackScenario& s)
{
    Ptr<InaGradientSync> m = RateModel(s);
    m->SetAttribute("SwitchMlPartitions", UintegerValue(MostJobsAtASwitch(s)));
    std::vector<InaRateJob> jobs;
    for (size_t j = 0; j < s.jobs.size(); ++j)
    {
        InaRateJob r;
        r.workers = static_cast<uint32_t>(s.jobs[j].size());
        r.gradientBytes = 4.0 * s.ValuesOf(j);
        r.iterations = s.iterations;
        r.priorityKey = s.iterations * r.gradientBytes;
        std::map<uint32_t, uint32_t> per;
        for (uint32_t x : s.jobs[j])
        {
            ++per[x];
        }
        r.racks.assign(per.begin(), per.end());
        jobs.push_back(r);
    }
    std::vector<double> f;
    m->RackSyncTimes(jobs, &f);
    return f;
}

/**
 * The same jobs as ClusterJobs (one GPU per node; rack r holds nodes r * perRack ..) through
 * InaGradientSync::Evaluate, advanced like the cluster engine: constant rates between events,
 * re-evaluated when a job finishes. \return each job's mean iteration time.
 */
std::vector<double>
RateLevel(const RackScenario& s)
{
    Ptr<InaGradientSync> m = RateModel(s);
    // The packet level lays SwitchML's partitions out once, over the jobs at each switch; in
    // these placements every job's window is set at a switch with the most jobs.
    m->SetAttribute("SwitchMlPartitions", UintegerValue(MostJobsAtASwitch(s)));
    ClusterTopology topo;
    std::vector<uint32_t> used(s.racks, 0);
    for (const auto& racks : s.jobs)
    {
        for (uint32_t r : racks)
        {
            ++used[r];
        }
    }
    topo.nodesPerRack = *std::max_element(used.begin(), used.end());
    topo.numNodes = topo.nodesPerRack * s.racks;
    topo.gpusPerNode = 1;
    std::fill(used.begin(), used.end(), 0);
    std::vector<WorkloadProfile> profiles(s.jobs.size());
    std::vector<Ptr<ClusterJob>> jobs;
    for (size_t j = 0; j < s.jobs.size(); ++j)
    {
        profiles[j].gradientBytes = 4.0 * s.ValuesOf(j);
        std::vector<uint32_t> nodes;
        for (uint32_t r : s.jobs[j])
        {
            nodes.push_back(r * topo.nodesPerRack + used[r]++);
        }
        std::sort(nodes.begin(), nodes.end());
        jobs.push_back(JobOn(j, profiles[j], nodes, 0.04, s.iterations));
    }
    return ReplayLikeTheEngine(m, topo, jobs, s.iterations);
}

/// Every point of the agreement grid: placements x policies x pools x uplinks.
std::vector<RackScenario>
Grid()
{
    std::vector<RackScenario> grid;
    for (const RackScenario& base : Placements())
    {
        for (std::string policy : {"switchml", "atp", "esa"})
        {
            for (uint32_t pool : {20000u, 256u})
            {
                for (std::string uplink : {"100Gbps", "400Gbps"})
                {
                    RackScenario s = base;
                    s.policy = policy;
                    s.pool = pool;
                    s.uplink = uplink;
                    grid.push_back(s);
                }
            }
        }
    }
    return grid;
}

/// \return "placement policy pool uplink"
std::string
Label(const RackScenario& s)
{
    std::ostringstream o;
    o << s.name << " " << s.policy << " pool=" << s.pool << " " << s.uplink
      << (s.hierarchical ? "" : " spine-only");
    return o.str();
}

/// \return the signed worst per-job error of the rate level against the packet level
double
WorstError(const RackScenario& s, std::ostringstream* line = nullptr)
{
    std::vector<double> fb;
    std::vector<uint64_t> rs;
    std::vector<double> pkt = PacketLevel(s, &fb, &rs);
    std::vector<double> rate = RateLevel(s);
    std::vector<double> rf = line ? RateFallback(s) : std::vector<double>(pkt.size());
    double worst = 0;
    for (size_t j = 0; j < pkt.size(); ++j)
    {
        double err = rate[j] / pkt[j] - 1;
        worst = std::fabs(err) > std::fabs(worst) ? err : worst;
        if (line)
        {
            *line << " j" << j << ":" << pkt[j] * 1e6 << "/" << rate[j] * 1e6 << "us f=" << fb[j]
                  << "/" << rf[j] << " resends=" << rs[j];
        }
    }
    return worst;
}

} // namespace

TEST_CASE("INA rate level over racks: grid report", "[.ina-racks-grid]")
{
    std::vector<RackScenario> grid = Grid();
    for (const RackScenario& base : Placements())
    {
        for (std::string policy : {"switchml", "atp", "esa"})
        {
            for (std::string uplink : {"100Gbps", "400Gbps"})
            {
                RackScenario s = base;
                s.policy = policy;
                s.uplink = uplink;
                s.hierarchical = false;
                grid.push_back(s);
            }
        }
    }
    for (const RackScenario& s : grid)
    {
        std::ostringstream line;
        double worst = WorstError(s, &line);
        std::cout << "RACKS " << Label(s) << " worst=" << worst << line.str() << std::endl;
    }
}

TEST_CASE("INA rate level over racks agrees with the two-level packet level", "[ina]")
{
    // 4 placements x 3 policies x pools 20000 and 256 x uplinks 100 and 400 Gbps: 35 of the
    // 48 points within 10%. Left out, measured with [.ina-racks-grid] and explained in
    // doc/ina.md ("Racks" under "Rate level"): ATP/ESA points where the packet level stalls on
    // 200 us resend timeouts or falls back more than the model (-14% .. -68%), and two
    // 100 Gbps points of the 3-rack placement on the roomy pool (+12%).
    struct Point
    {
        std::string placement;
        std::string policy;
        uint32_t pool;
        std::string uplink;
    };

    const std::string p2 = "cross 2+2, local 3 | local 2";
    const std::string p3 = "3 racks: cross 2+2+2, cross 2+2, local 3";
    const std::string p4 = "4 cross 4+4";
    const std::vector<Point> outside{
        {p2, "atp", 256, "100Gbps"},
        {p2, "atp", 256, "400Gbps"},
        {p2, "esa", 256, "100Gbps"},
        {p2, "esa", 256, "400Gbps"},
        {p3, "atp", 20000, "100Gbps"},
        {p3, "atp", 256, "100Gbps"},
        {p3, "atp", 256, "400Gbps"},
        {p3, "esa", 20000, "100Gbps"},
        {p3, "esa", 256, "100Gbps"},
        {p3, "esa", 256, "400Gbps"},
        {p4, "atp", 256, "100Gbps"},
        {p4, "atp", 256, "400Gbps"},
        {p4, "esa", 256, "400Gbps"},
    };
    uint32_t asserted = 0;
    for (const RackScenario& s : Grid())
    {
        bool out = std::any_of(outside.begin(), outside.end(), [&](const Point& p) {
            return p.placement == s.name && p.policy == s.policy && p.pool == s.pool &&
                   p.uplink == s.uplink;
        });
        if (out)
        {
            continue;
        }
        double worst = WorstError(s);
        CAPTURE(Label(s), worst);
        REQUIRE(std::fabs(worst) <= 0.10);
        ++asserted;
    }
    REQUIRE(asserted == 35);
}

TEST_CASE("INA rate level over racks: spine-only keeps the single-switch model at the spine",
          "[ina]")
{
    // Hierarchical=false: cross-rack jobs are the single-switch model one hop further at the
    // spine's pool, as before; the uplinks only bound the chunk interval when every worker
    // packet cannot cross them (here 2 workers per rack at 400 Gbps: they can).
    RackScenario s = Placements()[2]; // 3 racks: cross 2+2+2, cross 2+2, local 3
    s.hierarchical = false;
    for (std::string policy : {"switchml", "atp", "esa"})
    {
        for (uint32_t pool : {20000u, 256u})
        {
            INFO(policy << " pool " << pool);
            s.policy = policy;
            s.pool = pool;
            Ptr<InaGradientSync> m = RateModel(s);
            std::vector<InaRateJob> jobs(3);
            jobs[0].workers = 6;
            jobs[0].racks = {{0, 2}, {1, 2}, {2, 2}};
            jobs[1].workers = 4;
            jobs[1].racks = {{0, 2}, {1, 2}};
            jobs[2].workers = 3;
            jobs[2].racks = {{2, 3}};
            for (size_t j = 0; j < jobs.size(); ++j)
            {
                jobs[j].gradientBytes = 4.0 * s.ValuesOf(j);
                jobs[j].priorityKey = static_cast<double>(j);
            }
            std::vector<double> t = m->RackSyncTimes(jobs);
            std::vector<double> spine = m->SwitchSyncTimes({jobs[0], jobs[1]}, 1);
            std::vector<double> tor = m->SwitchSyncTimes({jobs[2]}, 0);
            REQUIRE(t[0] == Approx(spine[0]).epsilon(1e-12));
            REQUIRE(t[1] == Approx(spine[1]).epsilon(1e-12));
            REQUIRE(t[2] == Approx(tor[0]).epsilon(1e-12));
        }
    }
    // A single rack's jobs are untouched by either mode.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    m->SetAttribute("PoolSize", UintegerValue(256));
    std::vector<InaRateJob> local(2);
    for (auto& j : local)
    {
        j.workers = 4;
        j.gradientBytes = 4.0 * 62 * 800;
        j.racks = {{1, 4}};
    }
    REQUIRE(m->RackSyncTimes(local)[0] == m->SwitchSyncTimes(local)[0]);
}

TEST_CASE("INA rate level over racks: two-level relieves a 100 Gbps uplink", "[ina]")
{
    // One job, 4 workers in each of 2 racks, 100 Gbps everywhere: spine-only sends 4 worker
    // packets per chunk over each uplink, two-level one partial (packet level: 0.087 vs 0.027
    // ms). With 400 Gbps uplinks the uplink is not the bottleneck of either mode.
    for (std::string policy : {"switchml", "atp", "esa"})
    {
        INFO(policy);
        RackScenario s = Placements()[0];
        s.policy = policy;
        s.uplink = "100Gbps";
        const double two = RateLevel(s)[0];
        s.hierarchical = false;
        const double spine = RateLevel(s)[0];
        const double values = policy == "switchml" ? 64 : 62;
        const double tx = (4 * values + 60) * 8 / 100e9;
        const double chunks = std::ceil(s.ValuesOf(0) / values);
        CAPTURE(two, spine);
        REQUIRE(spine >= 4 * (chunks - 1) * tx); // every worker packet crosses the uplink
        REQUIRE(two < 0.4 * spine);
        REQUIRE(two >= chunks * tx);
        s.uplink = "400Gbps";
        const double spine400 = RateLevel(s)[0];
        s.hierarchical = true;
        const double two400 = RateLevel(s)[0];
        CAPTURE(two400, spine400);
        REQUIRE(two400 == Approx(two).epsilon(0.05));
        REQUIRE(spine400 < 0.5 * spine);
    }
}

TEST_CASE("INA rate level over racks: a job held only where its uplinks are full", "[ina]")
{
    // Racks 0-3, one worker per rack; jobs on racks {0,1}, {0,1}, {1,2}, {2,3} with 100 Gbps
    // uplinks, one partial per chunk over each. Rack 1's uplink carries three jobs, so they
    // get a third of it each; the last job shares rack 2's uplink only with the third, so it
    // takes the two thirds left there (max-min fair), not a third. Measured against the
    // packet level: every job within 11.2% (the last: SwitchML -11.1%, ESA -8.1%); a fill
    // that also holds the last job at a third is +61% / +56% on it. ATP is left out: on this
    // placement its packet level stalls on resend timeouts (as in the agreement grid above).
    RackScenario s;
    s.name = "uplink chain";
    s.racks = 4;
    s.jobs = {{0, 1}, {0, 1}, {1, 2}, {2, 3}};
    s.uplink = "100Gbps";
    for (std::string policy : {"switchml", "esa"})
    {
        s.policy = policy;
        std::vector<double> pkt = PacketLevel(s, nullptr, nullptr);
        std::vector<double> rate = RateLevel(s);
        for (size_t j = 0; j < pkt.size(); ++j)
        {
            CAPTURE(Label(s), j, pkt[j], rate[j]);
            CHECK(std::fabs(rate[j] / pkt[j] - 1) <= 0.15);
        }
    }
}

TEST_CASE("INA rate level over racks: ATP's pairs that cannot split set a floor at every pool",
          "[ina]")
{
    // 3 ATP jobs, 2 workers in each of 2 racks, on 384 aggregators per switch: every pool (both
    // ToRs and the spine) has all three jobs' 3 x 256 window slots hashed into it, 384 more than
    // it has aggregators. At least 2 (S - P) of the S slots stay paired however often the PSs
    // re-hash, and a paired slot collides whenever its partner holds the index: the fallback
    // is at least min(1, 2 (S - P) / S) x (the others' blocking holdings, each discounted by
    // PairFiring) / (their slots), at each pool, as at one switch. Computed here from the
    // holdings the model returns.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    m->SetAttribute("Policy", StringValue("atp"));
    m->SetAttribute("PoolSize", UintegerValue(384));
    const double pool = 384;
    const double window = 256; // the Window attribute's default
    std::vector<InaRateJob> jobs(3);
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        jobs[j].workers = 4;
        jobs[j].racks = {{0, 2}, {1, 2}};
        jobs[j].gradientBytes = 4.0 * 62 * 400 * (2 + j); // 800 .. 1600 chunks: K = window
        jobs[j].iterations = 2;
        jobs[j].id = j;
    }
    std::vector<double> f;
    std::vector<InaGradientSync::PoolHoldings> held;
    m->RackSyncTimes(jobs, &f, &held);
    REQUIRE(held.size() == jobs.size());
    const double slots = window * jobs.size(); // S at every pool
    const double inPairs = std::min(1.0, 2 * (slots - pool) / slots);
    auto pairFiring = [](double a, double b) { return a + b > 1 ? 1 / (a + b) : 1.0; };
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        REQUIRE(held[j].size() == 3); // ToR 0, ToR 1, spine
        double floor = 0;
        for (size_t a = 0; a < held[j].size(); ++a)
        {
            double others = 0;
            for (size_t i = 0; i < jobs.size(); ++i)
            {
                REQUIRE(held[i][a].first == held[j][a].first); // the same pool
                const double h = held[i][a].second;
                others += i == j ? 0.0 : h * pairFiring(h / window, held[j][a].second / window);
            }
            floor = std::max(floor, std::min(1.0, inPairs * others / (slots - window)));
        }
        CAPTURE(j, f[j], floor);
        REQUIRE(floor > 0.1); // the floor matters here
        REQUIRE(f[j] >= floor - 1e-6);
    }
}

TEST_CASE("INA rate level over racks: host jitter lengthens a two-level window round", "[ina]")
{
    // A lone ESA job, 4 + 4 workers over 2 racks, on a roomy pool (nothing falls back) with a
    // window of 8 chunks, so the window sets its interval: without PacketJitter I = R / K.
    // With it a slot is reused one round after its chunk left the slowest of the job's 8
    // hosts (the spine waits for both racks' partials): I = WindowInterval(R, K, tx, 8), the
    // single-switch term, and T = R + (C - 1) I + SkewSeconds(8, I). R comes from the run
    // without jitter: T0 = R + (C - 1) R / K.
    auto model = [](double jitterNs) {
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue("esa"));
        m->SetAttribute("PoolSize", UintegerValue(20000));
        m->SetAttribute("Window", UintegerValue(8));
        m->SetAttribute("PacketJitter", TimeValue(NanoSeconds(jitterNs)));
        return m;
    };
    std::vector<InaRateJob> jobs(1);
    jobs[0].workers = 8;
    jobs[0].racks = {{0, 4}, {1, 4}};
    jobs[0].gradientBytes = 4.0 * 62 * 800;
    Ptr<InaGradientSync> bare = model(0);
    Ptr<InaGradientSync> skewed = model(500);
    const double window = 8;
    const double chunks = bare->ChunksPerIteration(jobs[0].gradientBytes);
    UintegerValue overhead;
    bare->GetAttribute("HeaderOverheadBytes", overhead);
    const double tx = (4.0 * bare->ValuesPerPacket() + overhead.Get()) * 8 / 100e9;
    std::vector<double> f;
    const double t0 = bare->RackSyncTimes(jobs, &f)[0];
    REQUIRE(f[0] == 0);
    const double rtt = t0 / (1 + (chunks - 1) / window);
    REQUIRE(rtt / window > 2 * tx); // the window binds
    const double interval = skewed->WindowInterval(rtt, window, tx, 8);
    const double expected = rtt + (chunks - 1) * interval + skewed->SkewSeconds(8, interval);
    const double t1 = skewed->RackSyncTimes(jobs, &f)[0];
    CAPTURE(t0, t1, expected, interval, rtt / window);
    REQUIRE(f[0] == 0);
    REQUIRE(interval > 1.2 * rtt / window); // the host delays matter here
    REQUIRE(t1 == Approx(expected).epsilon(1e-9));
}

TEST_CASE("INA rate level over racks: ATP keys split by skew at the ToRs stall the window", "[ina]")
{
    // 2 ATP jobs, 4 + 4 workers over 2 racks, 4 passes of the window per iteration, on 64
    // aggregators per switch, with 3 us of mean host jitter per packet: every pass has far more
    // than one expected split at its ToRs (the host spread of a rack's 4 packets, ~7.6 us,
    // exceeds the ToR's hold, and tens of the 256 slots collide per pass; a collision with the
    // other job, met at both ToRs on one index, splits a key once), so every pass stalls once
    // (1 - e^-splits = 1 to ~1e-8), and ATP pays each stall with the resend
    // timeout plus the resent chunk's round trip. So T = R + (C - 1) I + SkewSeconds(8, I) +
    // (C / K) (ResendTimeout + R) with I = WindowInterval(R, K, tx, 8) (the window binds), R
    // the cross-rack round trip, from a lone job on a roomy pool without jitter:
    // T0 = R + (C - 1) R / K.
    auto model = [](uint32_t pool, double jitterNs) {
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue("atp"));
        m->SetAttribute("PoolSize", UintegerValue(pool));
        m->SetAttribute("UplinkRate", DataRateValue(DataRate("400Gbps")));
        m->SetAttribute("PacketJitter", TimeValue(NanoSeconds(jitterNs)));
        return m;
    };
    Ptr<InaGradientSync> bare = model(20000, 0);
    Ptr<InaGradientSync> skewed = model(64, 3000);
    const double window = 256; // the Window attribute's default
    const double chunks = 4 * window;
    std::vector<InaRateJob> jobs(2);
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        jobs[j].workers = 8;
        jobs[j].racks = {{0, 4}, {1, 4}};
        jobs[j].gradientBytes = 4.0 * bare->ValuesPerPacket() * chunks;
        jobs[j].iterations = 2;
        jobs[j].id = j;
    }
    REQUIRE(bare->ChunksPerIteration(jobs[0].gradientBytes) == chunks);
    UintegerValue overhead;
    bare->GetAttribute("HeaderOverheadBytes", overhead);
    const double tx = (4.0 * bare->ValuesPerPacket() + overhead.Get()) * 8 / 100e9;
    TimeValue timeout;
    skewed->GetAttribute("ResendTimeout", timeout);
    std::vector<double> f;
    const double t0 = bare->RackSyncTimes({jobs[0]}, &f)[0];
    REQUIRE(f[0] == 0);
    const double rtt = t0 / (1 + (chunks - 1) / window);
    const double interval = skewed->WindowInterval(rtt, window, tx, 8);
    const double expected = rtt + (chunks - 1) * interval + skewed->SkewSeconds(8, interval) +
                            chunks / window * (timeout.Get().GetSeconds() + rtt);
    const std::vector<double> t = skewed->RackSyncTimes(jobs, &f);
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        CAPTURE(j, t[j], expected, f[j], rtt, interval, t0);
        REQUIRE(f[j] > 0); // the pool is contended
        REQUIRE(t[j] == Approx(expected).epsilon(1e-7));
    }
}

TEST_CASE("INA rate level over racks: ESA never rescues a key split against its own slot at a ToR",
          "[ina]")
{
    // A lone cross-rack job, 4 + 4 workers, with its 256 window slots over 64 aggregators per
    // switch: its own slots share indices (no de-duplication can separate them), and a key
    // split against its own slot at a ToR is never rescued (a job does not preempt itself),
    // so it waits the timeout and its resend, as under ATP. Alone, ESA and ATP then take the
    // same time (no other job: the same blocking, room and fallback), and the skew costs at
    // least one timeout.
    auto model = [](const std::string& policy, bool skew) {
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue(policy));
        m->SetAttribute("PoolSize", UintegerValue(64));
        m->SetAttribute("PacketJitter", TimeValue(NanoSeconds(skew ? 500 : 0)));
        m->SetAttribute("IterationJitter", TimeValue(MicroSeconds(skew ? 10 : 0)));
        return m;
    };
    std::vector<InaRateJob> jobs(1);
    jobs[0].workers = 8;
    jobs[0].racks = {{0, 4}, {1, 4}};
    jobs[0].gradientBytes = 4.0 * 62 * 400 * 4;
    jobs[0].iterations = 2;
    const double esa = model("esa", true)->RackSyncTimes(jobs)[0];
    const double atp = model("atp", true)->RackSyncTimes(jobs)[0];
    const double bare = model("esa", false)->RackSyncTimes(jobs)[0];
    TimeValue timeout;
    model("esa", true)->GetAttribute("ResendTimeout", timeout);
    CAPTURE(esa, atp, bare);
    REQUIRE(esa > bare + timeout.Get().GetSeconds());
    // (the same up to rounding, which the fixed points, solved to 1e-7, carry to ~1e-11)
    REQUIRE(esa == Approx(atp).epsilon(1e-9));
}

TEST_CASE("INA rate level over racks: a holder met at both ToRs splits a key once", "[ina]")
{
    // ATP addresses a chunk by the same index at every switch, so job A (4 + 4 workers over
    // racks 0 and 1) and a holder B over the same two racks collide at both ToRs at once,
    // and B's PS result frees the index at both: one collision, which splits A's key if the
    // release comes while A's packets still arrive at either ToR, i.e. within the range of
    // all 8 packets. Held against B over racks 0 and 2 (met at ToR 0 only, everything else
    // alike): without host jitter a key's packets span the range of its workers' iteration
    // starts, J (n - 1) / (n + 1): 3/5 J for a ToR's 4, 7/9 J for all 8. One pass per
    // iteration (C = K), so only the first window splits; 2e7 aggregators, so rarely that the
    // stalls do not feed back into the holdings (at 20000 the ratio is 1.19). ATP pays
    // 1 - e^-S episodes an iteration of ResendTimeout + R for S expected splits:
    // S(both ToRs) / S(one) = (7/9) / (3/5) = 35/27 (the ToRs counted as independent: 2).
    auto model = [](double jitterUs) {
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue("atp"));
        m->SetAttribute("PoolSize", UintegerValue(20000000));
        m->SetAttribute("PacketJitter", TimeValue(Seconds(0)));
        m->SetAttribute("IterationJitter", TimeValue(MicroSeconds(jitterUs)));
        return m;
    };
    const double window = 256; // the Window attribute's default
    const double chunks = window;
    auto job = [&](uint64_t id, uint32_t otherRack) {
        InaRateJob j;
        j.workers = 8;
        j.racks = {{0, 4}, {otherRack, 4}};
        j.gradientBytes = 4.0 * 62 * chunks;
        j.iterations = 2;
        j.id = id;
        return j;
    };
    Ptr<InaGradientSync> skewed = model(10);
    REQUIRE(skewed->ChunksPerIteration(job(0, 1).gradientBytes) == chunks);
    TimeValue timeout;
    skewed->GetAttribute("ResendTimeout", timeout);
    // R from a lone job without jitter: T0 = R + (C - 1) R / K (the window binds).
    const double t0 = model(0)->RackSyncTimes({job(0, 1)})[0];
    const double rtt = t0 / (1 + (chunks - 1) / window);
    const double alone = skewed->RackSyncTimes({job(0, 1)})[0]; // nothing to split against
    auto splits = [&](uint32_t holderRack) {
        std::vector<double> f;
        const double t = skewed->RackSyncTimes({job(0, 1), job(1, holderRack)}, &f)[0];
        CAPTURE(holderRack, t, alone, f[0]);
        REQUIRE(f[0] > 0);
        const double episodes = (t - alone) / (2 * (timeout.Get().GetSeconds() + rtt));
        REQUIRE(episodes > 0);
        REQUIRE(episodes < 0.5);
        return -std::log(1 - episodes);
    };
    const double both = splits(1);
    const double one = splits(2);
    CAPTURE(both, one, rtt, alone, t0);

    REQUIRE(both / one == Approx(35.0 / 27).epsilon(0.005));
}

TEST_CASE("INA rate level over racks: ESA stalls at the ToRs outlive the holder that would "
          "rescue them",
          "[ina]")
{
    // doc/ina.md ("Stalls that outlive their rescuer"), at the ToRs: two cross-rack ESA jobs,
    // 4 + 4 workers each. Job 1's keys split at a ToR against the last use of job 0's slot
    // (job 0 has the higher priority and a single pass: 200 chunks in a window of 256) wait
    // for job 0's next iteration; when job 0 leaves, they wait for the ResendTimeout T instead,
    // once for all of them: departure[1][0] = (1 - e^-N) (T - cycle0), N the keys split in job
    // 0's last window, which does not depend on T. So three timeouts lie on one line whose
    // slope is in (0, 1) and whose root, cycle0, is job 0's iteration without the start skew:
    // at least its line-rate cycle, at most its whole iteration time.
    auto model = [](Time timeout) {
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue("esa"));
        m->SetAttribute("PoolSize", UintegerValue(256));
        m->SetAttribute("Window", UintegerValue(256));
        m->SetAttribute("IterationJitter", TimeValue(MicroSeconds(10)));
        m->SetAttribute("PacketJitter", TimeValue(NanoSeconds(50)));
        m->SetAttribute("ResendTimeout", TimeValue(timeout));
        return m;
    };
    auto jobsIn = [](const std::vector<std::pair<uint32_t, uint32_t>>& racks) {
        std::vector<InaRateJob> jobs(2);
        for (size_t j = 0; j < 2; ++j)
        {
            jobs[j].id = j;
            jobs[j].workers = 8;
            jobs[j].racks = racks;
            jobs[j].iterations = 2;
            jobs[j].priorityKey = j + 1;
            jobs[j].gradientBytes = 4.0 * 62 * (j == 0 ? 200 : 2000);
        }
        return jobs;
    };
    const std::vector<InaRateJob> cross = jobsIn({{0, 4}, {1, 4}});
    const std::vector<double> timeouts{200e-6, 400e-6, 600e-6};
    std::vector<double> d;
    std::vector<double> iteration0;
    for (double t : timeouts)
    {
        std::vector<std::vector<double>> departure;
        iteration0.push_back(
            model(Seconds(t))->RackSyncTimes(cross, nullptr, nullptr, &departure)[0]);
        REQUIRE(departure.size() == 2);
        CHECK(departure[0][1] == 0); // the highest priority is never split against job 1
        CHECK(departure[0][0] == 0);
        CHECK(departure[1][1] == 0);
        d.push_back(departure[1][0]);
    }
    CAPTURE(d[0], d[1], d[2], iteration0[0]);
    REQUIRE(d[0] > 0);
    const double slope = (d[1] - d[0]) / (timeouts[1] - timeouts[0]);
    CHECK((d[2] - d[1]) / (timeouts[2] - timeouts[1]) == Approx(slope).epsilon(1e-9));
    REQUIRE(slope > 0);
    REQUIRE(slope < 1);
    const double cycle0 = timeouts[0] - d[0] / slope;
    const double tx = (4 * 62 + 60) * 8 / 100e9;
    CAPTURE(cycle0);
    CHECK(cycle0 > 199 * tx);
    CHECK(cycle0 < iteration0[0]);

    // Both jobs in rack 0 alone: its ToR is a single switch, and the stalls are
    // DepartureStalls' bit for bit.
    const std::vector<InaRateJob> local = jobsIn({{0, 8}});
    std::vector<std::vector<double>> departure;
    model(MicroSeconds(200))->RackSyncTimes(local, nullptr, nullptr, &departure);
    const std::vector<std::vector<double>> single =
        model(MicroSeconds(200))->DepartureStalls(local);
    REQUIRE(single[1][0] > 0);
    CHECK(departure == single);
}
