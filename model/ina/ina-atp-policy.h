/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_ATP_POLICY_H
#define AICLUSTER_INA_ATP_POLICY_H

#include "ina-allocation-policy.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief ATP: best-effort sharing of the whole pool by hashed index; a collision goes to the
 *        PS; an aggregator is freed when the PS result passes back through the switch.
 */
class AtpPolicy : public InaAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    AtpPolicy();
    std::string GetName() const override;
    InaJobSlots Layout(uint32_t poolSize,
                       uint32_t numJobs,
                       uint32_t jobRank,
                       uint32_t window) const override;
    uint32_t InitialIndex(uint16_t job, uint32_t seq, const InaJobSlots& slots) const override;
    bool FollowsRemap() const override;
    Decision Decide(const InaAggregator& held, const InaHeader& pkt) const override;
    Completion GetCompletion() const override;
    bool FlushOnResend() const override;

    /**
     * \brief The index of every window slot of a job, as ATP's host library declares them:
     *        the salted hash of (job, slot, salt) with the salt incremented until the index
     *        is not yet used by the job (HashNew_crc), so a job never collides with itself
     *        while it has fewer slots than the pool has aggregators. Once a job's slots have
     *        taken every index, the next slots start over on a fresh set (the pool is smaller
     *        than the window).
     * \param job job id \param slots the job's layout
     * \return index per window slot
     */
    const std::vector<uint32_t>& SlotIndices(uint16_t job, const InaJobSlots& slots) const;

  private:
    bool m_dedup{true};     //!< DeduplicateIndices
    uint32_t m_hashSalt{0}; //!< HashSalt
    /// cache of SlotIndices per (job, pool, window, salt)
    mutable std::map<std::tuple<uint16_t, uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>>
        m_slotIndex;
};

} // namespace ns3

#endif // AICLUSTER_INA_ATP_POLICY_H
