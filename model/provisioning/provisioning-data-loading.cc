/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "provisioning-data-loading.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProvisioningDataLoading");
NS_OBJECT_ENSURE_REGISTERED(ProvisioningDataLoading);

TypeId
ProvisioningDataLoading::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProvisioningDataLoading")
            .SetParent<IterationTermModel>()
            .SetGroupName("Aicluster")
            .AddConstructor<ProvisioningDataLoading>()
            .AddTraceSource("Solved",
                            "Per-job loader results after each evaluation.",
                            MakeTraceSourceAccessor(&ProvisioningDataLoading::m_solved),
                            "ns3::ProvisioningDataLoading::SolvedTracedCallback");
    return tid;
}

ProvisioningDataLoading::ProvisioningDataLoading()
    : m_model(CreateObject<ProvisioningModel>())
{
    // whole-cluster replays: one flow per (job, node); exact under rail affinity
    m_model->SetAttribute("AggregatePerNode", BooleanValue(true));
}

void
ProvisioningDataLoading::Configure(const std::string& loader, Ptr<StorageBackend> storage)
{
    if (!storage)
    {
        throw std::invalid_argument("ProvisioningDataLoading::Configure: storage is null");
    }
    m_model->SetLoader(ProvisioningLoader::Create(loader));
    m_storage = storage;
    m_builtNodes = 0;
}

void
ProvisioningDataLoading::SetNodeTemplate(const RailClusterConfig& node)
{
    m_template = node;
    m_builtNodes = 0;
}

Ptr<ProvisioningModel>
ProvisioningDataLoading::GetModel() const
{
    return m_model;
}

bool
ProvisioningDataLoading::DependsOnOtherJobs() const
{
    return true;
}

void
ProvisioningDataLoading::Evaluate(const ClusterTopology& topology,
                                  const std::vector<Ptr<ClusterJob>>& running,
                                  std::vector<double>& seconds)
{
    if (!m_storage || !m_model->GetLoader())
    {
        throw std::logic_error("ProvisioningDataLoading: call Configure(loader, storage) first");
    }
    if (m_builtNodes != topology.numNodes || m_builtGpus != topology.gpusPerNode)
    {
        RailClusterConfig c = m_template;
        c.nodes = topology.numNodes;
        c.node.gpus = topology.gpusPerNode;
        c.node.nics = topology.gpusPerNode;
        c.node.pcieSwitches = std::min(c.node.pcieSwitches, topology.gpusPerNode);
        m_model->SetCluster(c, m_storage);
        m_builtNodes = topology.numNodes;
        m_builtGpus = topology.gpusPerNode;
    }
    std::vector<ProvisioningJob> jobs;
    for (const auto& j : running)
    {
        ProvisioningJob pj;
        pj.name = std::to_string(j->record.id);
        pj.profile = j->profile;
        pj.gpusOnNode = j->placement.gpusOnNode;
        // GPUs consume at the engine's compute pace on this placement (catalog otherwise)
        if (j->computeTime > 0 && j->profile)
        {
            pj.gpuRate = j->profile->localBatch / j->computeTime;
        }
        jobs.push_back(pj);
    }
    auto results = m_model->Solve(jobs);
    for (size_t k = 0; k < running.size(); ++k)
    {
        double r = results[k].perGpu;
        seconds[k] = r > 0 ? running[k]->profile->localBatch / r : 1e30;
    }
    ++m_evaluations;
    m_solved(results);
}

} // namespace ns3
