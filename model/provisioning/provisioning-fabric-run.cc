/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "provisioning-fabric-run.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProvisioningFabricRun");
NS_OBJECT_ENSURE_REGISTERED(ProvisioningFabricRun);

TypeId
ProvisioningFabricRun::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProvisioningFabricRun")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<ProvisioningFabricRun>()
            .AddAttribute("ChunkSamples",
                          "Samples moved as one unit (one set of transfers) [samples].",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ProvisioningFabricRun::m_chunkSamples),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

ProvisioningFabricRun::ProvisioningFabricRun() = default;

void
ProvisioningFabricRun::Setup(Ptr<ProvisioningModel> model, Ptr<RdmaFabric> fabric)
{
    if (model->GetFlows().empty())
    {
        throw std::invalid_argument("ProvisioningFabricRun::Setup: the model has no per-GPU "
                                    "flows (Solve first, with AggregatePerNode false)");
    }
    if (fabric->GetTopology().GetNVertices() != model->Topology().GetNVertices())
    {
        throw std::invalid_argument("ProvisioningFabricRun::Setup: the fabric was not built "
                                    "from the model's FabricConfig()");
    }
    m_model = model;
    m_fabric = fabric;
}

void
ProvisioningFabricRun::StartChunk(uint32_t flow)
{
    // Non-link resources are FIFO servers; a chunk reserves its share of each at once
    // (pipelined stages), and also waits for its GPU to have room (consumption rate).
    const ProvisioningFlow& f = m_model->GetFlows()[flow];
    const auto& caps = m_model->Capacities();
    double now = Simulator::Now().GetSeconds();
    double ready = now;
    for (const auto& [res, w] : f.usage)
    {
        if (m_model->IsLink(res))
        {
            continue;
        }
        double start = std::max(now, m_nextFree[res]);
        m_nextFree[res] = start + w * m_chunkSamples / caps[res];
        ready = std::max(ready, m_nextFree[res]);
    }
    if (std::isfinite(f.demand) && f.demand > 0)
    {
        double start = std::max(now, m_gpuFree[flow]);
        m_gpuFree[flow] = start + m_chunkSamples / f.demand;
        ready = std::max(ready, start);
    }
    Simulator::Schedule(Seconds(ready - now), &ProvisioningFabricRun::PostTransfers, this, flow);
}

void
ProvisioningFabricRun::PostTransfers(uint32_t flow)
{
    const ProvisioningFlow& f = m_model->GetFlows()[flow];
    if (f.transfers.empty())
    {
        TransferDone(flow);
        return;
    }
    // one counter per chunk: chunks of one flow complete independently
    auto left = std::make_shared<uint32_t>(f.transfers.size());
    for (const auto& t : f.transfers)
    {
        auto bytes = static_cast<uint64_t>(std::llround(t.bytes * m_chunkSamples));
        RdmaTransferOptions opt;
        opt.srcNic = static_cast<int32_t>(t.rail);
        opt.dstNic = static_cast<int32_t>(t.rail);
        m_fabric->Write(
            t.src,
            t.dst,
            std::max<uint64_t>(1, bytes),
            [this, flow, left](const RdmaTransferResult&) {
                if (--*left == 0)
                {
                    TransferDone(flow);
                }
            },
            opt);
    }
}

void
ProvisioningFabricRun::TransferDone(uint32_t flow)
{
    double now = Simulator::Now().GetSeconds();
    if (now >= m_warmup && now <= m_end)
    {
        m_delivered[flow] += m_chunkSamples;
    }
    ++m_chunks;
    if (now < m_end)
    {
        StartChunk(flow);
    }
}

std::vector<double>
ProvisioningFabricRun::Run(Time warmup, Time end)
{
    if (!m_model)
    {
        throw std::logic_error("ProvisioningFabricRun::Run: call Setup first");
    }
    if (!(warmup < end))
    {
        throw std::invalid_argument("ProvisioningFabricRun::Run: expected warmup < end");
    }
    const auto& flows = m_model->GetFlows();
    m_nextFree.assign(m_model->Capacities().size(), 0.0);
    m_gpuFree.assign(flows.size(), 0.0);
    m_delivered.assign(flows.size(), 0);
    m_warmup = warmup.GetSeconds();
    m_end = end.GetSeconds();
    m_chunks = 0;
    UintegerValue depth;
    m_model->GetAttribute("PrefetchDepth", depth);
    for (uint32_t f = 0; f < flows.size(); ++f)
    {
        for (uint64_t d = 0; d < depth.Get(); ++d)
        {
            StartChunk(f);
        }
    }
    Simulator::Stop(end);
    Simulator::Run();
    std::vector<double> rates;
    for (uint64_t n : m_delivered)
    {
        rates.push_back(n / (m_end - m_warmup));
    }
    return rates;
}

} // namespace ns3
