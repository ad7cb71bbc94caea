/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// The rate level's allocation policies (InaRatePolicy: SwitchMlRatePolicy, AtpRatePolicy,
// EsaRatePolicy): reachable by name through ComponentRegistry and InaGradientSync's Policy
// attribute, and each giving the rate level's rules on tiny hand-computed cases.

#include "running-job.h"

#include "ns3/component-registry.h"
#include "ns3/core-module.h"
#include "ns3/ina-atp-rate-policy.h"
#include "ns3/ina-esa-rate-policy.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/ina-switchml-rate-policy.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace ns3;

namespace
{

/// A job of the rate model: two workers, bytes of gradient, key and id as given.
InaRateJob
TwoWorkers(double bytes, double key, uint64_t id)
{
    InaRateJob j;
    j.workers = 2;
    j.gradientBytes = bytes;
    j.priorityKey = key;
    j.id = id;
    return j;
}

} // namespace

TEST_CASE("INA rate policies are reachable by name: registry aliases and the Policy attribute",
          "[ina][rate][registry]")
{
    const std::vector<std::pair<std::string, std::string>> names = {
        {"switchml", "ns3::SwitchMlRatePolicy"},
        {"atp", "ns3::AtpRatePolicy"},
        {"esa", "ns3::EsaRatePolicy"}};
    CHECK(ComponentRegistry::Names("ina-rate-policy", InaRatePolicy::GetTypeId()) ==
          std::vector<std::string>{"switchml", "atp", "esa"});
    for (const auto& [name, typeId] : names)
    {
        INFO(name);
        const ComponentAlias& a = ComponentRegistry::Find("ina-rate-policy", name);
        CHECK(a.typeId == typeId);
        Ptr<InaRatePolicy> p = ComponentRegistry::Factory(a).Create<InaRatePolicy>();
        REQUIRE(p);
        CHECK(p->GetName() == name);
        // The Policy attribute creates the same class and reads back as the name.
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue(name));
        CHECK(m->GetRatePolicy()->GetInstanceTypeId().GetName() == typeId);
        StringValue back;
        m->GetAttribute("Policy", back);
        CHECK(back.Get() == name);
    }
    // The default is ESA, shortest remaining first; an unknown name is refused by name.
    Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
    CHECK(m->GetRatePolicy()->GetName() == "esa");
    CHECK_THROWS_WITH(m->SetAttribute("Policy", StringValue("ring")),
                      Catch::Contains("Policy 'ring' unknown; expected switchml, atp or esa"));
    // PriorityRule reaches the ESA policy whichever attribute comes first.
    m->SetAttribute("PriorityRule", StringValue("Static"));
    m->SetAttribute("Policy", StringValue("atp"));
    m->SetAttribute("Policy", StringValue("esa"));
    Ptr<EsaRatePolicy> esa = DynamicCast<EsaRatePolicy>(m->GetRatePolicy());
    REQUIRE(esa);
    CHECK(esa->GetPriorityRule() == EsaRatePolicy::STATIC);
    // ... and has that one home: an attribute of the same name on EsaRatePolicy would be
    // overwritten by InaGradientSync whenever it creates the policy, without a word.
    TypeId::AttributeInformation info;
    CHECK_FALSE(EsaRatePolicy::GetTypeId().LookupAttributeByName("PriorityRule", &info));
    CHECK(InaGradientSync::GetTypeId().LookupAttributeByName("PriorityRule", &info));
}

TEST_CASE("INA rate policies: SwitchML turns around at the switch in a static partition",
          "[ina][rate]")
{
    Ptr<SwitchMlRatePolicy> p = CreateObject<SwitchMlRatePolicy>();
    CHECK(p->DefaultValuesPerPacket() == 64);
    CHECK(p->DefaultPipelinePasses() == 1);
    CHECK_FALSE(p->SharesPool());
    CHECK_FALSE(p->Preempts());
    // hop 1 us, pass 0.4 us: R = 2 hop + pass = 2.4 us; one extra hop each way: 4 hop + 3 pass.
    CHECK(p->RoundTrip(1e-6, 0.4e-6, 0) == Approx(2.4e-6).epsilon(1e-12));
    CHECK(p->RoundTrip(1e-6, 0.4e-6, 1) == Approx(5.2e-6).epsilon(1e-12));
    CHECK(p->Hold(1e-6, 0.4e-6, 1) == Approx(5.2e-6).epsilon(1e-12));
    // tx 1, txUp 0.5, d 2, pass 0.1 (us): 2 + 1 + 8 + 0.3 = 11.3 us.
    CHECK(p->CrossRackRoundTrip(1e-6, 0.5e-6, 2e-6, 0.1e-6) == Approx(11.3e-6).epsilon(1e-12));
    // 1000 aggregators over 4 jobs: 250 each, 125 slots; 3 partitions: 333 -> 166 slots.
    CHECK(p->Window(256, 1000, 0, 4) == 125);
    CHECK(p->Window(256, 1000, 3, 4) == 166);
    CHECK(p->Window(100, 1000, 0, 4) == 100);
    CHECK(p->PartitionHeld(125, 40) == 80); // two per slot in use
    CHECK_THROWS_WITH(p->Window(256, 7, 0, 4),
                      Catch::Contains("PoolSize 7 split into 4 static partitions"));
}

