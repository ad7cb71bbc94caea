/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-allocation-policy.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/crc32.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaAllocationPolicy");
NS_OBJECT_ENSURE_REGISTERED(InaAllocationPolicy);
NS_OBJECT_ENSURE_REGISTERED(SwitchMlPolicy);
NS_OBJECT_ENSURE_REGISTERED(AtpPolicy);
NS_OBJECT_ENSURE_REGISTERED(EsaPolicy);

TypeId
InaAllocationPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaAllocationPolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

uint32_t
InaAllocationPolicy::Priority(const InaJobProgress& p) const
{
    return p.staticPriority;
}

uint32_t
InaAllocationPolicy::LevelIndex(uint16_t /*job*/,
                                uint32_t /*seq*/,
                                uint32_t carried,
                                const InaJobSlots& /*slots*/) const
{
    return carried;
}

uint32_t
InaAllocationPolicy::HashIndex(uint16_t job, uint32_t slot, uint32_t attempt, uint32_t poolSize)
{
    uint8_t buf[10];
    buf[0] = job >> 8;
    buf[1] = job & 0xff;
    for (int i = 0; i < 4; ++i)
    {
        buf[2 + i] = (slot >> (24 - 8 * i)) & 0xff;
        buf[6 + i] = (attempt >> (24 - 8 * i)) & 0xff;
    }
    // CRC32 as ATP's host library, then the murmur3 finaliser: CRC32 is linear, and on
    // these short keys its low bits barely change, so a power-of-two pool would see only a
    // handful of indices.
    uint32_t h = CRC32Calculate(buf, sizeof(buf));
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h % poolSize;
}

Ptr<InaAllocationPolicy>
InaAllocationPolicy::Create(const std::string& name)
{
    if (name == "switchml")
    {
        return CreateObject<SwitchMlPolicy>();
    }
    if (name == "atp")
    {
        return CreateObject<AtpPolicy>();
    }
    if (name == "esa")
    {
        return CreateObject<EsaPolicy>();
    }
    throw std::invalid_argument("INA policy '" + name + "' unknown: expected switchml, atp or esa");
}

// ---- SwitchML ------------------------------------------------------------------

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

// ---- ATP -----------------------------------------------------------------------

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
                          MakeBooleanChecker());
    return tid;
}

AtpPolicy::AtpPolicy()
{
    NS_LOG_FUNCTION(this);
}

const std::vector<uint32_t>&
AtpPolicy::SlotIndices(uint16_t job, const InaJobSlots& slots) const
{
    auto key = std::make_tuple(job, slots.poolSize, slots.window);
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
            index[slot] = HashIndex(job, slot, 0, slots.poolSize);
            continue;
        }
        if (inUse == slots.poolSize)
        {
            // More slots than aggregators: the next slots share indices, spread as evenly.
            std::fill(used.begin(), used.end(), false);
            inUse = 0;
        }
        uint32_t salt = 0;
        uint32_t i = HashIndex(job, slot, salt, slots.poolSize);
        while (used[i])
        {
            i = HashIndex(job, slot, ++salt, slots.poolSize);
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

// ---- ESA -----------------------------------------------------------------------

TypeId
EsaPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EsaPolicy")
            .SetParent<AtpPolicy>()
            .SetGroupName("Aicluster")
            .AddConstructor<EsaPolicy>()
            .AddAttribute("PriorityRule",
                          "How a job's priority is computed: Static (configured per job), "
                          "ShortestRemaining (fewer chunks left wins) or LeastAttained (fewer "
                          "chunks done wins)",
                          EnumValue(SHORTEST_REMAINING),
                          MakeAiclusterEnumAccessor(&EsaPolicy::m_rule),
                          MakeEnumChecker(STATIC,
                                          "Static",
                                          SHORTEST_REMAINING,
                                          "ShortestRemaining",
                                          LEAST_ATTAINED_SERVICE,
                                          "LeastAttained"))
            .AddAttribute("PriorityQuantum",
                          "Unit of progress for ShortestRemaining and LeastAttained: Iteration "
                          "(the priority holds for a whole iteration, as a job scheduler's "
                          "would) or Chunk (changes with every synchronised chunk)",
                          EnumValue(ITERATION),
                          MakeAiclusterEnumAccessor(&EsaPolicy::m_quantum),
                          MakeEnumChecker(ITERATION, "Iteration", CHUNK, "Chunk"))
            .AddAttribute("AgeingStep",
                          "Priority added per consecutive chunk of a job that completed at the "
                          "PS instead of the switch (anti-starvation) [priority units per chunk]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&EsaPolicy::m_ageingStep),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Preemption",
                "What lets a packet take another job's aggregator: Priority (a higher "
                "priority, ties to the lower job id; evicts partial or complete), "
                "EarlyRelease (only a complete aggregator that waits for its PS "
                "result, any priority: nothing is lost) or Both",
                EnumValue(PRIORITY),
                MakeAiclusterEnumAccessor(&EsaPolicy::m_preemption),
                MakeEnumChecker(PRIORITY, "Priority", EARLY_RELEASE, "EarlyRelease", BOTH, "Both"))
            .AddAttribute("PreemptOwnJob",
                          "Allow a packet to evict another chunk of its own job [bool]",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EsaPolicy::m_preemptOwnJob),
                          MakeBooleanChecker());
    return tid;
}

