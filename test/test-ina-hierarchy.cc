/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Two-level (ToR, then spine) in-network aggregation of jobs that span racks: exact sums
// under every policy, contention, preemption, overflow and loss; uplink traffic and iteration
// time against the spine-only mode.

#include "ns3/core-module.h"
#include "ns3/ina-helper.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

struct TierConfig
{
    std::string policy{"atp"};
    uint32_t racks{2};
    std::vector<std::vector<uint32_t>> jobs{{0, 0, 1, 1}}; //!< per job: rack of each worker
    uint64_t values{62 * 60};
    uint32_t iterations{2};
    uint32_t pool{20000};
    uint32_t window{16};
    double loss{0};
    double outlierProb{0};
    bool hierarchical{true};
    std::string uplink{"400Gbps"};
    Time jitter{Seconds(0)}; //!< InaWorker::IterationJitter (stragglers)
    uint64_t seed{1};
};

struct TierOutput
{
    std::vector<InaJobResult> jobs;
    std::vector<InaSwitchStats> tors;
    InaSwitchStats spine;
    uint64_t chunks{0}; //!< chunks per iteration of each job
};

TierOutput
RunTier(const TierConfig& cfg)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(cfg.seed);
    InaHelper h;
    h.SetPolicy(cfg.policy);
    h.SetRacks(cfg.racks, DataRate(cfg.uplink));
    h.SetHierarchical(cfg.hierarchical);
    h.SetSwitchAttribute("PoolSize", UintegerValue(cfg.pool));
    h.SetWindow(cfg.window);
    h.SetLossRate(cfg.loss);
    h.SetWorkerAttribute("Seed", UintegerValue(cfg.seed));
    h.SetWorkerAttribute("OutlierProbability", DoubleValue(cfg.outlierProb));
    h.SetWorkerAttribute("IterationJitter", TimeValue(cfg.jitter));
    for (const auto& racks : cfg.jobs)
    {
        InaJobSpec s;
        s.workers = static_cast<uint32_t>(racks.size());
        s.workerRacks = racks;
        s.gradientValues = cfg.values;
        s.iterations = cfg.iterations;
        h.AddJob(s);
    }
    h.Install();
    h.AssignStreams(7);
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    TierOutput out;
    for (uint32_t j = 0; j < h.GetNJobs(); ++j)
    {
        out.jobs.push_back(h.GetResult(j));
    }
    std::vector<Ptr<InaSwitch>> sw = h.GetSwitches();
    for (uint32_t r = 0; r < cfg.racks; ++r)
    {
        out.tors.push_back(sw[r]->GetStats());
    }
    out.spine = sw.back()->GetStats();
    out.chunks = (cfg.values + h.GetValuesPerPacket() - 1) / h.GetValuesPerPacket();
    Simulator::Destroy();
    return out;
}

void
RequireExact(const TierConfig& cfg, const TierOutput& out)
{
    for (uint32_t j = 0; j < out.jobs.size(); ++j)
    {
        const InaJobResult& r = out.jobs[j];
        INFO("job " << j);
        REQUIRE(r.iterationsDone == cfg.iterations);
        // Every worker checked every value of every iteration against the exact float sum.
        REQUIRE(r.valuesChecked == cfg.jobs[j].size() * cfg.iterations * cfg.values);
        REQUIRE(r.valuesWrong == 0);
        REQUIRE(r.maxErrorRatio <= 1.0);
    }
}

uint64_t
Sum(const std::vector<InaSwitchStats>& s, uint64_t InaSwitchStats::*field)
{
    uint64_t n = 0;
    for (const auto& x : s)
    {
        n += x.*field;
    }
    return n;
}

} // namespace

