/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "auto-cba-sizing.h"

#include "cba-policy.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AutoCba");
NS_OBJECT_ENSURE_REGISTERED(AutoCbaSizing);

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
