/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "auto-cba.h"

#include "cba-policy.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AutoCba");
NS_OBJECT_ENSURE_REGISTERED(AutoCbaSizing);

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

// ---- AutoCbaJobSizer -----------------------------------------------------------------------

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

// ---- AutoCbaSizing -----------------------------------------------------------------------

TypeId
AutoCbaSizing::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AutoCbaSizing")
            .SetParent<JobSizingPolicy>()
            .SetGroupName("Aicluster")
            .AddConstructor<AutoCbaSizing>()
            .AddAttribute("Utility",
                          "Per-job utility: linear (throughput relative to the requested GPUs), "
                          "deadline (full value at the rate that meets its deadline) or concave "
                          "(square root of the relative throughput).",
                          StringValue("linear"),
                          MakeStringAccessor(&AutoCbaSizing::m_utility),
                          MakeStringChecker())
            .AddAttribute(
                "DeadlineSlack",
                "Deadline = submit + slack x run time on the requested GPUs [ratio >= 1].",
                DoubleValue(2.0),
                MakeDoubleAccessor(&AutoCbaSizing::m_deadlineSlack),
                MakeDoubleChecker<double>(1.0))
            .AddAttribute("GpuCost",
                          "Welfare cost of GPU time [utility per requested GPU allocation, "
                          ">= 0]: running a job on g GPUs instead of the r it asked for costs "
                          "GpuCost x (g / r - 1) of its utility (1 = its requested GPUs cost "
                          "what its progress at the requested speed is worth; 0 = GPUs free).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&AutoCbaSizing::m_gpuCost),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("GpuPrice",
                          "Price of GPU time charged to the IO budget [$ per GPU-hour, >= 0]: "
                          "g GPUs instead of the requested r take GpuPrice x (g - r) per hour "
                          "from ns3::CbaPolicy::Budget (no effect without a budget).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&AutoCbaSizing::m_gpuPrice),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

AutoCbaSizing::AutoCbaSizing()
    : m_utility("linear"),
      m_deadlineSlack(2.0),
      m_gpuCost(1.0),
      m_gpuPrice(0.0)
{
}

void
AutoCbaSizing::SetStorage(Ptr<StorageDataLoading> storage)
{
    m_storage = storage;
}

JobUtility
AutoCbaSizing::UtilityOf(const ClusterJob& /* job */, double requestedRate) const
{
    JobUtility u;
    u.kind = JobUtility::KindOf(m_utility);
    u.reference = requestedRate;
    u.needed = requestedRate / m_deadlineSlack;
    return u;
}

double
AutoCbaSizing::RequestedRate(uint64_t id, const ClusterJob& job)
{
    if (id >= m_requestedRate.size())
    {
        m_requestedRate.resize(std::max<size_t>(id + 1, 2 * m_requestedRate.size()), -1.0);
    }
    if (m_requestedRate[id] < 0)
    {
        m_requestedRate[id] = m_storage->DemandOf(job, job.record.numGpus);
    }
    return m_requestedRate[id];
}

uint64_t
AutoCbaSizing::SetRunningJobs(const ClusterJob& arrival, const StorageProblem& problem)
{
    // The running set as the storage model keeps it, in problem.jobs' order (the arrival
    // last): read from the problem, so the jobs themselves are touched only for a rate not
    // yet known.
    const std::vector<Ptr<const ClusterJob>>& running = m_storage->LastJobs();
    const JobUtility utility = UtilityOf(arrival, 0.0); // the kind, parsed once per arrival
    m_utilities.assign(problem.jobs.size(), utility);
    uint64_t used = 0;
    for (size_t j = 0; j < running.size(); ++j)
    {
        const StorageDemand& d = problem.jobs[j];
        NS_ASSERT(d.id == running[j]->record.id);
        m_utilities[j].reference = RequestedRate(d.id, *running[j]);
        m_utilities[j].needed = m_utilities[j].reference / m_deadlineSlack;
        used += d.gpus;
    }
    return used;
}

void
AutoCbaSizing::SetArrival(const ClusterJob& job, uint32_t dataset, uint32_t totalGpus)
{
    uint32_t requested = job.gpus;
    AutoCbaJob& mine = m_arrival;
    mine.id = job.record.id;
    mine.dataset = dataset;
    mine.utility = UtilityOf(job, RequestedRate(job.record.id, job));
    m_utilities.back() = mine.utility;
    mine.requested = 0;
    mine.gpus.clear();
    mine.demand.clear();
    const double requestedDemand = m_storage->DemandOf(job, requested);
    for (uint32_t g : {requested / 4, requested / 2, requested, requested * 2, requested * 4})
    {
        bool duplicate = std::find(mine.gpus.begin(), mine.gpus.end(), g) != mine.gpus.end();
        // A count whose speedup over the requested one (or the requested one's over it)
        // exceeds the GPU ratio is not tried: more samples per GPU-second on more GPUs at the
        // same per-GPU batch is a measurement artefact (data/build-catalog.py
        // --speedup-report lists the profiles that have it).
        double demand = g >= 1 ? m_storage->DemandOf(job, g) : 0.0;
        double ratio = double(g) / requested;
        bool superlinear = g > requested ? demand > requestedDemand * ratio * (1 + 1e-12)
                                         : requestedDemand > demand / ratio * (1 + 1e-12);
        if (g >= 1 && g <= totalGpus && !duplicate && (g == requested || !superlinear))
        {
            if (g == requested)
            {
                mine.requested = mine.gpus.size();
            }
            mine.gpus.push_back(g);
            mine.demand.push_back(demand);
        }
    }
}

uint32_t
AutoCbaSizing::GpusFor(const ClusterJob& job, const ClusterTopology& topology, double /* now */)
{
    NS_ABORT_MSG_IF(!m_storage, "AutoCbaSizing needs SetStorage() before the run");
    uint32_t requested = job.gpus;
    if (!m_storage->HasDataset(job.record.dataset))
    {
        return requested;
    }
    StorageProblem problem = m_storage->ProblemWith(job);
    uint64_t used = SetRunningJobs(job, problem);
    SetArrival(job, problem.jobs.back().dataset, topology.TotalGpus());
    const AutoCbaJob& mine = m_arrival;
    if (mine.gpus.size() < 2)
    {
        return mine.gpus.empty() ? requested : mine.gpus[0]; // nothing to choose
    }
    uint64_t total = topology.TotalGpus();
    uint64_t free = total > used ? total - used : 0;
    double budget = 0;
    if (Ptr<CbaPolicy> cba = DynamicCast<CbaPolicy>(m_storage->GetPolicy()))
    {
        budget = cba->BudgetPerSecond();
    }
    // Only this job has options: the sizer finds what AutoCbaSolver::Solve would (with GPUs
    // free), on the problem as built (no copy) and with its buffers kept between arrivals.
    m_sizer.SetGpuPricing(m_gpuCost, m_gpuPrice / 3600.0);
    size_t best = m_sizer.Best(problem,
                               m_utilities,
                               m_utilities.size() - 1,
                               mine,
                               used + mine.gpus[mine.requested],
                               uint32_t(used + std::max<uint64_t>(free, requested)),
                               budget);
    uint32_t chosen = mine.gpus[best];
    NS_LOG_LOGIC("job " << job.record.id << " asks " << requested << " GPUs, AutoCBA gives "
                        << chosen);
    return chosen;
}

} // namespace ns3
