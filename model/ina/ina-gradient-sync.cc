/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-gradient-sync.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaGradientSync");
NS_OBJECT_ENSURE_REGISTERED(InaGradientSync);
NS_OBJECT_ENSURE_REGISTERED(RingAllReduceSync);

namespace
{

/// 2(g-1)/g of the bytes over NVLink: reduce-scatter plus all-gather inside one node.
double
IntraNodeSeconds(const JobPlacement& placement, double bytes, double nvlinkBitsPerSecond)
{
    double worst = 0;
    for (const auto& [node, gpus] : placement.gpusOnNode)
    {
        if (gpus > 1)
        {
            worst = std::max(worst, 2.0 * (gpus - 1) / gpus * bytes * 8 / nvlinkBitsPerSecond);
        }
    }
    return worst;
}

} // namespace

TypeId
InaGradientSync::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaGradientSync")
            .SetParent<IterationTermModel>()
            .SetGroupName("Aicluster")
            .AddConstructor<InaGradientSync>()
            .AddAttribute("Policy",
                          "Aggregator allocation policy: switchml, atp or esa",
                          EnumValue(ESA),
                          MakeEnumAccessor(&InaGradientSync::m_policy),
                          MakeEnumChecker(SWITCHML, "switchml", ATP, "atp", ESA, "esa"))
            .AddAttribute("PriorityRule",
                          "ESA priority: Static (ClusterJob::priorityLevel), ShortestRemaining "
                          "(remaining iterations x gradient bytes) or LeastAttained "
                          "(attained GPU-seconds)",
                          EnumValue(SHORTEST_REMAINING),
                          MakeEnumAccessor(&InaGradientSync::m_rule),
                          MakeEnumChecker(STATIC,
                                          "Static",
                                          SHORTEST_REMAINING,
                                          "ShortestRemaining",
                                          LEAST_ATTAINED_SERVICE,
                                          "LeastAttained"))
            .AddAttribute("PoolSize",
                          "Aggregators per switch [aggregators]",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&InaGradientSync::m_poolSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LinkRate",
                          "Host (NIC) link rate [bit/s]",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&InaGradientSync::m_linkRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "One-way propagation delay of a link [s]",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&InaGradientSync::m_linkDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PipelineLatency",
                          "Switch pipeline latency per packet (passes x pass latency) [s]",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&InaGradientSync::m_pipelineLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ValuesPerPacket",
                          "int32 values per packet; 0 = policy default (ATP/ESA 62, SwitchML 64) "
                          "[values]",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaGradientSync::m_valuesPerPacket),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeaderOverheadBytes",
                          "Wire bytes of a packet besides the values [bytes]",
                          UintegerValue(60),
                          MakeUintegerAccessor(&InaGradientSync::m_overhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Window",
                          "Outstanding chunks per worker [chunks]",
                          UintegerValue(256),
                          MakeUintegerAccessor(&InaGradientSync::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SwitchMlPartitions",
                          "SwitchML: number of equal static partitions of the pool; 0 = one per "
                          "job now running at the switch (re-partitioned as jobs come and go) "
                          "[partitions]",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaGradientSync::m_switchMlPartitions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NvlinkBandwidth",
                          "Per-GPU NVLink bandwidth for the intra-node reduction [bit/s]",
                          DataRateValue(DataRate("2400Gbps")),
                          MakeDataRateAccessor(&InaGradientSync::m_nvlink),
                          MakeDataRateChecker());
    return tid;
}

InaGradientSync::InaGradientSync() = default;

uint32_t
InaGradientSync::ValuesPerPacket() const
{
    if (m_valuesPerPacket > 0)
    {
        return m_valuesPerPacket;
    }
    return m_policy == SWITCHML ? 64 : 62;
}

