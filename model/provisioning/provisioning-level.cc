/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "provisioning-level.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProvisioningLevel");

namespace
{

/** \return true if a and b hold the same bits (a sum's -0 and +0 differ, NaNs may match) */
bool
SameBits(const std::array<double, 3>& a, const std::array<double, 3>& b)
{
    return std::memcmp(a.data(), b.data(), sizeof(a)) == 0;
}

constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

void
ProvisioningLevel::Reset(std::vector<double> caps, uint32_t level)
{
    NS_LOG_FUNCTION(this << caps.size() << level);
    m_caps = std::move(caps);
    m_level = level < m_caps.size() ? level : ProvisioningModel::kNoResource;
    m_jobs.clear();
    m_byCap.clear();
    m_split = m_byCap.end();
    m_capped.assign(m_caps.size(), 0.0);
    m_rising.assign(m_caps.size(), 0.0);
    m_demand.assign(m_caps.size(), 0.0);
    ++m_sumsMoves;
    m_users.assign(m_caps.size(), 0);
    m_levelUsers.assign(m_caps.size(), 0);
    m_binding = ProvisioningModel::kNoResource;
    m_used.clear();
    m_usedAt.assign(m_caps.size(), 0);
    m_over.clear();
    m_updates = 0;
    m_lastLevel = 0;
    m_classOf.clear(); // SetClasses again
    m_classCap.clear();
    m_usedInClass.clear();
    m_classes = 0;
    for (ShareTree* tree : {&m_atLevel, &m_atDemand})
    {
        tree->nodes.clear();
        tree->top.clear();
        tree->from.clear();
        tree->stale.clear();
        tree->dirty.clear();
        tree->isDirty.assign(m_caps.size(), 0);
        tree->allDirty = true;
    }
}

void
ProvisioningLevel::SetClasses(const std::vector<uint8_t>& classOf, uint32_t classes)
{
    NS_LOG_FUNCTION(this << classOf.size() << classes);
    if (classOf.size() != m_caps.size())
    {
        throw std::invalid_argument(
            "ProvisioningLevel::SetClasses: " + std::to_string(classOf.size()) + " classes for " +
            std::to_string(m_caps.size()) + " resources");
    }
    if (classes > 64)
    {
        throw std::invalid_argument("ProvisioningLevel::SetClasses: " + std::to_string(classes) +
                                    " classes; at most 64 (a bit each in BusiestShares)");
    }
    std::vector<uint32_t> count(classes, 0);
    for (uint8_t c : classOf)
    {
        if (c >= classes)
        {
            throw std::invalid_argument("ProvisioningLevel::SetClasses: class " +
                                        std::to_string(c) + " of " + std::to_string(classes));
        }
        ++count[c];
    }
    m_classOf = classOf;
    m_classes = classes;
    m_usedInClass.assign(classes, 0);
    for (uint32_t r : m_used)
    {
        ++m_usedInClass[m_classOf[r]];
    }
    m_shareBase.assign(classes, 0);
    m_shareWidth.assign(classes, 1);
    uint32_t nodes = 0;
    for (uint32_t c = 0; c < classes; ++c)
    {
        while (m_shareWidth[c] < count[c])
        {
            m_shareWidth[c] *= 2;
        }
        m_shareBase[c] = nodes;
        nodes += 2 * m_shareWidth[c];
    }
    m_classCap.assign(classes, std::numeric_limits<double>::quiet_NaN());
    m_leafRes.assign(nodes / 2, ProvisioningModel::kNoResource);
    m_slotOf.assign(m_caps.size(), 0);
    std::fill(count.begin(), count.end(), 0);
    for (uint32_t r = 0; r < m_caps.size(); ++r)
    {
        uint8_t c = m_classOf[r];
        m_slotOf[r] = count[c]++;
        m_leafRes[m_shareBase[c] / 2 + m_slotOf[r]] = r;
    }
    m_classSize = std::move(count);
    for (ShareTree* tree : {&m_atLevel, &m_atDemand})
    {
        tree->nodes.assign(nodes, ShareTree::Bound{0, 0});
        tree->top.assign(nodes, kNoTop);
        tree->from.assign(nodes, 0.0);
        tree->stale.assign(classes, 1);
        tree->Clear(true);
    }
}

void
ProvisioningLevel::SetCapacities(std::vector<double> caps)
{
    NS_LOG_FUNCTION(this << caps.size());
    if (caps.size() != m_caps.size())
    {
        throw std::invalid_argument(
            "ProvisioningLevel::SetCapacities: " + std::to_string(caps.size()) +
            " capacities for " + std::to_string(m_caps.size()) + " resources");
    }
    for (uint32_t r = 0; r < caps.size(); ++r)
    {
        if (caps[r] != m_caps[r])
        {
            MarkBoth(r); // its shares moved
            ForgetClassCapacity(r);
        }
    }
    m_caps = std::move(caps);
    m_over.clear();
    for (uint32_t r : m_used)
    {
        if (Over(r))
        {
            m_over.insert(r);
        }
    }
}

void
ProvisioningLevel::SetCapacities(const std::vector<double>& caps,
                                 const std::vector<uint32_t>& moved)
{
    NS_LOG_FUNCTION(this << moved.size());
    if (caps.size() < m_caps.size())
    {
        throw std::invalid_argument(
            "ProvisioningLevel::SetCapacities: " + std::to_string(caps.size()) +
            " capacities for " + std::to_string(m_caps.size()) + " resources");
    }
    for (uint32_t r : moved)
    {
        if (r >= m_caps.size() || caps[r] == m_caps[r])
        {
            continue;
        }
        MarkBoth(r); // its shares moved
        ForgetClassCapacity(r);
        m_caps[r] = caps[r];
        // m_over holds the used resources over capacity (Count keeps it): r's test moved
        if (m_users[r] > 0 && Over(r))
        {
            m_over.insert(r);
        }
        else
        {
            m_over.erase(r);
        }
    }
}

bool
ProvisioningLevel::Over(uint32_t r) const
{
    // the solver's criterion for "over capacity at full demand" (ProvisioningModel)
    return r != m_level && MaxMinSolver::IsOver(m_demand[r], m_caps[r]);
}

bool
ProvisioningLevel::Capped(const Entry& e) const
{
    return m_split == m_byCap.end() || e < *m_split;
}

void
ProvisioningLevel::AddLoad(const Flow& flow, bool capped, double sign)
{
    ++m_sumsMoves;
    for (const auto& [r, w] : flow.usage)
    {
        m_atLevel.Mark(r);
        if (capped)
        {
            m_capped[r] += sign * w * flow.unit * flow.cap;
        }
        else
        {
            m_rising[r] += sign * w * flow.unit;
        }
    }
}

void
ProvisioningLevel::Count(const Flow& flow, bool capped, bool onLevel, bool enter)
{
    // What AddDemand(+-1), AddLoad(capped, +-1) and the level users' count did in three
    // passes over the usage, in one: each resource gets the same operations, each sum in the
    // same order (entering: its demand, then its load; leaving: its load, then its demand,
    // cleared when its last user leaves), with the same roundings (w x unit x cap as one
    // left-to-right product), so every sum keeps its bits. A flow of Alluxio lists every
    // peer's resources (thousands of entries). The arrays are read through local pointers:
    // the share trees' marks are byte stores, after which members would be loaded again.
    ++m_sumsMoves;
    double* demand = m_demand.data();
    double* side = capped ? m_capped.data() : m_rising.data();
    uint32_t* users = m_users.data();
    uint32_t* levelUsers = m_levelUsers.data();
    const double* caps = m_caps.data();
    const uint32_t level = m_level;
    const uint32_t onLevelCount = onLevel ? 1 : 0;
    const double unit = flow.unit; // in registers: the sums' stores may alias the flow
    const double cap = flow.cap;
    bool marked = m_atLevel.allDirty && m_atDemand.allDirty; // marking adds nothing
    uint64_t unmarked = 0; // marks skipped, counted at the end (ShareTree::moved)
    for (const auto& [r, w] : flow.usage)
    {
        if (marked)
        {
            ++unmarked;
        }
        else
        {
            MarkBoth(r);
            marked = m_atLevel.allDirty && m_atDemand.allDirty;
        }
        double perUnit = w * unit;
        double load = perUnit * cap;
        if (!enter)
        {
            side[r] += capped ? -load : -perUnit;
            levelUsers[r] -= onLevelCount;
        }
        bool was = r != level && MaxMinSolver::IsOver(demand[r], caps[r]);
        if (enter)
        {
            if (users[r]++ == 0)
            {
                ListUsed(r);
            }
            demand[r] += load;
        }
        else if (--users[r] == 0)
        {
            // no users: exactly 0, whatever the rounding of the sums before
            demand[r] = m_capped[r] = m_rising[r] = 0.0;
            UnlistUsed(r);
        }
        else
        {
            demand[r] -= load;
        }
        if ((r != level && MaxMinSolver::IsOver(demand[r], caps[r])) != was)
        {
            was ? (void)m_over.erase(r) : (void)m_over.insert(r);
        }
        if (enter)
        {
            side[r] += capped ? load : perUnit;
            levelUsers[r] += onLevelCount;
        }
    }
    m_atLevel.moved += unmarked;
    m_atDemand.moved += unmarked;
}

void
ProvisioningLevel::ListUsed(uint32_t r)
{
    m_usedAt[r] = static_cast<uint32_t>(m_used.size());
    m_used.push_back(r);
    if (!m_usedInClass.empty())
    {
        ++m_usedInClass[m_classOf[r]];
    }
}

void
ProvisioningLevel::UnlistUsed(uint32_t r)
{
    m_used[m_usedAt[r]] = m_used.back();
    m_usedAt[m_used.back()] = m_usedAt[r];
    m_used.pop_back();
    if (!m_usedInClass.empty())
    {
        --m_usedInClass[m_classOf[r]];
    }
}

void
ProvisioningLevel::Add(uint64_t job, std::vector<Flow> flows)
{
    NS_LOG_FUNCTION(this << job << flows.size());
    Remove(job);
    Job& j = m_jobs[job];
    j.flows = std::move(flows);
    j.entries.assign(j.flows.size(), Entry{0, 0, nullptr});
    j.at.assign(j.flows.size(), m_byCap.end());
    j.slowestUnit = kInf;
    for (const Flow& f : j.flows)
    {
        for (const auto& [r, w] : f.usage)
        {
            if (r >= m_caps.size())
            {
                m_jobs.erase(job); // nothing of it was counted
                throw std::out_of_range("ProvisioningLevel: a flow uses resource " +
                                        std::to_string(r) + " of " + std::to_string(m_caps.size()));
            }
        }
    }
    for (size_t i = 0; i < j.flows.size(); ++i)
    {
        const Flow& f = j.flows[i];
        bool onLevel = std::any_of(f.usage.begin(), f.usage.end(), [this](const auto& u) {
            return u.first == m_level;
        });
        if (!onLevel)
        {
            Count(f, true, false, true); // at its cap whatever the level
            continue;
        }
        Entry e{f.cap, m_seq++, &f};
        Count(f, Capped(e), true, true); // on the side of the split it sorts to; Level() moves it
        j.at[i] = m_byCap.insert(e).first;
        j.entries[i] = e;
        j.slowestUnit = std::min(j.slowestUnit, f.unit);
    }
    Updated();
}

void
ProvisioningLevel::Remove(uint64_t job)
{
    RemoveKeeping(job, nullptr);
}

void
ProvisioningLevel::TakeSpareFlows(std::vector<Flow>& flows)
{
    if (flows.empty() && !m_spareFlows.empty())
    {
        flows = std::move(m_spareFlows.back());
        m_spareFlows.pop_back();
    }
}

const std::vector<ProvisioningLevel::Flow>*
ProvisioningLevel::FlowsOf(uint64_t job) const
{
    auto it = m_jobs.find(job);
    return it == m_jobs.end() ? nullptr : &it->second.flows;
}

void
ProvisioningLevel::RemoveKeeping(uint64_t job, std::vector<Flow>* keep)
{
    auto it = m_jobs.find(job);
    if (it == m_jobs.end())
    {
        return;
    }
    NS_LOG_FUNCTION(this << job);
    Job& j = it->second;
    for (size_t i = 0; i < j.flows.size(); ++i)
    {
        const Entry& e = j.entries[i];
        if (!e.flow)
        {
            Count(j.flows[i], true, false, false);
            continue;
        }
        Count(j.flows[i], Capped(e), true, false);
        auto at = j.at[i];
        if (at == m_split)
        {
            m_split = m_byCap.erase(at); // the next one is on the rising side too
        }
        else
        {
            m_byCap.erase(at);
        }
    }
    constexpr size_t kMaxSpareFlows = 64; // a pass describes a few jobs; more are freed
    if (keep)
    {
        *keep = std::move(j.flows);
    }
    else if (m_spareFlows.size() < kMaxSpareFlows)
    {
        m_spareFlows.push_back(std::move(j.flows));
    }
    m_jobs.erase(it);
    Updated();
}

void
ProvisioningLevel::Updated()
{
    if (++m_updates >= RefreshEvery())
    {
        Refresh();
    }
}

void
ProvisioningLevel::Refresh()
{
    NS_LOG_FUNCTION(this);
    m_updates = 0;
    ++m_sumsMoves;
    m_sumsBefore.clear();
    for (uint32_t r : m_used)
    {
        m_sumsBefore.push_back({m_capped[r], m_rising[r], m_demand[r]});
        m_capped[r] = m_rising[r] = m_demand[r] = 0.0;
    }
    // in a fixed order (by job id, then flow), so that a refresh gives the same bits whatever
    // the history of the sums. One pass per flow: each sum gets the additions of AddLoad and
    // of the demand sums, in the same order (sums of different resources do not mix).
    double* capped = m_capped.data();
    double* rising = m_rising.data();
    double* demand = m_demand.data();
    for (const auto& [id, j] : m_jobs)
    {
        for (size_t i = 0; i < j.flows.size(); ++i)
        {
            const Flow& f = j.flows[i];
            const bool atCap = !j.entries[i].flow || Capped(j.entries[i]);
            const double unit = f.unit;
            const double cap = f.cap;
            for (const auto& [r, w] : f.usage)
            {
                double perUnit = w * unit;
                double load = perUnit * cap;
                atCap ? capped[r] += load : rising[r] += perUnit;
                demand[r] += load;
            }
        }
    }
    // Only the sums whose bits moved go to the share trees (about 1% of the used ones on
    // Philly with DPP or local loading): marking all of them rebuilt both trees at every
    // refresh.
    for (size_t u = 0; u < m_used.size(); ++u)
    {
        uint32_t r = m_used[u];
        if (!SameBits(m_sumsBefore[u], {m_capped[r], m_rising[r], m_demand[r]}))
        {
            MarkBoth(r);
        }
    }
    m_over.clear();
    for (uint32_t r : m_used)
    {
        if (Over(r))
        {
            m_over.insert(r);
        }
    }
}

bool
ProvisioningLevel::CarriesTheLevelsFlows(uint32_t r) const
{
    return m_levelUsers[r] == m_byCap.size() && m_users[r] == m_levelUsers[r];
}

double
ProvisioningLevel::Level()
{
    m_lastLevel = kInf;
    if (m_level == ProvisioningModel::kNoResource || m_byCap.empty())
    {
        m_binding = ProvisioningModel::kNoResource;
        return kInf; // every flow gets its cap
    }
    // The level is the least of the water levels of the resources that may give it: the
    // level's own and those exactly its flows use (a flow frozen by the first to fill is
    // frozen for all). Start from the one that gave it last, still the least in most passes:
    // the split then moves only as far as the flows that came and went move it, not up to
    // the level's own resource's level and back.
    auto givesLevel = [this](uint32_t r) {
        return r == m_level || (m_over.count(r) > 0 && CarriesTheLevelsFlows(r));
    };
    uint32_t first =
        m_binding != ProvisioningModel::kNoResource && givesLevel(m_binding) ? m_binding : m_level;
    double level = WaterLevel(first);
    m_binding = std::isinf(level) ? ProvisioningModel::kNoResource : first;
    // Each round lowers the level or ends (bounded, as rounding may leave a resource a hair
    // over at its own level).
    for (size_t round = 0; round <= m_over.size() + 1; ++round)
    {
        bool lowered = false;
        auto consider = [&](uint32_t r) {
            if (r == m_binding || !givesLevel(r) ||
                !MaxMinSolver::IsOver(LoadAt(r, level), m_caps[r]))
            {
                return;
            }
            double own = WaterLevel(r);
            if (own < level)
            {
                level = own;
                m_binding = r;
                lowered = true;
            }
            else if (m_binding != ProvisioningModel::kNoResource)
            {
                level = WaterLevel(m_binding); // the split back where the binding one puts it
            }
        };
        consider(m_level);
        for (uint32_t r : m_over)
        {
            consider(r);
        }
        if (!lowered)
        {
            break;
        }
    }
    m_lastLevel = level;
    return m_lastLevel;
}

double
ProvisioningLevel::WaterLevel(uint32_t r)
{
    if (!MaxMinSolver::IsOver(m_demand[r], m_caps[r]))
    {
        return kInf; // every flow gets its cap
    }
    double capacity = m_caps[r];
    auto level = [&]() {
        double rising = m_rising[r];
        if (rising > 0)
        {
            return (capacity - m_capped[r]) / rising;
        }
        // every flow capped: right if they fit, else the largest cap must rise no more
        return m_capped[r] <= capacity ? kInf : -kInf;
    };
    // Move the split until the capped flows are those with cap <= L. Each step is the water
    // filling's: capping a flow whose cap is below the level (or releasing one above it)
    // keeps the other side right. Bounded, in case rounding makes two steps undo each other.
    for (size_t steps = 0; steps <= 2 * m_byCap.size() + 2; ++steps)
    {
        double l = level();
        if (m_split != m_byCap.begin())
        {
            auto p = std::prev(m_split);
            if (p->cap > l)
            {
                AddLoad(*p->flow, true, -1);
                AddLoad(*p->flow, false, +1);
                m_split = p;
                continue;
            }
        }
        if (m_split != m_byCap.end() && m_split->cap <= l)
        {
            AddLoad(*m_split->flow, false, -1);
            AddLoad(*m_split->flow, true, +1);
            ++m_split;
            continue;
        }
        break;
    }
    return level();
}

bool
ProvisioningLevel::OtherResourcesFit() const
{
    for (uint32_t r : m_over)
    {
        if (r != m_binding && MaxMinSolver::IsOver(LoadOf(r), m_caps[r]))
        {
            return false;
        }
    }
    return true;
}

double
ProvisioningLevel::LoadOf(uint32_t r) const
{
    return LoadAt(r, m_lastLevel);
}

void
ProvisioningLevel::UplinkLoads(const uint32_t* first,
                               const uint32_t* last,
                               double& out,
                               double& in) const
{
    double o = 0.0;
    double i = 0.0;
    if (std::isinf(m_lastLevel))
    {
        for (const uint32_t* l = first; l != last; ++l)
        {
            o += m_demand[*l];
            i += m_demand[*l ^ 1u];
        }
    }
    else
    {
        const double level = m_lastLevel;
        for (const uint32_t* l = first; l != last; ++l)
        {
            o += m_capped[*l] + level * m_rising[*l];
            i += m_capped[*l ^ 1u] + level * m_rising[*l ^ 1u];
        }
    }
    out = o;
    in = i;
}

double
ProvisioningLevel::LoadAt(uint32_t r, double level) const
{
    if (std::isinf(level))
    {
        return m_demand[r]; // every flow at its cap
    }
    return m_capped[r] + level * m_rising[r];
}

void
ProvisioningLevel::BusiestSharesScanned(std::vector<double>& busiest, uint64_t classes) const
{
    if (m_classOf.size() != m_caps.size())
    {
        throw std::logic_error("ProvisioningLevel::BusiestShares: call SetClasses first");
    }
    busiest.assign(m_classes, 0.0);
    uint64_t leaves = 0; // of the classes asked for
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        leaves += Asked(classes, c) ? m_shareWidth[c] : 0;
    }
    if (2 * m_used.size() < leaves)
    {
        // one pass over the used resources, as the loads are kept: two numbers each
        for (uint32_t r : m_used)
        {
            if (Asked(classes, m_classOf[r]))
            {
                double& slot = busiest[m_classOf[r]];
                slot = std::max(slot, LoadOf(r) / m_caps[r]);
            }
        }
        return;
    }
    // Most resources used (an Alluxio flow lists every peer's): the asked classes' resources
    // in id order (their trees' leaves) read the sums in order, where the used list jumps
    // about, and skip the classes not asked for. The largest share does not depend on the
    // order (std::max keeps the first of equal shares, and only ties of 0 and -0 differ in
    // bits: 0 stays).
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        if (!Asked(classes, c))
        {
            continue;
        }
        const uint32_t* leafRes = m_leafRes.data() + m_shareBase[c] / 2;
        double slot = 0.0;
        for (uint32_t i = 0; i < m_classSize[c]; ++i)
        {
            uint32_t r = leafRes[i];
            if (m_users[r] > 0)
            {
                slot = std::max(slot, LoadOf(r) / m_caps[r]);
            }
        }
        busiest[c] = slot;
    }
}

