/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cba-policy.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CbaPolicy");
NS_OBJECT_ENSURE_REGISTERED(CbaPolicy);

TypeId
CbaPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CbaPolicy")
            .SetParent<StorageAllocationPolicy>()
            .SetGroupName("Aicluster")
            .AddConstructor<CbaPolicy>()
            .AddAttribute("Budget",
                          "IO budget for cache plus remote bandwidth [$ per hour]; 0 = none "
                          "(serve every job at its compute rate at minimum cost).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&CbaPolicy::m_budgetPerHour),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "Scarcity",
                "Rule when the capacities or the budget cannot serve every job at its "
                "compute rate: Throughput (the most delivered throughput, every job "
                "at least at its no-cache max-min fair rate, then the least IO cost "
                "for those rates) or Common (the largest common fraction of every "
                "demand at least cost).",
                EnumValue(CbaPolicy::THROUGHPUT),
                MakeAiclusterEnumAccessor(&CbaPolicy::m_scarcity),
                MakeEnumChecker(CbaPolicy::THROUGHPUT, "Throughput", CbaPolicy::COMMON, "Common"));
    return tid;
}

CbaPolicy::CbaPolicy()
    : m_budgetPerHour(0),
      m_scarcity(THROUGHPUT),
      m_silod(CreateObject<SiloDLikePolicy>())
{
}

StorageAllocation
CbaPolicy::Allocate(const StorageProblem& problem)
{
    const double budget = BudgetPerSecond();
    StorageAllocation common = CbaSolver::MaxScale(problem, budget, &m_demandHint);
    if (common.scale >= 1 || m_scarcity == COMMON)
    {
        return common; // every job at its compute rate (or the common slowdown asked for)
    }
    // The plan without a budget: every demand at least cost if the capacities allow,
    // else the throughput-first plan.
    StorageAllocation plan = budget > 0 ? CbaSolver::MaxScale(problem, 0, &m_demandHint) : common;
    if (plan.scale < 1)
    {
        plan = ThroughputFirst(problem, plan);
    }
    if (budget <= 0 || plan.CostRate(problem) <= budget * (1 + 1e-11))
    {
        return plan;
    }
    return WithinBudget(problem, plan, common);
}

StorageAllocation
CbaPolicy::WithinBudget(const StorageProblem& problem,
                        const StorageAllocation& plan,
                        const StorageAllocation& common) const
{
    NS_LOG_FUNCTION(this);
    // Keep the cache and the cached datasets' readers as planned; the readers of uncached
    // data pay p_b per byte at any speed, so throttling them (max-min fair on the bandwidth
    // the budget leaves) lowers the cost rate without raising any job's cost per byte.
    const double budget = BudgetPerSecond();
    size_t n = problem.jobs.size();
    double fixed = problem.cachePrice * plan.TotalCache();
    std::vector<size_t> flexible;
    for (size_t j = 0; j < n; ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        if (plan.cache[k] > 0 || problem.datasetBytes[k] <= 0)
        {
            fixed += problem.bandwidthPrice * problem.jobs[j].count * plan.bandwidth[j];
        }
        else
        {
            flexible.push_back(j);
        }
    }
    if (flexible.empty() || problem.bandwidthPrice <= 0 || fixed > budget)
    {
        return common; // the cached part alone is over budget: every job slows together
    }
    std::vector<double> wants;
    std::vector<StorageDemand> entries;
    for (size_t j : flexible)
    {
        wants.push_back(plan.bandwidth[j]);
        entries.push_back(problem.jobs[j]);
    }
    WaterFill(wants, (budget - fixed) / problem.bandwidthPrice, entries);
    StorageAllocation out = plan;
    double served = 0;
    double total = 0;
    for (size_t i = 0; i < flexible.size(); ++i)
    {
        out.bandwidth[flexible[i]] = wants[i];
        // Never starve a throttled reader below what the common fraction gives it (a job
        // left (nearly) without bandwidth would never finish): then every job slows together.
        if (out.Rate(problem, flexible[i]) < common.Rate(problem, flexible[i]))
        {
            return common;
        }
    }
    for (size_t j = 0; j < n; ++j)
    {
        served += problem.jobs[j].count * out.Rate(problem, j);
        total += problem.jobs[j].count * problem.jobs[j].demand;
    }
    out.scale = total > 0 ? std::min(1.0, served / total) : 1.0;
    out.level = std::numeric_limits<double>::infinity();
    return out;
}

namespace
{

/**
 * \brief StorageAllocation::TotalRate and the sum over jobs of their served fraction
 *        rate / demand (1 for a job that demands nothing), in one pass: each rate is computed
 *        once, and each sum adds the same terms in the same order as a pass of its own.
 * \param problem the problem
 * \param alloc an allocation of it
 * \param served set to the summed served fractions
 * \return the total rate [bytes/s]
 */
double
RateAndServed(const StorageProblem& problem, const StorageAllocation& alloc, double& served)
{
    double total = 0;
    served = 0;
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        const StorageDemand& job = problem.jobs[j];
        double rate = alloc.Rate(problem, j);
        total += job.count * rate;
        served += job.count * (job.demand > 0 ? rate / job.demand : 1.0);
    }
    return total;
}

} // namespace