std::vector<double>
InaGradientSync::SwitchSyncTimes(const std::vector<InaRateJob>& jobs,
                                 uint32_t extraHopsEachWay,
                                 std::vector<double>* fallback) const
{
    const size_t n = jobs.size();
    std::vector<double> out(n, 0.0);
    if (n == 0)
    {
        return out;
    }
    const double values = ValuesPerPacket();
    const double tx = (4.0 * values + m_overhead) * 8.0 / m_linkRate.GetBitRate();
    const double d = m_linkDelay.GetSeconds();
    const double p = m_pipelineLatency.GetSeconds();
    const double oneWay = (1 + extraHopsEachWay) * (tx + d) + extraHopsEachWay * p;
    const double pool = m_poolSize;

    std::vector<double> window(n, m_window);
    std::vector<double> f(n, 0.0);
    double rtt;
    double hold;
    if (m_policy == SWITCHML)
    {
        rtt = 2 * oneWay + p;
        hold = rtt;
        uint32_t parts = m_switchMlPartitions > 0 ? m_switchMlPartitions : static_cast<uint32_t>(n);
        uint32_t partition = m_poolSize / parts;
        for (size_t j = 0; j < n; ++j)
        {
            if (partition < 2)
            {
                f[j] = 1.0; // no slot of its own: everything through the PS
            }
            else
            {
                window[j] = std::min<double>(m_window, partition / 2);
            }
        }
    }
    else
    {
        rtt = 4 * oneWay + 2 * p;
        hold = 2 * oneWay + 2 * p; // allocated on arrival, freed when the PS result passes
    }

    // Chunk interval of each job, solved jointly with the aggregators the jobs hold.
    std::vector<double> interval(n);
    for (size_t j = 0; j < n; ++j)
    {
        interval[j] = std::max(tx, rtt / window[j]);
    }
    if (m_policy != SWITCHML)
    {
        // Jobs by priority (most important first) so that the holdings of higher and of
        // equal priority come from prefix sums: O(n log n) per round, for big spine groups.
        std::vector<size_t> order(n);
        for (size_t j = 0; j < n; ++j)
        {
            order[j] = j;
        }
        std::stable_sort(order.begin(), order.end(), [&jobs](size_t a, size_t b) {
            return jobs[a].priorityKey < jobs[b].priorityKey;
        });
        std::vector<double> held(n);
        for (int it = 0; it < 200; ++it)
        {
            double total = 0;
            for (size_t j = 0; j < n; ++j)
            {
                held[j] = (1 - f[j]) * std::min(window[j], hold / interval[j]);
                total += held[j];
            }
            double maxChange = 0;
            double before = 0; // holdings of strictly more important jobs
            for (size_t k = 0; k < n;)
            {
                size_t end = k;
                double tie = 0;
                while (end < n && jobs[order[end]].priorityKey == jobs[order[k]].priorityKey)
                {
                    tie += held[order[end]];
                    ++end;
                }
                for (size_t q = k; q < end; ++q)
                {
                    size_t j = order[q];
                    // ATP collides with every holder (its own other slots included); ESA only
                    // with equal priority, and loses to higher priority on arrival or by
                    // eviction during the hold; lower-priority holdings it simply takes.
                    double higher = m_policy == ESA ? before : 0.0;
                    double other = m_policy == ESA ? tie : total;
                    other = std::max(0.0, other - 1); // not the aggregator it holds itself
                    double rhoHigher = std::min(1.0, higher / pool);
                    double rhoOther = std::min(1.0, other / pool);
                    double fNew = 1 - (1 - rhoHigher) * (1 - rhoHigher) * (1 - rhoOther);
                    double fNext = 0.5 * f[j] + 0.5 * fNew;
                    maxChange = std::max(maxChange, std::fabs(fNext - f[j]));
                    f[j] = fNext;
                }
                before += tie;
                k = end;
            }
            for (size_t j = 0; j < n; ++j)
            {
                double psLoad = tx * (f[j] * jobs[j].workers + (1 - f[j]));
                interval[j] = std::max({tx, rtt / window[j], psLoad});
            }
            if (maxChange < 1e-9)
            {
                break;
            }
        }
    }
    else
    {
        for (size_t j = 0; j < n; ++j)
        {
            double psLoad = tx * (f[j] * jobs[j].workers + (1 - f[j]));
            interval[j] = std::max(interval[j], psLoad);
        }
    }
    for (size_t j = 0; j < n; ++j)
    {
        double chunks = std::ceil(jobs[j].gradientBytes / (4.0 * values));
        out[j] = chunks > 0 ? rtt + (chunks - 1) * interval[j] : 0.0;
    }
    if (fallback)
    {
        *fallback = f;
    }
    return out;
}

