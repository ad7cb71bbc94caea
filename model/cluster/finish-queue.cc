/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "finish-queue.h"

#include "cluster-job.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FinishQueue");

namespace
{

/**
 * The resolution's constants the conversions below use, computed again only when the
 * resolution changed (Time::SetResolution, allowed once before a run) since the last call:
 * one Time::GetResolution() call per conversion.
 */
struct StepConstants
{
    Time::Unit unit;        //!< the resolution they were computed at
    double secondsPerStep;  //!< Time(1).GetSeconds()
    int64_t stepsPerSecond; //!< Seconds(1).GetTimeStep(): 0 at a resolution coarser than 1 s
};

const StepConstants&
CurrentStepConstants()
{
    static StepConstants constants{Time::GetResolution(),
                                   Time(1).GetSeconds(),
                                   Seconds(1).GetTimeStep()};
    const Time::Unit unit = Time::GetResolution();
    if (unit != constants.unit)
    {
        constants = {unit, Time(1).GetSeconds(), Seconds(1).GetTimeStep()};
    }
    return constants;
}

/**
 * The last time step read from ns-3, with its seconds (NowSeconds converts once per step) and
 * the resolution it was read at. One simulator per process (ns-3's is a singleton), so one per
 * process: a thread_local here cost a TLS lookup call per use from this shared library.
 * While a PinnedTimeStep is held, the step read when the first one was made is current.
 */
struct StepClock
{
    int64_t step{-1};                 //!< the step last read
    Time::Unit unit{Time::S};         //!< the resolution it was read at
    double seconds{0};                //!< its GetSeconds()
    uint32_t pins{0};                 //!< live PinnedTimeStep objects
    const StepConstants* constants{}; //!< the resolution's constants, while pinned
};

StepClock g_clock; //!< see StepClock

/// \return Simulator::Now(), pinned or asked for
Time
CurrentTime()
{
    return g_clock.pins > 0 ? TimeStep(g_clock.step) : Simulator::Now();
}

/// \return CurrentStepConstants(), pinned or looked up
const StepConstants&
Constants()
{
    return g_clock.pins > 0 ? *g_clock.constants : CurrentStepConstants();
}

/// SecondsExact with the resolution's constants looked up by the caller.
Time
SecondsExactWith(double seconds, const StepConstants& constants)
{
    // Below 2^-12 the fraction may have bits past 2^-64 (ns-3 rounds them); from 2^62 on the
    // high word nears its range. NaN fails both tests.
    constexpr double kLow = 1.0 / 4096;
    constexpr double kHigh = 4611686018427387904.0; // 2^62
    if (!(seconds >= kLow && seconds < kHigh))
    {
        return Seconds(seconds);
    }
    // The integral part by truncation, as modfl's; the fraction is then exact (a multiple of
    // 2^-64), and so is its scaling by 2^64 (an integer below 2^64; a product by a power of two
    // is exact, as ldexp's, without its call).
    constexpr double kTwoTo64 = 18446744073709551616.0;
    const auto high = static_cast<int64_t>(seconds);
    const double fraction = seconds - static_cast<double>(high);
    const auto low = static_cast<uint64_t>(fraction * kTwoTo64);
    // Time::From(value, Time::S) multiplies by the steps in a second, an integer at a
    // resolution of a second or finer, and then rounds (+1/2, truncation). ns-3's 128-bit
    // multiplication is exact when one factor is an integer, so it is one product in unsigned
    // 128-bit arithmetic, done here without its sign handling and out-of-line calls while
    // the product stays below 2^127 (where ns-3 would report an overflow instead).
    const int64_t steps = constants.stepsPerSecond;
    if (steps > 0 && high < std::numeric_limits<int64_t>::max() / steps - 1)
    {
        using Wide = unsigned __int128;
        const Wide value = ((static_cast<Wide>(high) << 64) | low) * static_cast<Wide>(steps);
        const Wide half = static_cast<Wide>(1) << 63;
        return Time(static_cast<int64_t>((value + half) >> 64));
    }
    return Time::From(int64x64_t(high, low), Time::S);
}

} // namespace

