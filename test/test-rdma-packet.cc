/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Packet-level RDMA fabric: conservation of bytes under loss and pauses, PFC, go-back-N,
// READ, DCQCN reaction, and the in-node PCIe / host-memory physics.

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/** Payload share of the wire for full packets of the default 1000-byte MTU. */
constexpr double kEff = 1000.0 / (1000.0 + RdmaHeader::kWireSize);

RailClusterConfig
SmallCluster(uint32_t nodes)
{
    RailClusterConfig c;
    c.nodes = nodes;
    c.spines = 2;
    return c;
}

/** Runs transfers on a fresh fabric and collects their results. */
struct Run
{
    Ptr<RdmaPacketFabric> fabric;
    std::vector<RdmaTransferResult> results;

    explicit Run(const RailClusterConfig& c)
    {
        fabric = CreateObject<RdmaPacketFabric>();
        fabric->Build(c);
        fabric->AssignStreams(1);
    }

    ~Run()
    {
        fabric->Dispose();
        Simulator::Destroy();
    }

    void Write(uint32_t src, uint32_t dst, uint64_t bytes, RdmaTransferOptions o = {})
    {
        fabric->Write(
            src,
            dst,
            bytes,
            [this](const RdmaTransferResult& r) { results.push_back(r); },
            o);
    }

    /** \return aggregate goodput: bytes / (last delivery - first start) */
    double Aggregate() const
    {
        uint64_t bytes = 0;
        Time first = Time::Max();
        Time last(0);
        for (const auto& r : results)
        {
            bytes += r.bytes;
            first = std::min(first, r.start);
            last = std::max(last, r.delivered);
        }
        return bytes / (last - first).GetSeconds();
    }

    /** \return capacity of the slowest link on a transfer's path, bytes/s */
    double Bottleneck(const RdmaTransferResult& r) const
    {
        const RailTopology& t = fabric->GetTopology();
        double cap = 1e300;
        for (uint32_t d : t.Path(r.src, r.dst, r.srcNic, r.dstNic, r.id))
        {
            cap = std::min(cap, t.GetLinks()[d / 2].bytesPerSec);
        }
        return cap;
    }
};

} // namespace

TEST_CASE("rdma: a write delivers every byte and respects its bottleneck", "[rdma]")
{
    Run run(SmallCluster(2));
    const RailTopology& t = run.fabric->GetTopology();
    run.Write(t.Gpu(0, 3), t.Gpu(1, 3), 2000000);
    Simulator::Run();
    REQUIRE(run.results.size() == 1);
    const auto& r = run.results[0];
    CHECK(r.srcNic == t.Nic(0, 3)); // rail affinity: GPU 3 on NIC 3
    CHECK(r.dstNic == t.Nic(1, 3));
    auto s = run.fabric->GetStats();
    CHECK(s.bytesDelivered == 2000000);
    CHECK(s.retransmittedPackets == 0);
    CHECK(s.headroomViolations == 0);
    // GPU -> PCIe -> NIC (23.5 GB/s DMA) -> leaf -> NIC -> PCIe -> GPU: the NIC's DMA limits.
    double bottleneck = run.Bottleneck(r);
    CHECK(bottleneck == Approx(23.5e9));
    CHECK(r.Goodput() <= bottleneck * kEff * 1.015); // 1 ns time resolution rounding
    CHECK(r.Goodput() >= bottleneck * kEff * 0.9);
    CHECK(r.completed > r.delivered);
}

TEST_CASE("rdma: go-back-N delivers every byte exactly once under random loss", "[rdma]")
{
    Run run(SmallCluster(2));
    const RailTopology& t = run.fabric->GetTopology();
    // Drop 1% of packets arriving at node 1's leaf-facing NIC port and of ACKs coming back.
    auto path = t.Path(t.Gpu(0, 0), t.Gpu(1, 0), t.Nic(0, 0), t.Nic(1, 0), 1);
    for (uint32_t d : path)
    {
        auto em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(0.01));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->AssignStreams(100 + d);
        run.fabric->SetLinkErrorModel(d, em);
        auto back = CreateObject<RateErrorModel>();
        back->SetAttribute("ErrorRate", DoubleValue(0.01));
        back->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        back->AssignStreams(200 + d);
        run.fabric->SetLinkErrorModel(d ^ 1u, back);
    }
    run.Write(t.Gpu(0, 0), t.Gpu(1, 0), 3000000);
    run.Write(t.Gpu(0, 0), t.Gpu(1, 0), 1234567);
    Simulator::Run();
    REQUIRE(run.results.size() == 2);
    auto s = run.fabric->GetStats();
    CHECK(s.errorDrops > 0);
    CHECK(s.retransmittedPackets > 0);
    CHECK(s.bytesPosted == 3000000 + 1234567);
    CHECK(s.bytesDelivered == s.bytesPosted);
}

