/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rail-topology.h"

#include "ns3/split-mix.h"

#include <cmath>
#include <deque>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
constexpr uint16_t kUnreached = std::numeric_limits<uint16_t>::max();

} // namespace

// A macro so that the message is only built when the check fails (hot lookups call it).
#define RAIL_REQUIRE(ok, what)                                                                     \
    do                                                                                             \
    {                                                                                              \
        if (!(ok))                                                                                 \
        {                                                                                          \
            throw std::invalid_argument(what);                                                     \
        }                                                                                          \
    } while (false)

std::string
RailVertexKindName(RailVertexKind kind)
{
    switch (kind)
    {
    case RailVertexKind::GPU:
        return "gpu";
    case RailVertexKind::HOST_MEMORY:
        return "mem";
    case RailVertexKind::NIC:
        return "nic";
    case RailVertexKind::PCIE_SWITCH:
        return "pcie";
    case RailVertexKind::ROOT_COMPLEX:
        return "rc";
    case RailVertexKind::LEAF:
        return "leaf";
    case RailVertexKind::SPINE:
        return "spine";
    }
    return "?";
}

double
RailNodeTemplate::PcieBandwidth() const
{
    // Effective bytes/s per lane: Gen4 x16 ~25.6 GB/s, Gen5 x16 ~51.2 GB/s (DESIGN.md facts);
    // each generation doubles the per-lane rate.
    double perLaneGen4 = 25.6e9 / 16;
    double scale = 1.0;
    for (uint32_t g = 4; g < pcieGen; ++g)
    {
        scale *= 2;
    }
    for (uint32_t g = pcieGen; g < 4; ++g)
    {
        scale /= 2;
    }
    return perLaneGen4 * scale * pcieLanes;
}

void
RailNodeTemplate::Validate() const
{
    RAIL_REQUIRE(gpus >= 1, "RailNodeTemplate.gpus: expected >= 1, got " + std::to_string(gpus));
    RAIL_REQUIRE(nics >= 1, "RailNodeTemplate.nics: expected >= 1, got " + std::to_string(nics));
    RAIL_REQUIRE(pcieSwitches >= 1 && pcieSwitches <= gpus && pcieSwitches <= nics,
                 "RailNodeTemplate.pcieSwitches: expected 1..min(gpus, nics), got " +
                     std::to_string(pcieSwitches));
    RAIL_REQUIRE(pcieGen >= 3 && pcieGen <= 6,
                 "RailNodeTemplate.pcieGen: expected 3..6, got " + std::to_string(pcieGen));
    RAIL_REQUIRE(
        pcieLanes == 1 || pcieLanes == 2 || pcieLanes == 4 || pcieLanes == 8 || pcieLanes == 16,
        "RailNodeTemplate.pcieLanes: expected 1, 2, 4, 8 or 16, got " + std::to_string(pcieLanes));
    RAIL_REQUIRE(nicDmaBandwidth >= 0 && std::isfinite(nicDmaBandwidth),
                 "RailNodeTemplate.nicDmaBandwidth: expected >= 0 bytes/s (0: from the rail rate)");
    RAIL_REQUIRE(nicDmaEfficiency > 0 && nicDmaEfficiency <= 1,
                 "RailNodeTemplate.nicDmaEfficiency: expected in (0, 1]");
    RAIL_REQUIRE(memoryBandwidth > 0 && std::isfinite(memoryBandwidth),
                 "RailNodeTemplate.memoryBandwidth: expected > 0 bytes/s");
    RAIL_REQUIRE(pcieLatency >= 0, "RailNodeTemplate.pcieLatency: expected >= 0 s");
    RAIL_REQUIRE(memoryLatency >= 0, "RailNodeTemplate.memoryLatency: expected >= 0 s");
    RAIL_REQUIRE(pfcXoffInNode >= 2048, "RailNodeTemplate.pfcXoffInNode: expected >= 2048 bytes");
}

