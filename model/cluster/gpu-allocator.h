/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_GPU_ALLOCATOR_H
#define AICLUSTER_GPU_ALLOCATOR_H

#include "cluster-topology.h"

#include "ns3/object.h"

#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Keeps the free GPUs of every node and places jobs on them.
 *
 * Two placement rules:
 *  - consolidated (default): fewest nodes, then fewest racks. A job that fits
 *    on one node goes to the node with the fewest free GPUs that can hold it
 *    (best fit, which keeps whole nodes free for large jobs); a larger job
 *    takes whole-as-possible nodes inside the one rack that needs the fewest
 *    nodes, and spills across racks only when no rack can hold it.
 *  - spread: one GPU at a time on the node with the most free GPUs
 *    (spreads load, e.g. for data-loading or network studies).
 * A placement never fails while the cluster has enough free GPUs in total.
 */
class GpuAllocator : public Object
{
  public:
    /** Placement rules. */
    enum Rule
    {
        CONSOLIDATED, //!< fewest nodes, then fewest racks
        SPREAD,       //!< round-robin over the emptiest nodes
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    GpuAllocator();

    /** \param topology the cluster to manage; every GPU starts free */
    void Reset(const ClusterTopology& topology);

    /** \return the cluster */
    const ClusterTopology& Topology() const;
    /** \return GPUs free now */
    uint32_t FreeGpus() const;
    /** \param node a node \return its free GPUs */
    uint32_t FreeGpusOn(uint32_t node) const;

    /**
     * \param gpus GPUs wanted (<= FreeGpus())
     * \return the placement, already taken from the free pool
     */
    JobPlacement Allocate(uint32_t gpus);

    /**
     * \brief Place a job that asked for a node count too (Acme's node_num).
     *
     * With nodes > 0 the job goes on exactly that many nodes, gpus / nodes each
     * (the first gpus % nodes one more), best fit inside the rack with the most
     * such nodes (ties: lowest rack), or cluster-wide if no rack has enough; so
     * 8 nodes x 8 GPUs get 8 whole nodes. When no such set of nodes is free the
     * job is placed by the Rule instead, and NodeShapeFallbacks() counts it.
     * \param gpus GPUs wanted (<= FreeGpus())
     * \param nodes nodes wanted, 0 = any (then it is Allocate(gpus))
     * \return the placement, already taken from the free pool
     */
    JobPlacement Allocate(uint32_t gpus, uint32_t nodes);

    /** \return jobs that asked for a node count but were placed by the Rule (no such nodes free) */
    uint64_t NodeShapeFallbacks() const;

    /** \param placement GPUs to give back (as returned by Allocate) */
    void Release(const JobPlacement& placement);

  private:
    JobPlacement AllocateConsolidated(uint32_t gpus);
    JobPlacement AllocateSpread(uint32_t gpus);
    /** Exactly `nodes` nodes with ceil(gpus / nodes) free each; empty placement if none. */
    JobPlacement AllocateOnNodes(uint32_t gpus, uint32_t nodes);
    /** Take n GPUs from node, keeping the index in step. */
    void Take(uint32_t node, uint32_t n);
    /** Take gpus from nodes in the given order, filling each before the next. */
    void TakeFromNodes(const std::vector<uint32_t>& nodes, uint32_t gpus, JobPlacement& placement);
    /** Nodes of one rack, most free GPUs first, enough to hold gpus (empty if they can't). */
    std::vector<uint32_t> FewestNodesInRack(uint32_t rack, uint32_t gpus) const;
    /**
     * \param rack a rack \param gpus GPUs wanted
     * \return FewestNodesInRack(rack, gpus).size(), from the rack's counts of nodes per free
     *         GPUs (no list, no sort: a consolidated placement asks every rack)
     */
    uint32_t FewestNodesCount(uint32_t rack, uint32_t gpus) const;
    /**
     * \brief Give a node this many free GPUs, keeping every index in step (m_byFree, the
     *        rack's free GPUs and its counts of nodes per free GPUs, m_free).
     * \param node a node \param free its free GPUs from now on
     */
    void SetFree(uint32_t node, uint32_t free);
    /** \param rack a rack \param free a free GPU count \return its nodes with that many free */
    uint32_t& NodesWithFree(uint32_t rack, uint32_t free);

    Rule m_rule;
    ClusterTopology m_topology;
    std::vector<uint32_t> m_freeOnNode;
    std::vector<uint32_t> m_freeInRack;
    /// per rack, per free GPU count 0 .. gpusPerNode: its nodes with that many free
    std::vector<uint32_t> m_nodesByFreeInRack;
    uint32_t m_free{0};
    uint64_t m_nodeShapeFallbacks{0}; //!< see NodeShapeFallbacks()
    /** (free GPUs, node) for every node with a free GPU: best fit and most-free in O(log n). */
    std::set<std::pair<uint32_t, uint32_t>> m_byFree;
};

} // namespace ns3

#endif // AICLUSTER_GPU_ALLOCATOR_H
