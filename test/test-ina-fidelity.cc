/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// INA fidelity: what the policies do as their public code does it, and what the reports mean.

#include "ns3/core-module.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/ina-helper.h"

#include <catch2/catch.hpp>
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
