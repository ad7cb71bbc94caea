/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cache-all-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CacheAllPolicy);

TypeId
CacheAllPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CacheAllPolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<CacheAllPolicy>();
    return tid;
}

StorageAllocation
CacheAllPolicy::Allocate(const StorageProblem& problem)
{
    // First reader = lowest job id (ids follow submit order).
    std::vector<double> firstReader(problem.datasetBytes.size(), 0.0);
    std::vector<double> demand(problem.datasetBytes.size(), 0.0);
    std::vector<bool> seen(problem.datasetBytes.size(), false);
    for (const StorageDemand& job : problem.jobs)
    {
        double key = -static_cast<double>(job.id);
        if (!seen[job.dataset] || key > firstReader[job.dataset])
        {
            firstReader[job.dataset] = key;
            seen[job.dataset] = true;
        }
        demand[job.dataset] += job.count * job.demand;
    }
    return CacheWholeDatasets(problem, ReadDatasetsBy(problem, demand, firstReader));
}

std::string
CacheAllPolicy::Name() const
{
    return "cache-all";
}

} // namespace ns3