double
ProvisioningLevel::ClassCapacity(uint32_t c) const
{
    if (!std::isnan(m_classCap[c]))
    {
        return m_classCap[c];
    }
    const uint32_t* leafRes = m_leafRes.data() + m_shareBase[c] / 2;
    double cap = 0.0;
    for (uint32_t i = 0; i < m_classSize[c]; ++i)
    {
        uint32_t r = leafRes[i];
        if (!(std::isfinite(m_caps[r]) && m_caps[r] > 0) || (cap > 0 && m_caps[r] != cap))
        {
            cap = 0.0; // mixed, or a capacity no share is divided by monotonically
            break;
        }
        cap = m_caps[r];
    }
    m_classCap[c] = cap;
    return cap;
}

namespace
{
/**
 * \param size how many values \param value the i-th value, for i below size
 * \return the largest value, +0 if none is above 0 (NaNs skipped), as one std::max chain
 *         from +0 over them gives it, bit for bit
 */
template <class Value>
double
LargestOf(uint32_t size, Value value)
{
    // Four running maxima, each over every fourth value, so that scattered reads overlap
    // instead of waiting on one chain. The largest of the four has the one chain's bits: each
    // starts at +0, std::max keeps the first of equal values and skips NaNs, so no -0 or NaN
    // enters one, and equal positive values have equal bits.
    double most[4] = {0.0, 0.0, 0.0, 0.0};
    uint32_t i = 0;
    for (; i + 4 <= size; i += 4)
    {
        for (uint32_t k = 0; k < 4; ++k)
        {
            most[k] = std::max(most[k], value(i + k));
        }
    }
    for (; i < size; ++i)
    {
        most[0] = std::max(most[0], value(i));
    }
    return std::max(std::max(most[0], most[1]), std::max(most[2], most[3]));
}
} // namespace

