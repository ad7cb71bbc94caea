/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "max-min-reference-solver.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ns3
{

// The original implementation of the max-min fill, unchanged but for its name and folder.

MaxMinReferenceSolver::MaxMinReferenceSolver(std::vector<double> capacities)
{
    m_res.resize(capacities.size());
    for (std::size_t r = 0; r < capacities.size(); ++r)
    {
        if (!(capacities[r] > 0))
        {
            throw std::invalid_argument("MaxMinReferenceSolver: capacity of resource " +
                                        std::to_string(r) + " must be > 0");
        }
        m_res[r].cap = capacities[r];
    }
}

uint32_t
MaxMinReferenceSolver::AddFlow(const std::vector<Usage>& usage,
                               double cap,
                               const std::vector<Usage>& priorityUsage)
{
    if (usage.empty() || !(cap > 0))
    {
        throw std::invalid_argument(
            "MaxMinReferenceSolver::AddFlow: expected resources and a cap > 0");
    }
    uint32_t f;
    if (!m_freeFlows.empty())
    {
        f = m_freeFlows.back();
        m_freeFlows.pop_back();
    }
    else
    {
        f = static_cast<uint32_t>(m_flows.size());
        m_flows.emplace_back();
    }
    Flow& flow = m_flows[f];
    flow = Flow{};
    flow.usage = usage;
    flow.priority = priorityUsage;
    flow.cap = cap;
    flow.active = true;
    for (int kind = 0; kind < 2; ++kind)
    {
        for (const auto& [r, w] : kind == 0 ? usage : priorityUsage)
        {
            if (r >= m_res.size() || !(w > 0))
            {
                throw std::invalid_argument("MaxMinReferenceSolver::AddFlow: bad resource " +
                                            std::to_string(r) + " or weight");
            }
            (kind == 0 ? m_res[r].flows : m_res[r].priorityFlows).push_back(f);
            if (!m_res[r].dirty)
            {
                m_res[r].dirty = true;
                m_dirty.push_back(r);
            }
        }
    }
    ++m_active;
    return f;
}

void
MaxMinReferenceSolver::RemoveFlow(uint32_t f)
{
    Flow& flow = m_flows.at(f);
    if (!flow.active)
    {
        throw std::invalid_argument("MaxMinReferenceSolver::RemoveFlow: flow " + std::to_string(f) +
                                    " is not active");
    }
    for (int kind = 0; kind < 2; ++kind)
    {
        for (const auto& [r, w] : kind == 0 ? flow.usage : flow.priority)
        {
            auto& list = kind == 0 ? m_res[r].flows : m_res[r].priorityFlows;
            auto it = std::find(list.begin(), list.end(), f);
            *it = list.back();
            list.pop_back();
            if (!m_res[r].dirty)
            {
                m_res[r].dirty = true;
                m_dirty.push_back(r);
            }
        }
    }
    flow.active = false;
    flow.rate = 0;
    flow.usage.clear();
    flow.priority.clear();
    m_freeFlows.push_back(f);
    --m_active;
}

double
MaxMinReferenceSolver::GetLoad(uint32_t resource) const
{
    double load = 0;
    const Resource& res = m_res.at(resource);
    for (int kind = 0; kind < 2; ++kind)
    {
        const std::vector<uint32_t>& list = kind == 0 ? res.flows : res.priorityFlows;
        for (std::size_t i = 0; i < list.size(); ++i)
        {
            uint32_t f = list[i];
            // A flow that lists the resource twice is in the list twice: count it once.
            if (std::find(list.begin(), list.begin() + i, f) != list.begin() + i)
            {
                continue;
            }
            for (const auto& [r, w] : kind == 0 ? m_flows[f].usage : m_flows[f].priority)
            {
                load += r == resource ? w * m_flows[f].rate : 0.0;
            }
        }
    }
    return load;
}

void
MaxMinReferenceSolver::CollectComponent()
{
    // Breadth-first over the bipartite flow-resource graph from the touched resources.
    ++m_stamp;
    m_component.clear();
    m_componentRes.clear();
    std::vector<uint32_t> stack;
    for (uint32_t r : m_dirty)
    {
        m_res[r].dirty = false;
        if (m_res[r].stamp != m_stamp)
        {
            m_res[r].stamp = m_stamp;
            stack.push_back(r);
        }
    }
    m_dirty.clear();
    while (!stack.empty())
    {
        uint32_t r = stack.back();
        stack.pop_back();
        m_componentRes.push_back(r);
        for (int kind = 0; kind < 2; ++kind)
        {
            for (uint32_t f : kind == 0 ? m_res[r].flows : m_res[r].priorityFlows)
            {
                Flow& flow = m_flows[f];
                if (flow.stamp == m_stamp)
                {
                    continue;
                }
                flow.stamp = m_stamp;
                m_component.push_back(f);
                for (int k2 = 0; k2 < 2; ++k2)
                {
                    for (const auto& use : k2 == 0 ? flow.usage : flow.priority)
                    {
                        if (m_res[use.first].stamp != m_stamp)
                        {
                            m_res[use.first].stamp = m_stamp;
                            stack.push_back(use.first);
                        }
                    }
                }
            }
        }
    }
}

void
MaxMinReferenceSolver::Fill()
{
    // Progressive filling in rounds: each round takes the lowest fill level any resource
    // (min-heap, lazily invalidated) or flow cap allows and freezes every flow held at that
    // level; the resources those flows touch are re-queued once per round.
    for (uint32_t r : m_componentRes)
    {
        Resource& res = m_res[r];
        res.left = res.cap;
        res.weight = 0;
        res.priorityWeight = 0;
    }
    for (uint32_t f : m_component)
    {
        m_flows[f].frozen = false;
        for (const auto& [r, w] : m_flows[f].usage)
        {
            m_res[r].weight += w;
        }
        for (const auto& [r, w] : m_flows[f].priority)
        {
            m_res[r].priorityWeight += w;
        }
    }
    using Entry = std::tuple<double, uint32_t, uint32_t>; // level, resource, version
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    auto levelOf = [this](uint32_t r) {
        const Resource& res = m_res[r];
        return std::max(0.0, res.left) / (res.weight + std::max(0.0, res.priorityWeight));
    };
    for (uint32_t r : m_componentRes)
    {
        ++m_res[r].version;
        if (m_res[r].weight > 0)
        {
            heap.emplace(levelOf(r), r, m_res[r].version);
        }
    }
    std::vector<uint32_t> byCap(m_component);
    std::sort(byCap.begin(), byCap.end(), [this](uint32_t a, uint32_t b) {
        return m_flows[a].cap < m_flows[b].cap || (m_flows[a].cap == m_flows[b].cap && a < b);
    });
    std::size_t nextCap = 0;

    std::vector<uint32_t> touched; // resources changed in this round, re-queued at its end
    auto touch = [&](uint32_t r) {
        if (m_res[r].touched != m_round)
        {
            m_res[r].touched = m_round;
            touched.push_back(r);
        }
    };
    auto freeze = [&](uint32_t f, double rate) {
        Flow& flow = m_flows[f];
        flow.rate = rate;
        flow.frozen = true;
        for (const auto& [r, w] : flow.usage)
        {
            m_res[r].left -= w * rate;
            m_res[r].weight -= w;
            touch(r);
        }
        for (const auto& [r, w] : flow.priority)
        {
            m_res[r].left -= w * rate;
            m_res[r].priorityWeight -= w;
            touch(r);
        }
    };
    auto valid = [this](const Entry& e) {
        const Resource& res = m_res[std::get<1>(e)];
        return std::get<2>(e) == res.version && res.weight > 1e-12;
    };

    std::size_t frozen = 0;
    std::vector<uint32_t> saturated;
    while (frozen < m_component.size())
    {
        ++m_round;
        touched.clear();
        while (!heap.empty() && !valid(heap.top()))
        {
            heap.pop();
        }
        double level = heap.empty() ? 1e300 : std::get<0>(heap.top());
        while (nextCap < byCap.size() && m_flows[byCap[nextCap]].frozen)
        {
            ++nextCap;
        }
        if (nextCap < byCap.size() && m_flows[byCap[nextCap]].cap <= level)
        {
            // Caps at or below the level: freezing them only raises other resources' levels.
            while (nextCap < byCap.size() && m_flows[byCap[nextCap]].cap <= level)
            {
                uint32_t f = byCap[nextCap++];
                if (!m_flows[f].frozen)
                {
                    freeze(f, m_flows[f].cap);
                    ++frozen;
                }
            }
        }
        else if (heap.empty())
        {
            break; // only reachable through rounding: every flow uses a resource
        }
        else
        {
            saturated.clear();
            while (!heap.empty() && std::get<0>(heap.top()) <= level * (1 + 1e-12))
            {
                if (valid(heap.top()))
                {
                    saturated.push_back(std::get<1>(heap.top()));
                }
                heap.pop();
            }
            for (uint32_t r : saturated)
            {
                for (uint32_t f : m_res[r].flows)
                {
                    if (!m_flows[f].frozen)
                    {
                        freeze(f, level);
                        ++frozen;
                    }
                }
            }
        }
        for (uint32_t r : touched)
        {
            Resource& res = m_res[r];
            ++res.version;
            if (res.weight > 1e-12)
            {
                heap.emplace(levelOf(r), r, res.version);
            }
        }
    }
}

void
MaxMinReferenceSolver::Solve()
{
    if (m_dirty.empty())
    {
        m_component.clear();
        return;
    }
    CollectComponent();
    Fill();
}

void
MaxMinReferenceSolver::SolveAll()
{
    for (uint32_t r = 0; r < m_res.size(); ++r)
    {
        if (!m_res[r].dirty)
        {
            m_res[r].dirty = true;
            m_dirty.push_back(r);
        }
    }
    Solve();
}

} // namespace ns3