Time
EventTimeAfter(double seconds)
{
    const Time now = CurrentTime();
    // Time::GetSeconds() goes through long double (8-16% of a storage replay, called at every
    // re-time). Almost every delay is far inside the range: the steps left, times the seconds
    // of one step, tells that with margin to spare (its error is ~1e-16 relative), so the exact
    // test below decides only near the end of time, with the same outcome either way.
    const StepConstants& constants = Constants();
    const double roughlyLeft = static_cast<double>(Time::Max().GetTimeStep() - now.GetTimeStep()) *
                               constants.secondsPerStep;
    if (seconds < roughlyLeft / 2 - 1)
    {
        return now + SecondsExactWith(seconds, constants);
    }
    // One second short of the end, so that rounding the delay to a step cannot overflow either.
    double left = (Time::Max() - now).GetSeconds() - 1;
    if (!(seconds < left))
    {
        return Time::Max();
    }
    return now + Seconds(seconds);
}

Time
SecondsExact(double seconds)
{
    return SecondsExactWith(seconds, Constants());
}

double
NowSeconds()
{
    if (g_clock.pins > 0)
    {
        return g_clock.seconds;
    }
    const Time now = Simulator::Now();
    const Time::Unit unit = Time::GetResolution();
    if (now.GetTimeStep() != g_clock.step || unit != g_clock.unit)
    {
        g_clock.step = now.GetTimeStep();
        g_clock.unit = unit;
        g_clock.seconds = now.GetSeconds();
    }
    return g_clock.seconds;
}

PinnedTimeStep::PinnedTimeStep()
{
    if (g_clock.pins == 0)
    {
        NowSeconds(); // brings the clock to this step (it is read as it stands once pinned)
        g_clock.constants = &CurrentStepConstants();
    }
    ++g_clock.pins;
}

PinnedTimeStep::~PinnedTimeStep()
{
    --g_clock.pins;
}

namespace
{

/** A queued finish: its time step, its sequence number (ties), its job. */
struct FinishEntry
{
    int64_t at;
    uint64_t seq;
    ClusterJob* job;
};

/** \return whether a finishes before b: earlier, ties by sequence number */
bool
Before(const FinishEntry& a, const FinishEntry& b)
{
    return a.at < b.at || (a.at == b.at && a.seq < b.seq);
}

} // namespace

/**
 * A 4-ary min-heap of the queued finishes; each job keeps its entry's index
 * (ClusterJob::finishPlace), so that a re-time moves its entry in place without a look-up.
 * A pass with a small cache re-times nearly every running job (tens of millions of re-times
 * on Philly): Boost's mutable heaps reach an entry through a handle table by job id and a
 * linked list, two dependent cache misses per re-time. The order (time step, then sequence
 * number) is strict, so the earliest entry is the same in any heap.
 */
class FinishQueue::Heap
{
  public:
    /** \return whether no finish is queued */
    bool Empty() const
    {
        return m_entries.empty();
    }

    /** \return the earliest finish (not Empty()) */
    const FinishEntry& Top() const
    {
        return m_entries.front();
    }

    /** \brief Queue a job's finish, or move it. \param entry the finish */
    void Set(const FinishEntry& entry)
    {
        uint32_t place = entry.job->finishPlace;
        if (place == kNotQueued)
        {
            m_entries.push_back(entry);
            SiftUp(m_entries.size() - 1);
            return;
        }
        bool earlier = Before(entry, m_entries[place]);
        m_entries[place] = entry;
        earlier ? SiftUp(place) : SiftDown(place);
    }

    /** \brief Take a queued job's finish out. \param job the job */
    void Erase(ClusterJob& job)
    {
        size_t i = job.finishPlace;
        job.finishPlace = kNotQueued;
        FinishEntry last = m_entries.back();
        m_entries.pop_back();
        if (i == m_entries.size())
        {
            return;
        }
        bool earlier = Before(last, m_entries[i]);
        Place(i, last);
        earlier ? SiftUp(i) : SiftDown(i);
    }

    /** \brief Take every finish out (each job told it is out). */
    void Clear()
    {
        for (const FinishEntry& entry : m_entries)
        {
            entry.job->finishPlace = kNotQueued;
        }
        m_entries.clear();
    }