double
ProvisioningLevel::LargestLoad(uint32_t c) const
{
    // LoadOf(r) of each of c's resources, unused ones included: their sums are exactly 0
    // (Count clears them when the last user leaves, Refresh sums used ones only), so their
    // loads are 0 (or NaN at a NaN level, as every load), which leave the largest at 0.
    const uint32_t* leafRes = m_leafRes.data() + m_shareBase[c] / 2;
    const double level = m_lastLevel;
    if (std::isinf(level))
    {
        // every flow at its cap
        return LargestOf(m_classSize[c], [&](uint32_t i) { return m_demand[leafRes[i]]; });
    }
    return LargestOf(m_classSize[c], [&](uint32_t i) {
        return m_capped[leafRes[i]] + level * m_rising[leafRes[i]];
    });
}

void
ProvisioningLevel::BusiestSharesByLoad(std::vector<double>& busiest, uint64_t classes) const
{
    // BusiestSharesScanned's loop over each class's leaves; where the class has one
    // capacity c > 0, x <= y gives x / c <= y / c after rounding, so the largest share is
    // the largest load's (std::max skips NaN loads as it skips their NaN shares, and keeps
    // the first of equal ones: 0 before -0, whose shares are 0 and -0 alike).
    uint64_t scanned = 0; // the classes without one capacity
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        if (Asked(classes, c) && !(ClassCapacity(c) > 0))
        {
            scanned |= uint64_t(1) << c;
        }
    }
    BusiestSharesScanned(busiest, scanned);
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        if (!Asked(classes, c) || Asked(scanned, c))
        {
            continue;
        }
        busiest[c] = LargestLoad(c) / m_classCap[c];
    }
}