void
RailClusterConfig::Validate() const
{
    node.Validate();
    RAIL_REQUIRE(nodes >= 1,
                 "RailClusterConfig.nodes: expected >= 1, got " + std::to_string(nodes));
    RAIL_REQUIRE(railRateBps > 0 && std::isfinite(railRateBps),
                 "RailClusterConfig.railRateBps: expected > 0 bit/s");
    RAIL_REQUIRE(spineRateBps >= 0, "RailClusterConfig.spineRateBps: expected >= 0 bit/s");
    RAIL_REQUIRE(linkDelay >= 0, "RailClusterConfig.linkDelay: expected >= 0 s");
    RAIL_REQUIRE(pfcXoffFabric >= 2048, "RailClusterConfig.pfcXoffFabric: expected >= 2048 bytes");
    uint32_t perLeaf = nodesPerLeaf == 0 ? nodes : nodesPerLeaf;
    RAIL_REQUIRE(spines > 0 || perLeaf >= nodes,
                 "RailClusterConfig.spines: expected >= 1 when nodes span several leaf groups");
}

double
RailClusterConfig::NicDmaBandwidth() const
{
    return node.nicDmaBandwidth > 0 ? node.nicDmaBandwidth
                                    : node.nicDmaEfficiency * railRateBps / 8;
}

RailTopology::RailTopology(const RailClusterConfig& config)
    : m_config(config)
{
    m_config.Validate();
    uint32_t perLeaf = m_config.nodesPerLeaf == 0 ? m_config.nodes : m_config.nodesPerLeaf;
    m_leafGroups = (m_config.nodes + perLeaf - 1) / perLeaf;
    m_nodeVertices.resize(m_config.nodes);
    for (uint32_t n = 0; n < m_config.nodes; ++n)
    {
        BuildNode(n);
    }
    BuildFabric();
    m_distNode.resize(m_vertices.size());
    m_distFabric.resize(m_vertices.size());
    m_nextHops.resize(m_vertices.size());
}

uint32_t
RailTopology::AddVertex(RailVertexKind kind, int32_t node, uint32_t index)
{
    Vertex v{kind, node, index, 0, -1};
    if (node >= 0)
    {
        v.nodeLocal = static_cast<uint32_t>(m_nodeVertices[node].size());
        m_nodeVertices[node].push_back(static_cast<uint32_t>(m_vertices.size()));
    }
    if (node < 0 || kind == RailVertexKind::NIC)
    {
        v.fabricLocal = static_cast<int32_t>(m_fabricVertices.size());
        m_fabricVertices.push_back(static_cast<uint32_t>(m_vertices.size()));
    }
    m_vertices.push_back(v);
    m_adj.emplace_back();
    return static_cast<uint32_t>(m_vertices.size() - 1);
}

void
RailTopology::AddLink(uint32_t a, uint32_t b, double bytesPerSec, double delay, uint64_t xoff)
{
    bool inNode = m_vertices[a].node >= 0 && m_vertices[b].node >= 0;
    m_links.push_back(Link{a, b, bytesPerSec, delay, inNode, xoff});
    uint32_t id = static_cast<uint32_t>(m_links.size() - 1);
    m_adj[a].push_back(id);
    m_adj[b].push_back(id);
}

void
RailTopology::BuildNode(uint32_t n)
{
    const RailNodeTemplate& t = m_config.node;
    int32_t node = static_cast<int32_t>(n);
    m_nodeBase.push_back(static_cast<uint32_t>(m_vertices.size()));
    // Layout per node: GPUs, host memory, NICs, PCIe switches, root complex.
    for (uint32_t g = 0; g < t.gpus; ++g)
    {
        AddVertex(RailVertexKind::GPU, node, g);
    }
    AddVertex(RailVertexKind::HOST_MEMORY, node, 0);
    for (uint32_t i = 0; i < t.nics; ++i)
    {
        AddVertex(RailVertexKind::NIC, node, i);
    }
    for (uint32_t s = 0; s < t.pcieSwitches; ++s)
    {
        AddVertex(RailVertexKind::PCIE_SWITCH, node, s);
    }
    AddVertex(RailVertexKind::ROOT_COMPLEX, node, 0);

    double pcie = t.PcieBandwidth();
    double nicPcie = std::min(pcie, m_config.NicDmaBandwidth());
    // GPU g and NIC i sit on switch floor(g * switches / gpus): pairs (GPU i, NIC i) share one.
    for (uint32_t g = 0; g < t.gpus; ++g)
    {
        AddLink(Gpu(n, g),
                PcieSwitch(n, g * t.pcieSwitches / t.gpus),
                pcie,
                t.pcieLatency,
                t.pfcXoffInNode);
    }
    for (uint32_t i = 0; i < t.nics; ++i)
    {
        AddLink(Nic(n, i),
                PcieSwitch(n, i * t.pcieSwitches / t.nics),
                nicPcie,
                t.pcieLatency,
                t.pfcXoffInNode);
    }
    for (uint32_t s = 0; s < t.pcieSwitches; ++s)
    {
        AddLink(PcieSwitch(n, s), RootComplex(n), pcie, t.pcieLatency, t.pfcXoffInNode);
    }
    AddLink(RootComplex(n), HostMemory(n), t.memoryBandwidth, t.memoryLatency, t.pfcXoffInNode);
}

