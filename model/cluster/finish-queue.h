/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_FINISH_QUEUE_H
#define AICLUSTER_FINISH_QUEUE_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <limits>
#include <memory>

namespace ns3
{

class ClusterJob;

/**
 * \ingroup aicluster
 * \brief The simulator time a delay from now ends at, within what Time can hold.
 *
 * Time counts integer steps (ns by default: about 292 years). A delay beyond what is left of
 * that range (a job that would run for centuries, a Tiresias threshold of 1e12 GPU-s) would
 * overflow Seconds(): an assertion in ns-3's debug builds, a wrapped, earlier time in optimized
 * ones. Such an event can never come before the end of time: it is placed at Time::Max().
 * \param seconds delay from now [s], >= 0
 * \return Simulator::Now() + the delay, or Time::Max() if that lies beyond the range
 */
Time EventTimeAfter(double seconds);

/**
 * \ingroup aicluster
 * \brief Seconds(seconds), bit for bit, without its long-double conversion where that is exact.
 *
 * ns-3's Seconds(double) builds an int64x64_t through long double (modfl and two 128-bit
 * conversions in software: a fifth of a small-cache storage replay, which re-times a job at
 * nearly every pass). For 2^-12 <= seconds < 2^62 the same high and low words come out of
 * double arithmetic alone: the fractional part is a multiple of 2^-64 there, so scaling it by
 * 2^64 is exact and ns-3's rounding (+0.5, then truncation) leaves it as it is. The words then
 * get Time::From's exact multiplication by the steps in a second and its rounding, in one
 * 128-bit product. Other values (and resolutions coarser than a second) take Seconds() itself.
 * \param seconds a duration [s]
 * \return Seconds(seconds)
 */
Time SecondsExact(double seconds);

/**
 * \ingroup aicluster
 * \brief Simulator::Now().GetSeconds(), converted once per time step.
 *
 * GetSeconds() divides a 128-bit number and converts it through long double; an engine pass
 * asks for it for every job it re-times, all at one time step. The last step's answer is kept
 * (with the resolution it was computed at), so the value is the same, bit for bit.
 * \return the simulator's time now [s]
 */
double NowSeconds();

/**
 * \ingroup aicluster
 * \brief Holds the simulator's time step and resolution for the work of one event.
 *
 * While one lives, NowSeconds, EventTimeAfter, SecondsExact and the finish queue read the
 * step and the resolution's constants kept here instead of asking ns-3 (Simulator::Now and
 * Time::GetResolution are calls into ns-3's library: 11% of a small-cache storage replay,
 * which re-times millions of jobs at one step each, asking several times per job). Time does
 * not move within an event and the resolution is set before a run, so every value is the
 * same, bit for bit. Holders nest (the outermost one reads ns-3); make one only where no
 * event can run before it ends: within one event's handler.
 */
class PinnedTimeStep
{
  public:
    PinnedTimeStep();
    ~PinnedTimeStep();
    PinnedTimeStep(const PinnedTimeStep&) = delete;
    PinnedTimeStep& operator=(const PinnedTimeStep&) = delete;
};

/**
 * \ingroup aicluster
 * \brief The finish times of the jobs timed on their own, earliest first, behind one ns-3
 *        event.
 *
 * A data model that reports changes re-times a few jobs at nearly every start and finish
 * (hundreds of thousands of times on a production trace). Removing and scheduling an ns-3
 * event each time costs two tree operations and an allocation; here a re-time is a sift in
 * an indexed heap (Boost.Heap), and the one ns-3 event is moved only when the earliest finish
 * changes. Ties keep ns-3's order: a job set earlier finishes first, as a job whose event was
 * scheduled earlier would; and all finishes due at one time step are handed out by one event,
 * so they precede the scheduling pass the first of them asks for, as their own events would.
 */
class FinishQueue
{
  public:
    /** \param onDue called (by the queue's event) when the earliest job's finish is due */
    explicit FinishQueue(Callback<void, ClusterJob*> onDue);
    ~FinishQueue();
    FinishQueue(const FinishQueue&) = delete;
    FinishQueue& operator=(const FinishQueue&) = delete;

    /**
     * \brief Set or move the job's finish.
     * \param job a running job (it keeps its entry's place: ClusterJob::finishPlace)
     * \param after time from now [s]
     */
    void Set(ClusterJob& job, double after);

    /** \brief Take the job out, if it is in. \param job the job */
    void Remove(ClusterJob& job);

    /** \param job a job \return whether its finish is queued */
    bool Contains(const ClusterJob& job) const;

    /**
     * \brief Take every job out and remove the event (the owner's DoDispose, while the queued
     *        jobs still exist: each is told it is out).
     */
    void Clear();

    /// ClusterJob::finishPlace of a job whose finish is not queued
    static constexpr uint32_t kNotQueued = std::numeric_limits<uint32_t>::max();

  private:
    class Heap;
    /** \brief Move the ns-3 event to the earliest finish, if that changed. */
    void Arm();
    /** \brief The event: hand every job whose finish is due now to the callback, in order. */
    void OnEvent();

    std::unique_ptr<Heap> m_heap;
    Callback<void, ClusterJob*> m_onDue;
    EventId m_event;        //!< scheduled for the earliest finish
    uint64_t m_armedSeq{0}; //!< sequence number of the entry m_event is for (0 = none)
    uint64_t m_nextSeq{1};  //!< next sequence number (ties: lower first)
    bool m_firing{false};   //!< in OnEvent: Arm() waits until the due finishes are handed out
};

} // namespace ns3

#endif // AICLUSTER_FINISH_QUEUE_H