  private:
    static constexpr size_t kArity = 4; //!< children per node: a shallow tree

    /** \brief Put an entry at a place and tell its job. */
    void Place(size_t i, const FinishEntry& entry)
    {
        m_entries[i] = entry;
        entry.job->finishPlace = uint32_t(i);
    }

    /** \brief Move the entry at i towards the root while it finishes before its parent. */
    void SiftUp(size_t i)
    {
        FinishEntry entry = m_entries[i];
        while (i > 0)
        {
            size_t parent = (i - 1) / kArity;
            if (!Before(entry, m_entries[parent]))
            {
                break;
            }
            Place(i, m_entries[parent]);
            i = parent;
        }
        Place(i, entry);
    }

    /** \brief Move the entry at i down while a child finishes before it. */
    void SiftDown(size_t i)
    {
        FinishEntry entry = m_entries[i];
        const size_t n = m_entries.size();
        while (true)
        {
            size_t first = kArity * i + 1;
            if (first >= n)
            {
                break;
            }
            size_t best = first;
            for (size_t c = first + 1; c < std::min(first + kArity, n); ++c)
            {
                if (Before(m_entries[c], m_entries[best]))
                {
                    best = c;
                }
            }
            if (!Before(m_entries[best], entry))
            {
                break;
            }
            Place(i, m_entries[best]);
            i = best;
        }
        Place(i, entry);
    }

    std::vector<FinishEntry> m_entries; //!< the heap: each node before its children
};

FinishQueue::FinishQueue(Callback<void, ClusterJob*> onDue)
    : m_heap(std::make_unique<Heap>()),
      m_onDue(onDue)
{
    NS_LOG_FUNCTION(this);
}

// The owner calls Clear() while the simulator lives.
FinishQueue::~FinishQueue()
{
    NS_LOG_FUNCTION(this);
}

// Set, Remove, Contains and Arm run for every job whose iteration time a pass changes: they do
// not log (doc/contributing.md, Logging).

void
FinishQueue::Set(ClusterJob& job, double after)
{
    // The same time step an event scheduled now after this delay would get.
    m_heap->Set(FinishEntry{EventTimeAfter(after).GetTimeStep(), m_nextSeq++, &job});
    Arm();
}

void
FinishQueue::Remove(ClusterJob& job)
{
    if (Contains(job))
    {
        m_heap->Erase(job);
        Arm();
    }
}

bool
FinishQueue::Contains(const ClusterJob& job) const
{
    return job.finishPlace != kNotQueued;
}

void
FinishQueue::Clear()
{
    NS_LOG_FUNCTION(this);
    m_heap->Clear();
    Arm();
}

void
FinishQueue::Arm()
{
    if (m_firing)
    {
        return; // OnEvent arms once it is done
    }
    if (m_heap->Empty())
    {
        if (m_armedSeq != 0)
        {
            Simulator::Remove(m_event);
            m_armedSeq = 0;
        }
        return;
    }
    const FinishEntry& first = m_heap->Top();
    if (first.seq == m_armedSeq)
    {
        return; // the event is already for it
    }
    Simulator::Remove(m_event);
    m_event = Simulator::Schedule(TimeStep(first.at) - CurrentTime(), &FinishQueue::OnEvent, this);
    m_armedSeq = first.seq;
}

void
FinishQueue::OnEvent()
{
    NS_LOG_FUNCTION(this);
    // Every finish due now, in order, in this one event: with an event per job they would all
    // have come before the scheduling pass the first of them asks for, so the pass sees them
    // all here too.
    m_armedSeq = 0;
    m_firing = true;
    int64_t now = Simulator::Now().GetTimeStep();
    while (!m_heap->Empty() && m_heap->Top().at <= now)
    {
        FinishEntry due = m_heap->Top();
        NS_LOG_LOGIC("job " << due.job->record.id << " due");
        m_onDue(due.job); // takes it out (Remove)
        if (!m_heap->Empty() && m_heap->Top().seq == due.seq)
        {
            Remove(*due.job); // the callback kept it: its finish has fired all the same
        }
    }
    m_firing = false;
    Arm();
}

} // namespace ns3