bool
InaGradientSync::IsCoupled(const ClusterJob& job) const
{
    return job.placement.gpusOnNode.size() > 1;
}

void
InaGradientSync::Evaluate(const ClusterTopology& topology,
                          const std::vector<Ptr<ClusterJob>>& running,
                          std::vector<double>& seconds)
{
    seconds.assign(running.size(), 0.0);
    // Group multi-node jobs by aggregation switch: their rack's ToR, or the spine (key -1).
    std::map<int64_t, std::vector<size_t>> groups;
    for (size_t i = 0; i < running.size(); ++i)
    {
        const ClusterJob& job = *running[i];
        NS_ABORT_MSG_IF(!job.profile,
                        "InaGradientSync: running job " << job.record.id << " has no profile");
        const double bytes = job.profile->gradientBytes;
        seconds[i] = IntraNodeSeconds(job.placement, bytes, m_nvlink.GetBitRate());
        if (job.placement.gpusOnNode.size() < 2)
        {
            continue;
        }
        int64_t rack = topology.RackOf(job.placement.gpusOnNode.front().first);
        for (const auto& [node, gpus] : job.placement.gpusOnNode)
        {
            if (static_cast<int64_t>(topology.RackOf(node)) != rack)
            {
                rack = -1;
                break;
            }
        }
        groups[rack].push_back(i);
    }
    for (const auto& [sw, members] : groups)
    {
        std::vector<InaRateJob> jobs;
        for (size_t i : members)
        {
            const ClusterJob& job = *running[i];
            InaRateJob r;
            r.workers = static_cast<uint32_t>(job.placement.gpusOnNode.size());
            r.gradientBytes = job.profile->gradientBytes;
            switch (m_rule)
            {
            case STATIC:
                r.priorityKey = job.priorityLevel;
                break;
            case SHORTEST_REMAINING:
                r.priorityKey = job.remainingIterations * r.gradientBytes;
                break;
            case LEAST_ATTAINED_SERVICE:
                r.priorityKey = job.attainedService;
                break;
            }
            jobs.push_back(r);
        }
        std::vector<double> t = SwitchSyncTimes(jobs, sw < 0 ? 1 : 0);
        for (size_t k = 0; k < members.size(); ++k)
        {
            seconds[members[k]] += t[k];
        }
    }
}

// ---- ring all-reduce -------------------------------------------------------------

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

RingAllReduceSync::RingAllReduceSync() = default;

bool
RingAllReduceSync::DependsOnOtherJobs() const
{
    return false;
}

double
RingAllReduceSync::SyncTime(uint32_t gpus, uint32_t nodes, double bytes) const
{
    if (gpus < 2)
    {
        return 0.0;
    }
    const bool crossesNodes = nodes > 1;
    const double bw = (crossesNodes ? m_nic : m_nvlink).GetBitRate();
    const double lat = (crossesNodes ? m_nicLatency : m_nvlinkLatency).GetSeconds();
    return 2.0 * (gpus - 1) / gpus * bytes * 8 / bw + 2.0 * (gpus - 1) * lat;
}

void
RingAllReduceSync::Evaluate(const ClusterTopology& /*topology*/,
                            const std::vector<Ptr<ClusterJob>>& running,
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
        seconds[i] = SyncTime(gpus,
                              static_cast<uint32_t>(job.placement.gpusOnNode.size()),
                              job.profile->gradientBytes);
    }
}

} // namespace ns3