void
RailTopology::BuildFabric()
{
    const RailClusterConfig& c = m_config;
    uint32_t perLeaf = c.nodesPerLeaf == 0 ? c.nodes : c.nodesPerLeaf;
    m_leafBase = static_cast<uint32_t>(m_vertices.size());
    for (uint32_t g = 0; g < m_leafGroups; ++g)
    {
        for (uint32_t r = 0; r < c.node.nics; ++r)
        {
            AddVertex(RailVertexKind::LEAF, -1, g * c.node.nics + r);
        }
    }
    m_spineBase = static_cast<uint32_t>(m_vertices.size());
    for (uint32_t s = 0; s < c.spines; ++s)
    {
        AddVertex(RailVertexKind::SPINE, -1, s);
    }
    double rail = c.railRateBps / 8;
    double spine = (c.spineRateBps > 0 ? c.spineRateBps : c.railRateBps) / 8;
    for (uint32_t n = 0; n < c.nodes; ++n)
    {
        for (uint32_t r = 0; r < c.node.nics; ++r)
        {
            AddLink(Nic(n, r), Leaf(n / perLeaf, r), rail, c.linkDelay, c.pfcXoffFabric);
        }
    }
    for (uint32_t g = 0; g < m_leafGroups; ++g)
    {
        for (uint32_t r = 0; r < c.node.nics; ++r)
        {
            for (uint32_t s = 0; s < c.spines; ++s)
            {
                AddLink(Leaf(g, r), Spine(s), spine, c.linkDelay, c.pfcXoffFabric);
            }
        }
    }
}

uint32_t
RailTopology::OtherEnd(uint32_t v, uint32_t link) const
{
    const Link& l = m_links[link];
    return l.a == v ? l.b : l.a;
}

uint32_t
RailTopology::DirectedLink(uint32_t from, uint32_t link) const
{
    return 2 * link + (m_links[link].a == from ? 0 : 1);
}

std::string
RailTopology::VertexName(uint32_t v) const
{
    const Vertex& x = GetVertex(v);
    std::ostringstream os;
    if (x.node >= 0)
    {
        os << "n" << x.node << "." << RailVertexKindName(x.kind);
        if (x.kind != RailVertexKind::HOST_MEMORY && x.kind != RailVertexKind::ROOT_COMPLEX)
        {
            os << x.index;
        }
    }
    else
    {
        os << RailVertexKindName(x.kind) << x.index;
    }
    return os.str();
}

std::string
RailTopology::DirectedLinkName(uint32_t directedLink) const
{
    const Link& l = m_links.at(directedLink / 2);
    bool forward = directedLink % 2 == 0;
    return VertexName(forward ? l.a : l.b) + "->" + VertexName(forward ? l.b : l.a);
}

uint32_t
RailTopology::Gpu(uint32_t node, uint32_t gpu) const
{
    RAIL_REQUIRE(node < m_config.nodes && gpu < m_config.node.gpus,
                 "RailTopology::Gpu: node " + std::to_string(node) + " gpu " + std::to_string(gpu) +
                     " out of range");
    return m_nodeBase[node] + gpu;
}

uint32_t
RailTopology::HostMemory(uint32_t node) const
{
    RAIL_REQUIRE(node < m_config.nodes,
                 "RailTopology::HostMemory: node " + std::to_string(node) + " out of range");
    return m_nodeBase[node] + m_config.node.gpus;
}

uint32_t
RailTopology::Nic(uint32_t node, uint32_t nic) const
{
    RAIL_REQUIRE(node < m_config.nodes && nic < m_config.node.nics,
                 "RailTopology::Nic: node " + std::to_string(node) + " nic " + std::to_string(nic) +
                     " out of range");
    return m_nodeBase[node] + m_config.node.gpus + 1 + nic;
}

