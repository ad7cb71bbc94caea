/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Packet-level INA: header round trip, exact sums under every policy, contention,
// preemption, loss and overflow.

#include "ns3/core-module.h"
#include "ns3/ina-header.h"
#include "ns3/ina-helper.h"
#include "ns3/packet.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

struct RunConfig
{
    std::string policy{"atp"};
    uint32_t jobs{2};
    uint32_t workers{4};
    uint64_t values{62 * 40};
    uint32_t iterations{2};
    uint32_t pool{20000};
    uint32_t window{16};
    double loss{0};
    double outlierProb{0};
    uint64_t seed{1};
};

struct RunOutput
{
    std::vector<InaJobResult> jobs;
    InaSwitchStats sw;
};

RunOutput
Run(const RunConfig& cfg, const std::vector<InaJobSpec>& customJobs = {})
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(cfg.seed);
    InaHelper helper;
    helper.SetPolicy(cfg.policy);
    helper.SetSwitchAttribute("PoolSize", UintegerValue(cfg.pool));
    helper.SetWindow(cfg.window);
    helper.SetLossRate(cfg.loss);
    helper.SetWorkerAttribute("Seed", UintegerValue(cfg.seed));
    helper.SetWorkerAttribute("OutlierProbability", DoubleValue(cfg.outlierProb));
    if (customJobs.empty())
    {
        for (uint32_t j = 0; j < cfg.jobs; ++j)
        {
            InaJobSpec s;
            s.workers = cfg.workers;
            s.gradientValues = cfg.values;
            s.iterations = cfg.iterations;
            helper.AddJob(s);
        }
    }
    else
    {
        for (const auto& s : customJobs)
        {
            helper.AddJob(s);
        }
    }
    helper.Install();
    helper.AssignStreams(100);
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    RunOutput out;
    for (uint32_t j = 0; j < helper.GetNJobs(); ++j)
    {
        out.jobs.push_back(helper.GetResult(j));
    }
    out.sw = helper.GetSwitch()->GetStats();
    Simulator::Destroy();
    return out;
}

void
RequireExact(const RunOutput& out, uint32_t iterations)
{
    for (const auto& r : out.jobs)
    {
        REQUIRE(r.iterationsDone == iterations);
        REQUIRE(r.jct > 0);
        REQUIRE(r.valuesChecked > 0);
        REQUIRE(r.valuesWrong == 0);
        REQUIRE(r.maxErrorRatio <= 1.0);
    }
}

} // namespace

TEST_CASE("InaHeader serializes and deserializes every field", "[ina]")
{
    InaHeader h;
    h.type = InaHeader::TYPE_INA;
    h.src = 7;
    h.dst = InaHeader::MULTICAST_JOB;
    h.job = 513;
    h.seq = 0xdeadbeef;
    h.worker = 31;
    h.fanIn = 32;
    h.bitmap = 0x80000001;
    h.aggIndex = 19999;
    h.remap = 12345;
    h.priority = 0xfffffffe;
    h.flags = InaHeader::FLAG_RESEND | InaHeader::FLAG_EVICTED;
    h.values = {0, -1, 2147483647, -2147483647 - 1, 42};
    Ptr<Packet> p = Create<Packet>(10);
    p->AddHeader(h);
    REQUIRE(p->GetSize() == 10 + InaHeader::FixedSize() + 5 * 4);
    InaHeader g;
    p->RemoveHeader(g);
    REQUIRE(g.src == 7);
    REQUIRE(g.dst == InaHeader::MULTICAST_JOB);
    REQUIRE(g.job == 513);
    REQUIRE(g.seq == 0xdeadbeef);
    REQUIRE(g.worker == 31);
    REQUIRE(g.fanIn == 32);
    REQUIRE(g.bitmap == 0x80000001);
    REQUIRE(g.aggIndex == 19999);
    REQUIRE(g.remap == 12345);
    REQUIRE(g.priority == 0xfffffffe);
    REQUIRE(g.Has(InaHeader::FLAG_RESEND));
    REQUIRE(g.Has(InaHeader::FLAG_EVICTED));
    REQUIRE_FALSE(g.Has(InaHeader::FLAG_COLLISION));
    REQUIRE(g.values == h.values);
    REQUIRE(p->GetSize() == 10);
}

