/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PACED_GROUP_H
#define AICLUSTER_PACED_GROUP_H

#include "ns3/event-id.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

class ClusterJob;

/**
 * \ingroup aicluster
 * \brief Running jobs whose data term is their own work times one shared pace, on one
 *        virtual clock.
 *
 * Jobs bottlenecked together on a shared resource served max-min fair (the remote storage
 * bandwidth, say) each get the same level, so each one's data term is work_j * pace, with
 * work_j its own units per iteration (bytes missed) and pace the seconds per unit (1 / level).
 * While such a job is data-bound (work_j * pace >= its compute-and-sync time) its progress in
 * units is the same for every member: the virtual time V, with dV/dt = 1 / pace. A member is
 * done when V reaches its mark, V at joining plus the units it had left. A pace change moves
 * no mark, so it costs one event for the earliest mark, not a re-timing of every member.
 *
 * A member whose compute and sync take longer than its data term is not on the clock but
 * "parked" (timed on its own, by the engine); each member's threshold, compute-and-sync time
 * / work, says at which pace it changes sides. The engine keeps the per-job state in
 * ClusterJob (pacedGroup, pacedWork, pacedMark, pacedThreshold, pacedClocked).
 */
class PacedGroup
{
  public:
    /** A member in an ordered set: by key, ties by job id (deterministic order). */
    struct Entry
    {
        double key;      //!< mark or threshold
        uint64_t id;     //!< the job's id
        ClusterJob* job; //!< the job

        /** \param o another entry \return true if this one comes first */
        bool operator<(const Entry& o) const
        {
            return key < o.key || (key == o.key && id < o.id);
        }
    };

    /** \param id the group's id, as the term model names it */
    explicit PacedGroup(uint32_t id);

    /** \return the group's id */
    uint32_t Id() const;
    /** \return seconds per unit of work now (0 before the first SetPace) */
    double Pace() const;
    /**
     * \param now simulation time [s]
     * \return units of work each clocked member has done since the clock began
     */
    double VirtualTime(double now) const;
    /**
     * \brief Advance the clock to now at the old pace, then run at the new one.
     * \param now simulation time [s]
     * \param pace seconds per unit of work (> 0)
     */
    void SetPace(double now, double pace);

    /**
     * \brief Put a member on the clock (its data term dominates at the current pace).
     * \param job a member (pacedWork and pacedThreshold set)
     * \param remainingWork units it has left
     * \param now simulation time [s]
     */
    void Clock(ClusterJob& job, double remainingWork, double now);
    /**
     * \brief Take a member off the clock (bring its progress up to date first:
     *        ClusterJob::RemainingIterationsAt reads the clock).
     * \param job a clocked member
     */
    void Unclock(ClusterJob& job);
    /** \param job a member to time on its own (compute and sync dominate) */
    void Park(ClusterJob& job);
    /** \param job a parked member, to forget */
    void Unpark(ClusterJob& job);

    /** \return clocked members whose threshold exceeds the pace: no longer data-bound */
    std::vector<ClusterJob*> ClockedAbovePace() const;
    /** \return parked members whose threshold the pace reaches: data-bound again */
    std::vector<ClusterJob*> ParkedAtPace() const;

    /** \return the clocked member with the earliest mark, nullptr if none */
    ClusterJob* First() const;
    /**
     * \param now simulation time [s]
     * \return seconds from now until the earliest mark (First() must exist)
     */
    double UntilFirst(double now) const;
    /** \return GPU-equivalents computing: sum over clocked members of gpus * compute / (work *
     * pace) */
    double Busy() const;
    /** \return true if no member is clocked or parked */
    bool Empty() const;

    EventId finishEvent; //!< the engine's event for First()'s finish

  private:
    /** A clocked or parked member where it is kept (unordered, see m_clocked). */
    struct Member
    {
        double mark;      //!< clocked: the group's virtual time at its finish
        double threshold; //!< its compute-and-sync time / work
        uint64_t id;      //!< the job's id
        ClusterJob* job;  //!< the job
    };

    /**
     * \param list m_clocked or m_parked
     * \param job a member that is not in it
     * \return its index in list
     */
    uint32_t Add(std::vector<Member>& list, ClusterJob& job);
    /**
     * \brief Take a member out of a list (the last one takes its place).
     * \param list m_clocked or m_parked
     * \param job a member in it
     * \return the index it had
     */
    uint32_t Drop(std::vector<Member>& list, const ClusterJob& job);
    /**
     * \param a a clocked member's index
     * \param b another one
     * \return true if a's mark comes first (ties by job id)
     */
    bool MarkBefore(uint32_t a, uint32_t b) const;
    /**
     * \param a an entry \param b another one
     * \return true if a comes after b (the heap's order: earliest on top)
     */
    static bool Later(const Entry& a, const Entry& b);
    /** \param at a clocked member's index: its (mark, id) onto m_marks */
    void PushMark(uint32_t at);

    uint32_t m_id;
    double m_pace{0};
    double m_virtual{0}; //!< V at m_since
    double m_since{0};   //!< [s]
    double m_weight{0};  //!< sum over clocked members of gpus * compute / work

    // Members are re-timed at nearly every pass under a storage policy whose hits move (fair,
    // lru, cba with a small cache), and the pace moves at nearly every pass too: the members
    // are kept unordered (O(1) in and out), the order by threshold is found by one pass over
    // them when the pace moves (ClockedAbovePace, ParkedAtPace), and the earliest mark is kept
    // up to date as members come and found again by one pass only when it leaves.
    std::vector<Member> m_clocked; //!< members on the clock, unordered
    std::vector<Member> m_parked;  //!< members timed alone, unordered
    std::vector<uint32_t> m_index; //!< by job id: its index in m_clocked or m_parked
    mutable int64_t m_first{-1};   //!< index of the earliest mark in m_clocked, -1 unknown
    /// The clocked members' (mark, id) as they came, earliest on top, and entries of members
    /// that left or came again since (skipped when on top): the earliest mark, when it
    /// leaves, is found without a pass over every member (a finish on the clock, issue #13).
    mutable std::vector<Entry> m_marks;
    // Bounds on the members' thresholds, raised (lowered) as members come and made tight by
    // the scans: a pace at or above every clocked threshold (below every parked one) crosses
    // none, and the scan is skipped (issue #13: the pace moves at nearly every pass).
    mutable double m_clockedMax{-std::numeric_limits<double>::infinity()}; //!< >= clocked
    mutable double m_parkedMin{std::numeric_limits<double>::infinity()};   //!< <= parked
};

} // namespace ns3

#endif // AICLUSTER_PACED_GROUP_H
