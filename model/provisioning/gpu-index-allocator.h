/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_GPU_INDEX_ALLOCATOR_H
#define AICLUSTER_GPU_INDEX_ALLOCATOR_H

#include "ns3/node-pool.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Which GPUs of its nodes a running job holds: the indices that pick its rails and PCIe
 *        switches in the provisioning model.
 *
 * The engine places a job as a GPU count per node. A job keeps its GPUs while it runs, as a
 * device plugin leaves a running container's GPUs alone: a new job takes the lowest free run
 * of consecutive indices on each of its nodes, and a departure frees its run without moving
 * anyone else. Only when a node has enough free GPUs but no run long enough (its free GPUs
 * are split) are that node's jobs numbered again one after the other in id order, which is
 * how the model numbered every node before (ProvisioningModel::Solve without first GPUs).
 */
class GpuIndexAllocator
{
  public:
    /** A job's GPUs on its nodes, as the engine places it: (node, GPUs on it) */
    using Placement = std::vector<std::pair<uint32_t, uint32_t>>;

    /**
     * \brief Forget every job.
     * \param nodes nodes of the cluster
     * \param gpusPerNode GPUs of a node
     */
    void Reset(uint32_t nodes, uint32_t gpusPerNode);

    /**
     * \brief Give a job its GPUs.
     * \param id the job (not holding GPUs)
     * \param placement its GPUs per node; a node may appear more than once
     * \param moved set to the other jobs whose indices moved (their nodes were renumbered)
     * \throw std::invalid_argument when a node is beyond the cluster or has too few free GPUs
     */
    void Take(uint64_t id, const Placement& placement, std::vector<uint64_t>& moved);

    /** \brief Free a job's GPUs (nothing if it holds none). \param id the job */
    void Release(uint64_t id);

    /** \param id a job \return whether it holds GPUs */
    bool Holds(uint64_t id) const;

    /** \param id a job \return the placement it holds GPUs for, or null if it holds none */
    const Placement* HeldPlacement(uint64_t id) const;

    /** \return the jobs holding GPUs, in no particular order */
    std::vector<uint64_t> Jobs() const;

    /**
     * \param id a job holding GPUs
     * \return per entry of its placement, the index of its first GPU on that node
     */
    const std::vector<uint32_t>& FirstGpus(uint64_t id) const;

  private:
    /** A run of GPUs on a node */
    struct Run
    {
        uint32_t first; //!< index of its first GPU
        uint32_t count; //!< its GPUs
    };

    /** Which job's run, which entry of its placement: a node's runs are kept in this order */
    using RunKey = std::pair<uint64_t, uint32_t>;

    /** A node's runs by (job, entry), in a sorted vector: a node holds a few of them */
    using NodeRuns = std::vector<std::pair<RunKey, Run>>;

    /** A job's runs: its placement and, per entry, its first GPU */
    struct Held
    {
        Placement placement;         //!< as given to Take
        std::vector<uint32_t> first; //!< per entry, its first GPU
    };

    /**
     * \param node a node \param count GPUs wanted
     * \return the first index of the lowest free run of count GPUs, or -1 if none
     */
    int64_t LowestFreeRun(uint32_t node, uint32_t count) const;

    /** \brief Mark a run's GPUs on a node used or free. */
    void Mark(uint32_t node, const Run& run, bool used);

    /**
     * \brief Number the runs of a node one after the other in (job, entry) order.
     * \param node the node \param moved the jobs whose first GPU there moved, appended
     */
    void Pack(uint32_t node, std::vector<uint64_t>& moved);

    uint32_t m_gpus{0};                        //!< GPUs per node
    std::vector<NodeRuns> m_runs;              //!< per node, its runs by (job, entry)
    std::vector<char> m_used;                  //!< per node and GPU (node * m_gpus + index)
    std::unordered_map<uint64_t, Held> m_held; //!< by job
    /// released jobs' nodes of m_held, their vectors emptied but keeping their storage: the
    /// next Take uses one instead of allocating a node and two vectors (a Tiresias replay
    /// takes and releases 400,000 times)
    SpareNodes<std::unordered_map<uint64_t, Held>> m_spare;
};

} // namespace ns3

#endif // AICLUSTER_GPU_INDEX_ALLOCATOR_H
