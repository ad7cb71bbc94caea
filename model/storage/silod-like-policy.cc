/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "silod-like-policy.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SiloDLikePolicy);

TypeId
SiloDLikePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SiloDLikePolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<SiloDLikePolicy>();
    return tid;
}

StorageAllocation
SiloDLikePolicy::Allocate(const StorageProblem& problem)
{
    // Called at every start and finish: the work vectors are members, kept between calls.
    size_t n = problem.jobs.size();
    size_t nd = problem.datasetBytes.size();
    m_share.resize(n);
    for (size_t j = 0; j < n; ++j)
    {
        const StorageDemand& job = problem.jobs[j];
        double demand = problem.datasetBytes[job.dataset] > 0 ? job.demand : 0.0;
        m_share[j] =
            problem.clientBandwidth > 0 ? std::min(demand, problem.clientBandwidth) : demand;
    }
    WaterFill(m_share, problem.bandwidthCapacity, problem.jobs); // the max-min fair shares b_j
    // Per dataset: cached fraction that saturates all its readers, and the throughput gained.
    m_saturate.assign(nd, 0.0);
    m_gain.assign(nd, 0.0);
    for (size_t j = 0; j < n; ++j)
    {
        const StorageDemand& job = problem.jobs[j];
        if (problem.datasetBytes[job.dataset] > 0 && job.demand > 0)
        {
            m_saturate[job.dataset] =
                std::max(m_saturate[job.dataset], 1.0 - m_share[j] / job.demand);
            m_gain[job.dataset] += job.count * (job.demand - m_share[j]);
        }
    }
    m_perByte.assign(nd, 0.0);
    for (size_t k = 0; k < nd; ++k)
    {
        double bytes = m_saturate[k] * problem.datasetBytes[k];
        m_perByte[k] = bytes > 0 ? m_gain[k] / bytes : 0.0;
    }
    StorageAllocation alloc;
    alloc.cache.assign(nd, 0.0);
    double left = problem.cacheCapacity;
    problem.DatasetDemand(m_demand);
    m_order.Reset(problem, m_demand, m_perByte); // read only as far as the cache lasts
    for (size_t i = 0; m_order.Has(i); ++i)
    {
        size_t k = m_order.At(i);
        if (m_perByte[k] <= 0 || left <= 0)
        {
            break;
        }
        alloc.cache[k] = std::min(left, m_saturate[k] * problem.datasetBytes[k]);
        left -= alloc.cache[k];
    }
    CompleteWithFairBandwidth(problem, alloc); // re-water-fills what saturated jobs freed
    return alloc;
}

std::string
SiloDLikePolicy::Name() const
{
    return "silod";
}

} // namespace ns3