uint32_t
RailTopology::PcieSwitch(uint32_t node, uint32_t sw) const
{
    RAIL_REQUIRE(node < m_config.nodes && sw < m_config.node.pcieSwitches,
                 "RailTopology::PcieSwitch: index out of range");
    return m_nodeBase[node] + m_config.node.gpus + 1 + m_config.node.nics + sw;
}

uint32_t
RailTopology::RootComplex(uint32_t node) const
{
    RAIL_REQUIRE(node < m_config.nodes, "RailTopology::RootComplex: node out of range");
    return m_nodeBase[node] + m_config.node.gpus + 1 + m_config.node.nics +
           m_config.node.pcieSwitches;
}

uint32_t
RailTopology::Leaf(uint32_t group, uint32_t rail) const
{
    RAIL_REQUIRE(group < m_leafGroups && rail < m_config.node.nics,
                 "RailTopology::Leaf: index out of range");
    return m_leafBase + group * m_config.node.nics + rail;
}

uint32_t
RailTopology::Spine(uint32_t s) const
{
    RAIL_REQUIRE(s < m_config.spines, "RailTopology::Spine: index out of range");
    return m_spineBase + s;
}

bool
RailTopology::IsEndpoint(uint32_t v) const
{
    RailVertexKind k = GetVertex(v).kind;
    return k == RailVertexKind::GPU || k == RailVertexKind::HOST_MEMORY;
}

uint32_t
RailTopology::SelectNic(uint32_t endpoint, uint32_t peer, uint64_t flowId, NicPolicy policy) const
{
    const Vertex& e = GetVertex(endpoint);
    RAIL_REQUIRE(IsEndpoint(endpoint),
                 "RailTopology::SelectNic: vertex " + VertexName(endpoint) +
                     " is not a GPU or host memory");
    uint32_t nics = m_config.node.nics;
    uint32_t rail = EcmpIndex(flowId, 0x9e3779b9u, nics);
    if (policy == NicPolicy::RAIL_AFFINITY)
    {
        if (e.kind == RailVertexKind::GPU)
        {
            rail = e.index % nics;
        }
        else if (IsEndpoint(peer) && GetVertex(peer).kind == RailVertexKind::GPU)
        {
            rail = GetVertex(peer).index % nics;
        }
    }
    return Nic(static_cast<uint32_t>(e.node), rail);
}

uint32_t
RailTopology::Waypoint(uint32_t at, uint32_t dst, uint32_t srcNic, uint32_t dstNic) const
{
    const Vertex& v = m_vertices[at];
    if (v.node < 0)
    {
        return dstNic;
    }
    if (m_vertices[dst].node == v.node)
    {
        return dst;
    }
    return at == srcNic ? dstNic : srcNic;
}

bool
RailTopology::LinkInDomain(uint32_t link, bool fabric) const
{
    return m_links[link].inNode != fabric;
}

const std::vector<uint16_t>&
RailTopology::Distances(uint32_t target, bool fabric) const
{
    std::vector<uint16_t>& d = fabric ? m_distFabric[target] : m_distNode[target];
    if (!d.empty())
    {
        return d;
    }
    const Vertex& t = m_vertices[target];
    auto local = [&](uint32_t v) {
        return fabric ? static_cast<uint32_t>(m_vertices[v].fabricLocal) : m_vertices[v].nodeLocal;
    };
    d.assign(fabric ? m_fabricVertices.size() : m_nodeVertices[t.node].size(), kUnreached);
    std::deque<uint32_t> queue{target};
    d[local(target)] = 0;
    while (!queue.empty())
    {
        uint32_t v = queue.front();
        queue.pop_front();
        // NICs are never transit vertices: in the fabric they only terminate paths, and
        // inside a node they hang off one PCIe switch.
        if (v != target && m_vertices[v].kind == RailVertexKind::NIC)
        {
            continue;
        }
        for (uint32_t l : m_adj[v])
        {
            if (!LinkInDomain(l, fabric))
            {
                continue;
            }
            uint32_t u = OtherEnd(v, l);
            if (d[local(u)] == kUnreached)
            {
                d[local(u)] = d[local(v)] + 1;
                queue.push_back(u);
            }
        }
    }
    return d;
}