TEST_CASE("rdma: an incast into host memory pauses upstream and loses nothing", "[rdma]")
{
    Run run(SmallCluster(5));
    const RailTopology& t = run.fabric->GetTopology();
    // Four senders on rails 0..3: two PCIe uplinks of node 0 carry two 23.5 GB/s NICs each.
    for (uint32_t n = 1; n <= 4; ++n)
    {
        run.Write(t.Gpu(n, n - 1), t.HostMemory(0), 4000000);
    }
    Simulator::Run();
    REQUIRE(run.results.size() == 4);
    auto s = run.fabric->GetStats();
    CHECK(s.bytesDelivered == 16000000);
    CHECK(s.pauseFrames > 0);
    CHECK(s.headroomViolations == 0);
    CHECK(s.errorDrops == 0);
    // Each PCIe uplink was paused towards its NICs, the back-pressure reached the leaves.
    uint32_t nicToPcie = t.DirectedLink(t.Nic(0, 0), t.GetAdjacentLinks(t.Nic(0, 0))[0]);
    CHECK(run.fabric->GetLinkDevice(nicToPcie)->GetPausesReceived() > 0);
}

TEST_CASE("rdma: bytes are conserved under loss and PFC pauses together", "[rdma]")
{
    Run run(SmallCluster(5));
    const RailTopology& t = run.fabric->GetTopology();
    // 0.5% loss on every rail link into node 0 and on the ACKs leaving it.
    for (uint32_t i = 0; i < 4; ++i)
    {
        uint32_t nic = t.Nic(0, i);
        for (uint32_t l : t.GetAdjacentLinks(nic))
        {
            if (t.GetLinks()[l].inNode)
            {
                continue;
            }
            for (uint32_t d : {t.DirectedLink(t.OtherEnd(nic, l), l), t.DirectedLink(nic, l)})
            {
                auto em = CreateObject<RateErrorModel>();
                em->SetAttribute("ErrorRate", DoubleValue(0.005));
                em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                em->AssignStreams(300 + d);
                run.fabric->SetLinkErrorModel(d, em);
            }
        }
    }
    for (uint32_t n = 1; n <= 4; ++n)
    {
        run.Write(t.Gpu(n, n - 1), t.HostMemory(0), 3000000 + 1000 * n);
    }
    Simulator::Run();
    REQUIRE(run.results.size() == 4);
    auto s = run.fabric->GetStats();
    CHECK(s.pauseFrames > 0);
    CHECK(s.errorDrops > 0);
    CHECK(s.retransmittedPackets > 0);
    CHECK(s.headroomViolations == 0);
    CHECK(s.bytesDelivered == s.bytesPosted);
    CHECK(s.bytesPosted == 12010000);
}

TEST_CASE("rdma: two NICs behind one PCIe uplink reach the uplink not the NICs sum", "[rdma]")
{
    Run run(SmallCluster(3));
    const RailTopology& t = run.fabric->GetTopology();
    // NICs 0 and 1 of node 0 share PCIe switch 0 and its Gen4 x16 uplink (25.6 GB/s).
    run.Write(t.Gpu(1, 0), t.HostMemory(0), 8000000);
    run.Write(t.Gpu(2, 1), t.HostMemory(0), 8000000);
    Simulator::Run();
    REQUIRE(run.results.size() == 2);
    CHECK(run.results[0].dstNic == t.Nic(0, 0));
    CHECK(run.results[1].dstNic == t.Nic(0, 1));
    double uplink = t.GetConfig().node.PcieBandwidth();
    CHECK(uplink == Approx(25.6e9));
    double agg = run.Aggregate();
    CHECK(agg <= uplink * kEff * 1.015);
    CHECK(agg >= uplink * kEff * 0.9);
    CHECK(agg < 2 * 23.5e9 * kEff * 0.6); // far from the two NICs' 47 GB/s
    for (const auto& r : run.results)
    {
        CHECK(r.Goodput() <= run.Bottleneck(r) * kEff * 1.015);
    }
}

TEST_CASE("rdma: GPUDirect into GPUs is not bounded by host memory; the bounce path is", "[rdma]")
{
    RailClusterConfig c = SmallCluster(9);
    c.node.memoryBandwidth = 20e9; // slow host memory
    double viaGpu = 0;
    double viaMem = 0;
    for (bool toGpu : {true, false})
    {
        Run run(c);
        const RailTopology& t = run.fabric->GetTopology();
        for (uint32_t n = 1; n <= 8; ++n)
        {
            uint32_t rail = n - 1;
            uint32_t dst = toGpu ? t.Gpu(0, rail) : t.HostMemory(0);
            run.Write(t.Gpu(n, rail), dst, 3000000);
        }
        Simulator::Run();
        REQUIRE(run.results.size() == 8);
        CHECK(run.fabric->GetStats().bytesDelivered == 24000000);
        CHECK(run.fabric->GetStats().headroomViolations == 0);
        (toGpu ? viaGpu : viaMem) = run.Aggregate();
    }
    CHECK(viaMem <= 20e9 * kEff * 1.015);
    CHECK(viaMem >= 20e9 * kEff * 0.9);
    // Into GPUs: four PCIe switches, each fed by two NICs at 23.5 GB/s, no memory on the path.
    CHECK(viaGpu >= 8 * 23.5e9 * kEff * 0.85);
    CHECK(viaGpu > 5 * viaMem);
}