StorageAllocation
CbaPolicy::ThroughputFirst(const StorageProblem& problem, const StorageAllocation& common)
{
    NS_LOG_FUNCTION(this);
    size_t nd = problem.datasetBytes.size();
    std::vector<double> demand = problem.DatasetDemand();
    // The floor: no cache, bandwidth max-min fair. Caching under the same water-filling only
    // lowers the jobs' remote needs, so the level rises and every job's rate
    // min(T, b / (1 - x)) stays at or above its floor: every plan below but the common
    // fraction keeps every job at or above it.
    StorageAllocation none;
    none.cache.assign(nd, 0.0);
    CompleteWithFairBandwidth(problem, none);
    std::vector<StorageAllocation> plans;
    plans.push_back(none);
    plans.push_back(m_silod->Allocate(problem));
    std::vector<double> rho(nd, 0.0);
    for (size_t k = 0; k < nd; ++k)
    {
        rho[k] = problem.datasetBytes[k] > 0 ? demand[k] / problem.datasetBytes[k] : 0.0;
    }
    // Whole datasets by density: one larger than the cache is never taken, so the order of
    // those that fit is ReadDatasetsBy's (m_order's, sorted from the kept hint) with the
    // others left out.
    m_order.Reset(problem, demand, rho, &m_demandHint);
    std::vector<size_t> fitting;
    for (size_t i = 0; m_order.Has(i); ++i)
    {
        if (problem.datasetBytes[m_order.At(i)] <= problem.cacheCapacity)
        {
            fitting.push_back(m_order.At(i));
        }
    }
    plans.push_back(CacheWholeDatasets(problem, fitting));
    StorageAllocation prefix; // a density prefix, the last in part: read while cache is left
    prefix.cache.assign(nd, 0.0);
    double left = problem.cacheCapacity;
    for (size_t i = 0; left > 0 && m_order.Has(i); ++i)
    {
        size_t k = m_order.At(i);
        prefix.cache[k] = std::min(left, problem.datasetBytes[k]);
        left -= prefix.cache[k];
    }
    CompleteWithFairBandwidth(problem, prefix);
    plans.push_back(prefix);
    // The common fraction competes only where it gives every job its floor too.
    const double slack = 1e-12;
    bool commonAboveFloor = true;
    for (size_t j = 0; j < problem.jobs.size() && commonAboveFloor; ++j)
    {
        commonAboveFloor = common.Rate(problem, j) >= none.Rate(problem, j) * (1 - slack);
    }
    if (commonAboveFloor)
    {
        plans.push_back(common);
    }
    // Each plan's per-job rates at least cost (the same rates or more: CbaSolver::MinCost,
    // MaxScale with targets at full scale); the most throughput wins, ties to the larger sum
    // of served fractions, then to the lower cost. A plan is judged by its totals, and only
    // the winner's allocation is built (the same allocation MinCost would have given).
    int bestPlan = -1;      // the winning plan; -1: none yet
    bool bestLeast = false; // it wins by its least-cost allocation (m_bestTargets, m_bestX),
                            // else as it is (rounding left MinCost short of its targets)
    double bestRate = -1;
    double bestServed = -1;
    double bestCost = 0;
    m_targets.resize(problem.jobs.size());
    m_planHints.resize(std::max(m_planHints.size(), plans.size())); // the common plan may be off
    for (size_t p = 0; p < plans.size(); ++p)
    {
        const StorageAllocation& plan = plans[p];
        for (size_t j = 0; j < problem.jobs.size(); ++j)
        {
            m_targets[j] = plan.Rate(problem, j);
        }
        // Rounding may leave the least-cost plan a hair short of the targets: the plan
        // itself serves them. (MaxScale would then bisect for a scale below 1, whose
        // allocation is dropped for the plan: MinCost stops at the verdict of full scale, the
        // same first step with the same hint, and gives MaxScale's allocation when it holds.)
        bool least = CbaSolver::MinCostFractions(problem, m_targets, m_x, &m_planHints[p]);
        CbaSolver::Totals totals;
        if (least)
        {
            totals = CbaSolver::MinCostTotals(problem, m_targets, m_x);
        }
        else
        {
            totals.rate = RateAndServed(problem, plan, totals.served);
            totals.cost = plan.CostRate(problem);
        }
        double rate = totals.rate;
        double served = totals.served;
        double cost = totals.cost;
        bool better = rate > bestRate * (1 + slack) ||
                      (rate >= bestRate * (1 - slack) &&
                       (served > bestServed * (1 + slack) ||
                        (served >= bestServed * (1 - slack) && cost < bestCost)));
        if (better)
        {
            bestPlan = int(p);
            bestLeast = least;
            if (least)
            {
                m_bestTargets.swap(m_targets);
                m_bestX.swap(m_x);
                m_targets.resize(problem.jobs.size());
            }
            bestRate = rate;
            bestServed = served;
            bestCost = cost;
        }
    }
    StorageAllocation best;
    if (bestPlan >= 0 && bestLeast)
    {
        CbaSolver::FillMinCost(problem, m_bestTargets, m_bestX, best);
    }
    else if (bestPlan >= 0)
    {
        best = plans[bestPlan];
    }
    double total = 0;
    for (const StorageDemand& job : problem.jobs)
    {
        total += job.count * job.demand;
    }
    best.scale = total > 0 ? std::min(1.0, bestRate / total) : 1.0;
    best.level = std::numeric_limits<double>::infinity();
    return best;
}

double
CbaPolicy::BudgetPerSecond() const
{
    return m_budgetPerHour / 3600.0;
}

std::string
CbaPolicy::Name() const
{
    return "cba";
}

} // namespace ns3
