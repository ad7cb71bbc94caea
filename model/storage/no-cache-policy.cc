/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "no-cache-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NoCachePolicy);

TypeId
NoCachePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NoCachePolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<NoCachePolicy>();
    return tid;
}

StorageAllocation
NoCachePolicy::Allocate(const StorageProblem& problem)
{
    StorageAllocation alloc;
    alloc.cache.assign(problem.datasetBytes.size(), 0.0);
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

std::string
NoCachePolicy::Name() const
{
    return "none";
}

bool
NoCachePolicy::UsesCache() const
{
    return false;
}

} // namespace ns3
