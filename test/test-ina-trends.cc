/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Packet-level INA trends the mechanisms must produce (never tuned): equal sync time with
// a roomy pool, ESA ahead of ATP as the pool shrinks under contention, a lone job never
// slower under ESA, evicted partial sums never lost, priority rules honoured.

#include "ns3/core-module.h"
#include "ns3/ina-atp-policy.h"
#include "ns3/ina-esa-policy.h"
#include "ns3/ina-helper.h"
#include "ns3/ina-switchml-policy.h"

#include <catch2/catch.hpp>
#include <numeric>

using namespace ns3;

namespace
{

struct Outcome
{
    std::vector<InaJobResult> jobs;
    InaSwitchStats sw;

    double AvgJct() const
    {
        double s = 0;
        for (const auto& j : jobs)
        {
            s += j.jct;
        }
        return s / jobs.size();
    }
};

/// Jobs of different gradient sizes (a small model mix) sharing one switch.
Outcome
RunMix(const std::string& policy,
       uint32_t pool,
       uint32_t jobs,
       uint32_t workers,
       double loss = 0,
       uint64_t sizeFactor = 1)
{
    const uint64_t sizes[] = {62 * 150 * sizeFactor,
                              62 * 600 * sizeFactor,
                              62 * 300 * sizeFactor,
                              62 * 450 * sizeFactor};
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(3);
    InaHelper h;
    h.SetPolicy(policy);
    h.SetSwitchAttribute("PoolSize", UintegerValue(pool));
    h.SetWindow(256);
    h.SetLossRate(loss);
    for (uint32_t j = 0; j < jobs; ++j)
    {
        InaJobSpec s;
        s.workers = workers;
        s.gradientValues = sizes[j % 4];
        s.iterations = 2;
        h.AddJob(s);
    }
    h.Install();
    h.AssignStreams(7);
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    Outcome o;
    for (uint32_t j = 0; j < jobs; ++j)
    {
        o.jobs.push_back(h.GetResult(j));
        REQUIRE(o.jobs.back().iterationsDone == 2);
        REQUIRE(o.jobs.back().valuesWrong == 0);
        REQUIRE(o.jobs.back().valuesChecked > 0);
    }
    o.sw = h.GetSwitch()->GetStats();
    Simulator::Destroy();
    return o;
}

} // namespace

TEST_CASE("INA: with a pool large enough for every job all policies sync alike", "[ina]")
{
    // Gradients of 0.6 to 2.2 MB: bandwidth-bound, as real models are.
    double sml = RunMix("switchml", 1 << 20, 3, 4, 0, 6).AvgJct();
    double atp = RunMix("atp", 1 << 20, 3, 4, 0, 6).AvgJct();
    double esa = RunMix("esa", 1 << 20, 3, 4, 0, 6).AvgJct();
    CAPTURE(sml, atp, esa);
    // What remains is latency: ATP and ESA return each result via the PS (two more hops
    // per chunk, visible at the end of every iteration) and carry 62 instead of 64 values.
    REQUIRE(atp == Approx(sml).epsilon(0.10));
    REQUIRE(esa == Approx(atp).epsilon(0.01));
}

TEST_CASE("INA: as the pool shrinks under contention ESA's average JCT beats ATP's", "[ina]")
{
    double prevGain = 0;
    for (uint32_t pool : {8192u, 512u, 256u})
    {
        Outcome atp = RunMix("atp", pool, 4, 4);
        Outcome esa = RunMix("esa", pool, 4, 4);
        double gain = atp.AvgJct() / esa.AvgJct();
        CAPTURE(pool, atp.AvgJct(), esa.AvgJct(), gain, esa.sw.preemptions, atp.sw.collisions);
        if (pool <= 512)
        {
            REQUIRE(esa.AvgJct() < atp.AvgJct());
            REQUIRE(esa.sw.preemptions > 0);
            REQUIRE(gain > prevGain * 0.95); // contention only helps ESA's case
        }
        prevGain = gain;
    }
}

TEST_CASE("INA: a job alone is never slower under ESA than under ATP", "[ina]")
{
    for (uint32_t pool : {32u, 256u, 20000u})
    {
        for (double loss : {0.0, 0.005})
        {
            Outcome atp = RunMix("atp", pool, 1, 8, loss);
            Outcome esa = RunMix("esa", pool, 1, 8, loss);
            CAPTURE(pool, loss, atp.AvgJct(), esa.AvgJct());
            REQUIRE(esa.AvgJct() <= atp.AvgJct());
            REQUIRE(esa.sw.preemptions == 0);
        }
    }
}

