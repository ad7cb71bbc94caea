/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "kspeed-loader.h"

#include "provisioning-model.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ns3-compat.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(KSpeedLoader);

namespace
{
/// Samples in a workload's dataset.
double
DatasetSamples(const WorkloadProfile& p)
{
    return p.rawBytesPerSample > 0 ? p.datasetBytes / p.rawBytesPerSample : 0.0;
}

/// \param p a profile \return ProvisioningJob::Dataset() of a job with it
std::string
DatasetOf(const WorkloadProfile& p)
{
    return !p.dataset.empty() ? p.dataset : p.name;
}

/**
 * \param jobs jobs (each with a profile)
 * \return their distinct profiles, in the order of their last occurrence from the end (the
 * last job's profile first)
 */
std::vector<const WorkloadProfile*>
DistinctProfilesFromLast(const std::vector<ProvisioningJob>& jobs)
{
    std::vector<const WorkloadProfile*> out;
    std::unordered_map<const WorkloadProfile*, bool> seen;
    for (size_t k = jobs.size(); k-- > 0;)
    {
        if (seen.emplace(jobs[k].profile, true).second)
        {
            out.push_back(jobs[k].profile);
        }
    }
    return out;
}
} // namespace

TypeId
KSpeedLoader::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::KSpeedLoader")
            .SetParent<ProvisioningLoader>()
            .SetGroupName("Aicluster")
            .AddConstructor<KSpeedLoader>()
            .AddAttribute(
                "Placement",
                "Which pool nodes prepare a GPU's samples: Spread (all nodes, 1/N "
                "each: no hot spot) or Local (the GPU's own node).",
                EnumValue(KSpeedLoader::SPREAD),
                MakeAiclusterEnumAccessor(&KSpeedLoader::m_placement),
                MakeEnumChecker(KSpeedLoader::SPREAD, "Spread", KSpeedLoader::LOCAL, "Local"))
            .AddAttribute("CacheDecoded",
                          "Cache preprocessed samples of a dataset when they fit in the pool "
                          "(else raw samples).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&KSpeedLoader::m_cacheDecoded),
                          MakeBooleanChecker());
    return tid;
}

std::string
KSpeedLoader::Name() const
{
    return "kspeed";
}

bool
KSpeedLoader::ReadsThroughPool(const ProvisioningModel& model) const
{
    // Spread on a pool of its own: every sample uses all pool nodes' cores (alike, one
    // constraint); Local uses one pool node's, and PoolNodes 0 the training nodes'.
    return model.PoolNodes() > 0 && m_placement == SPREAD;
}

std::vector<CachePlan>
KSpeedLoader::PlanCaches(const ProvisioningModel& m, const std::vector<ProvisioningJob>& jobs) const
{
    // Pool memory of all nodes. Preprocessed datasets first, smallest first (each saves CPU
    // on every epoch); what is left caches raw bytes, the same fraction of every other
    // dataset, pinned for the epoch (no LRU thrash on reshuffled access).
    // per dataset the profile of the last job reading it; each distinct profile's name once
    // (a pass plans for every running job)
    std::vector<const WorkloadProfile*> distinct = DistinctProfilesFromLast(jobs);
    std::map<std::string, const WorkloadProfile*> sets;
    for (const WorkloadProfile* p : distinct)
    {
        sets.emplace(DatasetOf(*p), p); // the last job's profile: first from the end
    }
    double left = m.PoolNodes() > 0 ? m.PoolCacheBytes() * m.PoolNodes()
                                    : m.CacheBytesPerNode() * m.TrainingNodes();
    std::vector<std::pair<double, std::string>> decodedSizes;
    for (const auto& [name, p] : sets)
    {
        decodedSizes.emplace_back(DatasetSamples(*p) * p->decodedBytesPerSample, name);
    }
    std::sort(decodedSizes.begin(), decodedSizes.end());
    std::set<std::string> decoded;
    double rawRest = 0;
    for (const auto& [size, name] : decodedSizes)
    {
        if (m_cacheDecoded && size <= left && sets[name]->cpuSecondsPerSample > 0)
        {
            decoded.insert(name);
            left -= size;
        }
        else
        {
            rawRest += sets[name]->datasetBytes;
        }
    }
    double x = rawRest > 0 ? std::min(1.0, left / rawRest) : 1.0;
    std::vector<CachePlan> plans(jobs.size());
    std::unordered_map<const WorkloadProfile*, bool> isDecoded;
    for (const WorkloadProfile* p : distinct)
    {
        isDecoded[p] = decoded.count(DatasetOf(*p)) > 0;
    }
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        const WorkloadProfile& p = *jobs[k].profile;
        if (isDecoded.at(jobs[k].profile))
        {
            plans[k].decodedHit = 1;
            plans[k].bytes = DatasetSamples(p) * p.decodedBytesPerSample;
        }
        else
        {
            plans[k].rawHit = x;
            plans[k].bytes = x * p.datasetBytes;
        }
    }
    return plans;
}

void
KSpeedLoader::AddSampleUsage(const ProvisioningModel& m,
                             const ProvisioningJob& job,
                             const CachePlan& cache,
                             uint32_t node,
                             uint32_t gpu,
                             UsageBuilder& u) const
{
    const WorkloadProfile& p = *job.profile;
    const RailTopology& t = m.Topology();
    // the pool: its own nodes, or (PoolNodes 0) the training nodes themselves
    bool own = m.PoolNodes() > 0;
    uint32_t poolSize = own ? m.PoolNodes() : m.TrainingNodes();
    auto poolNode = [&](uint32_t q) { return own ? m.PoolNode(q) : q; };
    uint32_t rail = gpu % t.GetConfig().node.nics;
    double miss = std::max(0.0, 1 - cache.rawHit - cache.decodedHit);
    double cpu = p.cpuSecondsPerSample * (1 - cache.decodedHit * m.CacheableFraction());
    // DRAM at the pool node: read raw (or cached preprocessed) input, write the sample,
    // the NIC's DMA read of it
    double dram = (1 - cache.decodedHit) * p.rawBytesPerSample +
                  cache.decodedHit * p.decodedBytesPerSample + 2 * p.decodedBytesPerSample;
    uint32_t first = m_placement == LOCAL ? node % poolSize : 0;
    uint32_t count = m_placement == LOCAL ? 1 : poolSize;
    double w = 1.0 / count;
    auto through = [&](uint32_t q) {
        uint32_t src = poolNode(q);
        m.AddStorageToHost(job, src, w * miss * p.rawBytesPerSample, u);
        u.Add(m.Res().cpu.at(src), w * cpu);
        u.Add(m.Res().dram.at(src), w * dram);
        // RDMA WRITE (GPUDirect) from the pool node's memory into the GPU, on the GPU's rail
        m.AddPath(t.HostMemory(src), t.Gpu(node, gpu), rail, w * p.decodedBytesPerSample, u);
    };
    if (own && m_placement == SPREAD)
    {
        // every pool node alike: the model may build pool node 0's part alone (AddOverPool)
        m.AddOverPool(u, through);
        return;
    }
    for (uint32_t q = first; q < first + count; ++q)
    {
        through(q);
    }
}

} // namespace ns3
