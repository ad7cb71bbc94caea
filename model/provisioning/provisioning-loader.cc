/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "provisioning-loader.h"

#include "ns3/component-registry.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ProvisioningLoader);

uint32_t
ProvisioningJob::TotalGpus() const
{
    uint32_t n = 0;
    for (const auto& [node, g] : gpusOnNode)
    {
        n += g;
    }
    return n;
}

double
ProvisioningJob::GpuDemand() const
{
    uint32_t g = std::max(1u, TotalGpus());
    return gpuRate >= 0 ? gpuRate : profile->SamplesPerSecond(g) / g;
}

std::string
ProvisioningJob::Dataset() const
{
    return profile && !profile->dataset.empty() ? profile->dataset
                                                : (profile ? profile->name : name);
}

void
UsageBuilder::Add(uint32_t resource, double weight)
{
    if (weight > 0)
    {
        m_usage.emplace_back(resource, weight);
    }
}

void
UsageBuilder::AddTransfer(const Transfer& t)
{
    if (t.bytes > 0)
    {
        m_transfers.push_back(t);
    }
}

std::vector<MaxMinSolver::Usage>
UsageBuilder::Take()
{
    // Ascending resource ids, a resource's weights summed from 0 in the order they were added:
    // the same list, to the bit, as a std::map<resource, weight> with += would give. Summed
    // in a dense array by resource id and only the distinct ids sorted (a KSpeed flow over 88
    // pool nodes adds thousands of weights on a few hundred resources; a stable sort of all
    // of them was most of the cost). Add keeps only weights > 0, so a sum of 0 marks a
    // resource not seen yet.
    thread_local std::vector<double> sums;
    thread_local std::vector<uint32_t> seen;
    seen.clear();
    for (const auto& [r, w] : m_usage)
    {
        if (r >= sums.size())
        {
            sums.resize(std::max<size_t>(r + 1, 2 * sums.size()), 0.0);
        }
        if (sums[r] == 0)
        {
            seen.push_back(r);
        }
        sums[r] += w;
    }
    std::sort(seen.begin(), seen.end());
    std::vector<MaxMinSolver::Usage> out;
    out.reserve(seen.size());
    for (uint32_t r : seen)
    {
        out.emplace_back(r, sums[r]);
        sums[r] = 0;
    }
    m_usage.clear();
    return out;
}

// ---- ProvisioningLoader -------------------------------------------------------------------

TypeId
ProvisioningLoader::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProvisioningLoader").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

std::vector<CachePlan>
ProvisioningLoader::PlanCaches(const ProvisioningModel&,
                               const std::vector<ProvisioningJob>& jobs) const
{
    return std::vector<CachePlan>(jobs.size());
}

bool
ProvisioningLoader::ReadsThroughPool(const ProvisioningModel&) const
{
    return false;
}

Ptr<ProvisioningLoader>
ProvisioningLoader::Create(const std::string& name)
{
    if (const ComponentAlias* a = ComponentRegistry::Lookup("provisioning", name, GetTypeId()))
    {
        return ComponentRegistry::Factory(*a).Create<ProvisioningLoader>();
    }
    throw std::invalid_argument(
        "provisioning loader: unknown name '" + name + "', expected " +
        ComponentRegistry::Join(ComponentRegistry::Names("provisioning", GetTypeId()), " or "));
}

} // namespace ns3
