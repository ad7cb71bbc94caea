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
    // the same list, to the bit, as a std::map<resource, weight> with += would give.
    std::stable_sort(m_usage.begin(), m_usage.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::vector<MaxMinSolver::Usage> out;
    out.reserve(m_usage.size());
    for (const auto& [r, w] : m_usage)
    {
        if (out.empty() || out.back().first != r)
        {
            out.emplace_back(r, 0.0);
        }
        out.back().second += w;
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
