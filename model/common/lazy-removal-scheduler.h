/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_LAZY_REMOVAL_SCHEDULER_H
#define AICLUSTER_LAZY_REMOVAL_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief ns-3's event queue as a binary heap whose Remove is a logarithmic mark, not a
 * linear search.
 *
 * ns3::PriorityQueueScheduler keeps events in a binary heap without a node per event, but
 * its Remove searches the heap linearly. A replay under a preemptive policy removes an event
 * at every start, preemption and finish of a job (its pending priority change), with one such
 * event pending per running job, so those searches grew with the cluster's load (about a
 * fifth of a Tiresias replay of Philly).
 *
 * Here Remove records the event's key in a second heap of removed keys. Both heaps order by
 * the same (time, uid) key and every removed key is still in the event heap, so a removed
 * event is dropped when it reaches the top of the event heap, where it meets its key at the
 * top of the removed heap. The top of the event heap is kept live after every operation, so
 * PeekNext and IsEmpty need no search. Events leave in the same order as from any ns-3
 * scheduler: by time, then insertion.
 *
 * Removed events wait in the heap until they surface; when they outnumber the live ones the
 * heap is rebuilt without them, which bounds the events held to twice the live ones and costs
 * O(log n) per removal amortised (a rebuild of n events follows at least n / 2 removals).
 */
class LazyRemovalScheduler : public Scheduler
{
  public:
    /**
     * \brief Register this type.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LazyRemovalScheduler();
    ~LazyRemovalScheduler() override;

    // Inherited
    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

    /** \return the events held, removed ones not yet dropped included (for tests) */
    std::size_t GetNHeld() const;

  private:
    /// Drops removed events from the top of the event heap until its top is live.
    void DropRemovedTop();

    /// Rebuilds the event heap without the removed events once they outnumber the live ones.
    void CompactIfMostlyRemoved();

    /// Pending events as a heap (std::push_heap with std::greater: earliest (time, uid) at
    /// the front); removed ones among them until they surface. A vector rather than a
    /// std::priority_queue so that compaction can filter it.
    std::vector<Scheduler::Event> m_events;

    /// Keys of the events removed but still in m_events, as a heap in the same order.
    std::vector<Scheduler::EventKey> m_removed;
};

} // namespace ns3

#endif // AICLUSTER_LAZY_REMOVAL_SCHEDULER_H
