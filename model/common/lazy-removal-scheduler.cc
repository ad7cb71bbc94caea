/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "lazy-removal-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LazyRemovalScheduler");
NS_OBJECT_ENSURE_REGISTERED(LazyRemovalScheduler);

TypeId
LazyRemovalScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LazyRemovalScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<LazyRemovalScheduler>();
    return tid;
}

LazyRemovalScheduler::LazyRemovalScheduler()
{
    NS_LOG_FUNCTION(this);
}

LazyRemovalScheduler::~LazyRemovalScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
LazyRemovalScheduler::Insert(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_events.push_back(ev);
    std::push_heap(m_events.begin(), m_events.end(), std::greater<>());
}

bool
LazyRemovalScheduler::IsEmpty() const
{
    return m_events.empty(); // the top is live whenever there is one
}

Scheduler::Event
LazyRemovalScheduler::PeekNext() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!m_events.empty());
    return m_events.front();
}

Scheduler::Event
LazyRemovalScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!m_events.empty());
    std::pop_heap(m_events.begin(), m_events.end(), std::greater<>());
    Scheduler::Event next = m_events.back();
    m_events.pop_back();
    DropRemovedTop();
    CompactIfMostlyRemoved();
    return next;
}

void
LazyRemovalScheduler::Remove(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    // The simulator removes only events still pending (it checks IsExpired first), so the
    // key is in m_events and the two heaps meet on it when it surfaces.
    m_removed.push_back(ev.key);
    std::push_heap(m_removed.begin(), m_removed.end(), std::greater<>());
    DropRemovedTop();
    CompactIfMostlyRemoved();
}

std::size_t
LazyRemovalScheduler::GetNHeld() const
{
    return m_events.size();
}

void
LazyRemovalScheduler::DropRemovedTop()
{
    while (!m_removed.empty() && !m_events.empty() && m_events.front().key == m_removed.front())
    {
        std::pop_heap(m_events.begin(), m_events.end(), std::greater<>());
        m_events.pop_back();
        std::pop_heap(m_removed.begin(), m_removed.end(), std::greater<>());
        m_removed.pop_back();
    }
}

void
LazyRemovalScheduler::CompactIfMostlyRemoved()
{
    if (2 * m_removed.size() <= m_events.size())
    {
        return;
    }
    NS_LOG_LOGIC("compacting " << m_events.size() << " events, " << m_removed.size() << " removed");
    std::sort(m_removed.begin(), m_removed.end());
    auto isRemoved = [this](const Scheduler::Event& e) {
        return std::binary_search(m_removed.begin(), m_removed.end(), e.key);
    };
    m_events.erase(std::remove_if(m_events.begin(), m_events.end(), isRemoved), m_events.end());
    // Any heap layout pops in the same order: (time, uid) keys are unique.
    std::make_heap(m_events.begin(), m_events.end(), std::greater<>());
    m_removed.clear();
}

} // namespace ns3
