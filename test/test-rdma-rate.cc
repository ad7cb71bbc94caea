/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Rate level: the max-min solver on textbook cases, incremental against from-scratch, and
// agreement with the packet level on an incast and a multi-rail scenario.

#include "max-min-reference-solver.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/max-min-solver.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <random>
#include <tuple>

using namespace ns3;

TEST_CASE("rdma: max-min solver on the textbook two-link case", "[rdma]")
{
    // Links A (10) and B (4). Flow 0 uses A and B, flow 1 uses A, flow 2 uses B.
    MaxMinSolver s({10.0, 4.0});
    uint32_t f0 = s.AddFlow({{0, 1.0}, {1, 1.0}}, 100);
    uint32_t f1 = s.AddFlow({{0, 1.0}}, 100);
    uint32_t f2 = s.AddFlow({{1, 1.0}}, 100);
    s.Solve();
    CHECK(s.GetRate(f0) == Approx(2.0));
    CHECK(s.GetRate(f2) == Approx(2.0));
    CHECK(s.GetRate(f1) == Approx(8.0));
    CHECK(s.GetLoad(0) == Approx(10.0));
    // A cap freezes a flow early and its share goes to the others.
    uint32_t f3 = s.AddFlow({{0, 1.0}}, 1.0);
    s.Solve();
    CHECK(s.GetRate(f3) == Approx(1.0));
    CHECK(s.GetRate(f1) == Approx(7.0));
    // Weights: a flow using B with weight 2 counts twice.
    s.RemoveFlow(f2);
    uint32_t f4 = s.AddFlow({{1, 2.0}}, 100);
    s.Solve();
    CHECK(s.GetRate(f0) == Approx(4.0 / 3));
    CHECK(s.GetRate(f4) == Approx(4.0 / 3));
    CHECK(s.GetLoad(1) == Approx(4.0));
    s.RemoveFlow(f4);
    CHECK_THROWS_WITH(s.RemoveFlow(f4), Catch::Contains("not active"));
    CHECK_THROWS_WITH(MaxMinSolver({1.0, -2.0}), Catch::Contains("resource 1"));
}

TEST_CASE("rdma: priority (ACK) load takes capacity without holding its flow back", "[rdma]")
{
    // Link 0 (10) carries flows a and b; flow c crosses link 1 (10) and puts a 0.1-weight
    // priority load on link 0.
    MaxMinSolver s({10.0, 10.0});
    uint32_t a = s.AddFlow({{0, 1.0}}, 100);
    uint32_t b = s.AddFlow({{0, 1.0}}, 100);
    uint32_t c = s.AddFlow({{1, 1.0}}, 100, {{0, 0.1}});
    s.Solve();
    // Link 0 fills at level L with 2L + 0.1 L = 10; c is not frozen there and takes link 1.
    CHECK(s.GetRate(a) == Approx(10.0 / 2.1));
    CHECK(s.GetRate(b) == Approx(10.0 / 2.1));
    CHECK(s.GetRate(c) == Approx(10.0));
    // The same load as an ordinary usage would have held c at the level of link 0.
    MaxMinSolver plain({10.0, 10.0});
    plain.AddFlow({{0, 1.0}}, 100);
    plain.AddFlow({{0, 1.0}}, 100);
    uint32_t c2 = plain.AddFlow({{1, 1.0}, {0, 0.1}}, 100);
    plain.Solve();
    CHECK(plain.GetRate(c2) == Approx(10.0 / 2.1));
}

TEST_CASE("rdma: incremental max-min equals a from-scratch solve", "[rdma]")
{
    std::mt19937 rng(7);
    std::vector<double> caps(40);
    for (auto& c : caps)
    {
        c = 1 + rng() % 100;
    }
    MaxMinSolver inc(caps);
    std::vector<std::vector<MaxMinSolver::Usage>> paths;
    std::vector<double> flowCaps;
    std::vector<uint32_t> ids;
    for (int step = 0; step < 200; ++step)
    {
        if (ids.empty() || rng() % 3 != 0)
        {
            std::vector<MaxMinSolver::Usage> u;
            uint32_t first = rng() % 30;
            for (uint32_t k = 0; k < 1 + rng() % 4; ++k)
            {
                u.emplace_back(first + k * (1 + rng() % 3) % 10, 0.5 + (rng() % 3) * 0.25);
            }
            std::sort(u.begin(), u.end());
            u.erase(std::unique(u.begin(),
                                u.end(),
                                [](auto& a, auto& b) { return a.first == b.first; }),
                    u.end());
            double cap = 1 + rng() % 50;
            ids.push_back(inc.AddFlow(u, cap));
        }
        else
        {
            std::size_t k = rng() % ids.size();
            inc.RemoveFlow(ids[k]);
            ids.erase(ids.begin() + k);
        }
        inc.Solve();
    }
    std::vector<double> incremental;
    for (uint32_t id : ids)
    {
        incremental.push_back(inc.GetRate(id));
    }
    inc.SolveAll();
    for (std::size_t k = 0; k < ids.size(); ++k)
    {
        CHECK(inc.GetRate(ids[k]) == Approx(incremental[k]).epsilon(1e-9));
    }
    for (uint32_t r = 0; r < caps.size(); ++r)
    {
        CHECK(inc.GetLoad(r) <= caps[r] * (1 + 1e-9));
    }
}

