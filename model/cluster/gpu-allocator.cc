/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "gpu-allocator.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GpuAllocator");
NS_OBJECT_ENSURE_REGISTERED(GpuAllocator);

TypeId
GpuAllocator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GpuAllocator")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<GpuAllocator>()
            .AddAttribute("Rule",
                          "Placement rule: Consolidated (fewest nodes, then fewest racks) or "
                          "Spread (one GPU at a time on the emptiest node).",
                          EnumValue(CONSOLIDATED),
                          MakeAiclusterEnumAccessor(&GpuAllocator::m_rule),
                          MakeEnumChecker(CONSOLIDATED, "Consolidated", SPREAD, "Spread"));
    return tid;
}

GpuAllocator::GpuAllocator()
    : m_rule(CONSOLIDATED)
{
    NS_LOG_FUNCTION(this);
}

void
GpuAllocator::Reset(const ClusterTopology& topology)
{
    NS_LOG_FUNCTION(this << topology.numNodes << topology.gpusPerNode << topology.nodesPerRack);
    NS_ABORT_MSG_IF(topology.numNodes == 0 || topology.gpusPerNode == 0 ||
                        topology.nodesPerRack == 0,
                    "cluster topology needs at least one node, one GPU per node and one node "
                    "per rack");
    m_topology = topology;
    m_freeOnNode.assign(topology.numNodes, topology.gpusPerNode);
    m_freeInRack.assign(topology.NumRacks(), 0);
    m_nodesByFreeInRack.assign(size_t(topology.NumRacks()) * (topology.gpusPerNode + 1), 0);
    m_byFree.clear();
    for (uint32_t n = 0; n < topology.numNodes; ++n)
    {
        m_freeInRack[topology.RackOf(n)] += topology.gpusPerNode;
        ++NodesWithFree(topology.RackOf(n), topology.gpusPerNode);
        m_byFree.insert({topology.gpusPerNode, n});
    }
    m_free = topology.TotalGpus();
}

// Topology, FreeGpus and FreeGpusOn answer queries of the engine and the placement rules, Take
// runs per node, and the rules (AllocateConsolidated, ...) are steps of Allocate, which logs:
// they do not log.

const ClusterTopology&
GpuAllocator::Topology() const
{
    return m_topology;
}

uint32_t
GpuAllocator::FreeGpus() const
{
    return m_free;
}

uint32_t
GpuAllocator::FreeGpusOn(uint32_t node) const
{
    return m_freeOnNode.at(node);
}

void
GpuAllocator::Take(uint32_t node, uint32_t n)
{
    NS_ASSERT(n <= m_freeOnNode[node]);
    SetFree(node, m_freeOnNode[node] - n);
}

void
GpuAllocator::SetFree(uint32_t node, uint32_t free)
{
    const uint32_t rack = m_topology.RackOf(node);
    const uint32_t before = m_freeOnNode[node];
    if (before > 0)
    {
        m_byFree.erase({before, node});
    }
    --NodesWithFree(rack, before);
    m_freeOnNode[node] = free;
    m_freeInRack[rack] += free;
    m_freeInRack[rack] -= before;
    m_free += free;
    m_free -= before;
    ++NodesWithFree(rack, free);
    if (free > 0)
    {
        m_byFree.insert({free, node});
    }
}

uint32_t&
GpuAllocator::NodesWithFree(uint32_t rack, uint32_t free)
{
    return m_nodesByFreeInRack[size_t(rack) * (m_topology.gpusPerNode + 1) + free];
}

uint32_t
GpuAllocator::FewestNodesCount(uint32_t rack, uint32_t gpus) const
{
    if (m_freeInRack[rack] < gpus)
    {
        return 0;
    }
    // Most free first, as FewestNodesInRack takes them: whole groups of nodes with f free
    // while they fall short, then as many of the next group as the rest needs.
    const uint32_t* count = &m_nodesByFreeInRack[size_t(rack) * (m_topology.gpusPerNode + 1)];
    uint32_t nodes = 0;
    uint32_t sum = 0;
    for (uint32_t f = m_topology.gpusPerNode; f > 0; --f)
    {
        uint32_t need = (gpus - sum + f - 1) / f;
        if (need <= count[f])
        {
            return nodes + need;
        }
        nodes += count[f];
        sum += count[f] * f;
    }
    return 0; // not reached: the rack's free GPUs hold the job
}

