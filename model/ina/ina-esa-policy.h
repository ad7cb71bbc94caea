/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_ESA_POLICY_H
#define AICLUSTER_INA_ESA_POLICY_H

#include "ina-atp-policy.h"

#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief ESA: ATP plus preemption: a packet of a higher-priority job evicts the holder, whose
 *        partial aggregate goes to the holder's PS (never lost).
 *
 * The priority rule is pluggable (PriorityRule attribute); the default is
 * shortest-remaining work (SRPT), the rule that minimises average completion
 * time on one shared resource, which is the metric ESA reports. Ageing:
 * every consecutive chunk of a job that completed at the PS instead of the
 * switch adds AgeingStep to its priority, so a job that keeps losing the pool
 * eventually outranks the jobs starving it.
 *
 * Progress counts in whole iterations by default (PriorityQuantum): a job's
 * priority is what a scheduler would give it, its remaining (or attained)
 * iterations, fixed while an iteration runs. Counted in chunks, two jobs of
 * equal size overtake each other at every chunk and evict each other's
 * aggregators back and forth with no scheduling meaning (measured: equal
 * jobs ending 10-30% apart, doc/ina.md).
 */
class EsaPolicy : public AtpPolicy
{
  public:
    /** The rule turning job progress into a priority. */
    enum Rule
    {
        STATIC,                 //!< the job's configured priority
        SHORTEST_REMAINING,     //!< fewer chunks left = higher priority
        LEAST_ATTAINED_SERVICE, //!< fewer chunks done = higher priority
    };

    /** The unit in which ShortestRemaining and LeastAttained count progress. */
    enum Quantum
    {
        ITERATION, //!< whole iterations: the priority changes only between iterations
        CHUNK,     //!< chunks: the priority changes with every synchronised chunk
    };

    /** What lets a packet take an aggregator another job holds (ablations of ESA). */
    enum Preemption
    {
        PRIORITY,      //!< a strictly higher priority (ties: lower job id): ESA as published
        EARLY_RELEASE, //!< only a complete aggregator, waiting for its PS result, any priority
        BOTH,          //!< either of the two
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    EsaPolicy();
    std::string GetName() const override;
    Decision Decide(const InaAggregator& held, const InaHeader& pkt) const override;
    uint32_t Priority(const InaJobProgress& p) const override;

  private:
    Preemption m_preemption{PRIORITY};
    Rule m_rule{SHORTEST_REMAINING};
    Quantum m_quantum{ITERATION};
    uint32_t m_ageingStep{1};
    bool m_preemptOwnJob{false};
};

} // namespace ns3

#endif // AICLUSTER_INA_ESA_POLICY_H
