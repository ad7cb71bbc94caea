/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ring-all-reduce-sync.h"

#include "cluster-job.h"
#include "link-share.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <string>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduceSync");
NS_OBJECT_ENSURE_REGISTERED(RingAllReduceSync);

TypeId
RingAllReduceSync::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllReduceSync")
                            .SetParent<IterationTermModel>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<RingAllReduceSync>()
                            .AddAttribute("NvlinkBandwidth",
                                          "Per-GPU NVLink bandwidth inside a node [bit/s]",
                                          DataRateValue(DataRate("2400Gbps")),
                                          MakeDataRateAccessor(&RingAllReduceSync::m_nvlink),
                                          MakeDataRateChecker())
                            .AddAttribute("NvlinkLatency",
                                          "Latency of one ring step inside a node [s]",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&RingAllReduceSync::m_nvlinkLatency),
                                          MakeTimeChecker(Seconds(0)))
                            .AddAttribute("NicRate",
                                          "NIC rate once the ring crosses nodes [bit/s]",
                                          DataRateValue(DataRate("100Gbps")),
                                          MakeDataRateAccessor(&RingAllReduceSync::m_nic),
                                          MakeDataRateChecker())
                            .AddAttribute("NicLatency",
                                          "Latency of one ring step between nodes [s]",
                                          TimeValue(MicroSeconds(2)),
                                          MakeTimeAccessor(&RingAllReduceSync::m_nicLatency),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

RingAllReduceSync::RingAllReduceSync()
{
    NS_LOG_FUNCTION(this);
}

bool
RingAllReduceSync::DependsOnOtherJobs() const
{
    return false;
}

void
RingAllReduceSync::LinkTraffic(const ClusterJob& job, std::vector<SyncLinkTraffic>& traffic) const
{
    const uint32_t gpus = job.placement.TotalGpus();
    if (job.placement.gpusOnNode.size() < 2 || !job.profile || gpus < 2)
    {
        return; // NVLink only
    }
    // Every GPU's NIC sends (and receives) 2(n-1)/n of the gradient bytes.
    const double perGpu = 2.0 * (gpus - 1) / gpus * job.profile->gradientBytes;
    for (const auto& [node, g] : job.placement.gpusOnNode)
    {
        traffic.push_back({node, g * perGpu, g * m_nic.GetBitRate() / 8.0});
    }
}

std::string
RingAllReduceSync::Bottleneck(const ClusterJob& job) const
{
    auto it = m_bound.find(job.record.id);
    if (it != m_bound.end())
    {
        return it->second;
    }
    return job.placement.gpusOnNode.size() < 2 ? "nvlink" : "link:nic";
}

double
RingAllReduceSync::SyncTime(uint32_t gpus, uint32_t nodes, double bytes, double share) const
{
    if (gpus < 2)
    {
        return 0.0;
    }
    const bool crossesNodes = nodes > 1;
    const double bw =
        crossesNodes ? m_nic.GetBitRate() * share : static_cast<double>(m_nvlink.GetBitRate());
    const double lat = (crossesNodes ? m_nicLatency : m_nvlinkLatency).GetSeconds();
    return 2.0 * (gpus - 1) / gpus * bytes * 8 / bw + 2.0 * (gpus - 1) * lat;
}

void
RingAllReduceSync::Evaluate(const ClusterTopology& /*topology*/,
                            const std::vector<Ptr<const ClusterJob>>& running,
                            std::vector<double>& seconds)
{
    seconds.assign(running.size(), 0.0);
    for (size_t i = 0; i < running.size(); ++i)
    {
        const ClusterJob& job = *running[i];
        NS_ABORT_MSG_IF(!job.profile,
                        "RingAllReduceSync: running job " << job.record.id << " has no profile");
        uint32_t gpus = 0;
        for (const auto& [node, g] : job.placement.gpusOnNode)
        {
            gpus += g;
        }
        double share = 1;
        Ptr<LinkShare> links = GetLinkShare();
        if (links && job.placement.gpusOnNode.size() > 1)
        {
            std::vector<SyncLinkTraffic> traffic;
            LinkTraffic(job, traffic);
            uint32_t node = 0;
            share = links->SyncShare(running[i], traffic, &node);
            if (share < 1)
            {
                m_bound[job.record.id] = "link:rails-n" + std::to_string(node);
            }
            else
            {
                m_bound.erase(job.record.id);
            }
        }
        seconds[i] = SyncTime(gpus,
                              static_cast<uint32_t>(job.placement.gpusOnNode.size()),
                              job.profile->gradientBytes,
                              share);
    }
}

} // namespace ns3
