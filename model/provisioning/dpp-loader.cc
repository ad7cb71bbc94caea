/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "dpp-loader.h"

#include "provisioning-model.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DppLoader);

TypeId
DppLoader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DppLoader")
                            .SetParent<ProvisioningLoader>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<DppLoader>();
    return tid;
}

std::string
DppLoader::Name() const
{
    return "dpp";
}

bool
DppLoader::ReadsThroughPool(const ProvisioningModel&) const
{
    return true; // AddSampleUsage refuses a DPP without a pool
}

void
DppLoader::AddSampleUsage(const ProvisioningModel& m,
                          const ProvisioningJob& job,
                          const CachePlan&,
                          uint32_t node,
                          uint32_t gpu,
                          UsageBuilder& u) const
{
    if (m.PoolNodes() == 0)
    {
        throw std::invalid_argument("DPP loader: ns3::ProvisioningModel::PoolNodes (DppNodes) is "
                                    "0, expected at least one preprocessing node");
    }
    const WorkloadProfile& p = *job.profile;
    const auto& res = m.Res();
    const RailTopology& t = m.Topology();
    uint32_t rail = gpu % t.GetConfig().node.nics;
    double raw = p.rawBytesPerSample;
    double dec = p.decodedBytesPerSample;
    // Pool side, 1/P on each pool node (the pool balances): read from storage through the
    // job's client there, decode, send the tensor over TCP (copy into the socket buffer, the
    // NIC's DMA read) on the GPU's rail into the trainer's host memory: through the trainer
    // NIC's PCIe switch uplink and memory port, the incast DPP lives with.
    // Every pool node's part alike: the model may build pool node 0's part alone
    // (AddOverPool; its probe checks that each pool node's path to the trainer is a twin).
    double w = 1.0 / m.PoolNodes();
    m.AddOverPool(u, [&](uint32_t q) {
        uint32_t pool = m.PoolNode(q);
        m.AddStorageToHost(job, pool, w * raw, u);
        u.Add(res.cpu.at(pool), w * (p.cpuSecondsPerSample + dec * m.TcpSendCpuPerByte()));
        u.Add(res.dram.at(pool), w * (raw + dec + 2 * dec + dec)); // decode, send copy, DMA
        m.AddPath(t.HostMemory(pool), t.HostMemory(node), rail, w * dec, u);
    });
    // Trainer side: the NIC's DMA write, the TCP receive (stack and the copy to user space),
    // then the pinned staging copy and the copy to the GPU.
    u.Add(res.cpu.at(node), dec * m.TcpReceiveCpuPerByte());
    u.Add(res.dram.at(node), dec + 2 * dec);
    m.AddHostToGpu(node, gpu, dec, u);
}

} // namespace ns3
