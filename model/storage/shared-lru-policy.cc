/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "shared-lru-policy.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SharedLruPolicy);

TypeId
SharedLruPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SharedLruPolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<SharedLruPolicy>();
    return tid;
}

StorageAllocation
SharedLruPolicy::Allocate(const StorageProblem& problem)
{
    size_t nd = problem.datasetBytes.size();
    std::vector<double> demand = problem.DatasetDemand();
    StorageAllocation alloc;
    alloc.cache.assign(nd, 0.0);
    double readBytes = 0;
    for (size_t k = 0; k < nd; ++k)
    {
        if (demand[k] > 0)
        {
            readBytes += problem.datasetBytes[k];
        }
    }
    if (readBytes <= problem.cacheCapacity)
    {
        // Everything read fits: the LRU keeps it all.
        for (size_t k = 0; k < nd; ++k)
        {
            alloc.cache[k] = demand[k] > 0 ? problem.datasetBytes[k] : 0.0;
        }
    }
    else
    {
        // A shared LRU holds what was read in the last T seconds (every read, hit or miss,
        // moves an item to the front): dataset k occupies min(d_k, R_k T), and T fills C.
        // Water-fill T over the datasets in increasing order of d_k / R_k (time to hold it all).
        std::vector<size_t> order;
        for (size_t k = 0; k < nd; ++k)
        {
            if (demand[k] > 0 && problem.datasetBytes[k] > 0)
            {
                order.push_back(k);
            }
        }
        std::vector<double> holdAll(nd, 0.0); // d_k / R_k, divided once
        for (size_t k : order)
        {
            holdAll[k] = problem.datasetBytes[k] / demand[k];
        }
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return holdAll[a] < holdAll[b];
        });
        double left = problem.cacheCapacity;
        double rateLeft = 0;
        for (size_t k : order)
        {
            rateLeft += demand[k];
        }
        size_t i = 0;
        for (; i < order.size(); ++i)
        {
            size_t k = order[i];
            double holdAll = problem.datasetBytes[k] / demand[k];
            if (holdAll * rateLeft > left)
            {
                break; // T is shorter than the time to hold this dataset whole
            }
            alloc.cache[k] = problem.datasetBytes[k];
            left -= problem.datasetBytes[k];
            rateLeft -= demand[k];
        }
        double window = rateLeft > 0 ? left / rateLeft : 0.0;
        for (; i < order.size(); ++i)
        {
            alloc.cache[order[i]] = demand[order[i]] * window;
        }
    }
    // Shuffled epochs: the hit fraction of an LRU holding x of a dataset, once per dataset.
    std::vector<double> datasetHit(nd);
    for (size_t k = 0; k < nd; ++k)
    {
        double d = problem.datasetBytes[k];
        datasetHit[k] = d > 0 ? LruShuffledHitRatio(alloc.cache[k] / d) : 1.0;
    }
    alloc.hit.resize(problem.jobs.size());
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        alloc.hit[j] = datasetHit[problem.jobs[j].dataset];
    }
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

bool
SharedLruPolicy::IsLru() const
{
    return true;
}

std::string
SharedLruPolicy::Name() const
{
    return "lru";
}

} // namespace ns3
