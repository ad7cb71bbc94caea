/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_ENGINE_HELPER_H
#define AICLUSTER_CLUSTER_ENGINE_HELPER_H

#include "ns3/cluster-engine.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Builds ClusterEngine instances, ns-3 helper style.
 *
 * \code
 *   ClusterEngineHelper helper;
 *   helper.SetTopology(topology);
 *   helper.SetScheduler("ns3::TiresiasPolicy", "Thresholds", StringValue("3600,36000"));
 *   Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
 *   engine->Run();
 * \endcode
 */
class ClusterEngineHelper
{
  public:
    ClusterEngineHelper();

    /** \param topology the cluster's shape */
    void SetTopology(const ClusterTopology& topology);

    /**
     * \param type TypeId name of a SchedulingPolicy, e.g. "ns3::FifoPolicy"
     * \param args attribute name / value pairs
     */
    template <typename... Ts>
    void SetScheduler(const std::string& type, Ts&&... args);

    /**
     * \param type TypeId name of a GpuAllocator
     * \param args attribute name / value pairs, e.g. "Rule", EnumValue(GpuAllocator::SPREAD)
     */
    template <typename... Ts>
    void SetAllocator(const std::string& type, Ts&&... args);

    /**
     * \param type TypeId name of an IterationTermModel for data loading
     * \param args attribute name / value pairs
     */
    template <typename... Ts>
    void SetDataLoadingModel(const std::string& type, Ts&&... args);

    /**
     * \param type TypeId name of an IterationTermModel for gradient sync
     * \param args attribute name / value pairs
     */
    template <typename... Ts>
    void SetGradientSyncModel(const std::string& type, Ts&&... args);

    /**
     * \brief Choose the gradient-sync model by its scenario name.
     * \param name a "sync" short name of ComponentRegistry: ideal, none or ring (ring
     *        all-reduce, ns3::RingAllReduceSync), or switchml,
     *        atp, esa (in-network aggregation, ns3::InaGradientSync with that Policy)
     * \param poolSize aggregators per switch for switchml/atp/esa; 0 = the attribute's default
     * \throws std::invalid_argument naming an unknown model
     */
    void SetGradientSyncByName(const std::string& name, uint32_t poolSize = 0);

    /**
     * \param jobs annotated jobs to replay
     * \param catalog the workload catalog (must outlive the engine)
     * \return a new engine, ready to Run()
     */
    Ptr<ClusterEngine> Create(const std::vector<JobRecord>& jobs,
                              const WorkloadCatalog& catalog) const;

    /**
     * \param name a scheduling policy's short name: fifo, sjf or tiresias
     * \return its TypeId name
     * \throws std::invalid_argument naming the unknown policy and listing the known ones
     */
    static std::string SchedulerTypeName(const std::string& name);

    /** \return the short names SchedulerTypeName() accepts */
    static std::vector<std::string> SchedulerNames();

  private:
    ClusterTopology m_topology;
    ObjectFactory m_scheduler;
    ObjectFactory m_allocator;
    ObjectFactory m_dataModel;
    ObjectFactory m_syncModel;
};

template <typename... Ts>
void
ClusterEngineHelper::SetScheduler(const std::string& type, Ts&&... args)
{
    m_scheduler.SetTypeId(type);
    m_scheduler.Set(std::forward<Ts>(args)...);
}

template <typename... Ts>
void
ClusterEngineHelper::SetAllocator(const std::string& type, Ts&&... args)
{
    m_allocator.SetTypeId(type);
    m_allocator.Set(std::forward<Ts>(args)...);
}

template <typename... Ts>
void
ClusterEngineHelper::SetDataLoadingModel(const std::string& type, Ts&&... args)
{
    m_dataModel.SetTypeId(type);
    m_dataModel.Set(std::forward<Ts>(args)...);
}

template <typename... Ts>
void
ClusterEngineHelper::SetGradientSyncModel(const std::string& type, Ts&&... args)
{
    m_syncModel.SetTypeId(type);
    m_syncModel.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif // AICLUSTER_CLUSTER_ENGINE_HELPER_H