TEST_CASE("INA ESA: an evicted partial aggregate is completed by its PS, never lost", "[ina]")
{
    // Job 0's worker 3 starts late, so job 0's aggregators hold partial sums when the
    // statically more important job 1 arrives and takes them.
    auto stagger = [](InaHelper& h) {
        h.SetPolicyAttribute("PriorityRule", StringValue("Static"));
        h.SetPolicyAttribute("AgeingStep", UintegerValue(0));
    };
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    InaHelper h;
    h.SetPolicy("esa");
    h.SetSwitchAttribute("PoolSize", UintegerValue(8));
    h.SetWindow(8);
    stagger(h);
    InaJobSpec low;
    low.workers = 4;
    low.gradientValues = 62 * 64;
    low.iterations = 2;
    low.priority = 1;
    InaJobSpec high = low;
    high.priority = 10;
    high.startTime = MicroSeconds(1);
    h.AddJob(low);
    h.AddJob(high);
    h.Install();
    h.GetWorkers(0)[3]->SetStartTime(MicroSeconds(3));
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    InaJobResult r0 = h.GetResult(0);
    InaJobResult r1 = h.GetResult(1);
    InaSwitchStats st = h.GetSwitch()->GetStats();
    CAPTURE(st.preemptions, st.evictedPartials, r0.psEvicted, r0.jct, r1.jct);
    REQUIRE(st.evictedPartials > 0);
    REQUIRE(r0.psEvicted == st.evictedPartials);
    for (const auto& r : {r0, r1})
    {
        REQUIRE(r.iterationsDone == 2);
        REQUIRE(r.valuesWrong == 0);
        REQUIRE(r.valuesChecked == 4ull * 2 * 62 * 64);
    }
    Simulator::Destroy();
}

TEST_CASE("INA ESA: under a static rule the more important job finishes first", "[ina]")
{
    auto run = [](uint32_t prio0, uint32_t prio1) {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        InaHelper h;
        h.SetPolicy("esa");
        h.SetSwitchAttribute("PoolSize", UintegerValue(48));
        h.SetWindow(64);
        h.SetPolicyAttribute("PriorityRule", StringValue("Static"));
        h.SetPolicyAttribute("AgeingStep", UintegerValue(0));
        for (uint32_t prio : {prio0, prio1})
        {
            InaJobSpec s;
            s.workers = 4;
            s.gradientValues = 62 * 400;
            s.iterations = 2;
            s.priority = prio;
            h.AddJob(s);
        }
        h.Install();
        Simulator::Run();
        std::pair<double, double> jct{h.GetResult(0).jct, h.GetResult(1).jct};
        Simulator::Destroy();
        return jct;
    };
    auto a = run(10, 1);
    auto b = run(1, 10);
    CAPTURE(a.first, a.second, b.first, b.second);
    REQUIRE(a.first < a.second);
    REQUIRE(b.second < b.first);
}

TEST_CASE("INA ESA priority rules and ageing", "[ina]")
{
    Ptr<EsaPolicy> esa = CreateObject<EsaPolicy>();
    InaJobProgress shortJob;
    shortJob.remainingChunks = 10;
    shortJob.attainedChunks = 500;
    InaJobProgress longJob;
    longJob.remainingChunks = 1000;
    longJob.attainedChunks = 5;
    REQUIRE(esa->Priority(shortJob) > esa->Priority(longJob)); // default: shortest remaining
    esa->SetAttribute("PriorityRule", StringValue("LeastAttained"));
    REQUIRE(esa->Priority(longJob) > esa->Priority(shortJob));
    esa->SetAttribute("PriorityRule", StringValue("Static"));
    shortJob.staticPriority = 3;
    longJob.staticPriority = 4;
    REQUIRE(esa->Priority(longJob) > esa->Priority(shortJob));
    // Ageing: enough consecutive fallbacks lift the starved job above the other one.
    esa->SetAttribute("AgeingStep", UintegerValue(1));
    shortJob.fallbackStreak = 2;
    REQUIRE(esa->Priority(shortJob) > esa->Priority(longJob));

    InaAggregator held;
    held.inUse = true;
    held.job = 1;
    held.priority = 5;
    InaHeader pkt;
    pkt.job = 2;
    pkt.priority = 6;
    REQUIRE(esa->Decide(held, pkt) == InaAllocationPolicy::PREEMPT);
    pkt.priority = 5;
    REQUIRE(esa->Decide(held, pkt) == InaAllocationPolicy::COLLIDE);
    pkt.job = 1;
    pkt.priority = 99;
    REQUIRE(esa->Decide(held, pkt) == InaAllocationPolicy::COLLIDE); // never its own job
    Ptr<AtpPolicy> atp = CreateObject<AtpPolicy>();
    pkt.job = 2;
    REQUIRE(atp->Decide(held, pkt) == InaAllocationPolicy::COLLIDE);
    held.inUse = false;
    REQUIRE(atp->Decide(held, pkt) == InaAllocationPolicy::ALLOCATE);

    REQUIRE_THROWS_WITH(InaAllocationPolicy::Create("fifo"),
                        Catch::Contains("fifo") && Catch::Contains("switchml, atp or esa"));
    InaHelper helper;
    REQUIRE_THROWS_WITH(helper.SetPolicy("nope"), Catch::Contains("nope"));
    InaJobSpec bad;
    bad.workers = 33;
    bad.gradientValues = 10;
    REQUIRE_THROWS_WITH(helper.AddJob(bad), Catch::Contains("33 workers"));
}