namespace
{

using Scenario =
    std::function<void(const RailTopology&, std::function<void(uint32_t, uint32_t, uint64_t)>)>;

/** Runs a scenario on one granularity; returns per-transfer delivery times (s). */
template <typename Fabric>
std::map<uint32_t, double>
RunScenario(const RailClusterConfig& config, const Scenario& scenario)
{
    Ptr<RdmaFabric> fabric = CreateObject<Fabric>(); // one interface for both levels
    fabric->Build(config);
    std::map<uint32_t, double> delivered;
    scenario(fabric->GetTopology(), [&](uint32_t src, uint32_t dst, uint64_t bytes) {
        fabric->Write(src, dst, bytes, [&delivered](const RdmaTransferResult& r) {
            delivered[r.id] = (r.delivered - r.start).GetSeconds();
        });
    });
    Simulator::Run();
    fabric->Dispose();
    Simulator::Destroy();
    return delivered;
}

void
CompareLevels(const RailClusterConfig& config, const Scenario& scenario, std::size_t flows)
{
    auto packet = RunScenario<RdmaPacketFabric>(config, scenario);
    auto rate = RunScenario<RdmaRateFabric>(config, scenario);
    REQUIRE(packet.size() == flows);
    REQUIRE(rate.size() == flows);
    double packetMax = 0;
    double rateMax = 0;
    double packetSum = 0;
    double rateSum = 0;
    for (const auto& [id, t] : packet)
    {
        packetMax = std::max(packetMax, t);
        rateMax = std::max(rateMax, rate.at(id));
        packetSum += t;
        rateSum += rate.at(id);
    }
    INFO("makespan packet " << packetMax << " s, rate " << rateMax << " s; mean packet "
                            << packetSum / flows << " rate " << rateSum / flows);
    for (const auto& [id, t] : packet)
    {
        UNSCOPED_INFO("transfer " << id << ": packet " << t << " s, rate " << rate.at(id) << " s");
    }
    CHECK(rateMax == Approx(packetMax).epsilon(0.10));
    CHECK(rateSum == Approx(packetSum).epsilon(0.10));
}

} // namespace

TEST_CASE("rdma: rate level matches packet level on a host-memory incast", "[rdma]")
{
    RailClusterConfig c;
    c.nodes = 9;
    c.spines = 2;
    // Eight senders on eight rails into node 0's host memory: four PCIe uplinks, two NICs each.
    CompareLevels(
        c,
        [](const RailTopology& t, auto write) {
            for (uint32_t n = 1; n <= 8; ++n)
            {
                write(t.Gpu(n, n - 1), t.HostMemory(0), 4000000);
            }
        },
        8);
}

TEST_CASE("rdma: rate level matches packet level on a GPU incast over one rail", "[rdma]")
{
    RailClusterConfig c;
    c.nodes = 7;
    c.spines = 2;
    // Six senders on rail 2 into GPU 2 of node 0: the leaf port to its NIC is the bottleneck.
    Scenario incast = [](const RailTopology& t, auto write) {
        for (uint32_t n = 1; n <= 6; ++n)
        {
            write(t.Gpu(n, 2), t.Gpu(0, 2), 3000000 + 500000 * n);
        }
    };
    SECTION("PFC alone keeps the bottleneck busy, as the fluid model assumes")
    {
        Config::SetDefault("ns3::RdmaEndpoint::DcqcnEnabled", BooleanValue(false));
        CompareLevels(c, incast, 6);
        Config::SetDefault("ns3::RdmaEndpoint::DcqcnEnabled", BooleanValue(true));
    }
    SECTION("with DCQCN the fluid model is an upper bound on throughput")
    {
        auto packet = RunScenario<RdmaPacketFabric>(c, incast);
        auto rate = RunScenario<RdmaRateFabric>(c, incast);
        double packetMax = 0;
        double rateMax = 0;
        for (const auto& [id, t] : packet)
        {
            packetMax = std::max(packetMax, t);
            rateMax = std::max(rateMax, rate.at(id));
        }
        CHECK(packetMax >= rateMax * 0.97);
    }
}

