/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-engine-helper.h"

#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{
const std::map<std::string, std::string>&
SchedulerTable()
{
    static const std::map<std::string, std::string> table{{"fifo", "ns3::FifoPolicy"},
                                                          {"sjf", "ns3::SjfPolicy"},
                                                          {"tiresias", "ns3::TiresiasPolicy"}};
    return table;
}
} // namespace

ClusterEngineHelper::ClusterEngineHelper()
{
    m_scheduler.SetTypeId("ns3::FifoPolicy");
    m_allocator.SetTypeId("ns3::GpuAllocator");
    m_dataModel.SetTypeId("ns3::IdealDataLoading");
    m_syncModel.SetTypeId("ns3::IdealGradientSync");
}

void
ClusterEngineHelper::SetTopology(const ClusterTopology& topology)
{
    m_topology = topology;
}

void
ClusterEngineHelper::SetGradientSyncByName(const std::string& name, uint32_t poolSize)
{
    if (name == "ideal")
    {
        m_syncModel = ObjectFactory("ns3::IdealGradientSync");
    }
    else if (name == "none")
    {
        m_syncModel = ObjectFactory("ns3::RingAllReduceSync");
    }
    else if (name == "switchml" || name == "atp" || name == "esa")
    {
        m_syncModel = ObjectFactory("ns3::InaGradientSync");
        m_syncModel.Set("Policy", StringValue(name));
        if (poolSize > 0)
        {
            m_syncModel.Set("PoolSize", UintegerValue(poolSize));
        }
    }
    else
    {
        throw std::invalid_argument("unknown gradient-sync model '" + name +
                                    "' (known: ideal, none, switchml, atp, esa)");
    }
}

Ptr<ClusterEngine>
ClusterEngineHelper::Create(const std::vector<JobRecord>& jobs,
                            const WorkloadCatalog& catalog) const
{
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
    auto it = SchedulerTable().find(name);
    if (it == SchedulerTable().end())
    {
        std::string known;
        for (const auto& n : SchedulerNames())
        {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw std::invalid_argument("unknown scheduling policy '" + name + "' (known: " + known +
                                    ")");
    }
    return it->second;
}

std::vector<std::string>
ClusterEngineHelper::SchedulerNames()
{
    std::vector<std::string> names;
    for (const auto& entry : SchedulerTable())
    {
        names.push_back(entry.first);
    }
    return names;
}

} // namespace ns3
