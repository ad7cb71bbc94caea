/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_ALLOCATION_POLICY_H
#define AICLUSTER_INA_ALLOCATION_POLICY_H

#include "ina-aggregator-pool.h"
#include "ina-header.h"

#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief What a job's workers need to address the pool: set once per job by the helper.
 */
struct InaJobSlots
{
    uint32_t poolSize{0};      //!< aggregators in the switch pool
    uint32_t window{0};        //!< outstanding chunks per worker (= slots the job cycles through)
    uint32_t partitionBase{0}; //!< first aggregator of the job's static partition (SwitchML)
};

/**
 * \ingroup aicluster
 * \brief Job state a worker stamps into packets as its priority (ESA).
 */
struct InaJobProgress
{
    uint32_t staticPriority{0};     //!< configured priority (larger = more important)
    uint64_t remainingChunks{0};    //!< chunks of the job's total work not yet synchronised
    uint64_t attainedChunks{0};     //!< chunks synchronised so far
    uint64_t chunksPerIteration{1}; //!< chunks of one iteration (the priority quantum)
    uint32_t fallbackStreak{0}; //!< consecutive results that completed at the PS, not the switch
};

/**
 * \ingroup aicluster
 * \brief Aggregator allocation policy: how workers index the pool and what the switch does
 *        when a packet meets an aggregator.
 *
 * The switch asks Decide() only when the aggregator does not already hold the
 * packet's key; everything the policies share (aggregate into a matching
 * aggregator, flush on resend, complete at fan-in) lives in InaSwitch.
 */
class InaAllocationPolicy : public Object
{
  public:
    /** What to do with a packet whose aggregator does not hold its key. */
    enum Decision
    {
        ALLOCATE, //!< take the aggregator (free, or reusable by this policy)
        COLLIDE,  //!< leave it; forward the packet to the job's PS
        PREEMPT,  //!< evict the holder (its partial aggregate goes to its PS), then take it
    };

    /** Where a completed aggregate goes. */
    enum Completion
    {
        TO_PS,     //!< to the PS, which returns the result; freed when that passes back (ATP)
        MULTICAST, //!< straight to the workers; kept as the shadow copy until reused (SwitchML)
    };

    /** \return the TypeId */
    static TypeId GetTypeId();

    /** \return "switchml", "atp" or "esa" */
    virtual std::string GetName() const = 0;

    /**
     * \brief Lay out the jobs on the pool (called once by the helper).
     * \param poolSize aggregators
     * \param numJobs jobs sharing the switch
     * \param jobRank rank of this job among them (0-based)
     * \param window outstanding chunks a worker wants
     * \return the job's slots
     * \throws std::invalid_argument if the job cannot get a usable layout (SwitchML: a
     *         partition below 2 aggregators)
     */
    virtual InaJobSlots Layout(uint32_t poolSize,
                               uint32_t numJobs,
                               uint32_t jobRank,
                               uint32_t window) const = 0;

    /**
     * \param job job id \param seq chunk sequence \param slots the job's layout
     * \return aggregator index the worker addresses before any PS re-hash
     */
    virtual uint32_t InitialIndex(uint16_t job, uint32_t seq, const InaJobSlots& slots) const = 0;

    /** \return true if workers follow the PS's re-hash of a collided slot (ATP, ESA) */
    virtual bool FollowsRemap() const = 0;

    /**
     * \brief The aggregator index of a chunk at one level of two-level aggregation.
     *
     * Default (hashed policies, ATP and ESA): the index the packet carries addresses every
     * level (all switches have the same pool size), so a PS re-hash moves the chunk at both
     * levels and one result frees both aggregators.
     * \param job job id \param seq chunk sequence
     * \param carried index the packet carries (chosen for the level below)
     * \param slots the job's layout at this level
     * \return the index at this level
     */
    virtual uint32_t LevelIndex(uint16_t job,
                                uint32_t seq,
                                uint32_t carried,
                                const InaJobSlots& slots) const;

    /**
     * \param held the aggregator the packet addresses (not holding its key)
     * \param pkt the packet
     * \return what the switch does
     */
    virtual Decision Decide(const InaAggregator& held, const InaHeader& pkt) const = 0;

    /** \return where completed aggregates go */
    virtual Completion GetCompletion() const = 0;

    /** \return true if a resend flushes the partial aggregate to the PS (ATP, ESA) */
    virtual bool FlushOnResend() const = 0;

    /** \param p job progress \return the priority stamped into its packets */
    virtual uint32_t Priority(const InaJobProgress& p) const;

    /**
     * \brief ATP's host-side hash: CRC32 over (job, slot, attempt), mixed, modulo the pool.
     * \param job job \param slot window slot \param attempt re-hash round (0 first)
     * \param poolSize aggregators
     * \param salt 0 for ATP's hash; another value gives the placement of other job ids
     *        (mixed into the CRC before the finaliser)
     * \return index
     */
    static uint32_t HashIndex(uint16_t job,
                              uint32_t slot,
                              uint32_t attempt,
                              uint32_t poolSize,
                              uint32_t salt = 0);

    /**
     * \param name "switchml", "atp" or "esa"
     * \return a new policy with default attributes
     * \throws std::invalid_argument for another name
     */
    static Ptr<InaAllocationPolicy> Create(const std::string& name);
};

} // namespace ns3

#endif // AICLUSTER_INA_ALLOCATION_POLICY_H
