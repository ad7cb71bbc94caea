/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CBA_POLICY_H
#define AICLUSTER_CBA_POLICY_H

#include "silod-like-policy.h"
#include "storage-policy.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * CbaPolicy: CBA, the minimum-IO-cost cache and bandwidth allocation.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief CBA: the minimum-IO-cost cache and bandwidth that serve every job at its compute
 *        rate (CbaSolver::MinCost); when the capacities (or the budget) cannot, by Scarcity:
 *
 * - THROUGHPUT (default). If the capacities bind: the plan of highest delivered throughput
 *   among candidates that each give every job at least its rate without a cache
 *   (NoCachePolicy's max-min fair share): no cache, SiloD-like saturation, whole datasets
 *   by density, a density prefix, and the common fraction if it gives every job that much
 *   too; then the minimum IO cost for the chosen per-job rates (CbaSolver::MaxScale with
 *   targets). If the budget binds: that plan (or the every-demand plan) with its cache and
 *   its cached datasets' readers kept, and the readers of uncached data throttled, max-min
 *   fair on the bandwidth the budget leaves, so no job pays more per byte read than
 *   without the budget; if the cached part alone is over budget, or a throttled reader
 *   would get less than the common fraction gives it, the common fraction.
 * - COMMON: the largest common fraction of every demand (CbaSolver::MaxScale).
 */
class CbaPolicy : public StorageAllocationPolicy
{
  public:
    /** How CBA allocates when it cannot serve every job at its compute rate. */
    enum Scarcity
    {
        THROUGHPUT, //!< most throughput, never below no cache per job; least cost for it
        COMMON,     //!< the largest common fraction of the demands (a common slowdown)
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    CbaPolicy();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
    /** \return the IO budget [$ per s]; 0 = none */
    double BudgetPerSecond() const;

    /**
     * \brief The THROUGHPUT plan when the capacities bind, without a budget (whatever the
     *        Scarcity attribute says).
     * \param problem the allocation problem
     * \param common CbaSolver::MaxScale(problem, 0), one of the candidates
     * \return the allocation; its scale field holds the served share of the total demand
     */
    StorageAllocation ThroughputFirst(const StorageProblem& problem,
                                      const StorageAllocation& common);

  private:
    /**
     * \brief The THROUGHPUT plan when the budget binds.
     * \param problem the allocation problem
     * \param plan the plan without a budget (over it)
     * \param common CbaSolver::MaxScale(problem, budget): the answer if plan's cache and
     *        its readers alone are over budget
     * \return the allocation (cost rate within the budget)
     */
    StorageAllocation WithinBudget(const StorageProblem& problem,
                                   const StorageAllocation& plan,
                                   const StorageAllocation& common) const;

    double m_budgetPerHour;       //!< [$ per hour]; 0 = none
    Scarcity m_scarcity;          //!< rule when the demands cannot all be served
    Ptr<SiloDLikePolicy> m_silod; //!< one candidate plan of ThroughputFirst
    LazyDatasetOrder m_order;     //!< ThroughputFirst's density prefix, kept between calls
    /**
     * The density order of the demands (CbaSolver::MaxScale without targets, and m_order's):
     * between two calls it changes by the datasets that came and went.
     */
    DatasetOrderHint m_demandHint;
    /**
     * Per candidate plan of ThroughputFirst (by its place in the list), the density order of
     * its rates, kept for the same plan at the next call: rates move little between calls.
     */
    std::vector<DatasetOrderHint> m_planHints;
    std::vector<double> m_targets;     //!< work: a candidate plan's per-job rates
    std::vector<double> m_x;           //!< work: its least-cost cached fractions
    std::vector<double> m_bestTargets; //!< work: the best plan's so far
    std::vector<double> m_bestX;       //!< work: its fractions
};

} // namespace ns3

#endif // AICLUSTER_CBA_POLICY_H
