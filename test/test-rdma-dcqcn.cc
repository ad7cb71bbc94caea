/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// DCQCN as specified (SIGCOMM'15 reaction point with the NIC vendor's defaults): the byte
// counter and the timer drive fast recovery, additive and hyper increase, so long flows
// through an ECN-marked bottleneck keep it >= 90% busy; and the rate level, which charges
// DCQCN's operating point, stays within 10% of the packet level with ECN on.

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <map>

using namespace ns3;

namespace
{

/// Four senders on rail 2 into GPU 2 of node 0 (the leaf port marks, the NIC's DMA binds).
RailClusterConfig
SameRail()
{
    RailClusterConfig c;
    c.nodes = 5;
    c.spines = 2;
    return c;
}

/** Steady utilisation of the bottleneck (node 0's NIC 2 -> its PCIe switch) in [from, to]. */
struct SteadyState
{
    double utilisation{0};
    uint64_t rateIncreases{0};
    uint64_t rateDecreases{0};
};

SteadyState
RunSameRail(uint64_t bytes, double from, double to)
{
    auto fabric = CreateObject<RdmaPacketFabric>();
    fabric->Build(SameRail());
    fabric->AssignStreams(1);
    const RailTopology& t = fabric->GetTopology();
    for (uint32_t n = 1; n <= 4; ++n)
    {
        fabric->Write(t.Gpu(n, 2), t.Gpu(0, 2), bytes, nullptr);
    }
    uint32_t link = 0;
    for (uint32_t l : t.GetAdjacentLinks(t.Nic(0, 2)))
    {
        if (t.GetLinks()[l].inNode)
        {
            link = t.DirectedLink(t.Nic(0, 2), l);
        }
    }
    Ptr<LosslessNetDevice> dev = fabric->GetLinkDevice(link);
    uint64_t atFrom = 0;
    uint64_t atTo = 0;
    Simulator::Schedule(Seconds(from), [&] { atFrom = dev->GetTxBytes(); });
    Simulator::Schedule(Seconds(to), [&] { atTo = dev->GetTxBytes(); });
    Simulator::Run();
    SteadyState s;
    s.utilisation = (atTo - atFrom) / (t.GetLinks()[link / 2].bytesPerSec * (to - from));
    for (uint32_t n = 1; n <= 4; ++n)
    {
        s.rateIncreases += fabric->GetEndpoint(t.Gpu(n, 2))->GetRateIncreases();
    }
    s.rateDecreases = fabric->GetStats().rateDecreases;
    fabric->Dispose();
    Simulator::Destroy();
    return s;
}

} // namespace

TEST_CASE("rdma: DCQCN keeps a marked bottleneck >= 90% busy at steady state", "[rdma]")
{
    // 4 x 10 MB take ~1.8 ms at line rate; measure from 0.8 ms (after the onset) to 1.6 ms.
    SteadyState s = RunSameRail(10000000, 0.8e-3, 1.6e-3);
    INFO("utilisation " << s.utilisation << ", increases " << s.rateIncreases << ", decreases "
                        << s.rateDecreases);
    CHECK(s.rateDecreases > 0); // DCQCN is at work
    CHECK(s.rateIncreases > s.rateDecreases);
    CHECK(s.utilisation >= 0.90);

    // Without the byte counter (timer only) recovery waits for the 300 us timer: the link
    // idles after every collapse. The byte counter is what fills it.
    Config::SetDefault("ns3::RdmaEndpoint::ByteCounter", UintegerValue(0));
    Config::SetDefault("ns3::RdmaEndpoint::CnpInterval", TimeValue(Time(0)));
    SteadyState timerOnly = RunSameRail(10000000, 0.8e-3, 1.6e-3);
    Config::Reset();
    INFO("timer only: utilisation " << timerOnly.utilisation);
    CHECK(timerOnly.utilisation < s.utilisation);
}

