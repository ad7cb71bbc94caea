/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "alluxio-loader.h"

#include "provisioning-model.h"

#include "ns3/boolean.h"
#include "ns3/storage-problem.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AlluxioLoader);

TypeId
AlluxioLoader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AlluxioLoader")
                            .SetParent<ProvisioningLoader>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<AlluxioLoader>()
                            .AddAttribute("Lru",
                                          "Evict least recently used blocks (true, Alluxio's "
                                          "default) or pin what is cached (false).",
                                          BooleanValue(true),
                                          MakeBooleanAccessor(&AlluxioLoader::m_lru),
                                          MakeBooleanChecker());
    return tid;
}

std::string
AlluxioLoader::Name() const
{
    return "alluxio";
}

std::vector<CachePlan>
AlluxioLoader::PlanCaches(const ProvisioningModel& m,
                          const std::vector<ProvisioningJob>& jobs) const
{
    // The cache spans all nodes; every dataset gets the same cached fraction (capacity in
    // proportion to its size). With LRU on reshuffled epochs the hit ratio is below c/d.
    std::map<std::string, double> sizes;
    for (const auto& j : jobs)
    {
        sizes[j.Dataset()] = j.profile->datasetBytes;
    }
    double total = 0;
    for (const auto& [name, d] : sizes)
    {
        total += d;
    }
    double capacity = m.CacheBytesPerNode() * m.TrainingNodes();
    double x = total > 0 ? std::min(1.0, capacity / total) : 1.0;
    std::vector<CachePlan> plans(jobs.size());
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        plans[k].rawHit = m_lru ? LruShuffledHitRatio(x) : x;
        plans[k].bytes = x * jobs[k].profile->datasetBytes;
    }
    return plans;
}

void
AlluxioLoader::AddSampleUsage(const ProvisioningModel& m,
                              const ProvisioningJob& job,
                              const CachePlan& cache,
                              uint32_t node,
                              uint32_t gpu,
                              UsageBuilder& u) const
{
    const WorkloadProfile& p = *job.profile;
    const RailTopology& t = m.Topology();
    uint32_t nodes = m.TrainingNodes();
    uint32_t rail = gpu % t.GetConfig().node.nics;
    double raw = p.rawBytesPerSample;
    const auto& res = m.Res();
    // misses: the local worker reads the block from storage; every byte then reaches the
    // client by a short-circuit copy out of the worker's memory (local blocks too)
    double miss = raw * (1 - cache.rawHit);
    m.AddStorageToHost(job, node, miss, u);
    double local = miss + raw * cache.rawHit / nodes;
    u.Add(res.cpu.at(node), local * m.CopyCpuPerByte());
    u.Add(res.dram.at(node), 2 * local);
    // remote hits: blocks are spread evenly, 1/N on each node; the worker holding one sends
    // it over TCP (gRPC) on the rails, the client receives it into user space
    double remote = raw * cache.rawHit / nodes;
    // every peer's path first: links only, so every resource gets its additions in the order
    // a path, CPU and DRAM per peer gave them
    m.AddPathsFromPeers(node, rail, remote, u);
    for (uint32_t src = 0; src < nodes; ++src)
    {
        if (src == node)
        {
            continue;
        }
        u.Add(res.cpu.at(src), remote * m.TcpSendCpuPerByte());
        u.Add(res.dram.at(src), 3 * remote);  // copy into the socket buffer, DMA read
        u.Add(res.dram.at(node), 3 * remote); // DMA write, copy out of the socket buffer
    }
    u.Add(res.cpu.at(node), remote * (nodes - 1) * m.TcpReceiveCpuPerByte());
    // the training process reads every byte through the FUSE mount (two more copies)
    u.Add(res.cpu.at(node), raw * m.FuseCpuPerByte());
    u.Add(res.dram.at(node), 4 * raw);
    // decode on the trainer, stage and copy to the GPU
    u.Add(res.cpu.at(node), p.cpuSecondsPerSample);
    u.Add(res.dram.at(node), raw + p.decodedBytesPerSample);
    m.AddHostToGpu(node, gpu, p.decodedBytesPerSample, u);
}

} // namespace ns3