TEST_CASE("rdma: rate level matches packet level on a multi-rail exchange", "[rdma]")
{
    RailClusterConfig c;
    c.nodes = 4;
    c.spines = 4;
    // A ring on all eight rails (GPU g of node n to GPU g of node n+1, sizes varying by rail)
    // plus four cross-rail flows through the spines into the same GPUs.
    CompareLevels(
        c,
        [](const RailTopology& t, auto write) {
            for (uint32_t n = 0; n < 4; ++n)
            {
                for (uint32_t g = 0; g < 8; ++g)
                {
                    write(t.Gpu(n, g), t.Gpu((n + 1) % 4, g), 1000000 + 250000 * g);
                }
            }
            for (uint32_t n = 0; n < 4; ++n)
            {
                write(t.Gpu(n, n), t.Gpu((n + 2) % 4, 7 - n), 2000000);
            }
        },
        36);
}

TEST_CASE("rdma: flow classes give the rates of a flow-by-flow from-scratch solve", "[rdma]")
{
    // Random graphs whose flows are drawn from a few templates (so many flows share a class),
    // with priority usages and caps, under churn. After every step the class-based solver
    // (incremental), the same solver with one class per flow (incremental) and the original
    // flow-by-flow solver rebuilt from scratch must agree to 1e-9 relative.
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        std::mt19937 rng(seed);
        std::vector<double> caps(12 + rng() % 30);
        for (auto& c : caps)
        {
            c = 1 + rng() % 100;
        }

        struct Template
        {
            std::vector<MaxMinSolver::Usage> usage;
            std::vector<MaxMinSolver::Usage> priority;
            double cap;
        };

        std::vector<Template> templates(5 + rng() % 20);
        for (auto& tp : templates)
        {
            for (uint32_t k = 0; k < 1 + rng() % 4; ++k)
            {
                tp.usage.emplace_back(rng() % caps.size(), 0.5 + (rng() % 3) * 0.25);
            }
            for (uint32_t k = 0; k < rng() % 3; ++k)
            {
                tp.priority.emplace_back(rng() % caps.size(), 0.01 * (1 + rng() % 5));
            }
            tp.cap = rng() % 4 == 0 ? 1 + rng() % 10 : 1e6;
        }
        MaxMinSolver classes(caps);
        MaxMinSolver perFlow(caps);
        perFlow.SetMergeIdenticalFlows(false);
        std::vector<std::pair<uint32_t, uint32_t>> handles; // (classes, perFlow)
        std::vector<uint32_t> kinds;
        uint32_t fewerClasses = 0;
        for (int step = 0; step < 150; ++step)
        {
            // Batches of adds and removals between solves, as the fabric posts them.
            for (uint32_t b = 0; b < 1 + rng() % 4; ++b)
            {
                if (handles.empty() || rng() % 3 != 0)
                {
                    uint32_t k = rng() % templates.size();
                    const Template& tp = templates[k];
                    handles.emplace_back(classes.AddFlow(tp.usage, tp.cap, tp.priority),
                                         perFlow.AddFlow(tp.usage, tp.cap, tp.priority));
                    kinds.push_back(k);
                }
                else
                {
                    std::size_t i = rng() % handles.size();
                    classes.RemoveFlow(handles[i].first);
                    perFlow.RemoveFlow(handles[i].second);
                    handles.erase(handles.begin() + i);
                    kinds.erase(kinds.begin() + i);
                }
            }
            classes.Solve();
            perFlow.Solve();
            MaxMinReferenceSolver scratch(caps);
            std::vector<uint32_t> ref;
            for (uint32_t k : kinds)
            {
                ref.push_back(
                    scratch.AddFlow(templates[k].usage, templates[k].cap, templates[k].priority));
            }
            scratch.SolveAll();
            REQUIRE(classes.GetNActiveFlows() == handles.size());
            fewerClasses += classes.GetNClasses() < handles.size() ? 1 : 0;
            CHECK(perFlow.GetNClasses() == handles.size());
            for (std::size_t i = 0; i < handles.size(); ++i)
            {
                double expected = scratch.GetRate(ref[i]);
                CHECK(classes.GetRate(handles[i].first) ==
                      Approx(expected).epsilon(1e-9).margin(1e-12));
                CHECK(perFlow.GetRate(handles[i].second) ==
                      Approx(expected).epsilon(1e-9).margin(1e-12));
            }
            for (uint32_t r = 0; r < caps.size(); ++r)
            {
                CHECK(classes.GetLoad(r) == Approx(scratch.GetLoad(r)).epsilon(1e-9).margin(1e-9));
            }
        }
        CHECK(fewerClasses > 100); // the classes did merge flows
    }
}

