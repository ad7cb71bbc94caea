/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "fair-share-policy.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FairSharePolicy);

TypeId
FairSharePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FairSharePolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<FairSharePolicy>();
    return tid;
}

StorageAllocation
FairSharePolicy::Allocate(const StorageProblem& problem)
{
    StorageAllocation alloc;
    alloc.cache.assign(problem.datasetBytes.size(), 0.0);
    if (!problem.jobs.empty())
    {
        double share = problem.cacheCapacity / double(problem.JobCount());
        for (const StorageDemand& job : problem.jobs)
        {
            alloc.cache[job.dataset] += job.count * share;
        }
        for (size_t k = 0; k < alloc.cache.size(); ++k)
        {
            alloc.cache[k] = std::min(alloc.cache[k], problem.datasetBytes[k]);
        }
    }
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

std::string
FairSharePolicy::Name() const
{
    return "fair";
}

} // namespace ns3
