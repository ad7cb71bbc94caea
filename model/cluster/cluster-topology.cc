/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-topology.h"

#include <set>
#include <sstream>

namespace ns3
{

uint32_t
JobPlacement::TotalGpus() const
{
    uint32_t total = 0;
    for (const auto& [node, gpus] : gpusOnNode)
    {
        total += gpus;
    }
    return total;
}

uint32_t
JobPlacement::NumRacks(const ClusterTopology& topology) const
{
    std::set<uint32_t> racks;
    for (const auto& entry : gpusOnNode)
    {
        racks.insert(topology.RackOf(entry.first));
    }
    return static_cast<uint32_t>(racks.size());
}

std::string
JobPlacement::ToString() const
{
    std::ostringstream out;
    for (size_t i = 0; i < gpusOnNode.size(); ++i)
    {
        out << (i ? " " : "") << 'n' << gpusOnNode[i].first << ':' << gpusOnNode[i].second;
    }
    return out.str();
}

} // namespace ns3