TEST_CASE("rdma: a flow joining a class has no rate before the next solve", "[rdma]")
{
    MaxMinSolver s({10.0});
    uint32_t a = s.AddFlow({{0, 1.0}}, 100);
    s.Solve();
    CHECK(s.GetRate(a) == Approx(10.0));
    uint32_t b = s.AddFlow({{0, 1.0}}, 100);
    CHECK(s.GetNClasses() == 1);
    CHECK(s.GetRate(b) == 0.0);
    CHECK(s.GetLoad(0) == Approx(10.0)); // b counts once solved
    s.Solve();
    CHECK(s.GetRate(a) == Approx(5.0));
    CHECK(s.GetRate(b) == Approx(5.0));
    CHECK(s.GetLastComponent().size() == 2);
    s.RemoveFlow(a);
    CHECK(s.GetRate(a) == 0.0);
    s.Solve();
    CHECK(s.GetRate(b) == Approx(10.0));
    CHECK_THROWS_WITH(s.SetMergeIdenticalFlows(false), Catch::Contains("without active flows"));
}

TEST_CASE("rdma: rate fabric gives the same completions with and without flow classes", "[rdma]")
{
    // Repeated transfers between the same GPUs (same path, same class) with different sizes,
    // so classes shrink and split as transfers finish.
    RailClusterConfig c;
    c.nodes = 3;
    c.spines = 2;
    auto run = [&c](bool merge) {
        Config::SetDefault("ns3::RdmaRateFabric::MergeIdenticalFlows", BooleanValue(merge));
        auto fabric = CreateObject<RdmaRateFabric>();
        fabric->Build(c);
        Config::SetDefault("ns3::RdmaRateFabric::MergeIdenticalFlows", BooleanValue(true));
        const RailTopology& t = fabric->GetTopology();
        std::map<uint32_t, double> done;
        auto record = [&done](const RdmaTransferResult& r) {
            done[r.id] = r.completed.GetSeconds();
        };
        for (uint32_t n = 0; n < 3; ++n)
        {
            for (uint32_t g = 0; g < 8; ++g)
            {
                for (uint32_t k = 0; k < 3; ++k)
                {
                    fabric->Write(t.Gpu(n, g), t.Gpu((n + 1) % 3, g), 500000 * (1 + k), record);
                    fabric->Write(t.Gpu(n, g), t.Gpu((n + 2) % 3, 7 - g), 700000, record);
                }
            }
        }
        Simulator::Schedule(MicroSeconds(1), [&fabric, &t, &record] {
            fabric->Read(t.Gpu(0, 0), t.HostMemory(2), 1000000, record);
        });
        uint32_t classes = 0;
        Simulator::Schedule(MicroSeconds(2),
                            [&fabric, &classes] { classes = fabric->GetSolver().GetNClasses(); });
        Simulator::Run();
        uint64_t reallocations = fabric->GetReallocations();
        fabric->Dispose();
        Simulator::Destroy();
        return std::make_tuple(done, reallocations, classes);
    };
    auto [merged, mergedRealloc, mergedClasses] = run(true);
    auto [plain, plainRealloc, plainClasses] = run(false);
    REQUIRE(merged.size() == 145);
    REQUIRE(plain.size() == 145);
    CHECK(mergedClasses < plainClasses);
    CHECK(plainClasses == 145);
    CHECK(mergedRealloc == plainRealloc);
    for (const auto& [id, t] : plain)
    {
        CHECK(merged.at(id) == Approx(t).epsilon(1e-12));
    }
}

TEST_CASE("rdma: class churn (pool compaction) keeps the rates of a from-scratch solve", "[rdma]")
{
    // Thousands of short-lived distinct classes: released usages are compacted away while
    // the surviving classes keep their usages and rates.
    std::mt19937 rng(11);
    std::vector<double> caps(50);
    for (auto& c : caps)
    {
        c = 10 + rng() % 90;
    }
    MaxMinSolver s(caps);
    std::vector<std::pair<uint32_t, std::vector<MaxMinSolver::Usage>>> live;
    for (int step = 0; step < 4000; ++step)
    {
        std::vector<MaxMinSolver::Usage> u;
        for (uint32_t k = 0; k < 2 + rng() % 4; ++k)
        {
            u.emplace_back(rng() % caps.size(), 1.0 + (rng() % 1000) * 1e-3);
        }
        live.emplace_back(s.AddFlow(u, 1e6), u);
        if (live.size() > 60)
        {
            std::size_t i = rng() % live.size();
            s.RemoveFlow(live[i].first);
            live.erase(live.begin() + i);
        }
        s.Solve();
        if (step % 500 == 499)
        {
            MaxMinReferenceSolver scratch(caps);
            std::vector<uint32_t> ref;
            for (const auto& [id, usage] : live)
            {
                ref.push_back(scratch.AddFlow(usage, 1e6));
            }
            scratch.SolveAll();
            for (std::size_t i = 0; i < live.size(); ++i)
            {
                CHECK(s.GetRate(live[i].first) == Approx(scratch.GetRate(ref[i])).epsilon(1e-9));
            }
        }
    }
    CHECK(s.GetNActiveFlows() == 60);
}
