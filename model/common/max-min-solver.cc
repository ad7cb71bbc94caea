/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "max-min-solver.h"

#include "ns3/split-mix.h"

#include <algorithm>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ns3
{

namespace
{

uint64_t
Mix(uint64_t h, uint64_t v)
{
    // splitmix64 finaliser over the running hash
    return SplitMixFinal(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

uint64_t
Bits(double d)
{
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

void
ValidateFlow(const std::vector<MaxMinSolver::Usage>& usage,
             double cap,
             const std::vector<MaxMinSolver::Usage>& priorityUsage,
             std::size_t nResources)
{
    if (usage.empty() || !(cap > 0))
    {
        throw std::invalid_argument("MaxMinSolver::AddFlow: expected resources and a cap > 0");
    }
    for (const auto* list : {&usage, &priorityUsage})
    {
        for (const auto& [r, w] : *list)
        {
            if (r >= nResources || !(w > 0))
            {
                throw std::invalid_argument("MaxMinSolver::AddFlow: bad resource " +
                                            std::to_string(r) + " or weight");
            }
        }
    }
}

/** Removes one occurrence of value from an unordered list. */
void
EraseOne(std::vector<uint32_t>& list, uint32_t value)
{
    auto it = std::find(list.begin(), list.end(), value);
    *it = list.back();
    list.pop_back();
}

/**
 * Fetches every 64-byte line of [first, end): usage lists are not line-aligned, so n usages of
 * 8 bytes span up to n / 8 + 1 lines (fetching n / 8 lines from the first left the last one,
 * often the priority usages, to a miss); a class record (32 bytes, aligned) is one line. Always
 * inlined for the reason PrefetchAhead gives.
 */
__attribute__((always_inline)) inline void
PrefetchLines(const void* first, const void* end)
{
    for (auto at = reinterpret_cast<uintptr_t>(first) & ~uintptr_t{63};
         at < reinterpret_cast<uintptr_t>(end);
         at += 64)
    {
        __builtin_prefetch(reinterpret_cast<const void*>(at));
    }
}

/**
 * Classes sit anywhere in memory and the walks over a resource's class list wait on their
 * records and usages: fetches the record of the class 16 ahead of position i and the usages of
 * the one 8 ahead. The list holds only classes to be visited: the callers first drop those
 * already done (frozen, reached), three in four in a full all-to-all's fill, so that the
 * distance counts visits, not entries passed over (when the fetches skipped done ones on the
 * way, 16 entries ahead was 4 visits ahead and each test was a mispredicted branch). Always
 * inlined: GCC takes a function whose only effects are prefetches for a pure one and drops its
 * calls (a Prefetch member that was not inlined lost them so).
 * \param list classes to visit \param n how many of them are in use \param i the position about
 * to be visited \param classes the class records \param pool the usages
 */
template <typename Classes, typename Pool>
__attribute__((always_inline)) inline void
PrefetchAhead(const std::vector<uint32_t>& list,
              std::size_t n,
              std::size_t i,
              const Classes& classes,
              const Pool& pool)
{
    constexpr std::size_t kClassAhead = 16;
    constexpr std::size_t kUsageAhead = 8;
    if (i + kClassAhead < n)
    {
        const auto* k = &classes[list[i + kClassAhead]];
        PrefetchLines(k, k + 1);
    }
    if (i + kUsageAhead < n)
    {
        const auto& k = classes[list[i + kUsageAhead]];
        const auto* at = pool.data() + k.pool;
        PrefetchLines(at, at + k.nUse + k.nPrio);
    }
}

/**
 * Copies the classes of list that done() does not hold into todo, in list order, without a
 * branch per entry: in a full all-to-all three in four are done, at random, and a branch on it
 * mispredicts. Both walks over a resource's class list (the component search, the fill's
 * freezes) keep the classes to visit so, then visit them with PrefetchAhead.
 * \param list a resource's class list \param todo the kept classes (grown, never shrunk)
 * \param done whether a class is passed over \return how many classes were kept
 */
template <typename Done>
std::size_t
KeepNotDone(const std::vector<uint32_t>& list, std::vector<uint32_t>& todo, Done done)
{
    todo.resize(std::max(todo.size(), list.size()));
    std::size_t n = 0;
    for (uint32_t c : list)
    {
        todo[n] = c;
        n += done(c) ? 0 : 1;
    }
    return n;
}

} // namespace

MaxMinSolver::MaxMinSolver(std::vector<double> capacities)
{
    Reset(capacities);
}

void
MaxMinSolver::Reset(const std::vector<double>& capacities)
{
    for (std::size_t r = 0; r < capacities.size(); ++r)
    {
        if (!(capacities[r] > 0))
        {
            throw std::invalid_argument("MaxMinSolver: capacity of resource " + std::to_string(r) +
                                        " must be > 0");
        }
    }
    // Every member as the default initialisers leave it (the constructor is a Reset too).
    m_flows.clear();
    m_freeFlows.clear();
    m_classes.clear();
    m_classInfo.clear();
    m_classStamp.clear();
    m_freeClasses.clear();
    m_byKey.clear();
    m_pool.clear();
    m_weights.clear();
    m_weightIndex.clear();
    m_poolDead = 0;
    m_res.resize(capacities.size());
    for (std::size_t r = 0; r < capacities.size(); ++r)
    {
        Resource& res = m_res[r];
        res.cap = capacities[r];
        res.classes.clear();
        res.priorityClasses.clear();
        res.demand = 0;
        res.dirty = false;
        res.over = false;
    }
    m_resStamp.assign(capacities.size(), 0);
    m_dirty.clear();
    m_component.clear();
    m_componentClass.clear();
    m_componentRes.clear();
    m_stamp = 0;
    m_active = 0;
    m_liveClasses = 0;
    m_merge = true;
    m_skipFeasible = true;
    m_overloaded = 0;
    m_skippedFills = 0;
    m_loads.clear();
    m_loadsValid = false;
    m_nonEmptyRes = 0;
    m_left.assign(capacities.size(), 0.0);
    m_leftCurrent.assign(capacities.size(), 0);
    m_weight.assign(capacities.size(), 0.0);
    m_prioWeight.assign(capacities.size(), 0.0);
    m_weightSum.assign(capacities.size(), 0.0);
    m_prioWeightSum.assign(capacities.size(), 0.0);
    m_sumCurrent.assign(capacities.size(), 0);
    m_resum.clear();
    m_freezeOrder.clear();
    m_fillsSinceRelayout = kNone;
    m_relayoutOff = false;
    m_frozen.clear();
    m_stack.clear();
    m_saturated.clear();
    m_capHeap.clear();
    m_heap.clear();
    RestartSets();
}

void
MaxMinSolver::SetMergeIdenticalFlows(bool merge)
{
    if (m_active > 0)
    {
        throw std::logic_error("MaxMinSolver::SetMergeIdenticalFlows: only without active flows");
    }
    m_merge = merge;
}

uint32_t
MaxMinSolver::AddFlow(const std::vector<Usage>& usage,
                      double cap,
                      const std::vector<Usage>& priorityUsage)
{
    ValidateFlow(usage, cap, priorityUsage, m_res.size());
    uint32_t c = FindOrCreateClass(usage, priorityUsage, cap);
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
    uint32_t& head = m_classInfo[c].head;
    FlowRec& flow = m_flows[f];
    flow = FlowRec{};
    flow.cls = c;
    flow.active = true;
    flow.next = head;
    if (head != kNone)
    {
        m_flows[head].prev = f;
    }
    head = f;
    ++m_classes[c].mult;
    MarkDirty(c);
    AddDemand(c, 1.0);
    ++m_active;
    return f;
}

void
MaxMinSolver::AddDemand(uint32_t c, double sign)
{
    // One member's weight x cap on each resource the class uses; a resource's over-capacity
    // flag and the count of such resources follow.
    const Class& k = m_classes[c];
    for (uint64_t j = k.pool; j < k.pool + k.nUse + k.nPrio; ++j)
    {
        Resource& res = m_res[m_pool[j].res];
        res.demand += sign * (m_weights[m_pool[j].weight] * m_classInfo[c].cap);
        bool over = IsOver(res.demand, res.cap);
        m_overloaded += over && !res.over ? 1 : 0;
        m_overloaded -= !over && res.over ? 1 : 0;
        res.over = over;
    }
}

void
MaxMinSolver::MarkRated(uint32_t f)
{
    FlowRec& flow = m_flows[f];
    if (!flow.rated)
    {
        flow.rated = true;
        ++m_classes[flow.cls].rated;
    }
}

uint32_t
MaxMinSolver::FindOrCreateClass(const std::vector<Usage>& usage,
                                const std::vector<Usage>& priority,
                                double cap)
{
    uint64_t key = 0; // only classes that may merge are looked up by key
    if (m_merge)
    {
        key = Bits(cap);
        for (const auto& [r, w] : usage)
        {
            key = Mix(Mix(key, r), Bits(w));
        }
        key = Mix(key, 0xffffffffffffULL); // separates usages from priority usages
        for (const auto& [r, w] : priority)
        {
            key = Mix(Mix(key, r), Bits(w));
        }
        auto [lo, hi] = m_byKey.equal_range(key);
        for (auto it = lo; it != hi; ++it)
        {
            const Class& k = m_classes[it->second];
            auto same = [this](const Usage& u, const PoolEntry& e) {
                return u.first == e.res && u.second == m_weights[e.weight];
            };
            auto at = m_pool.begin() + k.pool;
            if (m_classInfo[it->second].cap == cap && k.nUse == usage.size() &&
                k.nPrio == priority.size() && std::equal(usage.begin(), usage.end(), at, same) &&
                std::equal(priority.begin(), priority.end(), at + k.nUse, same))
            {
                return it->second;
            }
        }
    }
    uint32_t c;
    if (!m_freeClasses.empty())
    {
        c = m_freeClasses.back();
        m_freeClasses.pop_back();
    }
    else
    {
        c = static_cast<uint32_t>(m_classes.size());
        m_classes.emplace_back();
        m_classInfo.emplace_back();
        m_classStamp.push_back(0);
        m_frozen.push_back(0);
    }
    Class& k = m_classes[c];
    k = Class{};
    k.pool = m_pool.size();
    k.nUse = static_cast<uint32_t>(usage.size());
    k.nPrio = static_cast<uint32_t>(priority.size());
    m_classInfo[c] = ClassInfo{};
    m_classInfo[c].key = key;
    m_classInfo[c].cap = cap;
    for (const auto* list : {&usage, &priority})
    {
        for (const auto& [r, w] : *list)
        {
            m_pool.push_back({r, WeightIndex(w)});
        }
    }
    for (int kind = 0; kind < 2; ++kind)
    {
        for (const auto& [r, w] : kind == 0 ? usage : priority)
        {
            Resource& res = m_res[r];
            m_nonEmptyRes += res.classes.empty() && res.priorityClasses.empty() ? 1 : 0;
            (kind == 0 ? res.classes : res.priorityClasses).push_back(c);
        }
    }
    if (m_merge)
    {
        m_byKey.emplace(key, c);
    }
    ++m_liveClasses;
    if (m_setsTracked)
    {
        JoinSets(c);
    }
    return c;
}

uint32_t
MaxMinSolver::WeightIndex(double w)
{
    // Flows repeat a handful of weights (1 for data, the ACK share): look there first.
    for (uint32_t i = 0; i < m_weights.size() && i < 8; ++i)
    {
        if (m_weights[i] == w)
        {
            return i;
        }
    }
    if (m_weights.size() >= kWeightsIndexed)
    {
        // Many distinct weights (scaled per flow, as the provisioning model's): store each
        // again rather than index them (only the value matters)
        m_weights.push_back(w);
        return static_cast<uint32_t>(m_weights.size() - 1);
    }
    auto [it, added] = m_weightIndex.emplace(Bits(w), static_cast<uint32_t>(m_weights.size()));
    if (added)
    {
        m_weights.push_back(w);
    }
    return it->second;
}

void
MaxMinSolver::MarkDirty(uint32_t c)
{
    const Class& k = m_classes[c];
    for (uint64_t j = k.pool; j < k.pool + k.nUse + k.nPrio; ++j)
    {
        Resource& res = m_res[m_pool[j].res];
        if (!res.dirty)
        {
            res.dirty = true;
            m_dirty.push_back(m_pool[j].res);
            m_leftCurrent[m_pool[j].res] = 0; // its load changes
            m_sumCurrent[m_pool[j].res] = 0;  // and its weight sums
        }
    }
}

void
MaxMinSolver::RemoveFlow(uint32_t f)
{
    FlowRec& flow = m_flows.at(f);
    if (!flow.active)
    {
        throw std::invalid_argument("MaxMinSolver::RemoveFlow: flow " + std::to_string(f) +
                                    " is not active");
    }
    uint32_t c = flow.cls;
    Class& k = m_classes[c];
    (flow.prev != kNone ? m_flows[flow.prev].next : m_classInfo[c].head) = flow.next;
    if (flow.next != kNone)
    {
        m_flows[flow.next].prev = flow.prev;
    }
    --k.mult;
    if (flow.rated)
    {
        --k.rated;
        m_loadsValid = false;
    }
    MarkDirty(c);
    AddDemand(c, -1.0);
    if (k.mult == 0)
    {
        ReleaseClass(c);
    }
    flow = FlowRec{};
    m_freeFlows.push_back(f);
    --m_active;
}

void
MaxMinSolver::ReleaseClass(uint32_t c)
{
    Class& k = m_classes[c];
    for (uint64_t j = k.pool; j < k.pool + k.nUse + k.nPrio; ++j)
    {
        Resource& res = m_res[m_pool[j].res];
        EraseOne(j < k.pool + k.nUse ? res.classes : res.priorityClasses, c);
        if (res.classes.empty() && res.priorityClasses.empty())
        {
            --m_nonEmptyRes;
            res.demand = 0; // no rounding residue left behind
            m_overloaded -= res.over ? 1 : 0;
            res.over = false;
        }
    }
    if (m_merge)
    {
        auto [lo, hi] = m_byKey.equal_range(m_classInfo[c].key);
        for (auto it = lo; it != hi; ++it)
        {
            if (it->second == c)
            {
                m_byKey.erase(it);
                break;
            }
        }
    }
    m_poolDead += k.nUse + k.nPrio;
    k.nUse = 0;
    k.nPrio = 0;
    m_freeClasses.push_back(c);
    --m_liveClasses;
    // Its component may split: no longer tracked, until no class is left.
    m_setsTracked = false;
    if (m_liveClasses == 0)
    {
        RestartSets();
    }
    if (m_poolDead > 4096 && 2 * m_poolDead > m_pool.size())
    {
        CompactPool();
    }
}

void
MaxMinSolver::CompactPool()
{
    // Released classes leave holes in the usage pool; copy the live ones down.
    HugeVector<PoolEntry> pool;
    pool.reserve(m_pool.size() - m_poolDead);
    for (Class& k : m_classes)
    {
        if (k.mult > 0)
        {
            CopyUsages(k, pool);
        }
    }
    m_pool.swap(pool);
    m_poolDead = 0;
}

void
MaxMinSolver::CopyUsages(Class& k, HugeVector<PoolEntry>& pool) const
{
    uint64_t at = pool.size();
    pool.insert(pool.end(), m_pool.begin() + k.pool, m_pool.begin() + k.pool + k.nUse + k.nPrio);
    k.pool = at;
}

double
MaxMinSolver::GetLoad(uint32_t resource) const
{
    const Resource& res = m_res.at(resource);
    if (res.classes.empty() && res.priorityClasses.empty())
    {
        return 0.0;
    }
    if (!m_loadsValid)
    {
        ComputeLoads();
    }
    return m_loads[resource];
}

bool
MaxMinSolver::IsFull(uint32_t resource, double relTol) const
{
    double cap = m_res.at(resource).cap;
    return m_leftCurrent[resource] ? m_left[resource] <= cap * relTol
                                   : GetLoad(resource) >= cap * (1 - relTol);
}

void
MaxMinSolver::ComputeLoads() const
{
    // One pass over the classes' usages (constrained first, then priority, classes in id
    // order): the same sums, in the same order, as a scan of each resource's class lists of a
    // solver whose classes were only ever added.
    m_loads.assign(m_res.size(), 0.0);
    for (int kind = 0; kind < 2; ++kind)
    {
        for (const Class& k : m_classes)
        {
            if (k.mult == 0 || k.rated == 0)
            {
                continue;
            }
            uint64_t from = k.pool + (kind == 0 ? 0 : k.nUse);
            uint64_t to = kind == 0 ? k.pool + k.nUse : k.pool + k.nUse + k.nPrio;
            for (uint64_t j = from; j < to; ++j)
            {
                m_loads[m_pool[j].res] += m_weights[m_pool[j].weight] * k.rate * k.rated;
            }
        }
    }
    m_loadsValid = true;
}

void
MaxMinSolver::RestartSets()
{
    m_setParent.resize(m_res.size());
    for (uint32_t r = 0; r < m_res.size(); ++r)
    {
        m_setParent[r] = r;
    }
    m_setClasses.assign(m_res.size(), 0);
    m_setsTracked = true;
}

uint32_t
MaxMinSolver::FindSet(uint32_t r)
{
    while (m_setParent[r] != r)
    {
        m_setParent[r] = m_setParent[m_setParent[r]];
        r = m_setParent[r];
    }
    return r;
}

void
MaxMinSolver::JoinSets(uint32_t c)
{
    const Class& k = m_classes[c];
    uint32_t root = FindSet(m_pool[k.pool].res);
    for (uint64_t j = k.pool + 1; j < k.pool + k.nUse + k.nPrio; ++j)
    {
        uint32_t other = FindSet(m_pool[j].res);
        if (other != root)
        {
            // the larger set (in classes) stays the root: shorter paths for the others
            if (m_setClasses[other] > m_setClasses[root])
            {
                std::swap(root, other);
            }
            m_setParent[other] = root;
            m_setClasses[root] += m_setClasses[other];
        }
    }
    ++m_setClasses[root];
}

uint32_t
MaxMinSolver::DirtyComponentClasses()
{
    if (!m_setsTracked)
    {
        return 0;
    }
    std::vector<uint32_t>& roots = m_stack; // free until the walk starts
    roots.clear();
    for (uint32_t r : m_dirty)
    {
        roots.push_back(FindSet(r));
    }
    std::sort(roots.begin(), roots.end());
    roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
    uint32_t classes = 0;
    for (uint32_t root : roots)
    {
        classes += m_setClasses[root];
    }
    roots.clear();
    return classes;
}

void
MaxMinSolver::CollectComponent()
{
    // Depth-first over the bipartite class-resource graph from the touched resources. Once
    // every used resource is reached (or a quarter of the classes) the refill takes everything:
    // all classes and flows in id order (sequential scans) instead of the remaining edges.
    // The walk below ends in everything exactly when the components of the changed resources
    // hold more than a quarter of the classes (it reaches every used resource only when they
    // hold all of them): where the components are tracked, that is known without the walk.
    bool everything = 4 * uint64_t{DirtyComponentClasses()} > m_liveClasses;
    ++m_stamp;
    m_component.clear();
    m_componentClass.clear();
    m_componentRes.clear();
    m_stack.clear();
    uint32_t reachedUsed = 0;
    auto reach = [&](uint32_t r) {
        if (m_resStamp[r] != m_stamp)
        {
            m_resStamp[r] = m_stamp;
            m_componentRes.push_back(r);
            m_stack.push_back(r);
            reachedUsed += m_res[r].classes.empty() && m_res[r].priorityClasses.empty() ? 0 : 1;
        }
    };
    for (uint32_t r : m_dirty)
    {
        m_res[r].dirty = false;
        reach(r);
    }
    m_dirty.clear();
    while (!m_stack.empty() && !everything)
    {
        uint32_t r = m_stack.back();
        m_stack.pop_back();
        for (int kind = 0; kind < 2 && !everything; ++kind)
        {
            // The classes not reached yet (KeepNotDone), visited in list order with their
            // records and usages fetched ahead.
            const std::vector<uint32_t>& list =
                kind == 0 ? m_res[r].classes : m_res[r].priorityClasses;
            std::size_t n = KeepNotDone(list, m_todo, [this](uint32_t c) {
                return m_classStamp[c] == m_stamp;
            });
            for (std::size_t i = 0; i < n; ++i)
            {
                PrefetchAhead(m_todo, n, i, m_classes, m_pool);
                uint32_t c = m_todo[i];
                if (m_classStamp[c] == m_stamp)
                {
                    continue; // listed twice
                }
                m_classStamp[c] = m_stamp;
                m_componentClass.push_back(c);
                const Class& k = m_classes[c];
                for (uint64_t j = k.pool; j < k.pool + k.nUse + k.nPrio; ++j)
                {
                    reach(m_pool[j].res);
                }
                // Refilling independent components along with this one gives them the rates
                // they have, so past a quarter of the classes refill everything rather than
                // keep walking edges to find out.
                if (reachedUsed == m_nonEmptyRes || 4 * m_componentClass.size() > m_liveClasses)
                {
                    everything = true;
                    break;
                }
            }
        }
    }
    if (everything || 8 * m_componentClass.size() > m_liveClasses)
    {
        // Class id order keeps the fill's walk through the usage pool nearly sequential.
        m_componentClass.clear();
        for (uint32_t c = 0; c < m_classes.size(); ++c)
        {
            if (m_classes[c].mult > 0 && (everything || m_classStamp[c] == m_stamp))
            {
                m_componentClass.push_back(c);
            }
        }
    }
    if (everything)
    {
        for (uint32_t r = 0; r < m_res.size(); ++r)
        {
            if (!m_res[r].classes.empty() || !m_res[r].priorityClasses.empty())
            {
                reach(r);
            }
        }
        for (uint32_t f = 0; f < m_flows.size(); ++f)
        {
            if (m_flows[f].active)
            {
                m_component.push_back(f);
                MarkRated(f);
            }
        }
        return;
    }
    for (uint32_t c : m_componentClass)
    {
        for (uint32_t f = m_classInfo[c].head; f != kNone; f = m_flows[f].next)
        {
            m_component.push_back(f);
            MarkRated(f);
        }
    }
}

void
MaxMinSolver::Fill()
{
    // Progressive filling in rounds: each round takes the lowest fill level any resource
    // (min-heap) or class cap allows and freezes every class held at that level.
    double lowestCap = StartFill();
    bool everyClass = SumWeights();
    QueueLevels();
    // The cap heap is built the first time the level reaches the lowest cap, from the classes
    // not frozen by then: a class a resource froze earlier would only have been skipped when
    // popped, so the caps freeze in the same order. (Where caps sit above every level, as the
    // line rates of an all-to-all do, it is never built.)
    m_capHeap.clear();
    bool capHeapBuilt = false;
    std::size_t frozen = 0;
    while (frozen < m_componentClass.size())
    {
        SettleTop();
        double level = m_heap.empty() ? 1e300 : m_heap.front().level;
        if (!capHeapBuilt && lowestCap <= level)
        {
            BuildCapHeap();
            capHeapBuilt = true;
        }
        std::size_t capped = FreezeCapped(level);
        if (capped > 0)
        {
            frozen += capped;
            continue;
        }
        if (m_heap.empty())
        {
            break; // only reachable through rounding: every class uses a resource
        }
        frozen += FreezeSaturated(level);
    }
    FinishFill(everyClass, frozen == m_componentClass.size());
}

double
MaxMinSolver::StartFill()
{
    for (uint32_t r : m_componentRes)
    {
        m_left[r] = m_res[r].cap;
    }
    double lowestCap = 1e300; // of the component's classes (see the cap heap in Fill)
    for (uint32_t c : m_componentClass)
    {
        m_frozen[c] = 0;
        lowestCap = std::min(lowestCap, m_classInfo[c].cap);
    }
    return lowestCap;
}

void
MaxMinSolver::QueueLevels()
{
    m_freezeOrder.clear();
    m_fillNextPool = ~uint64_t{0};
    m_fillJumps = 0;
    m_heap.clear();
    for (uint32_t r : m_componentRes)
    {
        if (m_weight[r] > 0)
        {
            m_heap.push_back({LevelOf(r), r});
        }
    }
    std::make_heap(m_heap.begin(), m_heap.end(), Later{});
}

void
MaxMinSolver::PopHeap()
{
    std::pop_heap(m_heap.begin(), m_heap.end(), Later{});
    m_heap.pop_back();
}

void
MaxMinSolver::SettleTop()
{
    // A resource's level only rises while the others fill (freezing a flow at or below the
    // current level leaves left/weight at least as high), so a queued level is a lower bound:
    // an entry is re-keyed only when it reaches the top with a stale level, instead of
    // re-queueing every resource a round touches. Keys at the top equal the current levels.
    while (!m_heap.empty())
    {
        HeapEntry& top = m_heap.front();
        if (!(m_weight[top.res] > 1e-12))
        {
            PopHeap(); // no unfrozen constrained flow left on it
            continue;
        }
        double level = LevelOf(top.res);
        if (level <= top.level)
        {
            top.level = level; // equal but for rounding; keeps the heap order
            return;
        }
        uint32_t r = top.res;
        PopHeap();
        m_heap.push_back({level, r});
        std::push_heap(m_heap.begin(), m_heap.end(), Later{});
    }
}

void
MaxMinSolver::BuildCapHeap()
{
    for (uint32_t c : m_componentClass)
    {
        if (!m_frozen[c])
        {
            m_capHeap.emplace_back(m_classInfo[c].cap, c);
        }
    }
    std::make_heap(m_capHeap.begin(), m_capHeap.end(), std::greater<>());
}

void
MaxMinSolver::Freeze(uint32_t c, double rate)
{
    Class& k = m_classes[c];
    k.rate = rate;
    m_frozen[c] = 1;
    m_freezeOrder.push_back(c);
    m_fillJumps += k.pool != m_fillNextPool ? 1 : 0;
    m_fillNextPool = k.pool + k.nUse + k.nPrio;
    for (uint64_t j = k.pool; j < k.pool + k.nUse; ++j)
    {
        double w = m_weights[m_pool[j].weight] * k.mult;
        m_left[m_pool[j].res] -= w * rate;
        m_weight[m_pool[j].res] -= w;
    }
    for (uint64_t j = k.pool + k.nUse; j < k.pool + k.nUse + k.nPrio; ++j)
    {
        double w = m_weights[m_pool[j].weight] * k.mult;
        m_left[m_pool[j].res] -= w * rate;
        m_prioWeight[m_pool[j].res] -= w;
    }
}

std::size_t
MaxMinSolver::FreezeCapped(double level)
{
    // Caps at or below the level: freezing them only raises other resources' levels.
    // (Classes frozen by a resource stay in the cap heap until the level passes their cap.)
    std::size_t frozen = 0;
    while (!m_capHeap.empty() && m_capHeap.front().first <= level)
    {
        auto [cap, c] = m_capHeap.front();
        std::pop_heap(m_capHeap.begin(), m_capHeap.end(), std::greater<>());
        m_capHeap.pop_back();
        if (!m_frozen[c])
        {
            Freeze(c, cap);
            ++frozen;
        }
    }
    return frozen;
}

std::size_t
MaxMinSolver::FreezeSaturated(double level)
{
    m_saturated.clear();
    while (!m_heap.empty() && m_heap.front().level <= level * (1 + 1e-12))
    {
        m_saturated.push_back(m_heap.front().res);
        PopHeap();
        SettleTop();
    }
    std::size_t frozen = 0;
    for (uint32_t r : m_saturated)
    {
        // Two passes, the same freezes in the same order: the first keeps the classes of the
        // list not frozen yet (KeepNotDone); the second freezes them, fetching a fixed number
        // of freezes ahead rather than of list entries most of which are passed over.
        const std::vector<uint32_t>& list = m_res[r].classes;
        std::size_t n = KeepNotDone(list, m_todo, [this](uint32_t c) { return m_frozen[c] != 0; });
        for (std::size_t i = 0; i < n; ++i)
        {
            PrefetchAhead(m_todo, n, i, m_classes, m_pool);
            uint32_t c = m_todo[i];
            if (!m_frozen[c]) // listed twice (a flow using the resource twice): frozen once
            {
                Freeze(c, level);
                ++frozen;
            }
        }
    }
    // A saturated resource may keep a weight residue through rounding: re-queue it once more,
    // but only after a round that froze something, so that the loop always ends.
    for (uint32_t r : m_saturated)
    {
        if (frozen > 0 && m_weight[r] > 1e-12)
        {
            m_heap.push_back({LevelOf(r), r});
            std::push_heap(m_heap.begin(), m_heap.end(), Later{});
        }
    }
    return frozen;
}

void
MaxMinSolver::FinishFill(bool everyClass, bool allFrozen)
{
    // Every class frozen: each leftover is the capacity less the load (IsFull reads it).
    char current = allFrozen ? 1 : 0;
    for (uint32_t r : m_componentRes)
    {
        m_leftCurrent[r] = current;
    }
    // Most freezes of a large fill read usages away from the last one's: lay the pool out in
    // this fill's order, which the next fills (a flow more or less) nearly repeat. A copy of
    // the pool costs a few fills: if one such fill within 8 of a relayout is scattered again,
    // the order does not hold, and relayouts stop.
    bool scattered = everyClass && current && m_componentClass.size() >= 4096 &&
                     2 * m_fillJumps > m_componentClass.size();
    if (scattered && !m_relayoutOff)
    {
        m_relayoutOff = m_fillsSinceRelayout < 8;
        if (!m_relayoutOff)
        {
            RelayoutPool();
            m_fillsSinceRelayout = 0;
        }
    }
    else if (everyClass && current && m_fillsSinceRelayout != kNone)
    {
        ++m_fillsSinceRelayout;
    }
}

bool
MaxMinSolver::SumWeights()
{
    // The sums over the classes in m_componentClass's order: per resource, the classes in
    // that order, each one's usages in pool order. With every live class (id order), a
    // resource nothing changed on since the last such fill has the same terms in the same
    // order: its kept sums are those sums. The others are summed again over their own classes
    // alone, in id order, the same terms in the same order.
    bool everyClass = m_componentClass.size() == m_liveClasses;
    auto sumOver = [this](uint32_t c, auto take) {
        const Class& k = m_classes[c];
        for (uint64_t j = k.pool; j < k.pool + k.nUse; ++j)
        {
            if (take(m_pool[j].res))
            {
                m_weight[m_pool[j].res] += m_weights[m_pool[j].weight] * k.mult;
            }
        }
        for (uint64_t j = k.pool + k.nUse; j < k.pool + k.nUse + k.nPrio; ++j)
        {
            if (take(m_pool[j].res))
            {
                m_prioWeight[m_pool[j].res] += m_weights[m_pool[j].weight] * k.mult;
            }
        }
    };
    // The classes of the resources to re-sum, each once (marked as the component search marks
    // them; it is done), unless they are more than a quarter of all: then sum everything.
    bool resum = everyClass;
    m_resum.clear();
    if (everyClass)
    {
        ++m_stamp;
        for (uint32_t r : m_componentRes)
        {
            if (m_sumCurrent[r])
            {
                continue;
            }
            for (const auto* list : {&m_res[r].classes, &m_res[r].priorityClasses})
            {
                for (uint32_t c : *list)
                {
                    if (m_classStamp[c] != m_stamp)
                    {
                        m_classStamp[c] = m_stamp;
                        m_resum.push_back(c);
                    }
                }
            }
            if (4 * m_resum.size() > m_componentClass.size())
            {
                resum = false;
                break;
            }
        }
    }
    if (resum)
    {
        std::sort(m_resum.begin(), m_resum.end());
        for (uint32_t r : m_componentRes)
        {
            m_weight[r] = m_sumCurrent[r] ? m_weightSum[r] : 0.0;
            m_prioWeight[r] = m_sumCurrent[r] ? m_prioWeightSum[r] : 0.0;
        }
        for (std::size_t i = 0; i < m_resum.size(); ++i)
        {
            PrefetchAhead(m_resum, m_resum.size(), i, m_classes, m_pool);
            sumOver(m_resum[i], [this](uint32_t r) { return !m_sumCurrent[r]; });
        }
    }
    else
    {
        for (uint32_t r : m_componentRes)
        {
            m_weight[r] = 0;
            m_prioWeight[r] = 0;
        }
        for (std::size_t i = 0; i < m_componentClass.size(); ++i)
        {
            PrefetchAhead(m_componentClass, m_componentClass.size(), i, m_classes, m_pool);
            sumOver(m_componentClass[i], [](uint32_t) { return true; });
        }
    }
    if (everyClass)
    {
        for (uint32_t r : m_componentRes)
        {
            m_weightSum[r] = m_weight[r];
            m_prioWeightSum[r] = m_prioWeight[r];
            m_sumCurrent[r] = 1;
        }
    }
    return everyClass;
}

void
MaxMinSolver::RelayoutPool()
{
    // Every live class was frozen once, in m_freezeOrder: its usages are all the live ones.
    // Reserved, not sized: written once, by the copies (no zeroing pass before them). As much
    // room as the old pool had: a pool without room left copies itself to grow by one class.
    HugeVector<PoolEntry> pool;
    pool.reserve(m_pool.capacity());
    for (std::size_t i = 0; i < m_freezeOrder.size(); ++i)
    {
        PrefetchAhead(m_freezeOrder, m_freezeOrder.size(), i, m_classes, m_pool);
        CopyUsages(m_classes[m_freezeOrder[i]], pool);
    }
    m_pool.swap(pool);
    m_poolDead = 0;
}

void
MaxMinSolver::Solve()
{
    if (m_dirty.empty())
    {
        m_component.clear();
        return;
    }
    CollectComponent();
    m_loadsValid = false;
    if (m_skipFeasible && m_overloaded == 0)
    {
        // Every demand fits: progressive filling would freeze each class at its cap.
        for (uint32_t c : m_componentClass)
        {
            m_classes[c].rate = m_classInfo[c].cap;
        }
        for (uint32_t r : m_componentRes)
        {
            m_leftCurrent[r] = 0; // no leftover computed: IsFull asks the loads
        }
        ++m_skippedFills;
        return;
    }
    Fill();
}

void
MaxMinSolver::SolveAll()
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