TEST_CASE("INA rate policies: ATP goes via the PS and shares a short pool by demand", "[ina][rate]")
{
    Ptr<AtpRatePolicy> p = CreateObject<AtpRatePolicy>();
    CHECK(p->DefaultValuesPerPacket() == 62);
    CHECK(p->DefaultPipelinePasses() == 2);
    CHECK(p->SharesPool());
    CHECK_FALSE(p->Preempts());
    // R = 4 hop + 2 pass = 4.8 us; the hold is switch - PS - switch, 2 hop + 2 pass, whatever
    // the extra hops (they lengthen the workers' legs only).
    CHECK(p->RoundTrip(1e-6, 0.4e-6, 0) == Approx(4.8e-6).epsilon(1e-12));
    CHECK(p->RoundTrip(1e-6, 0.4e-6, 1) == Approx(7.6e-6).epsilon(1e-12));
    CHECK(p->Hold(1e-6, 0.4e-6, 1) == Approx(2.8e-6).epsilon(1e-12));
    CHECK(p->CrossRackRoundTrip(1e-6, 0.5e-6, 2e-6, 0.1e-6) == Approx(17.4e-6).epsilon(1e-12));
    CHECK(p->Window(256, 7, 0, 4) == 256); // the whole window over the whole pool
    const InaRateJob a = TwoWorkers(1e6, 1, 1);
    const InaRateJob b = TwoWorkers(1e6, 2, 2);
    CHECK(p->BlockingWeight(a, 0, b, 1) == 1);
    CHECK(p->BlockingWeight(b, 1, a, 0) == 1);
    CHECK_FALSE(p->Outranks(a, 0, b, 1));
    // Pool 100, the job wants 20 of 80 wanted there: 25, whatever blocks it.
    CHECK(p->Room(100, 30, 20, 80) == Approx(25));
    // Episodes 0.5 + 1.5, each a 200 us timeout plus a 10 us round trip: 420 us.
    CHECK(p->SplitKeyStall(0.5, 1.5, 200e-6, 10e-6, 1e-6, 2e-6) == Approx(420e-6));
}

TEST_CASE("INA rate policies: ESA ranks by key then id, preempts, and rescues split keys",
          "[ina][rate]")
{
    Ptr<EsaRatePolicy> p = CreateObject<EsaRatePolicy>();
    CHECK(p->Preempts());
    CHECK(p->SharesPool());
    CHECK(p->RoundTrip(1e-6, 0.4e-6, 0) == Approx(4.8e-6).epsilon(1e-12)); // ATP's path
    const InaRateJob a = TwoWorkers(1e6, 1, 7);
    const InaRateJob b = TwoWorkers(1e6, 2, 3);
    const InaRateJob c = TwoWorkers(1e6, 1, 9);
    CHECK(p->Outranks(a, 0, b, 1)); // smaller key
    CHECK_FALSE(p->Outranks(b, 1, a, 0));
    CHECK(p->Outranks(a, 0, c, 2)); // same key: lower id
    CHECK(p->Outranks(a, 0, a, 1)); // all equal: problem order
    CHECK(p->BlockingWeight(a, 0, b, 1) == 1);
    CHECK(p->BlockingWeight(b, 1, a, 0) == 0); // a preempts b's aggregators
    // Room: what the higher priorities leave, not a share by demand.
    CHECK(p->Room(100, 30, 20, 80) == Approx(70));
    // Each episode waits for its rescue: 0.5 x 10 us + 1.5 x 20 us = 35 us.
    CHECK(p->SplitKeyStall(0.5, 1.5, 200e-6, 10e-6, 10e-6, 20e-6) == Approx(35e-6));
    // The key under each rule: 10 iterations left of 4000 bytes, level 3, 5 GPU-s attained.
    WorkloadProfile profile;
    profile.gradientBytes = 4000;
    Ptr<ClusterJob> job = JobOn(1, profile, {0, 1}, 0.04, 10);
    job->priorityLevel = 3;
    job->attainedService = 5;
    CHECK(p->PriorityKey(*job) == 40000);
    p->SetPriorityRule(EsaRatePolicy::STATIC);
    CHECK(p->PriorityKey(*job) == 3);
    p->SetPriorityRule(EsaRatePolicy::LEAST_ATTAINED_SERVICE);
    CHECK(p->PriorityKey(*job) == 5);
    CHECK(CreateObject<AtpRatePolicy>()->PriorityKey(*job) == 0); // no priorities
}