void
ProvisioningLevel::BusiestShares(std::vector<double>& busiest, uint64_t classes) const
{
    if (m_classOf.size() != m_caps.size())
    {
        throw std::logic_error("ProvisioningLevel::BusiestShares: call SetClasses first");
    }
    bool infinite = std::isinf(m_lastLevel) && m_lastLevel > 0;
    ShareTree& tree = infinite ? m_atDemand : m_atLevel;
    uint64_t many = tree.Many();
    if (tree.allDirty && (tree.moved > many || tree.movedBefore > many))
    {
        // Many sums moved since the last call or the one before (an Alluxio flow lists every
        // node's resources): one pass over the used resources costs less than rebuilding the
        // tree, and gives the same shares. The tree is rebuilt after two quiet calls, when
        // the next ones are likely to move few of its leaves.
        BusiestSharesByLoad(busiest, classes);
        tree.movedBefore = tree.moved;
        tree.moved = 0;
        return;
    }
    tree.movedBefore = tree.moved;
    if (infinite)
    {
        Flush(m_atDemand, true, classes); // LoadOf: every flow at its cap
        busiest.assign(m_classes, 0.0);
        bool exact = true;
        for (uint32_t c = 0; c < m_classes && exact; ++c)
        {
            // the root holds the largest share of its class (0 if none is above 0); an
            // infinite one may stand for a NaN share, which the scan skips: walk then
            double root = Asked(classes, c) ? m_atDemand.nodes[m_shareBase[c] + 1].a : 0.0;
            exact = std::isfinite(root);
            busiest[c] = root;
        }
        if (!exact)
        {
            Query(m_atDemand, 0.0, busiest, classes);
        }
    }
    else if (std::isfinite(m_lastLevel) && m_lastLevel >= 0)
    {
        Flush(m_atLevel, false, classes);
        Query(m_atLevel, m_lastLevel, busiest, classes);
    }
    else
    {
        BusiestSharesScanned(busiest, classes); // not a level the bounds are made for
    }
}