JobPlacement
GpuAllocator::Allocate(uint32_t gpus)
{
    NS_LOG_FUNCTION(this << gpus);
    NS_ABORT_MSG_IF(gpus == 0 || gpus > m_free,
                    "cannot allocate " << gpus << " GPUs with " << m_free << " free");
    JobPlacement placement =
        (m_rule == CONSOLIDATED) ? AllocateConsolidated(gpus) : AllocateSpread(gpus);
    std::sort(placement.gpusOnNode.begin(), placement.gpusOnNode.end());
    NS_LOG_DEBUG("allocated " << gpus << " GPUs: " << placement.ToString());
    return placement;
}

JobPlacement
GpuAllocator::Allocate(uint32_t gpus, uint32_t nodes)
{
    NS_LOG_FUNCTION(this << gpus << nodes);
    if (nodes == 0 || nodes > gpus)
    {
        return Allocate(gpus);
    }
    NS_ABORT_MSG_IF(gpus > m_free,
                    "cannot allocate " << gpus << " GPUs with " << m_free << " free");
    JobPlacement placement = AllocateOnNodes(gpus, nodes);
    if (placement.gpusOnNode.empty())
    {
        ++m_nodeShapeFallbacks;
        NS_LOG_DEBUG("no " << nodes << " nodes with " << (gpus + nodes - 1) / nodes
                           << " free GPUs each: placed by the rule");
        return Allocate(gpus);
    }
    std::sort(placement.gpusOnNode.begin(), placement.gpusOnNode.end());
    NS_LOG_DEBUG("allocated " << gpus << " GPUs on " << nodes
                              << " nodes: " << placement.ToString());
    return placement;
}

uint64_t
GpuAllocator::NodeShapeFallbacks() const
{
    NS_LOG_FUNCTION(this);
    return m_nodeShapeFallbacks;
}

JobPlacement
GpuAllocator::AllocateOnNodes(uint32_t gpus, uint32_t nodes)
{
    JobPlacement placement;
    const uint32_t share = (gpus + nodes - 1) / nodes; // every chosen node holds this many
    if (share > m_topology.gpusPerNode)
    {
        return placement;
    }
    // Candidate nodes per rack, best fit (fewest free GPUs that still hold the share) first.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> byRack(m_topology.NumRacks());
    for (auto it = m_byFree.lower_bound({share, 0}); it != m_byFree.end(); ++it)
    {
        byRack[m_topology.RackOf(it->second)].push_back(*it);
    }
    int best = -1;
    std::vector<std::pair<uint32_t, uint32_t>> all;
    for (uint32_t rack = 0; rack < byRack.size(); ++rack)
    {
        if (byRack[rack].size() >= nodes && (best < 0 || byRack[rack].size() > byRack[best].size()))
        {
            best = int(rack);
        }
        all.insert(all.end(), byRack[rack].begin(), byRack[rack].end());
    }
    std::vector<std::pair<uint32_t, uint32_t>>& pool = best >= 0 ? byRack[best] : all;
    if (pool.size() < nodes)
    {
        return placement;
    }
    std::sort(pool.begin(), pool.end()); // (free, node): best fit, then lowest index
    uint32_t left = gpus;
    for (uint32_t i = 0; i < nodes; ++i)
    {
        uint32_t n = gpus / nodes + (i < gpus % nodes ? 1 : 0);
        Take(pool[i].second, n);
        placement.gpusOnNode.push_back({pool[i].second, n});
        left -= n;
    }
    NS_ASSERT(left == 0);
    return placement;
}

