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

    /** \param j a job, or the number of jobs \return the index of its first level in the
     *  flattened level arrays (for the number of jobs: the number of levels) */
    size_t LevelOffset(size_t j) const;
    /** \param j a job \param a its level \return the holdings above j at that level's pool */
    double AtLevel(size_t j, size_t a) const;
    /** \param j a job \param a its level \return the rates of the jobs above j there [1/s] */
    double RateAtLevel(size_t j, size_t a) const;
    /** \param j a job \return sum over the jobs above it that it meets of their largest
     *  holding among the pools they share */
    double Met(size_t j) const;

  private:
    /// Per job, the jobs above it that share a pool other than the wide one (the ties).
    void CollectTies(const std::vector<size_t>& poolOfLevel, size_t widePool, size_t n);
    /// A tie of job j with job c: appends c's levels at the pools they share to m_tieThere,
    /// and c's level at the wide pool (SIZE_MAX if they do not both use it) to m_tieWide.
    void AddTie(size_t j, size_t c, const std::vector<size_t>& poolOfLevel, size_t widePool);

    std::vector<size_t> m_offset;              //!< per job, first flat level; then total
    std::vector<size_t> m_jobOf;               //!< per flat level, its job
    std::vector<std::vector<size_t>> m_ranked; //!< per pool, flat levels in rank order
    std::vector<size_t> m_wideLevel;           //!< per job, flat level at the wide pool
    // The ties, flat (one pass over contiguous arrays per round): job j's are
    // m_tieBegin[j] .. m_tieBegin[j + 1]; tie t's shared levels there are
    // m_tieThere[m_tieLevelBegin[t] .. m_tieLevelBegin[t + 1]].
    std::vector<size_t> m_tieBegin;      //!< per job, its first tie; then the total
    std::vector<size_t> m_tieWide;       //!< per tie, the other's wide level if both use it
    std::vector<size_t> m_tieLevelBegin; //!< per tie, its first shared level; then the total
    std::vector<size_t> m_tieThere;      //!< the other's levels at the shared pools
    std::vector<double> m_above;         //!< per flat level, holdings above it
    std::vector<double> m_rateAbove;     //!< per flat level, rates above it
    std::vector<double> m_met;           //!< per job, Met()
};

} // namespace ns3

#endif // AICLUSTER_INA_RANKED_HOLDINGS_H