void
ProvisioningLevel::ShareTree::Clear(bool all)
{
    for (uint32_t r : dirty)
    {
        isDirty[r] = 0;
    }
    dirty.clear();
    allDirty = all;
    moved = 0;
}

ProvisioningLevel::ShareTree::Bound
ProvisioningLevel::LeafBound(bool demand, uint32_t r) const
{
    double x = demand ? m_demand[r] : m_capped[r];
    double y = demand ? 0.0 : m_rising[r];
    if (m_users[r] == 0 || !(x > 0 || y > 0))
    {
        // not used (BusiestShares skips it), or its share is at most 0 at any L >= 0 (or NaN,
        // which std::max skips): it never raises a class's share above 0
        return {0, 0};
    }
    double cap = m_caps[r];
    if (!(cap > 0))
    {
        return {kInf, kInf}; // no bound: always looked at
    }
    // Over the rounding of the share's three operations (and of a + L x b at the query),
    // with a wide margin: a share is at most a + L x b whatever the order of its roundings.
    if (demand)
    {
        // exact: the share itself (LoadOf(r) / capacity with every flow at its cap), so a
        // node's bound is the largest share below it
        double share = x / cap;
        return std::isnan(share) ? ShareTree::Bound{kInf, kInf} : ShareTree::Bound{share, 0};
    }
    constexpr double kUp = 1 + 1e-12;
    ShareTree::Bound bound{std::max(x, 0.0) / cap * kUp, std::max(y, 0.0) / cap * kUp};
    if (std::isnan(bound.a) || std::isnan(bound.b))
    {
        return {kInf, kInf};
    }
    return bound;
}

