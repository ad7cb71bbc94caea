/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-esa-policy.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EsaPolicy");
NS_OBJECT_ENSURE_REGISTERED(EsaPolicy);

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

EsaPolicy::EsaPolicy()
{
    NS_LOG_FUNCTION(this);
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