TEST_CASE("rdma: RDMA READ pulls the bytes to the requester", "[rdma]")
{
    Run run(SmallCluster(2));
    const RailTopology& t = run.fabric->GetTopology();
    std::vector<RdmaTransferResult> got;
    run.fabric->Read(t.Gpu(0, 2), t.HostMemory(1), 1500000, [&](const RdmaTransferResult& r) {
        got.push_back(r);
    });
    Simulator::Run();
    REQUIRE(got.size() == 1);
    CHECK(got[0].read);
    CHECK(got[0].src == t.HostMemory(1));
    CHECK(got[0].dst == t.Gpu(0, 2));
    CHECK(got[0].srcNic == t.Nic(1, 2)); // host memory follows the peer GPU's rail
    CHECK(run.fabric->GetEndpoint(t.Gpu(0, 2))->GetDeliveredBytes() == 1500000);
}

TEST_CASE("rdma: hashing spreads a host's flows over its NICs", "[rdma]")
{
    Config::SetDefault("ns3::RdmaPacketFabric::NicPolicy", StringValue("Hash"));
    {
        Run run(SmallCluster(2));
        const RailTopology& t = run.fabric->GetTopology();
        for (int i = 0; i < 16; ++i)
        {
            run.Write(t.Gpu(0, 0), t.Gpu(1, 0), 100000);
        }
        Simulator::Run();
        std::set<uint32_t> nics;
        for (const auto& r : run.results)
        {
            nics.insert(r.srcNic);
        }
        CHECK(nics.size() > 3);
        CHECK(run.fabric->GetStats().bytesDelivered == 1600000);
    }
    Config::SetDefault("ns3::RdmaPacketFabric::NicPolicy", StringValue("RailAffinity"));
}

TEST_CASE("rdma: bad transfer requests are rejected with a message", "[rdma]")
{
    Run run(SmallCluster(2));
    const RailTopology& t = run.fabric->GetTopology();
    CHECK_THROWS_WITH(run.fabric->Write(t.Gpu(0, 0), t.Nic(1, 0), 10, nullptr),
                      Catch::Contains("expected GPU or host-memory"));
    CHECK_THROWS_WITH(run.fabric->Write(t.Gpu(0, 0), t.Gpu(1, 0), 0, nullptr),
                      Catch::Contains("bytes"));
    CHECK_THROWS_WITH(t.Gpu(2, 0), Catch::Contains("out of range"));
    RailClusterConfig bad;
    bad.node.pcieGen = 7;
    CHECK_THROWS_WITH(RailTopology(bad), Catch::Contains("pcieGen"));
}

TEST_CASE("rdma: DCQCN cuts rates on ECN marks from a congested leaf and keeps bytes", "[rdma]")
{
    RailClusterConfig c = SmallCluster(7);
    uint64_t marksOn = 0;
    for (bool ecn : {true, false})
    {
        Config::SetDefault("ns3::RdmaPacketFabric::EcnFabric", BooleanValue(ecn));
        Run run(c);
        const RailTopology& t = run.fabric->GetTopology();
        for (uint32_t n = 1; n <= 6; ++n)
        {
            run.Write(t.Gpu(n, 2), t.Gpu(0, 2), 3000000);
        }
        Simulator::Run();
        auto s = run.fabric->GetStats();
        REQUIRE(run.results.size() == 6);
        CHECK(s.bytesDelivered == 18000000);
        CHECK(s.headroomViolations == 0);
        // The leaf port to node 0's NIC 2 is the bottleneck: no run beats it.
        CHECK(run.Aggregate() <= 25e9 * kEff * 1.015);
        if (ecn)
        {
            marksOn = s.ecnMarks;
            CHECK(s.ecnMarks > 0);
            CHECK(s.cnps > 0);
            CHECK(s.rateDecreases > 0);
        }
        else
        {
            CHECK(s.ecnMarks == 0);
            CHECK(s.rateDecreases == 0);
            CHECK(s.pauseFrames > 0); // without DCQCN only PFC holds the senders back
        }
    }
    CHECK(marksOn > 0);
    Config::SetDefault("ns3::RdmaPacketFabric::EcnFabric", BooleanValue(true));
}

TEST_CASE("rdma: same seed, same packet-level results", "[rdma]")
{
    auto once = [](uint32_t seed) {
        RngSeedManager::SetSeed(seed);
        Run run(SmallCluster(5));
        const RailTopology& t = run.fabric->GetTopology();
        for (uint32_t n = 1; n <= 4; ++n)
        {
            run.Write(t.Gpu(n, 1), t.Gpu(0, 1), 2000000);
        }
        Simulator::Run();
        std::vector<int64_t> out;
        for (const auto& r : run.results)
        {
            out.push_back(r.delivered.GetTimeStep());
        }
        out.push_back(static_cast<int64_t>(run.fabric->GetStats().ecnMarks));
        return out;
    };
    CHECK(once(3) == once(3));
    RngSeedManager::SetSeed(1);
}
