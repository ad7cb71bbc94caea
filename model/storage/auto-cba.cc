/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "auto-cba.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
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
    throw std::invalid_argument("unknown utility '" + name + "'; known: linear, deadline");
}

AutoCbaSolver::Result
AutoCbaSolver::Evaluate(const StorageProblem& base,
                        const std::vector<AutoCbaJob>& jobs,
                        const std::vector<size_t>& choice,
                        double budget)
{
    Result result;
    result.choice = choice;
    result.problem = base;
    result.problem.jobs.clear();
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        StorageDemand d;
        d.id = jobs[j].id;
        d.dataset = jobs[j].dataset;
        d.gpus = jobs[j].gpus[choice[j]];
        d.demand = jobs[j].demand[choice[j]];
        result.problem.jobs.push_back(d);
    }
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
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        choice[j] = jobs[j].requested;
        used += jobs[j].gpus[choice[j]];
    }
    Result best = Evaluate(base, jobs, choice, budget);
    if (!autoScale)
    {
        return best;
    }
    size_t free = jobs.size();
    size_t freeJobs = 0;
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        if (jobs[j].gpus.size() > 1)
        {
            free = j;
            ++freeJobs;
        }
    }
    if (freeJobs == 1)
    {
        // One job to size (an arrival among fixed running jobs): the local search below would
        // end at the best of its options; try each once instead of twice.
        // Only that job's entry of the problem changes between trials: one copy, edited.
        StorageProblem trial = best.problem;
        for (size_t o = 0; o < jobs[free].gpus.size(); ++o)
        {
            uint64_t trialUsed = used - jobs[free].gpus[choice[free]] + jobs[free].gpus[o];
            if (o == jobs[free].requested || trialUsed > totalGpus)
            {
                continue;
            }
            trial.jobs[free].gpus = jobs[free].gpus[o];
            trial.jobs[free].demand = jobs[free].demand[o];
            StorageAllocation allocation = CbaSolver::MaxScale(trial, budget);
            double welfare = Welfare(jobs, trial, allocation);
            if (welfare > best.welfare * (1 + 1e-12) + 1e-15)
            {
                best.choice[free] = o;
                best.problem.jobs[free] = trial.jobs[free];
                best.allocation = std::move(allocation);
                best.welfare = welfare;
            }
        }
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
                          "Per-job utility: linear (throughput relative to the requested GPUs) "
                          "or deadline (full value at the rate that meets its deadline).",
                          StringValue("linear"),
                          MakeStringAccessor(&AutoCbaSizing::m_utility),
                          MakeStringChecker())
            .AddAttribute(
                "DeadlineSlack",
                "Deadline = submit + slack x run time on the requested GPUs [ratio >= 1].",
                DoubleValue(2.0),
                MakeDoubleAccessor(&AutoCbaSizing::m_deadlineSlack),
                MakeDoubleChecker<double>(1.0));
    return tid;
}

AutoCbaSizing::AutoCbaSizing()
    : m_utility("linear"),
      m_deadlineSlack(2.0)
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
AutoCbaSizing::RequestedRate(const ClusterJob& job)
{
    uint64_t id = job.record.id;
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

uint32_t
AutoCbaSizing::GpusFor(const ClusterJob& job, const ClusterTopology& topology, double /* now */)
{
    NS_ABORT_MSG_IF(!m_storage, "AutoCbaSizing needs SetStorage() before the run");
    uint32_t requested = job.gpus;
    if (!m_storage->HasDataset(job.record.dataset))
    {
        return requested;
    }
    // The running set as the storage model keeps it, this job last: no rebuild per arrival.
    const std::vector<Ptr<ClusterJob>>& running = m_storage->LastJobs();
    StorageProblem base = m_storage->ProblemWith(job);
    const JobUtility utility = UtilityOf(job, 0.0); // the kind, parsed once per arrival
    std::vector<AutoCbaJob>& problemJobs = m_problemJobs;
    problemJobs.resize(base.jobs.size());
    uint64_t used = 0;
    for (size_t j = 0; j < running.size(); ++j)
    {
        const ClusterJob& cj = *running[j];
        AutoCbaJob& aj = problemJobs[j];
        aj.id = cj.record.id;
        aj.dataset = base.jobs[j].dataset;
        aj.utility = utility;
        aj.utility.reference = RequestedRate(cj);
        aj.utility.needed = aj.utility.reference / m_deadlineSlack;
        aj.requested = 0;
        aj.gpus.assign(1, base.jobs[j].gpus); // running jobs keep their GPUs
        aj.demand.assign(1, base.jobs[j].demand);
        used += base.jobs[j].gpus;
    }
    AutoCbaJob& aj = problemJobs.back();
    aj.id = job.record.id;
    aj.dataset = base.jobs.back().dataset;
    aj.utility = UtilityOf(job, RequestedRate(job));
    aj.requested = 0;
    aj.gpus.clear();
    aj.demand.clear();
    for (uint32_t g : {requested / 4, requested / 2, requested, requested * 2, requested * 4})
    {
        bool duplicate = std::find(aj.gpus.begin(), aj.gpus.end(), g) != aj.gpus.end();
        if (g >= 1 && g <= topology.TotalGpus() && !duplicate)
        {
            if (g == requested)
            {
                aj.requested = aj.gpus.size();
            }
            aj.gpus.push_back(g);
            aj.demand.push_back(m_storage->DemandOf(job, g));
        }
    }
    uint64_t total = topology.TotalGpus();
    uint64_t free = total > used ? total - used : 0;
    double budget = 0;
    if (Ptr<CbaPolicy> cba = DynamicCast<CbaPolicy>(m_storage->GetPolicy()))
    {
        budget = cba->BudgetPerSecond();
    }
    AutoCbaSolver::Result r =
        AutoCbaSolver::Solve(base,
                             problemJobs,
                             uint32_t(used + std::max<uint64_t>(free, requested)),
                             budget,
                             true);
    const AutoCbaJob& mine = problemJobs.back();
    uint32_t chosen = mine.gpus[r.choice.back()];
    NS_LOG_LOGIC("job " << job.record.id << " asks " << requested << " GPUs, AutoCBA gives "
                        << chosen);
    return chosen;
}

} // namespace ns3
