/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "paced-group.h"

#include "cluster-job.h"

#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{

PacedGroup::PacedGroup(uint32_t id)
    : m_id(id)
{
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
    NS_ASSERT_MSG(pace > 0, "paced group " << m_id << " got pace " << pace);
    m_virtual = VirtualTime(now);
    m_since = now;
    m_pace = pace;
}

void
PacedGroup::Clock(ClusterJob& job, double remainingWork, double now)
{
    if (m_byMark.empty())
    {
        // Start the clock afresh: marks stay small, so their rounding does too.
        m_virtual = 0;
        m_since = now;
        m_weight = 0;
    }
    job.pacedMark = VirtualTime(now) + remainingWork;
    job.pacedClocked = true;
    m_byMark.insert({job.pacedMark, job.record.id, &job});
    m_clockedByThreshold.insert({job.pacedThreshold, job.record.id, &job});
    m_weight += job.placement.TotalGpus() * job.computeTime / job.pacedWork;
}

void
PacedGroup::Unclock(ClusterJob& job)
{
    NS_ASSERT(job.pacedClocked);
    m_byMark.erase({job.pacedMark, job.record.id, &job});
    m_clockedByThreshold.erase({job.pacedThreshold, job.record.id, &job});
    m_weight -= job.placement.TotalGpus() * job.computeTime / job.pacedWork;
    if (m_byMark.empty())
    {
        m_weight = 0; // no rounding residue
    }
    job.pacedClocked = false;
}

void
PacedGroup::Park(ClusterJob& job)
{
    m_parkedByThreshold.insert({job.pacedThreshold, job.record.id, &job});
}

void
PacedGroup::Unpark(ClusterJob& job)
{
    m_parkedByThreshold.erase({job.pacedThreshold, job.record.id, &job});
}

std::vector<ClusterJob*>
PacedGroup::ClockedAbovePace() const
{
    std::vector<ClusterJob*> jobs;
    for (auto it = m_clockedByThreshold.rbegin();
         it != m_clockedByThreshold.rend() && it->key > m_pace;
         ++it)
    {
        jobs.push_back(it->job);
    }
    return jobs;
}

std::vector<ClusterJob*>
PacedGroup::ParkedAtPace() const
{
    std::vector<ClusterJob*> jobs;
    for (auto it = m_parkedByThreshold.begin();
         it != m_parkedByThreshold.end() && it->key <= m_pace;
         ++it)
    {
        jobs.push_back(it->job);
    }
    return jobs;
}

ClusterJob*
PacedGroup::First() const
{
    return m_byMark.empty() ? nullptr : m_byMark.begin()->job;
}

double
PacedGroup::UntilFirst(double now) const
{
    return std::max(0.0, (m_byMark.begin()->key - VirtualTime(now)) * m_pace);
}

double
PacedGroup::Busy() const
{
    return m_byMark.empty() ? 0.0 : m_weight / m_pace;
}

bool
PacedGroup::Empty() const
{
    return m_byMark.empty() && m_parkedByThreshold.empty();
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
