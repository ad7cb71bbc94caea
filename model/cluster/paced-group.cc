/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

#include "paced-group.h"

#include "cluster-job.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacedGroup");

// Only the group's own events log: its members' bookkeeping (Clock, Park, First, ...) and the
// virtual clock run for every member of a pace change, in the engine's pass.

PacedGroup::PacedGroup(uint32_t id)
    : m_id(id)
{
    NS_LOG_FUNCTION(this << id);
}

uint32_t
PacedGroup::Id() const
{
    return m_id;
}

double
PacedGroup::Pace() const
{
    return m_pace;
}

double
PacedGroup::VirtualTime(double now) const
{
    return m_pace > 0 ? m_virtual + (now - m_since) / m_pace : m_virtual;
}

void
PacedGroup::SetPace(double now, double pace)
{
    NS_LOG_FUNCTION(this << now << pace);
    NS_ASSERT_MSG(pace > 0, "paced group " << m_id << " got pace " << pace);
    m_virtual = VirtualTime(now);
    m_since = now;
    NS_LOG_LOGIC("pace group " << m_id << ": " << m_pace << " -> " << pace << " s per unit, "
                               << m_clocked.size() << " clocked, " << m_parked.size() << " parked");
    m_pace = pace;
}

uint32_t
PacedGroup::Add(std::vector<Member>& list, ClusterJob& job)
{
    uint64_t id = job.record.id;
    if (id >= m_index.size())
    {
        m_index.resize(std::max<size_t>(id + 1, 2 * m_index.size()));
    }
    uint32_t at = uint32_t(list.size());
    list.push_back({job.pacedMark, job.pacedThreshold, id, &job});
    m_index[id] = at;
    return at;
}

uint32_t
PacedGroup::Drop(std::vector<Member>& list, const ClusterJob& job)
{
    uint32_t at = m_index[job.record.id];
    NS_ASSERT_MSG(at < list.size() && list[at].job == &job,
                  "job " << job.record.id << " is not where pace group " << m_id << " has it");
    if (at + 1 < list.size())
    {
        list[at] = list.back();
        m_index[list[at].id] = at;
    }
    list.pop_back();
    return at;
}

bool
PacedGroup::MarkBefore(uint32_t a, uint32_t b) const
{
    const Member& x = m_clocked[a];
    const Member& y = m_clocked[b];
    return x.mark < y.mark || (x.mark == y.mark && x.id < y.id);
}

bool
PacedGroup::Later(const Entry& a, const Entry& b)
{
    return b < a;
}

void
PacedGroup::PushMark(uint32_t at)
{
    if (m_marks.size() > 2 * m_clocked.size() + 64)
    {
        // mostly entries of members gone: start again from the members
        m_marks.clear();
        for (const Member& m : m_clocked)
        {
            m_marks.push_back({m.mark, m.id, m.job});
        }
        std::make_heap(m_marks.begin(), m_marks.end(), Later);
        return;
    }
    const Member& m = m_clocked[at];
    m_marks.push_back({m.mark, m.id, m.job});
    std::push_heap(m_marks.begin(), m_marks.end(), Later);
}

void
PacedGroup::Clock(ClusterJob& job, double remainingWork, double now)
{
    if (m_clocked.empty())
    {
        // Start the clock afresh: marks stay small, so their rounding does too.
        m_virtual = 0;
        m_since = now;
        m_weight = 0;
    }
    job.pacedMark = VirtualTime(now) + remainingWork;
    job.pacedClocked = true;
    bool firstKnown = m_first >= 0 || m_clocked.empty();
    if (m_clocked.empty())
    {
        m_clockedMax = -std::numeric_limits<double>::infinity();
        m_marks.clear();
    }
    m_clockedMax = std::max(m_clockedMax, job.pacedThreshold);
    uint32_t at = Add(m_clocked, job);
    PushMark(at);
    if (firstKnown && (at == 0 || MarkBefore(at, uint32_t(m_first))))
    {
        m_first = at;
    }
    m_weight += job.gpus * job.computeTime / job.pacedWork;
}

void
PacedGroup::Unclock(ClusterJob& job)
{
    NS_ASSERT(job.pacedClocked);
    uint32_t last = uint32_t(m_clocked.size() - 1);
    uint32_t at = Drop(m_clocked, job);
    if (m_first == int64_t(at))
    {
        m_first = -1; // the earliest left: found again when asked for
    }
    else if (m_first == int64_t(last))
    {
        m_first = at; // the last member moved into its place
    }
    m_weight -= job.gpus * job.computeTime / job.pacedWork;
    if (m_clocked.empty())
    {
        m_weight = 0; // no rounding residue
    }
    job.pacedClocked = false;
}