TEST_CASE("INA two-level: exact sums under every policy, contention, overflow and loss", "[ina]")
{
    struct Scenario
    {
        uint32_t racks;
        std::vector<std::vector<uint32_t>> jobs;
        uint32_t pool;
        double loss;
        double outliers;
    };

    const std::vector<Scenario> scenarios = {
        // one job over 2 racks, roomy pool
        {2, {{0, 0, 1, 1}}, 20000, 0, 0},
        // 3 racks, 3 jobs (two cross-rack, one local to rack 1), small pool, 1% loss
        {3, {{0, 1, 2, 0, 1, 2}, {0, 0, 2, 2, 2}, {1, 1, 1}}, 24, 0.01, 0},
        // 2 racks, 2 cross-rack jobs, tiny pool, overflow chunks
        {2, {{0, 1, 0, 1}, {1, 0, 1, 1, 0}}, 12, 0, 0.002},
        // 3 racks, 2 cross-rack jobs, roomy pool, 1% loss and overflow
        {3, {{0, 1, 2}, {2, 1, 1, 0}}, 20000, 0.01, 0.002},
    };
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        for (uint32_t i = 0; i < scenarios.size(); ++i)
        {
            const Scenario& sc = scenarios[i];
            INFO(policy << " scenario " << i);
            TierConfig cfg;
            cfg.policy = policy;
            cfg.racks = sc.racks;
            cfg.jobs = sc.jobs;
            cfg.pool = sc.pool;
            cfg.loss = sc.loss;
            cfg.outlierProb = sc.outliers;
            TierOutput out = RunTier(cfg);
            RequireExact(cfg, out);
            const uint64_t partials = Sum(out.tors, &InaSwitchStats::partials);
            const uint64_t torCollisions = Sum(out.tors, &InaSwitchStats::collisions);
            const uint64_t torPreemptions = Sum(out.tors, &InaSwitchStats::preemptions);
            uint64_t resends = 0;
            uint64_t overflow = 0;
            for (const auto& r : out.jobs)
            {
                resends += r.resends;
                overflow += r.overflowChunks;
            }
            CAPTURE(partials,
                    torCollisions,
                    torPreemptions,
                    out.spine.collisions,
                    out.spine.preemptions,
                    out.spine.bypassed,
                    out.spine.completions,
                    resends,
                    overflow);
            REQUIRE(partials > 0);              // the ToRs aggregated the cross-rack jobs
            REQUIRE(out.spine.completions > 0); // and the spine aggregated their partials
            if (sc.loss > 0)
            {
                REQUIRE(resends > 0);
            }
            if (sc.outliers > 0)
            {
                REQUIRE(overflow > 0);
                REQUIRE(out.spine.bypassed > 0); // overflow chunks reach the PS past the spine
            }
            if (sc.pool < 100 && policy == "atp")
            {
                REQUIRE(torCollisions + out.spine.collisions > 0);
            }
            if (sc.pool < 100 && policy == "esa")
            {
                REQUIRE(torPreemptions + out.spine.preemptions > 0);
            }
        }
    }
}

TEST_CASE("INA two-level: one partial per chunk and rack crosses the uplink", "[ina]")
{
    // Uneven racks: 3, 2 and 1 workers of one job.
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        INFO(policy);
        TierConfig cfg;
        cfg.policy = policy;
        cfg.racks = 3;
        cfg.jobs = {{0, 0, 0, 1, 1, 2}};
        cfg.hierarchical = false;
        TierOutput spineOnly = RunTier(cfg);
        cfg.hierarchical = true;
        TierOutput twoLevel = RunTier(cfg);
        RequireExact(cfg, spineOnly);
        RequireExact(cfg, twoLevel);
        const uint64_t chunks = twoLevel.chunks * cfg.iterations;
        // Nothing fell back: no collision, resend or bypass anywhere.
        REQUIRE(Sum(twoLevel.tors, &InaSwitchStats::fallbackPackets) == 0);
        REQUIRE(twoLevel.spine.bypassed == 0);
        REQUIRE(twoLevel.jobs[0].resends == 0);
        const std::vector<uint64_t> local = {3, 2, 1};
        for (uint32_t r = 0; r < cfg.racks; ++r)
        {
            INFO("rack " << r);
            // Spine-only: every worker packet goes up; two-level: one partial per chunk.
            REQUIRE(spineOnly.tors[r].upPackets == local[r] * chunks);
            REQUIRE(twoLevel.tors[r].upPackets == chunks);
            REQUIRE(twoLevel.tors[r].partials == chunks);
            REQUIRE(spineOnly.tors[r].upBytes == local[r] * twoLevel.tors[r].upBytes);
        }
    }
}

