/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_TOPOLOGY_H
#define AICLUSTER_CLUSTER_TOPOLOGY_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Shape of the simulated GPU cluster: nodes of equal GPU count grouped into racks.
 *
 * The defaults are the one set of defaults of the whole project: ns3::ClusterBuilder's
 * attributes, the command line and scenario files start from them (the cluster the bundled
 * sample trace is generated for, traces/README.md).
 */
struct ClusterTopology
{
    uint32_t numNodes{16};    //!< training nodes
    uint32_t gpusPerNode{8};  //!< GPUs per node
    uint32_t nodesPerRack{4}; //!< nodes under one top-of-rack switch

    /** \return total GPUs */
    uint32_t TotalGpus() const
    {
        return numNodes * gpusPerNode;
    }

    /** \return number of racks (the last one may be partly filled) */
    uint32_t NumRacks() const
    {
        return (numNodes + nodesPerRack - 1) / nodesPerRack;
    }

    /** \param node a node index \return its rack index */
    uint32_t RackOf(uint32_t node) const
    {
        return node / nodesPerRack;
    }
};

/**
 * \ingroup aicluster
 * \brief Where a job runs: GPUs taken on each node.
 */
struct JobPlacement
{
    std::vector<std::pair<uint32_t, uint32_t>> gpusOnNode; //!< (node index, GPUs on it), by node

    /** \return GPUs in total */
    uint32_t TotalGpus() const;

    /** \return number of nodes used */
    uint32_t NumNodes() const
    {
        return static_cast<uint32_t>(gpusOnNode.size());
    }

    /** \param topology the cluster \return number of distinct racks used */
    uint32_t NumRacks(const ClusterTopology& topology) const;
    /** \return "n3:8,n4:8" style text for result files */
    std::string ToString() const;
};

} // namespace ns3

#endif // AICLUSTER_CLUSTER_TOPOLOGY_H
