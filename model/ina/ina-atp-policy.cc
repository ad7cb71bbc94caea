/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-atp-policy.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtpPolicy");
NS_OBJECT_ENSURE_REGISTERED(AtpPolicy);

TypeId
AtpPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AtpPolicy")
            .SetParent<InaAllocationPolicy>()
            .SetGroupName("Aicluster")
            .AddConstructor<AtpPolicy>()
            .AddAttribute("DeduplicateIndices",
                          "Per-job index de-duplication as ATP's host library: a window slot's "
                          "salted hash is re-drawn (salt + 1) until the job does not use the "
                          "index yet; false: one plain hash per slot, so a job can collide "
                          "with itself [bool]",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AtpPolicy::m_dedup),
                          MakeBooleanChecker())
            .AddAttribute("HashSalt",
                          "Mixed into every index hash: 0 is the hash of ATP's host library; "
                          "another value gives the index placement of other job ids (a "
                          "deployment's job ids are arbitrary, so a placement is one draw "
                          "among many) [dimensionless]",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AtpPolicy::m_hashSalt),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

AtpPolicy::AtpPolicy()
{
    NS_LOG_FUNCTION(this);
}

const std::vector<uint32_t>&
AtpPolicy::SlotIndices(uint16_t job, const InaJobSlots& slots) const
{
    auto key = std::make_tuple(job, slots.poolSize, slots.window, m_hashSalt);
    auto it = m_slotIndex.find(key);
    if (it != m_slotIndex.end())
    {
        return it->second;
    }
    std::vector<uint32_t> index(slots.window);
    std::vector<bool> used(slots.poolSize, false);
    uint32_t inUse = 0;
    for (uint32_t slot = 0; slot < slots.window; ++slot)
    {
        if (!m_dedup)
        {
            index[slot] = HashIndex(job, slot, 0, slots.poolSize, m_hashSalt);
            continue;
        }
        if (inUse == slots.poolSize)
        {
            // More slots than aggregators: the next slots share indices, spread as evenly.
            std::fill(used.begin(), used.end(), false);
            inUse = 0;
        }
        uint32_t salt = 0;
        uint32_t i = HashIndex(job, slot, salt, slots.poolSize, m_hashSalt);
        while (used[i])
        {
            i = HashIndex(job, slot, ++salt, slots.poolSize, m_hashSalt);
            if (salt > 64u * slots.poolSize)
            {
                // The hash cannot find the last free indices in reasonable time: take the
                // next free one in order (deterministic).
                i = static_cast<uint32_t>(std::find(used.begin(), used.end(), false) -
                                          used.begin());
            }
        }
        used[i] = true;
        ++inUse;
        index[slot] = i;
    }
    return m_slotIndex.emplace(key, std::move(index)).first->second;
}

std::string
AtpPolicy::GetName() const
{
    return "atp";
}

InaJobSlots
AtpPolicy::Layout(uint32_t poolSize,
                  uint32_t /*numJobs*/,
                  uint32_t /*jobRank*/,
                  uint32_t window) const
{
    InaJobSlots s;
    s.poolSize = poolSize;
    s.window = window;
    s.partitionBase = 0;
    return s;
}

uint32_t
AtpPolicy::InitialIndex(uint16_t job, uint32_t seq, const InaJobSlots& slots) const
{
    return SlotIndices(job, slots)[seq % slots.window];
}

bool
AtpPolicy::FollowsRemap() const
{
    return true;
}

InaAllocationPolicy::Decision
AtpPolicy::Decide(const InaAggregator& held, const InaHeader& /*pkt*/) const
{
    return held.inUse ? COLLIDE : ALLOCATE;
}

InaAllocationPolicy::Completion
AtpPolicy::GetCompletion() const
{
    return TO_PS;
}

bool
AtpPolicy::FlushOnResend() const
{
    return true;
}

} // namespace ns3
