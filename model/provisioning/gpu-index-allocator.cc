/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "gpu-index-allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

void
GpuIndexAllocator::Reset(uint32_t nodes, uint32_t gpusPerNode)
{
    m_gpus = gpusPerNode;
    m_runs.assign(nodes, {});
    m_held.clear();
}

int64_t
GpuIndexAllocator::LowestFreeRun(uint32_t node, uint32_t count) const
{
    // The runs in index order; a node holds a few jobs, so this is short.
    std::vector<std::pair<uint32_t, uint32_t>> taken;
    for (const auto& [key, run] : m_runs[node])
    {
        taken.emplace_back(run.first, run.count);
    }
    std::sort(taken.begin(), taken.end());
    uint32_t from = 0;
    for (const auto& [first, n] : taken)
    {
        if (first - from >= count)
        {
            return from;
        }
        from = std::max(from, first + n);
    }
    return m_gpus - from >= count ? int64_t(from) : -1;
}

void
GpuIndexAllocator::Pack(uint32_t node, std::vector<uint64_t>& moved)
{
    uint32_t next = 0;
    for (auto& [key, run] : m_runs[node])
    {
        if (run.first != next)
        {
            run.first = next;
            m_held[key.first].first[key.second] = next;
            moved.push_back(key.first);
        }
        next += run.count;
    }
}

void
GpuIndexAllocator::Take(uint64_t id, const Placement& placement, std::vector<uint64_t>& moved)
{
    Release(id);
    Held& held = m_held[id];
    held.placement = placement;
    held.first.assign(placement.size(), 0);
    for (uint32_t e = 0; e < placement.size(); ++e)
    {
        const auto& [node, count] = placement[e];
        if (node >= m_runs.size())
        {
            Release(id);
            throw std::invalid_argument("GpuIndexAllocator: job " + std::to_string(id) +
                                        " is placed on node " + std::to_string(node) +
                                        ", beyond the cluster's " + std::to_string(m_runs.size()));
        }
        int64_t first = LowestFreeRun(node, count);
        m_runs[node][{id, e}] = Run{first < 0 ? 0 : uint32_t(first), count};
        held.first[e] = first < 0 ? 0 : uint32_t(first);
        if (first >= 0)
        {
            continue;
        }
        uint32_t used = 0;
        for (const auto& [key, run] : m_runs[node])
        {
            used += run.count;
        }
        if (used > m_gpus)
        {
            Release(id);
            throw std::invalid_argument("GpuIndexAllocator: job " + std::to_string(id) + " takes " +
                                        std::to_string(count) + " GPUs on node " +
                                        std::to_string(node) + ", which has " +
                                        std::to_string(m_gpus - (used - count)) + " free");
        }
        Pack(node, moved); // free GPUs split: the node's jobs numbered again
    }
    std::sort(moved.begin(), moved.end());
    moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
    moved.erase(std::remove(moved.begin(), moved.end(), id), moved.end());
}

void
GpuIndexAllocator::Release(uint64_t id)
{
    auto it = m_held.find(id);
    if (it == m_held.end())
    {
        return;
    }
    const Placement& placement = it->second.placement;
    for (uint32_t e = 0; e < placement.size(); ++e)
    {
        if (placement[e].first < m_runs.size())
        {
            m_runs[placement[e].first].erase({id, e});
        }
    }
    m_held.erase(it);
}

bool
GpuIndexAllocator::Holds(uint64_t id) const
{
    return m_held.count(id) > 0;
}

const GpuIndexAllocator::Placement*
GpuIndexAllocator::HeldPlacement(uint64_t id) const
{
    auto it = m_held.find(id);
    return it == m_held.end() ? nullptr : &it->second.placement;
}

std::vector<uint64_t>
GpuIndexAllocator::Jobs() const
{
    std::vector<uint64_t> jobs;
    jobs.reserve(m_held.size());
    for (const auto& [id, held] : m_held)
    {
        jobs.push_back(id);
    }
    return jobs;
}

const std::vector<uint32_t>&
GpuIndexAllocator::FirstGpus(uint64_t id) const
{
    return m_held.at(id).first;
}

} // namespace ns3
