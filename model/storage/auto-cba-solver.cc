/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "auto-cba-solver.h"

#include "auto-cba-job-sizer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

double
JobUtility::operator()(double rate) const
{
    if (kind == LINEAR)
    {
        return reference > 0 ? weight * rate / reference : weight;
    }
    if (kind == CONCAVE)
    {
        return reference > 0 ? weight * std::sqrt(rate / reference) : weight;
    }
    return needed > 0 ? weight * std::min(1.0, rate / needed) : weight;
}

JobUtility::Kind
JobUtility::KindOf(const std::string& name)
{
    if (name == "linear")
    {
        return LINEAR;
    }
    if (name == "deadline")
    {
        return DEADLINE;
    }
    if (name == "concave")
    {
        return CONCAVE;
    }
    throw std::invalid_argument("unknown utility '" + name + "'; known: linear, deadline, concave");
}

StorageProblem
AutoCbaSolver::ProblemOf(const StorageProblem& base,
                         const std::vector<AutoCbaJob>& jobs,
                         const std::vector<size_t>& choice)
{
    StorageProblem problem = base;
    problem.jobs.clear();
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        StorageDemand d;
        d.id = jobs[j].id;
        d.dataset = jobs[j].dataset;
        d.gpus = jobs[j].gpus[choice[j]];
        d.demand = jobs[j].demand[choice[j]];
        problem.jobs.push_back(d);
    }
    return problem;
}

AutoCbaSolver::Result
AutoCbaSolver::Evaluate(const StorageProblem& base,
                        const std::vector<AutoCbaJob>& jobs,
                        const std::vector<size_t>& choice,
                        double budget)
{
    Result result;
    result.choice = choice;
    result.problem = ProblemOf(base, jobs, choice);
    result.allocation = CbaSolver::MaxScale(result.problem, budget);
    result.welfare = Welfare(jobs, result.problem, result.allocation);
    return result;
}

double
AutoCbaSolver::Welfare(const std::vector<AutoCbaJob>& jobs,
                       const StorageProblem& problem,
                       const StorageAllocation& allocation)
{
    double welfare = 0;
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        welfare += jobs[j].utility(allocation.Rate(problem, j));
    }
    return welfare;
}

AutoCbaSolver::Result
AutoCbaSolver::Solve(const StorageProblem& base,
                     const std::vector<AutoCbaJob>& jobs,
                     uint32_t totalGpus,
                     double budget,
                     bool autoScale)
{
    std::vector<size_t> choice(jobs.size());
    uint64_t used = 0;
    size_t free = jobs.size();
    size_t freeJobs = 0;
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        choice[j] = jobs[j].requested;
        used += jobs[j].gpus[choice[j]];
        if (jobs[j].gpus.size() > 1)
        {
            free = j;
            ++freeJobs;
        }
    }
    if (autoScale && freeJobs == 1)
    {
        // One job to size (an arrival among fixed running jobs): the local search below would
        // end at the best of its options; try each once instead of twice.
        Result best;
        best.choice = choice;
        best.problem = ProblemOf(base, jobs, choice);
        std::vector<JobUtility> utility;
        for (const AutoCbaJob& job : jobs)
        {
            utility.push_back(job.utility);
        }
        AutoCbaJobSizer sizer;
        best.choice[free] =
            sizer.Best(best.problem, utility, free, jobs[free], used, totalGpus, budget);
        best.welfare = sizer.BestWelfare();
        best.allocation = CbaSolver::MaxScale(best.problem, budget); // the trial's, bit for bit
        return best;
    }
    Result best = Evaluate(base, jobs, choice, budget);
    if (!autoScale)
    {
        return best;
    }
    // Best-improvement local search: each step changes one job's GPU count.
    for (size_t step = 0; step < 4 * jobs.size() + 4; ++step)
    {
        Result bestMove;
        bool found = false;
        uint64_t bestUsed = used;
        for (size_t j = 0; j < jobs.size(); ++j)
        {
            for (size_t o = 0; o < jobs[j].gpus.size(); ++o)
            {
                if (o == choice[j])
                {
                    continue;
                }
                uint64_t trialUsed = used - jobs[j].gpus[choice[j]] + jobs[j].gpus[o];
                if (trialUsed > totalGpus)
                {
                    continue;
                }
                std::vector<size_t> trial(choice);
                trial[j] = o;
                Result r = Evaluate(base, jobs, trial, budget);
                double reference = found ? bestMove.welfare : best.welfare;
                if (r.welfare > reference * (1 + 1e-12) + 1e-15)
                {
                    bestMove = std::move(r);
                    bestUsed = trialUsed;
                    found = true;
                }
            }
        }
        if (!found)
        {
            break;
        }
        best = std::move(bestMove);
        choice = best.choice;
        used = bestUsed;
    }
    return best;
}

} // namespace ns3