void
PacedGroup::Park(ClusterJob& job)
{
    if (m_parked.empty())
    {
        m_parkedMin = std::numeric_limits<double>::infinity();
    }
    m_parkedMin = std::min(m_parkedMin, job.pacedThreshold);
    Add(m_parked, job);
}

void
PacedGroup::Unpark(ClusterJob& job)
{
    Drop(m_parked, job);
}

namespace
{

/// Members crossing the pace, in the order of their (threshold, id): ascending or descending.
std::vector<ClusterJob*>
InOrder(std::vector<PacedGroup::Entry>& crossing, bool descending)
{
    std::sort(crossing.begin(), crossing.end());
    if (descending)
    {
        std::reverse(crossing.begin(), crossing.end());
    }
    std::vector<ClusterJob*> jobs;
    jobs.reserve(crossing.size());
    for (const auto& entry : crossing)
    {
        jobs.push_back(entry.job);
    }
    return jobs;
}

} // namespace

std::vector<ClusterJob*>
PacedGroup::ClockedAbovePace() const
{
    if (m_clockedMax <= m_pace)
    {
        return {}; // every threshold is at most the bound: none crosses
    }
    std::vector<Entry> crossing;
    double most = -std::numeric_limits<double>::infinity();
    for (const Member& m : m_clocked)
    {
        most = std::max(most, m.threshold);
        if (m.threshold > m_pace)
        {
            crossing.push_back({m.threshold, m.id, m.job});
        }
    }
    m_clockedMax = most;
    return InOrder(crossing, true); // highest threshold first
}

std::vector<ClusterJob*>
PacedGroup::ParkedAtPace() const
{
    if (m_parkedMin > m_pace)
    {
        return {}; // every threshold is at least the bound: none crosses
    }
    std::vector<Entry> crossing;
    double least = std::numeric_limits<double>::infinity();
    for (const Member& m : m_parked)
    {
        least = std::min(least, m.threshold);
        if (m.threshold <= m_pace)
        {
            crossing.push_back({m.threshold, m.id, m.job});
        }
    }
    m_parkedMin = least;
    return InOrder(crossing, false); // lowest threshold first
}

ClusterJob*
PacedGroup::First() const
{
    if (m_clocked.empty())
    {
        return nullptr;
    }
    if (m_first < 0)
    {
        // The top entry is the earliest (mark, id) of every member now on the clock once the
        // entries of members that left or came again with another mark are off it.
        while (!m_marks.empty())
        {
            const Entry& top = m_marks.front();
            uint32_t at = m_index[top.id];
            if (at < m_clocked.size() && m_clocked[at].id == top.id &&
                m_clocked[at].mark == top.key)
            {
                m_first = at;
                break;
            }
            std::pop_heap(m_marks.begin(), m_marks.end(), Later);
            m_marks.pop_back();
        }
        if (m_first < 0)
        {
            // no entry matches (a mark that is not a number): one pass over the members
            uint32_t best = 0;
            for (uint32_t i = 1; i < m_clocked.size(); ++i)
            {
                if (MarkBefore(i, best))
                {
                    best = i;
                }
            }
            m_first = best;
        }
    }
    return m_clocked[m_first].job;
}

double
PacedGroup::UntilFirst(double now) const
{
    First(); // finds the earliest mark if it is not known
    return std::max(0.0, (m_clocked[m_first].mark - VirtualTime(now)) * m_pace);
}

double
PacedGroup::Busy() const
{
    return m_clocked.empty() ? 0.0 : m_weight / m_pace;
}

bool
PacedGroup::Empty() const
{
    return m_clocked.empty() && m_parked.empty();
}

// ---- ClusterJob's view of its progress ----------------------------------------------------

double
ClusterJob::RemainingIterationsAt(double now) const
{
    if (pacedClocked)
    {
        return std::max(0.0, (pacedMark - pacedGroup->VirtualTime(now)) / pacedWork);
    }
    double elapsed = now - lastUpdate;
    if (iterationTime > 0 && elapsed > 0)
    {
        return std::max(0.0, remainingIterations - elapsed / iterationTime);
    }
    return remainingIterations;
}

double
ClusterJob::IterationTimeNow() const
{
    return pacedClocked ? pacedWork * pacedGroup->Pace() : iterationTime;
}

} // namespace ns3