TEST_CASE("INA sums are exact for every policy with a roomy pool", "[ina]")
{
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        INFO(policy);
        RunConfig cfg;
        cfg.policy = policy;
        RunOutput out = Run(cfg);
        RequireExact(out, cfg.iterations);
        REQUIRE(out.sw.completions > 0);
        REQUIRE(out.sw.preemptions == 0);
    }
}

TEST_CASE("INA sums stay exact under pool contention, preemption, loss and overflow", "[ina]")
{
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        for (double loss : {0.0, 0.01})
        {
            INFO(policy << " loss " << loss);
            RunConfig cfg;
            cfg.policy = policy;
            cfg.jobs = 4;
            cfg.workers = 4;
            cfg.pool = 24; // far fewer aggregators than the 4 x 16 outstanding chunks
            cfg.loss = loss;
            cfg.outlierProb = 0.002;
            RunOutput out = Run(cfg);
            RequireExact(out, cfg.iterations);
            uint64_t overflow = 0;
            uint64_t resends = 0;
            for (const auto& r : out.jobs)
            {
                overflow += r.overflowChunks;
                resends += r.resends;
            }
            CAPTURE(out.sw.collisions, out.sw.preemptions, out.sw.flushes, overflow, resends);
            REQUIRE(overflow > 0);
            if (loss > 0)
            {
                REQUIRE(resends > 0);
            }
            if (policy == "atp")
            {
                REQUIRE(out.sw.collisions > 0);
            }
            if (policy == "esa")
            {
                REQUIRE(out.sw.preemptions > 0);
            }
        }
    }
}

TEST_CASE("INA racks: in-rack jobs aggregate at their ToR, cross-rack jobs at their ToRs "
          "and the spine",
          "[ina]")
{
    for (std::string policy : {"atp", "switchml", "esa"})
    {
        for (double loss : {0.0, 0.005})
        {
            INFO(policy << " loss " << loss);
            RngSeedManager::SetSeed(1);
            RngSeedManager::SetRun(5);
            InaHelper h;
            h.SetPolicy(policy);
            h.SetRacks(2);
            h.SetSwitchAttribute("PoolSize", UintegerValue(64));
            h.SetWindow(32);
            h.SetLossRate(loss);
            InaJobSpec a;
            a.workers = 4;
            a.gradientValues = 62 * 100;
            a.iterations = 2;
            a.workerRacks = {0, 0, 0, 0};
            InaJobSpec b = a;
            b.workerRacks = {1, 1, 1, 1};
            InaJobSpec c = a;
            c.workers = 5;
            c.workerRacks = {0, 1, 0, 1, 1};
            h.AddJob(a);
            h.AddJob(b);
            h.AddJob(c);
            h.Install();
            h.AssignStreams(3);
            Simulator::Stop(Seconds(10));
            Simulator::Run();
            for (uint32_t j = 0; j < 3; ++j)
            {
                InaJobResult r = h.GetResult(j);
                REQUIRE(r.iterationsDone == 2);
                REQUIRE(r.valuesWrong == 0);
                REQUIRE(r.valuesChecked == h.GetJobSpec(j).workers * 2ull * 62 * 100);
            }
            std::vector<Ptr<InaSwitch>> sw = h.GetSwitches();
            REQUIRE(sw.size() == 3);
            REQUIRE(sw[0]->GetStats().completions > 0); // job 0 at ToR 0
            REQUIRE(sw[1]->GetStats().completions > 0); // job 1 at ToR 1
            REQUIRE(sw[0]->GetStats().partials > 0);    // job 2 first at both ToRs,
            REQUIRE(sw[1]->GetStats().partials > 0);
            REQUIRE(sw[2]->GetStats().completions > 0); // then at the spine
            REQUIRE(h.GetSwitch() == sw[2]);
            Simulator::Destroy();
        }
    }
    InaHelper bad;
    bad.SetRacks(2);
    InaJobSpec s;
    s.workers = 2;
    s.gradientValues = 10;
    s.workerRacks = {0, 2};
    bad.AddJob(s);
    REQUIRE_THROWS_WITH(bad.Install(), Catch::Contains("rack 2") && Catch::Contains("0 to 1"));
    Simulator::Destroy();
}