TEST_CASE("INA rate policies through InaGradientSync: one job alone, and ESA's top job is "
          "never blocked",
          "[ina][rate]")
{
    // One two-worker job of 100 chunks alone at a switch (100 Gb/s, 500 ns links, 400 ns
    // passes, 60 overhead bytes, Window 256, nothing else running).
    // SwitchML: 64 values, tx = 316 x 8 / 1e11 = 25.28 ns, R = 2 (tx + d) + p = 1450.56 ns,
    // R / K < tx: T = R + 99 tx = 3953.28 ns.
    // ATP and ESA: 62 values, tx = 24.64 ns, R = 4 (tx + d) + 2 x 800 ns = 3698.56 ns,
    // T = R + 99 tx = 6137.92 ns.
    for (const auto& [name, bytes, expected] :
         std::vector<std::tuple<std::string, double, double>>{{"switchml", 25600, 3953.28e-9},
                                                              {"atp", 24800, 6137.92e-9},
                                                              {"esa", 24800, 6137.92e-9}})
    {
        INFO(name);
        Ptr<InaGradientSync> m = CreateObject<InaGradientSync>();
        m->SetAttribute("Policy", StringValue(name));
        std::vector<double> f;
        std::vector<double> t = m->SwitchSyncTimes({TwoWorkers(bytes, 1, 1)}, 0, &f);
        REQUIRE(t.size() == 1);
        CHECK(t[0] == Approx(expected).epsilon(1e-12));
        CHECK(f[0] == 0);
    }
    // Two such jobs on a pool of 200 with windows of 64 slots (R / K = 57.79 ns > tx): under
    // ESA the more important job (key 1) is blocked by nobody, so it syncs as if alone,
    // T = R (1 + 99 / 64) = 9419.77 ns with nothing at its PS; the other loses chunks to it.
    // Under ATP both block each other alike.
    const std::vector<InaRateJob> jobs = {TwoWorkers(24800, 2, 1), TwoWorkers(24800, 1, 2)};
    Ptr<InaGradientSync> esa = CreateObject<InaGradientSync>();
    esa->SetAttribute("PoolSize", UintegerValue(200));
    esa->SetAttribute("Window", UintegerValue(64));
    std::vector<double> f;
    std::vector<double> t = esa->SwitchSyncTimes(jobs, 0, &f);
    CHECK(t[1] == Approx(9419.77e-9).epsilon(1e-12));
    CHECK(f[1] == 0);
    CHECK(f[0] > 0);
    Ptr<InaGradientSync> atp = CreateObject<InaGradientSync>();
    atp->SetAttribute("Policy", StringValue("atp"));
    atp->SetAttribute("PoolSize", UintegerValue(200));
    atp->SetAttribute("Window", UintegerValue(64));
    atp->SwitchSyncTimes(jobs, 0, &f);
    CHECK(f[0] > 0);
    CHECK(f[1] == Approx(f[0]).epsilon(1e-9));
}

TEST_CASE("INA rate policies through InaGradientSync: across racks ESA's top job is not blocked "
          "at its ToRs or the spine",
          "[ina][rate]")
{
    // The same two jobs, each with a worker in rack 0 and one in rack 1 (two-level: both ToRs
    // and the spine). ESA: the job of key 1 is blocked by nobody at any level, so nothing of
    // it falls back; the other loses chunks to it. ATP: the two block each other alike.
    std::vector<InaRateJob> jobs = {TwoWorkers(24800, 2, 1), TwoWorkers(24800, 1, 2)};
    for (auto& j : jobs)
    {
        j.racks = {{0, 1}, {1, 1}};
    }
    std::vector<double> f;
    Ptr<InaGradientSync> esa = CreateObject<InaGradientSync>();
    esa->SetAttribute("PoolSize", UintegerValue(200));
    esa->SetAttribute("Window", UintegerValue(64));
    esa->RackSyncTimes(jobs, &f);
    CHECK(f[1] == 0);
    CHECK(f[0] > 0);
    Ptr<InaGradientSync> atp = CreateObject<InaGradientSync>();
    atp->SetAttribute("Policy", StringValue("atp"));
    atp->SetAttribute("PoolSize", UintegerValue(200));
    atp->SetAttribute("Window", UintegerValue(64));
    atp->RackSyncTimes(jobs, &f);
    CHECK(f[0] > 0);
    CHECK(f[1] == Approx(f[0]).epsilon(1e-9));
}
