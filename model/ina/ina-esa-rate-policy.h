/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_ESA_RATE_POLICY_H
#define AICLUSTER_INA_ESA_RATE_POLICY_H

#include "ina-atp-rate-policy.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief ESA at the rate level (EsaPolicy at the packet level): ATP plus preemption, a chunk
 *        of a higher-priority job takes the aggregator another job holds.
 *
 * Jobs are ranked by priority key (smaller first), then by job id, as EsaPolicy ranks
 * packets; only the jobs ranked before a job block it, its room in a short pool is what they
 * leave, and a key split by skew is rescued when the holder's slot comes back (at most the
 * resend timeout). The key comes from the priority rule (InaGradientSync::PriorityRule), with
 * the same names and meaning as EsaPolicy's, counted in whole iterations
 * (EsaPolicy::PriorityQuantum's default).
 */
class EsaRatePolicy : public AtpRatePolicy
{
  public:
    /** The rule turning a job's progress into its priority key (as EsaPolicy::Rule). */
    enum Rule
    {
        STATIC,                 //!< ClusterJob::priorityLevel (0 = highest)
        SHORTEST_REMAINING,     //!< fewer remaining bytes to sync wins
        LEAST_ATTAINED_SERVICE, //!< less attained service wins
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    EsaRatePolicy();
    ~EsaRatePolicy() override;

    /** \return "esa" */
    std::string GetName() const override;
    /** \return true: a higher priority takes a held aggregator */
    bool Preempts() const override;
    /**
     * \param a a job \param ia its index in the problem \param b another \param ib its index
     * \return true if a has the smaller key, or the same key and the lower job id, or both
     *         equal and comes first in the problem
     */
    bool Outranks(const InaRateJob& a, size_t ia, const InaRateJob& b, size_t ib) const override;
    /**
     * \param job a running job
     * \return Static: its priorityLevel; ShortestRemaining: remainingIterations x gradient
     *         bytes; LeastAttained: its attained GPU-seconds
     */
    double PriorityKey(const ClusterJob& job) const override;
    /**
     * \param holder the holding job \param ih its index \param job the blocked job
     * \param ij its index
     * \return 1 if the holder outranks the job, else 0 (the job preempts it)
     */
    double BlockingWeight(const InaRateJob& holder,
                          size_t ih,
                          const InaRateJob& job,
                          size_t ij) const override;
    /**
     * \param pool aggregators of the pool
     * \param blocking aggregators held by the jobs ranked before this one there
     * \param demand unused \param poolDemand unused
     * \return pool - blocking: what the higher priorities leave [aggregators]
     */
    double Room(double pool, double blocking, double demand, double poolDemand) const override;
    /**
     * \param episodesFirst first-window stall episodes \param episodesRest later ones
     * \param timeout unused (waitFirst and waitRest are at most the timeout)
     * \param rtt unused
     * \param waitFirst mean rescue wait of a first-window episode [s]
     * \param waitRest mean rescue wait of a later episode [s]
     * \return episodesFirst waitFirst + episodesRest waitRest [s]
     */
    double SplitKeyStall(double episodesFirst,
                         double episodesRest,
                         double timeout,
                         double rtt,
                         double waitFirst,
                         double waitRest) const override;

    /**
     * \param rule the priority rule. Set by InaGradientSync from its PriorityRule attribute,
     *        the rule's one home: this class has no attribute of its own for it.
     */
    void SetPriorityRule(Rule rule);
    /** \return the priority rule */
    Rule GetPriorityRule() const;

  private:
    Rule m_rule{SHORTEST_REMAINING}; //!< priority rule (InaGradientSync::PriorityRule)
};

} // namespace ns3

#endif // AICLUSTER_INA_ESA_RATE_POLICY_H