TEST_CASE("INA two-level: a cross-rack job is faster when the uplink is the bottleneck", "[ina]")
{
    // 2 racks x 4 workers, every link 100 Gbps: spine-only sends 4 worker packets per chunk
    // over each uplink, two-level one partial.
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        INFO(policy);
        TierConfig cfg;
        cfg.policy = policy;
        cfg.jobs = {{0, 0, 0, 0, 1, 1, 1, 1}};
        cfg.values = 62 * 2000;
        cfg.iterations = 1;
        cfg.window = 256;
        cfg.uplink = "100Gbps";
        cfg.hierarchical = false;
        TierOutput spineOnly = RunTier(cfg);
        cfg.hierarchical = true;
        TierOutput twoLevel = RunTier(cfg);
        RequireExact(cfg, spineOnly);
        RequireExact(cfg, twoLevel);
        const double values = policy == "switchml" ? 64 : 62;
        const double tx = (4 * values + 60) * 8 / 100e9; // one packet on a 100 Gbps link
        const double uplinkBound = 4 * static_cast<double>(twoLevel.chunks) * tx;
        const double tSpine = spineOnly.jobs[0].meanIterationTime;
        const double tTwo = twoLevel.jobs[0].meanIterationTime;
        CAPTURE(tSpine, tTwo, uplinkBound);
        // Spine-only cannot beat its uplink's 4 packets per chunk; two-level beats that bound.
        REQUIRE(tSpine >= uplinkBound);
        REQUIRE(tTwo < uplinkBound);
        REQUIRE(tTwo >= static_cast<double>(twoLevel.chunks) * tx);
    }
}

TEST_CASE("INA two-level: spine-only mode still aggregates cross-rack jobs at the spine only",
          "[ina]")
{
    TierConfig cfg;
    cfg.hierarchical = false;
    cfg.jobs = {{0, 1, 0, 1}};
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        INFO(policy);
        cfg.policy = policy;
        TierOutput out = RunTier(cfg);
        RequireExact(cfg, out);
        REQUIRE(Sum(out.tors, &InaSwitchStats::completions) == 0);
        REQUIRE(Sum(out.tors, &InaSwitchStats::partials) == 0);
        REQUIRE(out.spine.completions == out.chunks * cfg.iterations);
    }
}

TEST_CASE("INA two-level: exact sums over many seeds (stress)", "[.ina-stress]")
{
    // 3 jobs (two or three of them cross-rack) on 2 or 3 racks, tiny to roomy pools, up to 5%
    // loss, stragglers and overflow, both modes: every value of every iteration exact.
    uint64_t runs = 0;
    uint64_t bad = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed)
    {
        for (std::string policy : {"atp", "switchml", "esa"})
        {
            for (double loss : {0.0, 0.02, 0.05})
            {
                for (uint32_t pool : {8u, 30u, 20000u})
                {
                    for (bool twoLevel : {true, false})
                    {
                        TierConfig cfg;
                        cfg.policy = policy;
                        cfg.seed = seed;
                        cfg.racks = 2 + seed % 2;
                        cfg.jobs = cfg.racks == 2
                                       ? std::vector<std::vector<uint32_t>>{{0, 1, 0, 1, 1},
                                                                            {1, 0, 0},
                                                                            {0, 0}}
                                       : std::vector<std::vector<uint32_t>>{{0, 1, 2, 2},
                                                                            {2, 1, 0, 1, 2},
                                                                            {1, 2}};
                        cfg.values = 62 * 30;
                        cfg.iterations = 3;
                        cfg.pool = pool;
                        cfg.loss = loss;
                        cfg.outlierProb = seed % 3 == 0 ? 0.003 : 0;
                        cfg.jitter = MicroSeconds(3 * (seed % 4));
                        cfg.hierarchical = twoLevel;
                        TierOutput out = RunTier(cfg);
                        ++runs;
                        for (uint32_t j = 0; j < out.jobs.size(); ++j)
                        {
                            const InaJobResult& r = out.jobs[j];
                            if (r.iterationsDone != cfg.iterations || r.valuesWrong != 0 ||
                                r.valuesChecked != cfg.jobs[j].size() * cfg.iterations * cfg.values)
                            {
                                ++bad;
                                WARN(policy << " seed " << seed << " loss " << loss << " pool "
                                            << pool << " two-level " << twoLevel << " job " << j
                                            << ": iterations " << r.iterationsDone << ", wrong "
                                            << r.valuesWrong);
                            }
                        }
                    }
                }
            }
        }
    }
    CAPTURE(runs);
    REQUIRE(bad == 0);
}
