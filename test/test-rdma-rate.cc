/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Rate level: the max-min solver on textbook cases, incremental against from-scratch, and
// agreement with the packet level on an incast and a multi-rail scenario.

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
