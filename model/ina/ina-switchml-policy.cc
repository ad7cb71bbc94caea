/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-switchml-policy.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMlPolicy");
NS_OBJECT_ENSURE_REGISTERED(SwitchMlPolicy);

TypeId
SwitchMlPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchMlPolicy")
                            .SetParent<InaAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<SwitchMlPolicy>();
    return tid;
}

std::string
SwitchMlPolicy::GetName() const
{
    return "switchml";
}

InaJobSlots
SwitchMlPolicy::Layout(uint32_t poolSize, uint32_t numJobs, uint32_t jobRank, uint32_t window) const
{
    NS_LOG_FUNCTION(this << poolSize << numJobs << jobRank << window);
    // Equal static partitions; each slot takes two aggregators (the shadow copies).
    uint32_t partition = poolSize / std::max(numJobs, 1u);
    if (partition < 2)
    {
        // A slot is two aggregators (the shadow copies): a smaller partition cannot run.
        throw std::invalid_argument("SwitchML: PoolSize " + std::to_string(poolSize) +
                                    " leaves fewer than 2 aggregators for each of " +
                                    std::to_string(numJobs) + " jobs at a switch");
    }
    InaJobSlots s;
    s.poolSize = poolSize;
    s.window = std::min(window, partition / 2);
    s.partitionBase = jobRank * partition;
    return s;
}

uint32_t
SwitchMlPolicy::InitialIndex(uint16_t /*job*/, uint32_t seq, const InaJobSlots& slots) const
{
    uint32_t slot = seq % slots.window;
    uint32_t copy = (seq / slots.window) % 2;
    return slots.partitionBase + 2 * slot + copy;
}

bool
SwitchMlPolicy::FollowsRemap() const
{
    return false;
}

uint32_t
SwitchMlPolicy::LevelIndex(uint16_t job,
                           uint32_t seq,
                           uint32_t /*carried*/,
                           const InaJobSlots& slots) const
{
    return InitialIndex(job, seq, slots);
}

InaAllocationPolicy::Decision
SwitchMlPolicy::Decide(const InaAggregator& held, const InaHeader& pkt) const
{
    // Self-clocked reuse: the job's own older chunk in this copy is done (every worker
    // sent a newer one only after receiving its result).
    if (!held.inUse || (held.job == pkt.job && held.seq < pkt.seq))
    {
        return ALLOCATE;
    }
    return COLLIDE; // only with a misconfigured overlapping partition
}

InaAllocationPolicy::Completion
SwitchMlPolicy::GetCompletion() const
{
    return MULTICAST;
}

bool
SwitchMlPolicy::FlushOnResend() const
{
    return false;
}

} // namespace ns3