TEST_CASE("INA ESA: a priority holds for a whole iteration and ties go to the lower job id",
          "[ina]")
{
    Ptr<EsaPolicy> esa = CreateObject<EsaPolicy>();
    InaJobProgress a;
    a.chunksPerIteration = 100;
    a.remainingChunks = 250; // mid-iteration: counted as the 300 left at its start
    InaJobProgress b = a;
    b.remainingChunks = 201;
    REQUIRE(esa->Priority(a) == esa->Priority(b));
    b.remainingChunks = 200; // the next iteration has started
    REQUIRE(esa->Priority(b) > esa->Priority(a));
    esa->SetAttribute("PriorityQuantum", StringValue("Chunk"));
    b.remainingChunks = 249;
    REQUIRE(esa->Priority(b) > esa->Priority(a));

    InaAggregator held;
    held.inUse = true;
    held.job = 3;
    held.priority = 7;
    InaHeader pkt;
    pkt.priority = 7;
    pkt.job = 1;
    REQUIRE(esa->Decide(held, pkt) == InaAllocationPolicy::PREEMPT);
    pkt.job = 5;
    REQUIRE(esa->Decide(held, pkt) == InaAllocationPolicy::COLLIDE);

    // 8 jobs x 8 workers on 1024 aggregators; jobs 0, 3, 6 and jobs 1, 4, 7 have equal sizes.
    // One consistent order among equals (as SRPT serves one of two equal jobs first): they
    // finish in id order, and nothing is lost.
    RngSeedManager::SetSeed(1);
    InaHelper h;
    h.SetPolicy("esa");
    h.SetSwitchAttribute("PoolSize", UintegerValue(1024));
    for (uint32_t j = 0; j < 8; ++j)
    {
        InaJobSpec spec;
        spec.workers = 8;
        spec.gradientValues = 62 * 400 * (1 + j % 3);
        spec.iterations = 2;
        h.AddJob(spec);
    }
    h.Install();
    Simulator::Run();
    for (uint32_t j = 0; j < 8; ++j)
    {
        REQUIRE(h.GetResult(j).valuesWrong == 0);
        REQUIRE(h.GetResult(j).valuesChecked > 0);
    }
    CHECK(h.GetResult(0).jct < h.GetResult(3).jct);
    CHECK(h.GetResult(3).jct < h.GetResult(6).jct);
    CHECK(h.GetResult(1).jct < h.GetResult(4).jct);
    CHECK(h.GetResult(4).jct < h.GetResult(7).jct);
    Simulator::Destroy();
}

TEST_CASE("INA SwitchML partitions the pool statically and reuses shadow copies", "[ina]")
{
    Ptr<SwitchMlPolicy> sml = CreateObject<SwitchMlPolicy>();
    InaJobSlots s0 = sml->Layout(100, 4, 0, 1000);
    InaJobSlots s3 = sml->Layout(100, 4, 3, 1000);
    REQUIRE(s0.window == 12); // 25 aggregators, two per slot
    REQUIRE(s3.partitionBase == 75);
    REQUIRE(sml->InitialIndex(0, 0, s3) == 75);
    REQUIRE(sml->InitialIndex(0, 1, s3) == 77);
    REQUIRE(sml->InitialIndex(0, 12, s3) == 76); // same slot, the shadow copy
    REQUIRE(sml->InitialIndex(0, 24, s3) == 75);
    REQUIRE(sml->Layout(100, 4, 0, 8).window == 8);
}

TEST_CASE("INA: stragglers leave partial sums that ESA evicts, sums stay exact, same seed "
          "gives the same run",
          "[ina]")
{
    auto run = [](const std::string& policy, uint32_t run) {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        InaHelper h;
        h.SetPolicy(policy);
        h.SetSwitchAttribute("PoolSize", UintegerValue(128));
        h.SetWindow(64);
        h.SetWorkerAttribute("IterationJitter", TimeValue(MicroSeconds(5)));
        h.SetLossRate(0.002);
        const uint64_t sizes[] = {62 * 200, 62 * 400, 62 * 300};
        for (uint64_t v : sizes)
        {
            InaJobSpec s;
            s.workers = 4;
            s.gradientValues = v;
            s.iterations = 3;
            h.AddJob(s);
        }
        h.Install();
        h.AssignStreams(11);
        Simulator::Run();
        std::vector<double> jct;
        for (uint32_t j = 0; j < 3; ++j)
        {
            InaJobResult r = h.GetResult(j);
            REQUIRE(r.iterationsDone == 3);
            REQUIRE(r.valuesWrong == 0);
            REQUIRE(r.valuesChecked == 4 * 3 * sizes[j]);
            jct.push_back(r.jct);
        }
        InaSwitchStats st = h.GetSwitch()->GetStats();
        Simulator::Destroy();
        return std::make_pair(jct, st);
    };
    auto esa = run("esa", 1);
    REQUIRE(esa.second.evictedPartials > 0);
    auto again = run("esa", 1);
    REQUIRE(again.first == esa.first);
    REQUIRE(again.second.preemptions == esa.second.preemptions);
    auto other = run("esa", 2);
    REQUIRE(other.first != esa.first); // the seed drives jitter and loss
    auto atp = run("atp", 1);
    REQUIRE(atp.second.collisions > 0);
}
