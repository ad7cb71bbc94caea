/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Rail topology and node template: layout, capacities, routes and NIC choice.

#include "ns3/rail-topology.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/simulator.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

/** \return names of the path's directed links */
std::vector<std::string>
Names(const RailTopology& t, const std::vector<uint32_t>& path)
{
    std::vector<std::string> out;
    for (uint32_t d : path)
    {
        out.push_back(t.DirectedLinkName(d));
    }
    return out;
}

} // namespace

TEST_CASE("rdma: node template sets PCIe, NIC and memory capacities", "[rdma]")
{
    RailNodeTemplate n;
    CHECK(n.PcieBandwidth() == Approx(25.6e9)); // Gen4 x16
    n.pcieGen = 5;
    CHECK(n.PcieBandwidth() == Approx(51.2e9));
    n.pcieGen = 3;
    n.pcieLanes = 8;
    CHECK(n.PcieBandwidth() == Approx(6.4e9));
    RailClusterConfig c;
    c.nodes = 2;
    c.node.memoryBandwidth = 90e9;
    RailTopology t(c);
    // 2 nodes x (8 GPUs + memory + 8 NICs + 4 PCIe switches + root complex) + 8 leaves + 8 spines
    CHECK(t.GetNVertices() == 2 * 22 + 8 + 8);
    auto capOf = [&](uint32_t a, uint32_t b) {
        for (uint32_t l : t.GetAdjacentLinks(a))
        {
            if (t.OtherEnd(a, l) == b)
            {
                return t.GetLinks()[l].bytesPerSec;
            }
        }
        return -1.0;
    };
    CHECK(capOf(t.Gpu(1, 5), t.PcieSwitch(1, 2)) == Approx(25.6e9));
    CHECK(capOf(t.Nic(1, 5), t.PcieSwitch(1, 2)) == Approx(23.5e9)); // NIC DMA limit
    CHECK(capOf(t.PcieSwitch(1, 2), t.RootComplex(1)) == Approx(25.6e9));
    CHECK(capOf(t.RootComplex(1), t.HostMemory(1)) == Approx(90e9));
    CHECK(capOf(t.Nic(1, 5), t.Leaf(0, 5)) == Approx(25e9)); // 200 Gb/s rail
    CHECK(capOf(t.Gpu(1, 5), t.PcieSwitch(1, 1)) == -1.0);
}

TEST_CASE("rdma: routes follow rails, spines and PCIe as the packets do", "[rdma]")
{
    RailClusterConfig c;
    c.nodes = 4;
    c.nodesPerLeaf = 2;
    c.spines = 2;
    RailTopology t(c);
    CHECK(t.GetNLeafGroups() == 2);
    uint32_t id = 1;
    // Same rail, same leaf group: GPU -> PCIe -> NIC -> leaf -> NIC -> PCIe -> GPU.
    auto p = t.Path(t.Gpu(0, 3), t.Gpu(1, 3), t.Nic(0, 3), t.Nic(1, 3), id);
    CHECK(Names(t, p) == std::vector<std::string>{"n0.gpu3->n0.pcie1",
                                                  "n0.pcie1->n0.nic3",
                                                  "n0.nic3->leaf3",
                                                  "leaf3->n1.nic3",
                                                  "n1.nic3->n1.pcie1",
                                                  "n1.pcie1->n1.gpu3"});
    // Other leaf group or other rail: through a spine.
    CHECK(t.Path(t.Gpu(0, 3), t.Gpu(2, 3), t.Nic(0, 3), t.Nic(2, 3), id).size() == 8);
    CHECK(t.Path(t.Gpu(0, 3), t.Gpu(1, 4), t.Nic(0, 3), t.Nic(1, 4), id).size() == 8);
    // Bounce path into host memory: NIC -> PCIe switch -> root complex -> memory.
    auto m = Names(t, t.Path(t.Gpu(0, 0), t.HostMemory(1), t.Nic(0, 0), t.Nic(1, 0), id));
    CHECK(m.back() == "n1.rc->n1.mem");
    CHECK(m[m.size() - 2] == "n1.pcie0->n1.rc");
    // Inside a node: PCIe only, through the root complex between switches.
    CHECK(t.Path(t.Gpu(0, 0), t.Gpu(0, 1), 0, 0, id).size() == 2);
    CHECK(t.Path(t.Gpu(0, 0), t.Gpu(0, 2), 0, 0, id).size() == 4);
    // NIC choice: rail affinity for GPUs, the peer GPU's rail for host memory.
    CHECK(t.SelectNic(t.Gpu(2, 6), t.Gpu(0, 1), 9, NicPolicy::RAIL_AFFINITY) == t.Nic(2, 6));
    CHECK(t.SelectNic(t.HostMemory(2), t.Gpu(0, 1), 9, NicPolicy::RAIL_AFFINITY) == t.Nic(2, 1));
    CHECK(t.QpLineRate(t.Gpu(0, 0), t.Gpu(1, 0), t.Nic(0, 0)) == Approx(25e9));
    CHECK(t.QpLineRate(t.Gpu(0, 0), t.Gpu(0, 1), 0) == Approx(25.6e9));
}

TEST_CASE("rdma: rate-level READ and WRITE report the same endpoints as the packet level", "[rdma]")
{
    RailClusterConfig c;
    c.nodes = 2;
    auto fabric = CreateObject<RdmaRateFabric>();
    fabric->Build(c);
    const RailTopology& t = fabric->GetTopology();
    std::vector<RdmaTransferResult> got;
    auto keep = [&got](const RdmaTransferResult& r) { got.push_back(r); };
    fabric->Read(t.Gpu(0, 2), t.HostMemory(1), 4000000, keep);
    fabric->Write(t.Gpu(0, 2), t.Gpu(1, 2), 4000000, keep);
    Simulator::Run();
    REQUIRE(got.size() == 2);
    for (const auto& r : got)
    {
        if (r.read)
        {
            CHECK(r.src == t.HostMemory(1));
            CHECK(r.srcNic == t.Nic(1, 2));
            CHECK(r.completed == r.delivered);
        }
        else
        {
            CHECK(r.completed > r.delivered);
        }
        // Opposite directions on rail 2: each NIC link carries one flow's data and the other
        // flow's ACKs (62 B per 1062 B packet, high priority): wire rate 23.5 / (1 + 62/1062).
        double wire = 23.5e9 / (1 + 62.0 / 1062);
        CHECK(r.Goodput() == Approx(wire * 1000 / 1062).epsilon(0.03));
        CHECK(r.Goodput() < wire * 1000 / 1062);
    }
    CHECK_THROWS_WITH(fabric->Write(t.Gpu(0, 0), t.Gpu(0, 0), 1, nullptr),
                      Catch::Contains("distinct"));
    fabric->Dispose();
    Simulator::Destroy();
}
