/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-engine-helper.h"

#include "ns3/component-registry.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterEngineHelper");

ClusterEngineHelper::ClusterEngineHelper()
{
    NS_LOG_FUNCTION(this);
    m_scheduler.SetTypeId("ns3::FifoPolicy");
    m_allocator.SetTypeId("ns3::GpuAllocator");
    m_dataModel.SetTypeId("ns3::IdealDataLoading");
    m_syncModel.SetTypeId("ns3::IdealGradientSync");
}

void
ClusterEngineHelper::SetTopology(const ClusterTopology& topology)
{
    NS_LOG_FUNCTION(this << topology.numNodes << topology.gpusPerNode);
    m_topology = topology;
}

void
ClusterEngineHelper::SetGradientSyncByName(const std::string& name, uint32_t poolSize)
{
    NS_LOG_FUNCTION(this << name << poolSize);
    m_syncModel = ComponentRegistry::Factory(ComponentRegistry::Find("sync", name));
    TypeId::AttributeInformation info;
    if (poolSize > 0 && m_syncModel.GetTypeId().LookupAttributeByName("PoolSize", &info))
    {
        m_syncModel.Set("PoolSize", UintegerValue(poolSize));
    }
}

Ptr<ClusterEngine>
ClusterEngineHelper::Create(const std::vector<JobRecord>& jobs,
                            const WorkloadCatalog& catalog) const
{
    NS_LOG_FUNCTION(this << jobs.size() << &catalog);
    Ptr<ClusterEngine> engine = CreateObject<ClusterEngine>();
    engine->SetTopology(m_topology);
    engine->SetScheduler(m_scheduler.Create<SchedulingPolicy>());
    engine->SetAllocator(m_allocator.Create<GpuAllocator>());
    engine->SetDataLoadingModel(m_dataModel.Create<IterationTermModel>());
    engine->SetGradientSyncModel(m_syncModel.Create<IterationTermModel>());
    engine->SetJobs(jobs, catalog);
    return engine;
}

std::string
ClusterEngineHelper::SchedulerTypeName(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    return ComponentRegistry::Find("scheduler", name).typeId;
}

std::vector<std::string>
ClusterEngineHelper::SchedulerNames()
{
    NS_LOG_FUNCTION_NOARGS();
    return ComponentRegistry::Names("scheduler");
}

} // namespace ns3
