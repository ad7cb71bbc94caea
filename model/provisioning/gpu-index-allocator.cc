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
    m_used.assign(size_t(nodes) * gpusPerNode, 0);
    m_held.clear();
}

int64_t
GpuIndexAllocator::LowestFreeRun(uint32_t node, uint32_t count) const
{
    if (count == 0)
    {
        return 0;
    }
    const char* used = m_used.data() + size_t(node) * m_gpus;
    uint32_t free = 0; // free GPUs in a row ending at g
    for (uint32_t g = 0; g < m_gpus; ++g)
    {
        free = used[g] ? 0 : free + 1;
        if (free == count)
        {
            return int64_t(g + 1 - count);
        }
    }
    return -1;
}

void
GpuIndexAllocator::Mark(uint32_t node, const Run& run, bool used)
{
    char* gpu = m_used.data() + size_t(node) * m_gpus;
    std::fill(gpu + run.first, gpu + run.first + run.count, char(used));
}

void
GpuIndexAllocator::Pack(uint32_t node, std::vector<uint64_t>& moved)
{
    std::fill_n(m_used.begin() + size_t(node) * m_gpus, m_gpus, char(0));
    uint32_t next = 0;
    for (auto& [key, run] : m_runs[node])
    {
        if (run.first != next)
        {
            run.first = next;
            m_held[key.first].first[key.second] = next;
            moved.push_back(key.first);
        }
        Mark(node, run, true);
        next += run.count;
    }
}

void
GpuIndexAllocator::Take(uint64_t id, const Placement& placement, std::vector<uint64_t>& moved)
{
    Release(id);
    Held& held = m_spare.Insert(m_held, id);
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
        if (first < 0)
        {
            uint32_t used = 0;
            for (const auto& [key, run] : m_runs[node])
            {
                used += run.count;
            }
            if (used + count > m_gpus)
            {
                Release(id);
                throw std::invalid_argument("GpuIndexAllocator: job " + std::to_string(id) +
                                            " takes " + std::to_string(count) + " GPUs on node " +
                                            std::to_string(node) + ", which has " +
                                            std::to_string(m_gpus - used) + " free");
            }
        }
        Run run{first < 0 ? 0 : uint32_t(first), count};
        NodeRuns& runs = m_runs[node];
        RunKey key{id, e};
        auto at =
            std::lower_bound(runs.begin(), runs.end(), key, [](const auto& r, const RunKey& k) {
                return r.first < k;
            });
        runs.insert(at, {key, run});
        held.first[e] = run.first;
        if (first >= 0)
        {
            Mark(node, run, true);
            continue;
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
        uint32_t node = placement[e].first;
        if (node >= m_runs.size())
        {
            continue;
        }
        NodeRuns& runs = m_runs[node];
        auto run = std::find_if(runs.begin(), runs.end(), [&](const auto& r) {
            return r.first == RunKey{id, e};
        });
        if (run != runs.end())
        {
            Mark(node, run->second, false);
            runs.erase(run);
        }
    }
    m_spare.Erase(m_held, it, [](Held& held) {
        held.placement.clear();
        held.first.clear();
    });
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