std::vector<uint32_t>
GpuAllocator::FewestNodesInRack(uint32_t rack, uint32_t gpus) const
{
    std::vector<uint32_t> nodes;
    if (m_freeInRack[rack] < gpus)
    {
        return nodes;
    }
    uint32_t first = rack * m_topology.nodesPerRack;
    uint32_t last = std::min(first + m_topology.nodesPerRack, m_topology.numNodes);
    for (uint32_t n = first; n < last; ++n)
    {
        if (m_freeOnNode[n] > 0)
        {
            nodes.push_back(n);
        }
    }
    // Most free first gives the fewest nodes; ties by index keep it deterministic.
    std::sort(nodes.begin(), nodes.end(), [this](uint32_t a, uint32_t b) {
        return m_freeOnNode[a] != m_freeOnNode[b] ? m_freeOnNode[a] > m_freeOnNode[b] : a < b;
    });
    uint32_t sum = 0;
    size_t used = 0;
    while (sum < gpus)
    {
        sum += m_freeOnNode[nodes[used++]];
    }
    nodes.resize(used);
    return nodes;
}

JobPlacement
GpuAllocator::AllocateConsolidated(uint32_t gpus)
{
    JobPlacement placement;
    // One node: best fit, the node with the fewest free GPUs that still holds the job.
    auto fit = m_byFree.lower_bound({gpus, 0});
    if (fit != m_byFree.end())
    {
        uint32_t node = fit->second;
        Take(node, gpus);
        placement.gpusOnNode.push_back({node, gpus});
        return placement;
    }
    // Several nodes: the rack that needs the fewest of them (ties: lowest rack index).
    uint32_t bestRack = 0;
    uint32_t bestCount = 0;
    for (uint32_t rack = 0; rack < m_topology.NumRacks(); ++rack)
    {
        uint32_t count = FewestNodesCount(rack, gpus);
        if (count > 0 && (bestCount == 0 || count < bestCount))
        {
            bestRack = rack;
            bestCount = count;
        }
    }
    std::vector<uint32_t> best;
    if (bestCount > 0)
    {
        best = FewestNodesInRack(bestRack, gpus);
    }
    else
    {
        // No rack can hold it: the emptiest nodes cluster-wide (fewest nodes overall).
        uint32_t sum = 0;
        for (auto it = m_byFree.rbegin(); it != m_byFree.rend() && sum < gpus; ++it)
        {
            best.push_back(it->second);
            sum += it->first;
        }
    }
    TakeFromNodes(best, gpus, placement);
    return placement;
}

void
GpuAllocator::TakeFromNodes(const std::vector<uint32_t>& nodes,
                            uint32_t gpus,
                            JobPlacement& placement)
{
    for (uint32_t node : nodes)
    {
        uint32_t n = std::min(gpus, m_freeOnNode[node]);
        Take(node, n);
        placement.gpusOnNode.push_back({node, n});
        gpus -= n;
    }
    NS_ASSERT_MSG(gpus == 0, "placement fell short by " << gpus << " GPUs");
}

JobPlacement
GpuAllocator::AllocateSpread(uint32_t gpus)
{
    std::map<uint32_t, uint32_t> taken; // node -> GPUs
    for (uint32_t i = 0; i < gpus; ++i)
    {
        // The emptiest node; among equals the lowest index (set order is by (free, node)).
        auto top = std::prev(m_byFree.end());
        uint32_t most = top->first;
        auto first = m_byFree.lower_bound({most, 0});
        uint32_t node = first->second;
        Take(node, 1);
        ++taken[node];
    }
    JobPlacement placement;
    placement.gpusOnNode.assign(taken.begin(), taken.end());
    return placement;
}

void
GpuAllocator::Release(const JobPlacement& placement)
{
    NS_LOG_FUNCTION(this << placement.ToString());
    for (const auto& [node, gpus] : placement.gpusOnNode)
    {
        NS_ABORT_MSG_IF(m_freeOnNode.at(node) + gpus > m_topology.gpusPerNode,
                        "releasing more GPUs than node " << node << " has");
        SetFree(node, m_freeOnNode[node] + gpus);
    }
}

} // namespace ns3