uint32_t
ProvisioningLevel::LeafTop(uint32_t r, const ShareTree::Bound& bound)
{
    if (bound.a == 0 && bound.b == 0)
    {
        return kNoTop; // never looked at (Query's open())
    }
    // an infinite bound may stand for a NaN share, which equal sums do not make equal
    return std::isfinite(bound.a) && std::isfinite(bound.b) ? r : kMixed;
}

double
ProvisioningLevel::Passes(uint32_t p, uint32_t q) const
{
    double cp = m_capped[p];
    double cq = m_capped[q];
    double rp = m_rising[p];
    double rq = m_rising[q];
    if (cp >= cq && rp >= rq)
    {
        return 0.0; // at least q's at every level (and the same number when they are equal)
    }
    if (!(rp > rq))
    {
        return kInf; // q's rises as fast (or a sum is NaN)
    }
    // p's load cp + fl(L x rp) is at least q's cq + fl(L x rq) as real numbers (then as
    // rounded sums and shares too, rounding being monotonic) when
    // L x (rp - rq - u (|rp| + |rq|)) >= cq - cp, u = 2^-53 the products' relative rounding.
    // The gap and the slope are taken with margins far wider than their own roundings, and
    // the tiny term covers products so small that their rounding is not relative.
    constexpr double kMargin = 1e-12;
    constexpr double kTiny = 1e-290;
    double slope = (rp - rq) * (1 - kMargin) - (std::abs(rp) + std::abs(rq)) * kMargin;
    double gap = (cq - cp) * (1 + kMargin) + kTiny; // above 0 (cq > cp), or NaN
    double level = gap / slope * (1 + kMargin);
    // none from a slope at most 0 (the level then below 0 or infinite) or from infinite or NaN
    // sums (the level then infinite or NaN)
    return level >= 0 && level < kInf ? level : kInf;
}