TEST_CASE("rdma: the rate level charges DCQCN's operating point on a marked incast", "[rdma]")
{
    // Same-rail incasts of 4 and 8 senders: ECN marks, DCQCN cuts; the rate level is within
    // 10% of the packet level in throughput. PFC alone (2 senders cannot fill Kmin) is
    // unaffected.
    for (uint32_t senders : {2u, 4u, 8u})
    {
        RailClusterConfig c;
        c.nodes = senders + 1;
        c.spines = 2;
        std::map<bool, double> makespan;
        uint64_t marks = 0;
        for (bool packet : {true, false})
        {
            Ptr<RdmaFabric> fabric;
            if (packet)
            {
                auto p = CreateObject<RdmaPacketFabric>();
                p->Build(c);
                p->AssignStreams(1);
                fabric = p;
            }
            else
            {
                fabric = CreateObject<RdmaRateFabric>();
                fabric->Build(c);
            }
            const RailTopology& t = fabric->GetTopology();
            Time last(0);
            for (uint32_t n = 1; n <= senders; ++n)
            {
                fabric->Write(
                    t.Gpu(n, 0),
                    t.Gpu(0, 0),
                    4000000,
                    [&last](const RdmaTransferResult& r) { last = std::max(last, r.delivered); });
            }
            Simulator::Run();
            makespan[packet] = last.GetSeconds();
            if (packet)
            {
                marks = DynamicCast<RdmaPacketFabric>(fabric)->GetStats().ecnMarks;
            }
            fabric->Dispose();
            Simulator::Destroy();
        }
        INFO(senders << " senders: packet " << makespan[true] * 1e6 << " us, rate "
                     << makespan[false] * 1e6 << " us, ECN marks " << marks);
        CHECK(makespan[false] == Approx(makespan[true]).epsilon(0.10));
        CHECK((marks > 0) == (senders >= 4));
    }
}

TEST_CASE("rdma: the rate level's DCQCN factors survive the compaction of its path array", "[rdma]")
{
    // An 8-sender incast on rail 0 (DCQCN charged), alone and next to 1,120 short same-rail
    // flows on rails 4-7 that end first: their paths, most of the fabric's path array, are
    // then copied out (RdmaRateFabric::CompactPaths) while the incast runs, and its factors
    // must still read its own paths. The two runs refill different components, so the
    // makespans agree to rounding, not bit for bit.
    RailClusterConfig c;
    c.nodes = 9;
    c.spines = 2;
    std::map<bool, double> makespan;
    for (bool shortFlows : {false, true})
    {
        auto fabric = CreateObject<RdmaRateFabric>();
        fabric->Build(c);
        const RailTopology& t = fabric->GetTopology();
        Time last(0);
        for (uint32_t n = 1; n <= 8; ++n)
        {
            fabric->Write(t.Gpu(n, 0), t.Gpu(0, 0), 4000000, [&last](const RdmaTransferResult& r) {
                last = std::max(last, r.delivered);
            });
        }
        uint32_t shortOnes = 0;
        for (uint32_t round = 0; shortFlows && round < 5; ++round)
        {
            for (uint32_t g = 4; g < 8; ++g)
            {
                for (uint32_t n = 1; n <= 8; ++n)
                {
                    for (uint32_t m = 1; m <= 8; ++m)
                    {
                        if (m != n)
                        {
                            fabric->Write(t.Gpu(n, g), t.Gpu(m, g), 20000 * (round + 1), nullptr);
                            ++shortOnes;
                        }
                    }
                }
            }
        }
        Simulator::Run();
        makespan[shortFlows] = last.GetSeconds();
        INFO("short flows " << shortOnes);
        fabric->Dispose();
        Simulator::Destroy();
    }
    INFO("incast alone " << makespan[false] * 1e6 << " us, with short flows "
                         << makespan[true] * 1e6 << " us");
    CHECK(makespan[true] == Approx(makespan[false]).epsilon(1e-9));
}
