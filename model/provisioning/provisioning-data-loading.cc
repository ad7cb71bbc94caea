/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
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
    // a replay solves at every scheduling pass with fixed attributes: reuse each flow's usage
    m_model->SetAttribute("ReuseUsages", BooleanValue(true));
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
ProvisioningDataLoading::Configure(Ptr<ProvisioningLoader> loader, Ptr<StorageBackend> storage)
{
    NS_LOG_FUNCTION(this << loader << storage);
    if (!storage || !loader)
    {
        throw std::invalid_argument(
            "ProvisioningDataLoading::Configure: loader or storage is null");
    }
    m_model->SetLoader(loader);
    m_storage = storage;
    m_builtNodes = 0;
}

const std::vector<ProvisioningJobResult>&
ProvisioningDataLoading::LastResults() const
{
    return m_lastResults;
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
                                  const std::vector<Ptr<const ClusterJob>>& running,
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
    std::vector<ProvisioningJob>& jobs = m_jobs;
    jobs.resize(running.size());
    for (size_t k = 0; k < running.size(); ++k)
    {
        const auto& j = running[k];
        ProvisioningJob& pj = jobs[k];
        pj.name = std::to_string(j->record.id);
        pj.profile = j->profile;
        pj.gpusOnNode.assign(j->placement.gpusOnNode.begin(), j->placement.gpusOnNode.end());
        pj.gpuRate = -1;
        // GPUs consume at the engine's compute pace on this placement (catalog otherwise)
        if (j->computeTime > 0 && j->profile)
        {
            pj.gpuRate = j->profile->localBatch / j->computeTime;
        }
    }
    Ptr<LinkShare> links = GetLinkShare();
    if (links)
    {
        // Gradient sync crosses the same rails: the loader gets what its demand leaves.
        m_model->SetRailReserve(links->SyncReserve(running));
    }
    auto results = m_model->Solve(jobs);
    if (links)
    {
        std::vector<double> out;
        std::vector<double> in;
        m_model->RailLoads(out, in);
        links->SetDataLoad(out, in);
    }
    for (size_t k = 0; k < running.size(); ++k)
    {
        double r = results[k].perGpu;
        if (running[k]->computeTime > 0 && results[k].bottleneck == "gpu")
        {
            // The loader keeps up (the solver's rate is the GPU's demand to within its
            // tolerance): the GPU's own pace, exactly. batch / rate is an ulp or so above the
            // compute time and would show as data stall.
            seconds[k] = running[k]->computeTime;
            continue;
        }
        seconds[k] = r > 0 ? running[k]->profile->localBatch / r : 1e30;
    }
    for (size_t k = 0; k < running.size() && k < results.size(); ++k)
    {
        m_bottleneck[running[k]->record.id] = results[k].bottleneck;
    }
    ++m_evaluations;
    m_solved(results);
    m_lastResults = std::move(results);
}

std::string
ProvisioningDataLoading::Bottleneck(const ClusterJob& job) const
{
    auto it = m_bottleneck.find(job.record.id);
    return it == m_bottleneck.end() || it->second.empty() ? "loader" : it->second;
}

} // namespace ns3