const std::vector<uint32_t>&
RailTopology::NextHopLinks(uint32_t at, uint32_t target) const
{
    auto& cache = m_nextHops[at];
    auto it = cache.find(target);
    if (it != cache.end())
    {
        return it->second;
    }
    const Vertex& a = m_vertices[at];
    const Vertex& t = m_vertices[target];
    bool fabric = t.kind == RailVertexKind::NIC && (a.node < 0 || a.kind == RailVertexKind::NIC) &&
                  at != target;
    RAIL_REQUIRE(fabric || a.node == t.node,
                 "RailTopology::NextHopLinks: no route from " + VertexName(at) + " to " +
                     VertexName(target));
    // A fabric target is a NIC with one fabric link, to a switch: every other vertex is one
    // hop further from the NIC than from that switch (NICs are never transit, so no shortest
    // path from the switch passes through the NIC). The fabric distances are kept per switch,
    // not per NIC: a few leaves' tables instead of one per NIC of the cluster, each as long
    // as the fabric (35,200 NICs at 4,400 nodes: 2.5 GB and a BFS per NIC).
    uint32_t via = target;
    if (fabric)
    {
        uint32_t links = 0;
        uint32_t other = target;
        for (uint32_t l : m_adj[target])
        {
            if (LinkInDomain(l, true))
            {
                ++links;
                other = OtherEnd(target, l);
            }
        }
        if (links == 1 && m_vertices[other].kind != RailVertexKind::NIC)
        {
            via = other;
        }
    }
    const std::vector<uint16_t>& d = Distances(via, fabric);
    auto distance = [&](uint32_t v) -> uint32_t {
        uint16_t x =
            d[fabric ? static_cast<uint32_t>(m_vertices[v].fabricLocal) : m_vertices[v].nodeLocal];
        if (via == target || x == kUnreached)
        {
            return x;
        }
        return v == target ? 0 : x + 1u;
    };
    std::vector<uint32_t> hops;
    uint32_t mine = distance(at);
    RAIL_REQUIRE(mine != kUnreached && mine > 0,
                 "RailTopology::NextHopLinks: " + VertexName(target) + " unreachable from " +
                     VertexName(at));
    for (uint32_t l : m_adj[at])
    {
        if (LinkInDomain(l, fabric) && distance(OtherEnd(at, l)) + 1 == mine)
        {
            hops.push_back(l);
        }
    }
    return cache.emplace(target, std::move(hops)).first->second;
}

uint32_t
RailTopology::EcmpIndex(uint64_t flowId, uint32_t at, uint32_t n)
{
    // splitmix64 finaliser: deterministic and well spread
    uint64_t x = SplitMixFinal(flowId * 0x9e3779b97f4a7c15ULL ^ (static_cast<uint64_t>(at) << 32));
    return static_cast<uint32_t>(x % n);
}

std::vector<uint32_t>
RailTopology::Path(uint32_t src, uint32_t dst, uint32_t srcNic, uint32_t dstNic, uint64_t flowId)
    const
{
    RAIL_REQUIRE(IsEndpoint(src) && IsEndpoint(dst) && src != dst,
                 "RailTopology::Path: expected two distinct GPU or host-memory endpoints, got " +
                     VertexName(src) + " and " + VertexName(dst));
    std::vector<uint32_t> path;
    uint32_t at = src;
    while (at != dst)
    {
        uint32_t target = Waypoint(at, dst, srcNic, dstNic);
        const std::vector<uint32_t>& hops = NextHopLinks(at, target);
        uint32_t link = hops[hops.size() == 1 ? 0 : EcmpIndex(flowId, at, hops.size())];
        path.push_back(DirectedLink(at, link));
        at = OtherEnd(at, link);
    }
    return path;
}

double
RailTopology::QpLineRate(uint32_t src, uint32_t dst, uint32_t srcNic) const
{
    uint32_t nic = m_vertices.at(src).node == m_vertices.at(dst).node ? src : srcNic;
    for (uint32_t l : m_adj.at(nic))
    {
        if (!m_links[l].inNode || nic == src)
        {
            return m_links[l].bytesPerSec;
        }
    }
    throw std::invalid_argument("RailTopology::QpLineRate: " + VertexName(nic) + " has no link");
}

} // namespace ns3