std::string
EsaPolicy::GetName() const
{
    return "esa";
}

InaAllocationPolicy::Decision
EsaPolicy::Decide(const InaAggregator& held, const InaHeader& pkt) const
{
    if (!held.inUse)
    {
        return ALLOCATE;
    }
    if (held.job == pkt.job && !m_preemptOwnJob)
    {
        return COLLIDE;
    }
    // Equal priorities: the lower job id wins, one consistent order (as SRPT serves one of two
    // equal jobs first), so equal jobs do not take aggregators from each other both ways.
    const bool outranks =
        pkt.priority != held.priority ? pkt.priority > held.priority : pkt.job < held.job;
    // A complete aggregator only waits for the PS result to pass: its sum is at the PS.
    const bool released = held.complete && !held.delegated;
    switch (m_preemption)
    {
    case EARLY_RELEASE:
        return released ? PREEMPT : COLLIDE;
    case BOTH:
        return released || outranks ? PREEMPT : COLLIDE;
    case PRIORITY:
    default:
        return outranks ? PREEMPT : COLLIDE;
    }
}

uint32_t
EsaPolicy::Priority(const InaJobProgress& p) const
{
    // Base priorities live in [0, 2^31) so that ageing can add on top without wrapping.
    const uint64_t half = std::numeric_limits<uint32_t>::max() / 2;
    uint64_t base = 0;
    // Iteration quantum: the work counted as at the start of the current iteration (remaining
    // rounded up, attained rounded down, to whole iterations), so every chunk of one iteration
    // carries the same priority and jobs of different sizes still rank by their work.
    uint64_t q = m_quantum == ITERATION ? std::max<uint64_t>(1, p.chunksPerIteration) : 1;
    switch (m_rule)
    {
    case STATIC:
        base = std::min<uint64_t>(p.staticPriority, half);
        break;
    case SHORTEST_REMAINING:
        base = half - std::min<uint64_t>((p.remainingChunks + q - 1) / q * q, half);
        break;
    case LEAST_ATTAINED_SERVICE:
        base = half - std::min<uint64_t>(p.attainedChunks / q * q, half);
        break;
    }
    uint64_t aged = base + static_cast<uint64_t>(m_ageingStep) * p.fallbackStreak;
    return static_cast<uint32_t>(std::min<uint64_t>(aged, std::numeric_limits<uint32_t>::max()));
}

} // namespace ns3
