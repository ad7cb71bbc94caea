/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_SWITCHML_POLICY_H
#define AICLUSTER_INA_SWITCHML_POLICY_H

#include "ina-allocation-policy.h"

#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief SwitchML: static partition per job, two shadow copies per slot, self-clocked reuse,
 *        results multicast by the switch.
 */
class SwitchMlPolicy : public InaAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string GetName() const override;
    InaJobSlots Layout(uint32_t poolSize,
                       uint32_t numJobs,
                       uint32_t jobRank,
                       uint32_t window) const override;
    uint32_t InitialIndex(uint16_t job, uint32_t seq, const InaJobSlots& slots) const override;
    bool FollowsRemap() const override;
    /** Each switch has its own static partitions: the job's slot in this level's partition. */
    uint32_t LevelIndex(uint16_t job,
                        uint32_t seq,
                        uint32_t carried,
                        const InaJobSlots& slots) const override;
    Decision Decide(const InaAggregator& held, const InaHeader& pkt) const override;
    Completion GetCompletion() const override;
    bool FlushOnResend() const override;
};

} // namespace ns3

#endif // AICLUSTER_INA_SWITCHML_POLICY_H
