/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-policy.h"

#include "ns3/component-registry.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StorageAllocationPolicy");
NS_OBJECT_ENSURE_REGISTERED(StorageAllocationPolicy);

namespace
{

double
MissOf(const StorageProblem& problem, const StorageAllocation& alloc, size_t j)
{
    return problem.datasetBytes[problem.jobs[j].dataset] > 0 ? 1.0 - alloc.hit[j] : 0.0;
}

} // namespace

TypeId
StorageAllocationPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StorageAllocationPolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

bool
StorageAllocationPolicy::IsLru() const
{
    return false;
}

bool
StorageAllocationPolicy::UsesCache() const
{
    return true;
}

std::string
StorageAllocationPolicy::TypeNameOf(const std::string& name)
{
    if (const ComponentAlias* a = ComponentRegistry::Lookup("storage", name, GetTypeId()))
    {
        return a->typeId;
    }
    throw std::invalid_argument("unknown storage policy '" + name + "'; known: " + NameList());
}

std::string
StorageAllocationPolicy::NameList()
{
    return ComponentRegistry::Join(Names(), ", ");
}

std::vector<std::string>
StorageAllocationPolicy::Names()
{
    return ComponentRegistry::Names("storage", GetTypeId());
}

void
StorageAllocationPolicy::CompleteWithFairBandwidth(const StorageProblem& problem,
                                                   StorageAllocation& alloc)
{
    size_t n = problem.jobs.size();
    bool haveHit = alloc.hit.size() == n;
    if (!haveHit)
    {
        alloc.hit.resize(n);
    }
    // One pass: each job's remote need (capped per client); if they all fit in the aggregate
    // bandwidth that is the max-min fair answer, else water-fill.
    const double cap = problem.clientBandwidth;
    alloc.bandwidth.resize(n);
    double total = 0;
    for (size_t j = 0; j < n; ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        if (!haveHit)
        {
            // Uniform cache: every reader of a dataset hits its cached fraction.
            double d = problem.datasetBytes[k];
            alloc.hit[j] = d > 0 ? std::min(1.0, alloc.cache[k] / d) : 1.0;
        }
        double need = problem.jobs[j].demand * MissOf(problem, alloc, j);
        double want = cap > 0 ? std::min(need, cap) : need;
        alloc.bandwidth[j] = want;
        total += problem.jobs[j].count * want;
    }
    if (total > problem.bandwidthCapacity)
    {
        alloc.level = WaterFill(alloc.bandwidth, problem.bandwidthCapacity, problem.jobs);
    }
    else
    {
        alloc.level = std::numeric_limits<double>::infinity();
    }
}

StorageAllocation
StorageAllocationPolicy::CacheWholeDatasets(const StorageProblem& problem,
                                            const std::vector<size_t>& order)
{
    StorageAllocation alloc;
    alloc.cache.assign(problem.datasetBytes.size(), 0.0);
    double left = problem.cacheCapacity;
    for (size_t k : order)
    {
        if (problem.datasetBytes[k] <= left)
        {
            alloc.cache[k] = problem.datasetBytes[k];
            left -= problem.datasetBytes[k];
        }
    }
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

void
StorageAllocationPolicy::ReadDatasetsBy(const StorageProblem& problem,
                                        const std::vector<double>& demand,
                                        const std::vector<double>& key,
                                        std::vector<size_t>& order)
{
    order.clear();
    for (size_t k = 0; k < problem.datasetBytes.size(); ++k)
    {
        if (demand[k] > 0 && problem.datasetBytes[k] > 0)
        {
            order.push_back(k);
        }
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return key[a] > key[b];
    });
}

std::vector<size_t>
StorageAllocationPolicy::ReadDatasetsBy(const StorageProblem& problem,
                                        const std::vector<double>& demand,
                                        const std::vector<double>& key)
{
    std::vector<size_t> order;
    ReadDatasetsBy(problem, demand, key, order);
    return order;
}

} // namespace ns3
