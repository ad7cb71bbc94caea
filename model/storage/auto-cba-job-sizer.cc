/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "auto-cba-job-sizer.h"

namespace ns3
{

size_t
AutoCbaJobSizer::Best(StorageProblem& problem,
                      const std::vector<JobUtility>& utility,
                      size_t job,
                      const AutoCbaJob& options,
                      uint64_t used,
                      uint32_t totalGpus,
                      double budget)
{
    m_job = job;
    m_othersRead.assign(problem.datasetBytes.size(), 0);
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        m_othersRead[problem.jobs[j].dataset] |= (j != job);
    }
    SetCount(problem, options, options.requested);
    m_cba.Reset(problem, job, budget);
    m_cba.Solve();
    m_bestWelfare = RateAll(utility);
    size_t best = options.requested;
    const double requested = options.gpus[options.requested];
    for (size_t o = 0; o < options.gpus.size(); ++o)
    {
        uint64_t trialUsed = used - options.gpus[options.requested] + options.gpus[o];
        if (o == options.requested || trialUsed > totalGpus)
        {
            continue;
        }
        // GPU time priced: extra GPUs come out of the IO budget, and cost welfare.
        double extra = double(options.gpus[o]) - requested;
        double ioBudget = budget > 0 ? budget - m_gpuPrice * extra : 0.0;
        if (budget > 0 && ioBudget <= 0)
        {
            continue;
        }
        m_cba.SetBudget(ioBudget);
        SetCount(problem, options, o);
        m_cba.Solve();
        double welfare =
            TrialWelfare(utility) - options.utility.weight * m_gpuCost * extra / requested;
        if (welfare > m_bestWelfare * (1 + 1e-12) + 1e-15)
        {
            best = o;
            m_bestWelfare = welfare;
        }
    }
    m_cba.SetBudget(budget);
    SetCount(problem, options, best);
    return best;
}

double
AutoCbaJobSizer::BestWelfare() const
{
    return m_bestWelfare;
}

void
AutoCbaJobSizer::SetGpuPricing(double cost, double pricePerSecond)
{
    m_gpuCost = cost;
    m_gpuPrice = pricePerSecond;
}

void
AutoCbaJobSizer::SetCount(StorageProblem& problem, const AutoCbaJob& job, size_t o) const
{
    problem.jobs[m_job].gpus = job.gpus[o];
    problem.jobs[m_job].demand = job.demand[o];
}

double
AutoCbaJobSizer::RateAll(const std::vector<JobUtility>& utility)
{
    m_keptScale = m_cba.Scale();
    m_keptX = m_cba.Fractions();
    m_utility.resize(utility.size());
    double welfare = 0;
    for (size_t j = 0; j < utility.size(); ++j)
    {
        if (j == m_job)
        {
            m_sumBefore = welfare;
        }
        m_utility[j] = utility[j](m_cba.Rate(j));
        welfare += m_utility[j];
    }
    return welfare;
}

bool
AutoCbaJobSizer::OthersUnchanged() const
{
    // A job's rate is a function of its demand, its dataset's size and cached fraction, and
    // the scale: equal inputs, equal bits.
    if (m_cba.Scale() != m_keptScale)
    {
        return false;
    }
    const std::vector<double>& x = m_cba.Fractions();
    for (size_t k = 0; k < x.size(); ++k)
    {
        if (m_othersRead[k] && x[k] != m_keptX[k])
        {
            return false;
        }
    }
    return true;
}

double
AutoCbaJobSizer::TrialWelfare(const std::vector<JobUtility>& utility)
{
    if (!OthersUnchanged())
    {
        return RateAll(utility);
    }
    double welfare = m_sumBefore + utility[m_job](m_cba.Rate(m_job));
    for (size_t j = m_job + 1; j < utility.size(); ++j)
    {
        welfare += m_utility[j];
    }
    return welfare;
}

} // namespace ns3
