/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROVISIONING_DATA_LOADING_H
#define AICLUSTER_PROVISIONING_DATA_LOADING_H

#include "provisioning-model.h"

#include "ns3/cluster-engine.h"
#include "ns3/iteration-model.h"
#include "ns3/storage-data-loading.h"
#include "ns3/traced-callback.h"

#include <map>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The cluster engine's data-loading term from a data-provisioning loader.
 *
 * On every change of the running set, the running jobs (placements, workload profiles) are
 * handed to a ProvisioningModel with one loader (local, DPP, Alluxio or KSpeed); a job whose
 * slowest GPU receives r samples/s gets dataTime = localBatch / r per iteration, so the
 * engine's max(dataTime, computeTime + ...) runs it at min(loader rate, compute rate).
 * GPUs consume at most the catalog's compute rate. The rail cluster is the engine's
 * ClusterTopology (nodes, GPUs per node = NICs per node) on the node template given to
 * SetNodeTemplate. Jobs share storage, pool CPUs and the cache, so every job is coupled.
 */
class ProvisioningDataLoading : public IterationTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ProvisioningDataLoading();

    /**
     * \param loader local | dpp | alluxio | kspeed (or a custom loader via the model)
     * \param storage the backend storage (shared with other components)
     */
    void Configure(const std::string& loader, Ptr<StorageBackend> storage);
    /**
     * \param loader the loader (e.g. created from a TypeId of ComponentRegistry::Aliases())
     * \param storage the backend storage (shared with other components)
     */
    void Configure(Ptr<ProvisioningLoader> loader, Ptr<StorageBackend> storage);
    /** \return per running job (in the order of the last Evaluate()), the loader's results */
    const std::vector<ProvisioningJobResult>& LastResults() const;
    /** \param node node template; rail rate and spines (gpus and nics follow the topology) */
    void SetNodeTemplate(const RailClusterConfig& node);
    /** \return the provisioning model (set its attributes or loader here) */
    Ptr<ProvisioningModel> GetModel() const;

    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    bool DependsOnOtherJobs() const override;
    /** \return the loader's binding resource for this job at its last evaluation */
    std::string Bottleneck(const ClusterJob& job) const override;

    /** Signature of the Solved trace: running jobs, their per-GPU samples/s. */
    typedef void (*SolvedTracedCallback)(const std::vector<ProvisioningJobResult>& results);

  private:
    Ptr<ProvisioningModel> m_model;
    RailClusterConfig m_template;
    uint32_t m_builtNodes{0};
    uint32_t m_builtGpus{0};
    Ptr<StorageBackend> m_storage;
    uint64_t m_evaluations{0};
    std::vector<ProvisioningJobResult> m_lastResults;
    /// the running jobs as the model sees them, kept from pass to pass so that their names'
    /// and placements' storage is reused
    std::vector<ProvisioningJob> m_jobs;
    /// per job id: its last binding resource (looked up for every running job at every pass)
    std::unordered_map<uint64_t, std::string> m_bottleneck;
    TracedCallback<const std::vector<ProvisioningJobResult>&> m_solved;
};

} // namespace ns3

#endif // AICLUSTER_PROVISIONING_DATA_LOADING_H
