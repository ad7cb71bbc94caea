/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-allocation-policy.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/crc32.h"
#include "ns3/enum.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

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
    static TypeId tid = TypeId("ns3::AtpPolicy")
                            .SetParent<InaAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<AtpPolicy>();
    return tid;
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
    return HashIndex(job, seq % slots.window, 0, slots.poolSize);
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
                          MakeEnumAccessor(&EsaPolicy::m_rule),
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
                          MakeEnumAccessor(&EsaPolicy::m_quantum),
                          MakeEnumChecker(ITERATION, "Iteration", CHUNK, "Chunk"))
            .AddAttribute("AgeingStep",
                          "Priority added per consecutive chunk of a job that completed at the "
                          "PS instead of the switch (anti-starvation) [priority units per chunk]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&EsaPolicy::m_ageingStep),
                          MakeUintegerChecker<uint32_t>())
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
    if (pkt.priority != held.priority)
    {
        return pkt.priority > held.priority ? PREEMPT : COLLIDE;
    }
    // Equal priorities: the lower job id wins, one consistent order (as SRPT serves one of two
    // equal jobs first), so equal jobs do not take aggregators from each other both ways.
    return pkt.job < held.job ? PREEMPT : COLLIDE;
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
