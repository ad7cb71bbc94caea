/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROVISIONING_LOADER_H
#define AICLUSTER_PROVISIONING_LOADER_H

#include "ns3/max-min-solver.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/workload-catalog.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * ProvisioningLoader, the data loaders' base class, and what a loader works with: ProvisioningJob,
 * CachePlan, UsageBuilder.
 */

namespace ns3
{

class ProvisioningModel;

/**
 * \ingroup aicluster
 * \brief One training job as the data-provisioning model sees it.
 */
struct ProvisioningJob
{
    std::string name;                                      //!< label for results
    const WorkloadProfile* profile{nullptr};               //!< catalog entry (must be set)
    std::vector<std::pair<uint32_t, uint32_t>> gpusOnNode; //!< (node, GPUs on it)
    /**
     * Per entry of gpusOnNode, the index of its first GPU on that node (its GPUs are
     * consecutive from it: they pick its rails and PCIe switches). Empty: after the GPUs of
     * the jobs before it in the list solved. A list solved gives them for every job or none.
     */
    std::vector<uint32_t> firstGpu;
    /**
     * Samples/s one GPU consumes; < 0: the catalog's compute rate SamplesPerSecond(g)/g;
     * +infinity: a pure loading benchmark (the loader's capacity).
     */
    double gpuRate{-1};

    /** \return GPUs in total */
    uint32_t TotalGpus() const;
    /** \return samples/s one of its GPUs consumes: gpuRate, else the catalog's compute rate */
    double GpuDemand() const;
    /** \return the dataset's name (profile's dataset, else the workload name) */
    std::string Dataset() const;
};

/**
 * \ingroup aicluster
 * \brief How a loader keeps one dataset in the cluster's memory tier.
 */
struct CachePlan
{
    double rawHit{0};     //!< fraction of samples served from cached raw bytes
    double decodedHit{0}; //!< fraction served from cached preprocessed samples
    double bytes{0};      //!< cache bytes the dataset holds
};

/**
 * \ingroup aicluster
 * \brief A flow's use of resources, merged per resource (weights per sample).
 */
class UsageBuilder
{
  public:
    /** A bulk transfer between two fabric endpoints, per sample. */
    struct Transfer
    {
        uint32_t src;  //!< source endpoint (vertex)
        uint32_t dst;  //!< destination endpoint (vertex)
        uint32_t rail; //!< NIC index on both sides (ignored inside a node)
        double bytes;  //!< payload bytes per sample
    };

    /** \param resource id \param weight units of the resource per sample (> 0 kept) */
    void Add(uint32_t resource, double weight);
    /** \param t a transfer (recorded for the packet-level realization) */
    void AddTransfer(const Transfer& t);

    /** \brief Make room for n weights in all \param n weights expected */
    void Reserve(size_t n)
    {
        m_usage.reserve(n);
    }

    /** \return weights added so far (a position for AddAgain) */
    size_t Size() const
    {
        return m_usage.size();
    }

    /**
     * \brief Add the weights added since `from` whose resource `keep` accepts, `times` more
     *        times, in the order a loop adding them again and again would.
     *
     * Take sums every resource's weights in the order they were added, and so does it here:
     * a resource that has one weight among them is summed that many times over (at the cost
     * of the additions, without copies); one with several gets copies, interleaved as added.
     * \param from first weight (Size() when they began) \param times repetitions
     * \param keep which resources are repeated (the others were added once)
     */
    void AddAgain(size_t from, uint32_t times, const std::function<bool(uint32_t)>& keep);
    /** \return merged (resource, weight) list; clears it */
    std::vector<MaxMinSolver::Usage> Take();

    /** \return the transfers recorded so far */
    const std::vector<Transfer>& Transfers() const
    {
        return m_transfers;
    }

  private:
    /// Usages in the order they were added; Take() merges them (a std::map per flow cost an
    /// allocation per usage at every provisioning pass)
    std::vector<MaxMinSolver::Usage> m_usage;
    /// (index in m_usage, n): that weight is added n times over (AddAgain), ascending indices
    std::vector<std::pair<size_t, uint32_t>> m_repeats;
    std::vector<Transfer> m_transfers;
};

/**
 * \ingroup aicluster
 * \brief A data loader: where each sample a GPU consumes is read, decoded and copied.
 *
 * One interface, four implementations (local, DPP, Alluxio, KSpeed). A loader describes, per
 * sample delivered to one GPU, how many units of every resource it takes (bytes of storage,
 * of a storage client, of PCIe links and rails, of host memory; core-seconds of CPU);
 * ProvisioningModel turns these into a max-min problem. PlanCaches decides how a loader with
 * a memory tier keeps each dataset.
 */
class ProvisioningLoader : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    /** \return short name: local, dpp, alluxio, kspeed */
    virtual std::string Name() const = 0;
    /**
     * A job's plan may depend on the running jobs' profiles, and per dataset on the profile of
     * the last job reading it, but not on placements: ProvisioningDataLoading plans once per
     * running profile (PaceGroups).
     * \param model the model (parameters, topology, resources)
     * \param jobs the jobs
     * \return per job, its dataset's cache plan (default: no cache)
     */
    virtual std::vector<CachePlan> PlanCaches(const ProvisioningModel& model,
                                              const std::vector<ProvisioningJob>& jobs) const;
    /**
     * Whether every sample passes through all the provisioning pool's cores (DPP, and KSpeed
     * spread over a pool of its own). ProvisioningDataLoading keeps the running flows at one
     * water level on the stage they all share: the pool's cores if so, else the storage
     * backend.
     * \param model the model (its pool size)
     * \return true if the samples are read and prepared on the pool (default: false)
     */
    virtual bool ReadsThroughPool(const ProvisioningModel& model) const;
    /**
     * Add the resources one sample delivered to GPU (node, gpu) of a job uses.
     * \param model the model \param job the job \param cache its dataset's plan
     * \param node node of the GPU \param gpu GPU index on the node \param u output
     */
    virtual void AddSampleUsage(const ProvisioningModel& model,
                                const ProvisioningJob& job,
                                const CachePlan& cache,
                                uint32_t node,
                                uint32_t gpu,
                                UsageBuilder& u) const = 0;
    /**
     * \param name local | dpp | alluxio | kspeed
     * \return a new loader with default attributes
     * \throws std::invalid_argument naming the unknown loader
     */
    static Ptr<ProvisioningLoader> Create(const std::string& name);
};

} // namespace ns3

#endif // AICLUSTER_PROVISIONING_LOADER_H