uint32_t
ProvisioningLevel::JoinTops(bool demand, uint32_t x, double fx, uint32_t y, double fy, double& from)
    const
{
    from = 0.0;
    if (x == kNoTop || y == kNoTop)
    {
        from = x == kNoTop ? fy : fx;
        return x == kNoTop ? y : x;
    }
    if (x == kMixed || y == kMixed)
    {
        return kMixed;
    }
    if (m_caps[x] != m_caps[y])
    {
        return kMixed;
    }
    // At one capacity the larger sums give the larger share, LoadOf(r) / capacity, at every
    // L >= 0 (or the same number when they are equal): the other need not be computed.
    if (demand)
    {
        if (m_demand[x] >= m_demand[y])
        {
            return x;
        }
        return m_demand[y] >= m_demand[x] ? y : kMixed;
    }
    double below = std::max(fx, fy); // each child's top the largest below it
    double overY = std::max(below, Passes(x, y));
    if (overY == below)
    {
        from = overY; // y cannot do better
        return x;
    }
    double overX = std::max(below, Passes(y, x));
    if (overY <= overX && overY < kInf)
    {
        from = overY;
        return x;
    }
    if (overX < kInf)
    {
        from = overX;
        return y;
    }
    return kMixed;
}

void
ProvisioningLevel::Rebuild(ShareTree& tree, bool demand, uint32_t c) const
{
    ShareTree::Bound* node = tree.nodes.data() + m_shareBase[c];
    uint32_t* tops = tree.top.data() + m_shareBase[c];
    double* from = tree.from.data() + m_shareBase[c];
    const uint32_t* leafRes = m_leafRes.data() + m_shareBase[c] / 2;
    uint32_t width = m_shareWidth[c];
    for (uint32_t i = 0; i < width; ++i)
    {
        uint32_t r = leafRes[i];
        node[width + i] =
            r == ProvisioningModel::kNoResource ? ShareTree::Bound{0, 0} : LeafBound(demand, r);
        tops[width + i] = LeafTop(r, node[width + i]);
        from[width + i] = 0.0;
    }
    for (uint32_t k = width - 1; k >= 1; --k)
    {
        node[k] = JoinBounds(node[2 * k], node[2 * k + 1]);
        tops[k] =
            JoinTops(demand, tops[2 * k], from[2 * k], tops[2 * k + 1], from[2 * k + 1], from[k]);
    }
    tree.stale[c] = 0;
}

