/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_RANKED_HOLDINGS_H
#define AICLUSTER_INA_RANKED_HOLDINGS_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief What the jobs ranked above a job hold at the pools it shares with them: the blocking
 *        a preemptive policy (ESA at the rate level) meets, summed without visiting pairs.
 *
 * A component is a set of jobs, each with levels at distinct aggregator pools, and a total
 * order of importance (rank 0 first). Per round of the fixed point the caller gives every
 * level's holdings and every job's rate; this class returns, for job j:
 * - per level a at pool P: the holdings of the jobs ranked above j at P (AtLevel) and the sum
 *   of their rates (RateAtLevel);
 * - over all its pools together: the sum, over the jobs ranked above j that share any pool
 *   with it, of their largest holding among the pools they share (Met): with one hashed
 *   index at every level, a job meets each other job once, where that one holds most.
 *
 * Visiting every pair costs jobs^2 per round, and every cross-rack job shares the spine. The
 * per-pool sums are prefix sums over the rank order; Met is the spine's prefix sum, corrected
 * only for the pairs that also share a smaller pool (a ToR), which are few. The cost per
 * round is O(levels + sum over the small pools of members^2), and the rank order is sorted
 * once per component.
 */
class InaRankedHoldings
{
  public:
    /**
     * \brief Set the component (once per solve).
     * \param poolsOf per job, the pool of each of its levels (distinct pools per job)
     * \param pools the number of pools (pool ids are 0 .. pools - 1)
     * \param widePool the pool most jobs share (the spine), summed without pairs; pairs that
     *        also share another pool are corrected one by one
     * \param order the jobs from the most important to the least (a permutation)
     */
    void SetComponent(const std::vector<std::vector<size_t>>& poolsOf,
                      size_t pools,
                      size_t widePool,
                      const std::vector<size_t>& order);

    /**
     * \brief Sum for one round.
     * \param held per level, flattened in job order then level order (job j's levels start at
     *        LevelOffset(j)): the aggregators it holds [aggregators]
     * \param rate per job, its rate (e.g. chunk arrivals per second) [1/s]
     */
    void Sum(const std::vector<double>& held, const std::vector<double>& rate);

    /** \param j a job \return the index of its first level in the flattened level arrays */
    size_t LevelOffset(size_t j) const;
    /** \param j a job \param a its level \return the holdings above j at that level's pool */
    double AtLevel(size_t j, size_t a) const;
    /** \param j a job \param a its level \return the rates of the jobs above j there [1/s] */
    double RateAtLevel(size_t j, size_t a) const;
    /** \param j a job \return sum over the jobs above it that it meets of their largest
     *  holding among the pools they share */
    double Met(size_t j) const;

  private:
    /// A job ranked above another that shares a small pool with it: the levels they share.
    struct Tie
    {
        size_t other;                                  //!< the job ranked above
        std::vector<std::pair<size_t, size_t>> levels; //!< (flat level here, flat level there)
        size_t wideThere{SIZE_MAX};                    //!< its flat level at the wide pool
    };

    /// Per job, the jobs above it that share a pool other than the wide one.
    void CollectTies(const std::vector<size_t>& poolOfLevel, size_t widePool, size_t n);
    /// The levels jobs j and c share, and c's at the wide pool if they share it.
    Tie SharedLevels(size_t j,
                     size_t c,
                     const std::vector<size_t>& poolOfLevel,
                     size_t widePool) const;

    std::vector<size_t> m_offset;              //!< per job, first flat level; then total
    std::vector<size_t> m_jobOf;               //!< per flat level, its job
    std::vector<std::vector<size_t>> m_ranked; //!< per pool, flat levels in rank order
    std::vector<size_t> m_wideLevel;           //!< per job, flat level at the wide pool
    std::vector<std::vector<Tie>> m_ties;      //!< per job, the small-pool ties above it
    std::vector<double> m_above;               //!< per flat level, holdings above it
    std::vector<double> m_rateAbove;           //!< per flat level, rates above it
    std::vector<double> m_met;                 //!< per job, Met()
};

} // namespace ns3

#endif // AICLUSTER_INA_RANKED_HOLDINGS_H