void
ProvisioningLevel::Flush(ShareTree& tree, bool demand, uint64_t classes) const
{
    // A class not asked for is not rebuilt now but marked stale: rebuilt when it is asked for,
    // its moved sums meanwhile dropped (a rebuild reads them all).
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        if (tree.allDirty)
        {
            tree.stale[c] = 1;
        }
        if (tree.stale[c] && Asked(classes, c))
        {
            Rebuild(tree, demand, c);
        }
    }
    if (tree.allDirty)
    {
        tree.Clear(false);
        return;
    }
    for (uint32_t r : tree.dirty)
    {
        uint8_t c = m_classOf[r];
        if (tree.stale[c])
        {
            continue;
        }
        ShareTree::Bound* node = tree.nodes.data() + m_shareBase[c];
        uint32_t* tops = tree.top.data() + m_shareBase[c];
        double* from = tree.from.data() + m_shareBase[c];
        uint32_t k = m_shareWidth[c] + m_slotOf[r];
        node[k] = LeafBound(demand, r);
        tops[k] = LeafTop(r, node[k]);
        from[k] = 0.0;
        // Up to the root, or to the first node whose bounds and top stay (those above stay
        // too). A node whose top is a resource depends on that resource's sums, which may
        // have moved though its index stays (its bounds can round alike): unless it is not
        // dirty, go on above it.
        for (k /= 2; k >= 1; k /= 2)
        {
            ShareTree::Bound b = JoinBounds(node[2 * k], node[2 * k + 1]);
            double f;
            uint32_t t =
                JoinTops(demand, tops[2 * k], from[2 * k], tops[2 * k + 1], from[2 * k + 1], f);
            if (b.a == node[k].a && b.b == node[k].b && t == tops[k] && f == from[k] &&
                (t == kNoTop || t == kMixed || !tree.isDirty[t]))
            {
                break;
            }
            node[k] = b;
            tops[k] = t;
            from[k] = f;
        }
    }
    tree.Clear(false);
}

void
ProvisioningLevel::Query(const ShareTree& tree,
                         double level,
                         std::vector<double>& busiest,
                         uint64_t classes) const
{
    busiest.assign(m_classes, 0.0);
    // A small absolute margin for shares so small that their roundings are not relative.
    constexpr double kTiny = 1e-300;
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        if (!Asked(classes, c))
        {
            continue;
        }
        const ShareTree::Bound* node = tree.nodes.data() + m_shareBase[c];
        const uint32_t* tops = tree.top.data() + m_shareBase[c];
        const double* from = tree.from.data() + m_shareBase[c];
        const uint32_t* leafRes = m_leafRes.data() + m_shareBase[c] / 2;
        const uint32_t width = m_shareWidth[c];
        double best = 0.0;
        // may a share below node k be above best? (NaN, from inf x 0: yes)
        auto open = [&](uint32_t k) {
            const ShareTree::Bound& n = node[k];
            return (n.a > 0 || n.b > 0) && !(n.a + level * n.b + kTiny <= best);
        };
        // depth first, the child with the larger bound first; a pending sibling per level
        uint32_t stack[2 * 32 + 2];
        uint32_t top = 0;
        stack[top++] = 1;
        while (top > 0)
        {
            uint32_t k = stack[--top];
            if (!open(k))
            {
                continue;
            }
            if (k >= width || (tops[k] != kMixed && level >= from[k]))
            {
                // a leaf, or leaves whose shares are all this one's at this level: as
                // BusiestSharesScanned
                uint32_t r = k >= width ? leafRes[k - width] : tops[k];
                best = std::max(best, LoadOf(r) / m_caps[r]);
                continue;
            }
            uint32_t l = 2 * k;
            bool leftFirst = node[l].a + level * node[l].b >= node[l + 1].a + level * node[l + 1].b;
            stack[top++] = leftFirst ? l + 1 : l;
            stack[top++] = leftFirst ? l : l + 1;
        }
        busiest[c] = best;
    }
}

double
ProvisioningLevel::DemandOf(uint32_t r) const
{
    return m_demand.at(r);
}

double
ProvisioningLevel::SlowestUnit(uint64_t job) const
{
    auto it = m_jobs.find(job);
    return it == m_jobs.end() ? kInf : it->second.slowestUnit;
}

} // namespace ns3
