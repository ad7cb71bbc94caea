/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-engine.h"

#include "fifo-policy.h"
#include "ideal-data-loading.h"
#include "ideal-gradient-sync.h"

#include "ns3/double.h"
#include "ns3/huge-pages.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/progress-reporter.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterEngine");
NS_OBJECT_ENSURE_REGISTERED(ClusterEngine);

namespace
{

/**
 * The simulator Time at which a job submitted at `submit` seconds arrives: the first Time not
 * before it. Seconds() can round a submit time finer than the resolution (e.g. after
 * --load-scale) below the double; arriving then would start the job before its submission.
 * \param submit submit time [s] \return its arrival Time
 */
Time
ArrivalTime(double submit)
{
    Time t = SecondsExact(submit);
    return t.GetSeconds() < submit ? t + TimeStep(1) : t;
}

/// A job this close to its end [s] (rounding of event times to ns) counts as finished.
constexpr double FINISH_SLACK = 1e-6;
} // namespace

TypeId
ClusterEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClusterEngine")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<ClusterEngine>()
            .AddAttribute("GradientSyncOverlap",
                          "Fraction of the gradient-sync time hidden behind the backward pass "
                          "[0..1]: iterationTime = max(dataTime, computeTime + (1 - overlap) * "
                          "syncTime).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&ClusterEngine::m_syncOverlap),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ProgressInterval",
                          "Wall-clock seconds between progress lines on stderr [s]; 0 = none "
                          "(ProgressReporter; --quiet turns them all off).",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&ClusterEngine::m_progressInterval),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "Scheduler",
                "The scheduling policy.",
                PointerValue(),
                MakePointerAccessor(&ClusterEngine::SetScheduler, &ClusterEngine::GetScheduler),
                MakePointerChecker<SchedulingPolicy>())
            .AddAttribute(
                "Allocator",
                "The GPU allocator (placement rule).",
                PointerValue(),
                MakePointerAccessor(&ClusterEngine::SetAllocator, &ClusterEngine::GetAllocator),
                MakePointerChecker<GpuAllocator>())
            .AddAttribute("DataLoadingModel",
                          "Model of the per-iteration data-loading time.",
                          PointerValue(),
                          MakePointerAccessor(&ClusterEngine::SetDataLoadingModel,
                                              &ClusterEngine::GetDataLoadingModel),
                          MakePointerChecker<IterationTermModel>())
            .AddAttribute("JobSizingPolicy",
                          "Chooses each job's GPU count at submission (auto-scaling); "
                          "none = every job runs on the GPUs it asked for.",
                          PointerValue(),
                          MakePointerAccessor(&ClusterEngine::m_sizer),
                          MakePointerChecker<JobSizingPolicy>())
            .AddAttribute("GradientSyncModel",
                          "Model of the per-iteration gradient-synchronisation time.",
                          PointerValue(),
                          MakePointerAccessor(&ClusterEngine::SetGradientSyncModel,
                                              &ClusterEngine::GetGradientSyncModel),
                          MakePointerChecker<IterationTermModel>())
            .AddTraceSource("JobSubmitted",
                            "A job entered the queue.",
                            MakeTraceSourceAccessor(&ClusterEngine::m_submitTrace),
                            "ns3::ClusterEngine::JobTracedCallback")
            .AddTraceSource("JobStarted",
                            "A job got GPUs and started (or resumed).",
                            MakeTraceSourceAccessor(&ClusterEngine::m_startTrace),
                            "ns3::ClusterEngine::JobTracedCallback")
            .AddTraceSource("JobPreempted",
                            "A running job gave its GPUs back and re-entered the queue.",
                            MakeTraceSourceAccessor(&ClusterEngine::m_preemptTrace),
                            "ns3::ClusterEngine::JobTracedCallback")
            .AddTraceSource("JobFinished",
                            "A job completed all its iterations.",
                            MakeTraceSourceAccessor(&ClusterEngine::m_finishTrace),
                            "ns3::ClusterEngine::JobTracedCallback");
    return tid;
}

ClusterEngine::ClusterEngine()
    : m_syncOverlap(0),
      m_progressInterval(5),
      m_finishes(MakeCallback(&ClusterEngine::OnFinish, this))
{
    NS_LOG_FUNCTION(this);
    m_scheduler = CreateObject<FifoPolicy>();
    m_allocator = CreateObject<GpuAllocator>();
    m_dataModel = CreateObject<IdealDataLoading>();
    m_syncModel = CreateObject<IdealGradientSync>();
}

ClusterEngine::~ClusterEngine()
{
    NS_LOG_FUNCTION(this);
}

void
ClusterEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_scheduler = nullptr;
    m_allocator = nullptr;
    m_dataModel = nullptr;
    m_syncModel = nullptr;
    m_sizer = nullptr;
    for (const auto& job : m_jobs)
    {
        // Drop each pending event (and the job's handle on it) before the jobs go.
        Simulator::Cancel(job->priorityEvent);
        job->priorityEvent = EventId();
    }
    m_finishes.Clear(); // while the jobs it holds exist
    m_jobs.clear();
    m_startedThisPass.clear();
    m_running.clear();
    m_coupled.clear();
    m_waitingByDemand.clear();
    m_runningByDemand.clear();
    m_activeOrder.Clear();
    Object::DoDispose();
}

void
ClusterEngine::SetTopology(const ClusterTopology& topology)
{
    NS_LOG_FUNCTION(this << topology.numNodes << topology.gpusPerNode);
    m_topology = topology;
}

const ClusterTopology&
ClusterEngine::GetTopology() const
{
    NS_LOG_FUNCTION(this);
    return m_topology;
}

void
ClusterEngine::SetPrefixSelection(bool prefix)
{
    NS_LOG_FUNCTION(this << prefix);
    NS_ABORT_MSG_IF(m_activeOrder.Size() > 0, "SetPrefixSelection: call it before Run");
    m_prefixSelection = prefix;
}

void
ClusterEngine::SetScheduler(Ptr<SchedulingPolicy> policy)
{
    NS_LOG_FUNCTION(this << policy);
    m_scheduler = policy;
}

Ptr<SchedulingPolicy>
ClusterEngine::GetScheduler() const
{
    NS_LOG_FUNCTION(this);
    return m_scheduler;
}

void
ClusterEngine::SetAllocator(Ptr<GpuAllocator> allocator)
{
    NS_LOG_FUNCTION(this << allocator);
    m_allocator = allocator;
}

Ptr<GpuAllocator>
ClusterEngine::GetAllocator() const
{
    NS_LOG_FUNCTION(this);
    return m_allocator;
}

void
ClusterEngine::SetDataLoadingModel(Ptr<IterationTermModel> model)
{
    NS_LOG_FUNCTION(this << model);
    m_dataModel = model;
}

Ptr<IterationTermModel>
ClusterEngine::GetDataLoadingModel() const
{
    NS_LOG_FUNCTION(this);
    return m_dataModel;
}

void
ClusterEngine::SetGradientSyncModel(Ptr<IterationTermModel> model)
{
    NS_LOG_FUNCTION(this << model);
    m_syncModel = model;
}

Ptr<IterationTermModel>
ClusterEngine::GetGradientSyncModel() const
{
    NS_LOG_FUNCTION(this);
    return m_syncModel;
}

void
ClusterEngine::SetJobs(const std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog)
{
    NS_LOG_FUNCTION(this << jobs.size());
    SetJobs(std::make_shared<const std::vector<JobRecord>>(jobs), catalog);
}

void
ClusterEngine::SetJobs(SharedJobRecords jobs, const WorkloadCatalog& catalog)
{
    NS_LOG_FUNCTION(this << jobs->size());
    m_jobs.clear();
    m_rejected.clear();
    m_jobs.reserve(jobs->size());
    for (const JobRecord& record : *jobs)
    {
        std::string reason;
        const WorkloadProfile* profile = catalog.Find(record.model);
        if (record.numGpus == 0)
        {
            reason = "asks for no GPU";
        }
        else if (record.numGpus > m_topology.TotalGpus())
        {
            reason = "asks for " + std::to_string(record.numGpus) + " GPUs, the cluster has " +
                     std::to_string(m_topology.TotalGpus());
        }
        else if (!profile)
        {
            reason = "model '" + record.model + "' is not in the workload catalog";
        }
        else if (!(record.iterations >= 0))
        {
            reason = "has no known amount of work (iterations)";
        }
        if (!reason.empty())
        {
            NS_LOG_WARN("job " << record.id << " (" << record.source << ") rejected: " << reason);
            m_rejected.push_back({record, reason});
            continue;
        }
        // A share of the list that points at this record (shared_ptr's aliasing constructor).
        Ptr<ClusterJob> job = Create<ClusterJob>(std::shared_ptr<const JobRecord>(jobs, &record));
        job->profile = profile;
        job->gpus = record.numGpus;
        job->remainingIterations = record.iterations;
        m_jobs.push_back(job);
    }
    auto bySubmit = [](const auto& a, const auto& b) {
        return a->record.submitTime < b->record.submitTime;
    };
    // Traces come sorted (ReadTrace sorts them): a stable sort of sorted jobs leaves them as
    // they are, so only unsorted input pays for one.
    if (!std::is_sorted(m_jobs.begin(), m_jobs.end(), bySubmit))
    {
        std::stable_sort(m_jobs.begin(), m_jobs.end(), bySubmit);
    }
    NS_LOG_INFO(m_jobs.size() << " of " << jobs->size() << " jobs to replay, " << m_rejected.size()
                              << " rejected");
}

void
ClusterEngine::Start()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_scheduler || !m_allocator || !m_dataModel || !m_syncModel,
                    "ClusterEngine needs a scheduler, an allocator and both term models");
    m_allocator->Reset(m_topology);
    m_dataModel->SetChangeCallback(MakeCallback(&ClusterEngine::OnModelChanged, this));
    m_syncModel->SetChangeCallback(MakeCallback(&ClusterEngine::OnModelChanged, this));
    // Models that opt into reporting their changes (ReportingTermModel), if they do now.
    m_dataReporting = DynamicCast<ReportingTermModel>(m_dataModel);
    m_syncReporting = DynamicCast<ReportingTermModel>(m_syncModel);
    for (const auto& model : {m_dataReporting, m_syncReporting})
    {
        if (model)
        {
            model->SetJobsChangedCallback(MakeCallback(&ClusterEngine::RequestPass, this));
        }
    }
    if (m_dataReporting && !m_dataReporting->ReportsChanges())
    {
        m_dataReporting = nullptr;
    }
    if (m_syncReporting && !m_syncReporting->ReportsChanges())
    {
        m_syncReporting = nullptr;
    }
    m_nextArrival = 0;
    m_utilization.clear();
    // Room for about a sample per arrival and per finish, reserved (not touched) up front: the
    // series then rarely grows, and each growth copies it all into new pages (issue #13).
    m_utilization.reserve(2 * m_jobs.size() + 1);
    AdviseHugePages(m_utilization.data(), m_utilization.capacity() * sizeof(m_utilization[0]));
    m_utilization.push_back({0, 0, 0, 0, 0});
    m_wallStart = std::chrono::steady_clock::now();
    m_lastProgress = m_wallStart;
    m_eventsAtStart = Simulator::GetEventCount();
    NS_LOG_INFO("start: " << m_jobs.size() << " jobs on " << m_topology.TotalGpus() << " GPUs, "
                          << m_scheduler->GetInstanceTypeId().GetName() << ", "
                          << m_dataModel->GetInstanceTypeId().GetName() << ", "
                          << m_syncModel->GetInstanceTypeId().GetName());
    if (!m_jobs.empty())
    {
        Simulator::Schedule(ArrivalTime(m_jobs.front()->record.submitTime),
                            &ClusterEngine::OnArrival,
                            this);
    }
}

void
ClusterEngine::Run()
{
    NS_LOG_FUNCTION(this);
    Start();
    Simulator::Run();
    m_wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    m_events = Simulator::GetEventCount() - m_eventsAtStart;
    NS_LOG_INFO("done: " << m_finished << " of " << m_jobs.size()
                         << " jobs finished at t=" << Simulator::Now().GetSeconds() << " s, "
                         << m_passes << " passes, " << m_events << " events");
    if (m_progressInterval > 0 && !ProgressReporter::IsQuiet())
    {
        std::ostringstream line;
        line << "done: " << m_finished << " of " << m_jobs.size() << " jobs, simulated "
             << Simulator::Now().GetSeconds() / 86400 << " days in " << m_wallSeconds << " s wall";
        ProgressReporter::Report("aicluster", line.str());
    }
}

void
ClusterEngine::OnArrival()
{
    NS_LOG_FUNCTION(this);
    double now = NowSeconds();
    // All jobs submitted at this instant enter together, so one pass sees them all. Compared
    // as the Time the event was scheduled for: compared in seconds, a submit time that
    // Seconds() rounds down was never admitted and this event rescheduled itself at the same
    // instant forever.
    while (m_nextArrival < m_jobs.size() &&
           ArrivalTime(m_jobs[m_nextArrival]->record.submitTime) <= Simulator::Now())
    {
        ClusterJob* job = PeekPointer(m_jobs[m_nextArrival++]);
        job->state = ClusterJob::WAITING;
        job->lastQueued = now;
        job->lastUpdate = now;
        if (m_sizer)
        {
            Resize(*job, m_sizer->GpusFor(*job, m_topology, now));
        }
        UpdatePolicy(*job, now);
        Track(job);
        NS_LOG_LOGIC("t=" << now << " job " << job->record.id << " submitted, " << job->gpus
                          << " GPUs, level " << job->priorityLevel);
        m_submitTrace(job);
    }
    if (m_nextArrival < m_jobs.size())
    {
        // Only the next arrival is pending: the event queue stays small whatever the trace.
        double next = m_jobs[m_nextArrival]->record.submitTime;
        Simulator::Schedule(ArrivalTime(next) - Simulator::Now(), &ClusterEngine::OnArrival, this);
    }
    RequestPass();
}

void
ClusterEngine::Resize(ClusterJob& job, uint32_t gpus)
{
    NS_LOG_FUNCTION(this << job.record.id << gpus);
    NS_ABORT_MSG_IF(gpus == 0 || gpus > m_topology.TotalGpus(),
                    "job sizing policy gave job " << job.record.id << " " << gpus
                                                  << " GPUs; expected 1 to "
                                                  << m_topology.TotalGpus());
    // Same samples in total, spread over gpus instead of job.gpus per iteration.
    job.remainingIterations *= static_cast<double>(job.gpus) / gpus;
    NS_LOG_LOGIC("job " << job.record.id << " sized from " << job.gpus << " to " << gpus
                        << " GPUs");
    job.gpus = gpus;
}

void
ClusterEngine::RequestPass()
{
    if (!m_passPending)
    {
        m_passPending = true;
        Simulator::ScheduleNow(&ClusterEngine::Reschedule, this);
    }
}

void
ClusterEngine::OnModelChanged()
{
    NS_LOG_FUNCTION(this);
    m_modelChanged = true;
    RequestPass();
}

PriorityKey
ClusterEngine::Track(ClusterJob* job, bool inOrder)
{
    uint32_t demand = job->gpus;
    QueueEntry entry{m_scheduler->Key(*job), job};
    bool preemptive = m_scheduler->IsPreemptive();
    if (job->state == ClusterJob::WAITING)
    {
        m_waitingByDemand[demand].insert(entry);
        m_waitingDemandSum += demand;
        ++m_waitingCount;
    }
    else if (job->state == ClusterJob::RUNNING && preemptive)
    {
        m_runningByDemand[demand].insert(entry);
    }
    else
    {
        return entry.first;
    }
    if (preemptive && m_prefixSelection && inOrder)
    {
        m_activeOrder.Insert(entry.first, demand);
    }
    return entry.first;
}

PriorityKey
ClusterEngine::Untrack(ClusterJob* job, bool inOrder)
{
    uint32_t demand = job->gpus;
    QueueEntry entry{m_scheduler->Key(*job), job};
    DemandClasses* classes = nullptr;
    if (job->state == ClusterJob::WAITING)
    {
        classes = &m_waitingByDemand;
        m_waitingDemandSum -= demand;
        --m_waitingCount;
    }
    else if (job->state == ClusterJob::RUNNING && m_scheduler->IsPreemptive())
    {
        classes = &m_runningByDemand;
    }
    if (!classes)
    {
        return entry.first;
    }
    auto it = classes->find(demand);
    it->second.erase(entry);
    if (it->second.empty())
    {
        classes->erase(it);
    }
    if (m_scheduler->IsPreemptive() && m_prefixSelection && inOrder)
    {
        m_activeOrder.Erase(entry.first);
    }
    return entry.first;
}

void
ClusterEngine::Rekey(const PriorityKey& before, const PriorityKey& after, uint32_t demand)
{
    if (!m_scheduler->IsPreemptive() || !m_prefixSelection)
    {
        return;
    }
    if (!(before < after) && !(after < before))
    {
        return; // erased and inserted again, it would stand where it is
    }
    m_activeOrder.Erase(before);
    m_activeOrder.Insert(after, demand);
}

const std::vector<ClusterJob*>&
ClusterEngine::SelectJobs(uint32_t budget, bool includeRunning, const PriorityKey* from) const
{
    // A k-way merge over the demand classes (each ordered by key), with a heap of class
    // cursors, visits jobs in key order but never looks at a job that cannot fit: the budget
    // only shrinks, so a class whose demand exceeds it is dropped for the rest of the walk.
    using Cursor = SelectCursor;
    auto later = [](const Cursor& a, const Cursor& b) { return b.next->first < a.next->first; };
    std::vector<Cursor>& heap = m_cursors;
    heap.clear();
    auto open = [&heap, from](const DemandClasses& classes) {
        for (const auto& [demand, jobs] : classes)
        {
            // a null job sorts before every job of its key: the first job from that key on
            auto first = from ? jobs.lower_bound({*from, nullptr}) : jobs.begin();
            if (first != jobs.end())
            {
                heap.push_back({first, jobs.end(), demand});
            }
        }
    };
    open(m_waitingByDemand);
    if (includeRunning)
    {
        open(m_runningByDemand);
    }
    std::make_heap(heap.begin(), heap.end(), later);
    bool backfill = m_scheduler->Backfill();
    std::vector<ClusterJob*>& chosen = m_chosen;
    chosen.clear();
    while (!heap.empty())
    {
        std::pop_heap(heap.begin(), heap.end(), later);
        Cursor& best = heap.back();
        if (best.demand > budget)
        {
            if (!backfill)
            {
                break; // strict order: the next job does not fit, nobody passes it
            }
            heap.pop_back(); // this class cannot fit any more in this walk
            continue;
        }
        chosen.push_back(best.next->second);
        budget -= best.demand;
        if (++best.next == best.end)
        {
            heap.pop_back();
        }
        else
        {
            std::push_heap(heap.begin(), heap.end(), later);
        }
    }
    return chosen;
}

void
ClusterEngine::SelectContendedByWalk(uint32_t total,
                                     std::vector<ClusterJob*>& starts,
                                     std::vector<ClusterJob*>& victims)
{
    for (ClusterJob* job : SelectJobs(total, true))
    {
        job->selectedInPass = m_passes;
        if (job->state == ClusterJob::WAITING)
        {
            starts.push_back(job);
        }
    }
    for (const auto& [id, job] : m_running)
    {
        if (job->selectedInPass != m_passes)
        {
            victims.push_back(job);
        }
    }
}

void
ClusterEngine::SelectContended(uint32_t total,
                               std::vector<ClusterJob*>& starts,
                               std::vector<ClusterJob*>& victims)
{
    // The walk takes every job of the longest prefix of the order that fits: of those, only
    // the waiting ones (to start) need a look, and they are found class by class up to the
    // first key past the prefix, where the walk's choices begin.
    OrderedDemands::Split split = m_activeOrder.FirstBeyond(total);
    auto inPrefix = [&split](const QueueEntry& e) { return !split.found || e.first < split.first; };
    std::vector<QueueEntry>& prefix = m_prefix;
    prefix.clear();
    for (const auto& [demand, jobs] : m_waitingByDemand)
    {
        for (auto it = jobs.begin(); it != jobs.end() && inPrefix(*it); ++it)
        {
            prefix.push_back(*it);
        }
    }
    std::sort(prefix.begin(), prefix.end()); // the walk's order: by key
    for (const auto& entry : prefix)
    {
        starts.push_back(entry.second);
    }
    if (!split.found)
    {
        return;
    }
    if (m_scheduler->Backfill())
    {
        // The walk from the first key past the prefix on, with what the prefix leaves.
        for (ClusterJob* job : SelectJobs(total - split.before, true, &split.first))
        {
            job->selectedInPass = m_passes;
            if (job->state == ClusterJob::WAITING)
            {
                starts.push_back(job); // after the prefix's in key order, as the walk's
            }
        }
    }
    for (const auto& [demand, jobs] : m_runningByDemand)
    {
        for (auto it = jobs.lower_bound({split.first, nullptr}); it != jobs.end(); ++it)
        {
            if (it->second->selectedInPass != m_passes)
            {
                victims.push_back(it->second);
            }
        }
    }
    // preempted in id order, as the walk's pass over the running jobs does
    std::sort(victims.begin(), victims.end(), [](const ClusterJob* a, const ClusterJob* b) {
        return a->record.id < b->record.id;
    });
}

void
ClusterEngine::Reschedule()
{
    NS_LOG_FUNCTION(this);
    PinnedTimeStep pin; // a pass re-times many jobs, all at this event's time
    m_passPending = false;
    ++m_passes;
    std::vector<ClusterJob*>& starts = m_starts;
    starts.clear();
    uint32_t total = m_topology.TotalGpus();
    uint32_t allocated = total - m_allocator->FreeGpus();
    if (m_scheduler->IsPreemptive() && m_waitingDemandSum + allocated > total)
    {
        // Contention: the best jobs that fit in the whole cluster run, the others yield.
        std::vector<ClusterJob*>& victims = m_victims;
        victims.clear();
        if (m_prefixSelection)
        {
            SelectContended(total, starts, victims);
        }
        else
        {
            SelectContendedByWalk(total, starts, victims);
        }
        NS_LOG_LOGIC("pass " << m_passes << ": " << m_waitingDemandSum << " GPUs waiting, "
                             << allocated << " of " << total << " allocated: " << starts.size()
                             << " jobs to start, " << victims.size() << " preempted");
        for (ClusterJob* job : victims)
        {
            PreemptJob(job);
        }
    }
    else
    {
        const std::vector<ClusterJob*>& chosen = SelectJobs(m_allocator->FreeGpus(), false);
        starts.assign(chosen.begin(), chosen.end());
    }
    for (ClusterJob* job : starts)
    {
        StartJob(job);
    }
    UpdateRates();
    ScheduleGroupFinishes();
    RecordUtilization();
    NS_LOG_DEBUG("t=" << Simulator::Now().GetSeconds() << " pass " << m_passes << ": "
                      << m_running.size() << " running, " << m_waitingCount << " waiting, "
                      << m_allocator->FreeGpus() << " GPUs free");
    MaybePrintProgress();
}

void
ClusterEngine::StartJob(ClusterJob* job)
{
    NS_LOG_FUNCTION(this << job->record.id);
    double now = NowSeconds();
    // A node count from the trace (Acme node_num) holds while the job runs at its own size.
    job->placement =
        m_allocator->Allocate(job->gpus,
                              job->gpus == job->record.numGpus ? job->record.numNodes : 0);
    // waiting, then running: in the order of waiting and running jobs all along
    PriorityKey before = Untrack(job, false);
    job->state = ClusterJob::RUNNING;
    Rekey(before, Track(job, false), job->gpus);
    job->lastUpdate = now;
    job->iterationTime = 0; // set by UpdateRates() in this same pass
    // The running paths read job.gpus, not a walk over the placement's nodes.
    NS_ASSERT_MSG(job->placement.TotalGpus() == job->gpus,
                  "job " << job->record.id << " placed on " << job->placement.TotalGpus()
                         << " GPUs, not its " << job->gpus);
    job->computeTime = job->profile->ComputeTime(job->gpus);
    m_startedThisPass.push_back(job);
    if (job->startTime < 0)
    {
        job->startTime = now;
    }
    AddRunning(job);
    Simulator::Remove(job->priorityEvent);
    SchedulePriorityEvent(job);
    NS_LOG_LOGIC("t=" << now << " start job " << job->record.id << " on "
                      << job->placement.ToString());
    m_startTrace(job);
}

void
ClusterEngine::PreemptJob(ClusterJob* job)
{
    NS_LOG_FUNCTION(this << job->record.id);
    double now = NowSeconds();
    LeaveGroup(*job);
    AdvanceProgress(*job);
    if (job->remainingIterations * job->iterationTime < FINISH_SLACK)
    {
        // Its finish event is due within the time resolution: finish rather than requeue.
        NS_LOG_LOGIC("job " << job->record.id << " finishes instead of being preempted: "
                            << job->remainingIterations << " iterations left");
        FinishJob(job);
        return;
    }
    m_busyGpus -= job->gpus * job->computeTime / job->iterationTime;
    m_allocator->Release(job->placement);
    job->placement = JobPlacement();
    m_finishes.Remove(*job);
    Simulator::Remove(job->priorityEvent);
    RemoveRunning(job);
    PriorityKey before = Untrack(job, false); // running, then waiting (see StartJob)
    job->state = ClusterJob::WAITING;
    job->lastQueued = now;
    job->iterationTime = 0;
    ++job->preemptions;
    UpdatePolicy(*job, now);
    Rekey(before, Track(job, false), job->gpus);
    SchedulePriorityEvent(job);
    NS_LOG_LOGIC("t=" << now << " preempt job " << job->record.id << " (preemption "
                      << job->preemptions << ", level " << job->priorityLevel << ")");
    m_dataModel->JobStopped(*job);
    m_syncModel->JobStopped(*job);
    m_preemptTrace(job);
}

void
ClusterEngine::OnFinish(ClusterJob* job)
{
    NS_LOG_FUNCTION(this << job->record.id);
    AdvanceProgress(*job);
    FinishJob(job);
}

void
ClusterEngine::FinishJob(ClusterJob* job)
{
    NS_LOG_FUNCTION(this << job->record.id);
    double now = NowSeconds();
    LeaveGroup(*job);
    NS_ASSERT_MSG(job->remainingIterations * job->iterationTime <= FINISH_SLACK,
                  "job " << job->record.id << " finished with " << job->remainingIterations
                         << " iterations left");
    AccountStall(*job, now, job->RemainingIterationsAt(now));
    job->bound = BoundOf(*job);
    if (job->stallData > 0)
    {
        job->dataCause = "data:" + m_dataModel->Bottleneck(*job);
    }
    if (job->stallSync > 0)
    {
        job->syncCause = "sync:" + m_syncModel->Bottleneck(*job);
    }
    job->remainingIterations = 0;
    m_busyGpus -= job->gpus * job->computeTime / job->iterationTime;
    m_allocator->Release(job->placement);
    m_finishes.Remove(*job);
    Simulator::Remove(job->priorityEvent);
    RemoveRunning(job);
    Untrack(job);
    job->state = ClusterJob::FINISHED;
    job->finishTime = now;
    m_scheduler->Forget(*job);
    ++m_finished;
    NS_LOG_LOGIC("t=" << now << " finish job " << job->record.id << ", " << job->bound << ", JCT "
                      << now - job->record.submitTime << " s");
    m_dataModel->JobStopped(*job);
    m_syncModel->JobStopped(*job);
    m_finishTrace(job);
    RequestPass();
}

void
ClusterEngine::OnPriorityChange(ClusterJob* job)
{
    NS_LOG_FUNCTION(this << job->record.id);
    double now = NowSeconds();
    AdvanceProgress(*job);
    PriorityKey before = Untrack(job, false);
    UpdatePolicy(*job, now);
    Rekey(before, Track(job, false), job->gpus);
    NS_LOG_LOGIC("t=" << now << " job " << job->record.id << " now at level "
                      << job->priorityLevel);
    SchedulePriorityEvent(job);
    RequestPass();
}

void
ClusterEngine::UpdatePolicy(ClusterJob& job, double now)
{
    m_scheduler->Update(job, now);
    job.priorityLevel = m_scheduler->Level(job);
}

void
ClusterEngine::SchedulePriorityEvent(ClusterJob* job)
{
    double now = NowSeconds();
    double at = m_scheduler->NextKeyChange(*job, now);
    Time when = std::isfinite(at) ? EventTimeAfter(std::max(0.0, at - now)) : Time::Max();
    if (when != Time::Max()) // a change beyond the end of simulated time never comes
    {
        // A plain pointer: the job holds this event, so a Ptr here would be a reference cycle
        // that outlives the run. m_jobs owns every job for the engine's lifetime, and
        // DoDispose cancels what is still pending.
        job->priorityEvent = Simulator::Schedule(when - Simulator::Now(),
                                                 &ClusterEngine::OnPriorityChange,
                                                 this,
                                                 job);
    }
}

void
ClusterEngine::AccountStall(ClusterJob& job, double now, double remainingNow) const
{
    if (job.state != ClusterJob::RUNNING || !(now > job.lastUpdate))
    {
        return;
    }
    double elapsed = now - job.lastUpdate;
    double done = std::max(0.0, job.remainingIterations - remainingNow);
    double lost = elapsed - done * job.computeTime;
    if (!(lost > 0))
    {
        return;
    }
    double gpus = job.gpus;
    double exposedSync = (1 - m_syncOverlap) * job.syncTime;
    if (job.pacedClocked || job.dataTime > NonDataTime(job))
    {
        // Without the data stall the job would run at compute + exposed sync.
        double sync = std::min(lost, done * exposedSync);
        job.stallSync += gpus * sync;
        job.stallData += gpus * (lost - sync);
    }
    else if (exposedSync > 0)
    {
        job.stallSync += gpus * lost;
    }
    // else: compute-bound, and lost is the rounding of progress (not a stall)
}

std::string
ClusterEngine::BoundOf(const ClusterJob& job) const
{
    // Below a millionth of its compute GPU time, rounding: the job ran at compute speed.
    double computeGpuTime = job.record.iterations * job.computeTime * job.gpus;
    if (job.stallData + job.stallSync <= 1e-6 * computeGpuTime)
    {
        return "compute";
    }
    if (job.stallData >= job.stallSync)
    {
        return "data:" + m_dataModel->Bottleneck(job);
    }
    return "sync:" + m_syncModel->Bottleneck(job);
}

void
ClusterEngine::AdvanceProgress(ClusterJob& job) const
{
    double now = NowSeconds(); // per re-timed job: converted once per time step
    if (job.state == ClusterJob::RUNNING && now > job.lastUpdate)
    {
        const double remaining = job.RemainingIterationsAt(now);
        AccountStall(job, now, remaining);
        job.remainingIterations = remaining;
        job.attainedService += job.gpus * (now - job.lastUpdate);
    }
    if (job.pacedClocked)
    {
        job.iterationTime = job.dataTime = job.IterationTimeNow(); // the clock's pace now
    }
    job.lastUpdate = now;
}

void
ClusterEngine::AddRunning(ClusterJob* job)
{
    m_running[job->record.id] = job;
    // A model that reports its own changes never needs the whole coupled set re-evaluated.
    job->coupled = (!m_dataReporting && m_dataModel->IsCoupled(*job)) ||
                   (!m_syncReporting && m_syncModel->IsCoupled(*job));
    if (job->coupled)
    {
        m_coupled[job->record.id] = job;
        m_coupledSetChanged = true;
    }
}

void
ClusterEngine::RemoveRunning(ClusterJob* job)
{
    m_running.erase(job->record.id);
    if (job->coupled)
    {
        m_coupled.erase(job->record.id);
        m_coupledSetChanged = true;
    }
}

void
ClusterEngine::UpdateRates()
{
    std::vector<Ptr<ClusterJob>>& subjects = m_subjects;
    subjects.clear();
    if (m_modelChanged)
    {
        // A model's own state changed: every running job may have new terms.
        subjects.reserve(m_running.size());
        for (const auto& entry : m_running)
        {
            subjects.push_back(entry.second);
        }
    }
    else
    {
        // Jobs that just started, and the coupled ones if their set changed: the terms of
        // everyone else depend on themselves only and stand.
        subjects.reserve(m_startedThisPass.size() + (m_coupledSetChanged ? m_coupled.size() : 0));
        for (const auto& job : m_startedThisPass)
        {
            if (!job->coupled)
            {
                subjects.push_back(job);
            }
        }
        if (m_coupledSetChanged)
        {
            for (const auto& entry : m_coupled)
            {
                subjects.push_back(entry.second);
            }
        }
    }
    m_startedThisPass.clear();
    m_coupledSetChanged = false;
    m_modelChanged = false;
    bool dataReports = m_dataReporting != nullptr;
    bool syncReports = m_syncReporting != nullptr;
    if (subjects.empty() && !dataReports && !syncReports)
    {
        return;
    }
    std::vector<double>& dataTime = m_dataTimes;
    std::vector<double>& syncTime = m_syncTimes;
    dataTime.assign(subjects.size(), 0.0);
    syncTime.assign(subjects.size(), 0.0);
    // The models read the jobs; only the engine writes them.
    std::vector<Ptr<const ClusterJob>>& readOnly = m_readOnly;
    readOnly.assign(subjects.begin(), subjects.end());
    // A reporting model is called in every pass, with no subjects too: departures and its
    // own events have to reach its state before it reports.
    if (!subjects.empty() || dataReports)
    {
        m_dataModel->Evaluate(m_topology, readOnly, dataTime);
    }
    if (!subjects.empty() || syncReports)
    {
        m_syncModel->Evaluate(m_topology, readOnly, syncTime);
    }
    for (size_t i = 0; i < subjects.size(); ++i)
    {
        if (subjects[i]->state == ClusterJob::RUNNING)
        {
            SetIterationTime(*subjects[i], dataTime[i], syncTime[i]);
        }
    }
    subjects.clear(); // the buffers stay for the next pass, the references do not
    readOnly.clear();
    if (dataReports)
    {
        ApplyPaceChanges(*m_dataReporting);
        ApplyChanges(*m_dataReporting, true);
    }
    if (syncReports)
    {
        ApplyChanges(*m_syncReporting, false);
    }
}

void
ClusterEngine::ApplyChanges(ReportingTermModel& model, bool isData)
{
    m_changes.clear();
    model.TakeChanges(m_changes);
    for (const auto& [named, seconds, group, work, floor] : m_changes)
    {
        // The engine owns every job; a model names one by the read-only pointer it was given.
        // A raw pointer: a Ptr would count a reference per change (tens of millions a run).
        ClusterJob* job = const_cast<ClusterJob*>(PeekPointer(named));
        NS_ABORT_MSG_IF(!isData && group >= 0,
                        "a gradient-sync model reported a paced term: only data-loading "
                        "terms can share a pace (the sync term adds to compute)");
        if (job->state != ClusterJob::RUNNING)
        {
            continue;
        }
        if (group >= 0)
        {
            PaceJob(*job, uint32_t(group), work, floor);
            continue;
        }
        LeaveGroup(*job);
        SetIterationTime(*job, isData ? seconds : job->dataTime, isData ? job->syncTime : seconds);
    }
    m_changes.clear();
}

void
ClusterEngine::SetIterationTime(ClusterJob& job, double data, double sync)
{
    if (job.pacedGroup)
    {
        // Its data term is its group's: only a new sync term moves it (by its threshold).
        if (sync != job.syncTime)
        {
            uint32_t group = job.pacedGroup->Id();
            double work = job.pacedWork;
            double floor = job.pacedFloor;
            LeaveGroup(job);
            job.syncTime = sync;
            PaceJob(job, group, work, floor);
        }
        return;
    }
    AdvanceProgress(job); // the time so far is attributed under the terms it ran with
    job.dataTime = data;
    job.syncTime = sync;
    double iteration = std::max(data, NonDataTime(job));
    NS_ABORT_MSG_IF(!(iteration > 0),
                    "job " << job.record.id << " got iteration time " << iteration
                           << " s from the models");
    if (!FinishStands(job, iteration))
    {
        ApplyIterationTime(job, iteration); // progress is up to now already
    }
}

void
ClusterEngine::Retime(ClusterJob& job, double iteration)
{
    if (FinishStands(job, iteration))
    {
        return;
    }
    AdvanceProgress(job); // progress so far at the old rate
    ApplyIterationTime(job, iteration);
}

bool
ClusterEngine::FinishStands(const ClusterJob& job, double iteration) const
{
    return iteration == job.iterationTime && m_finishes.Contains(job);
}

void
ClusterEngine::ApplyIterationTime(ClusterJob& job, double iteration)
{
    uint32_t gpus = job.gpus;
    if (job.iterationTime > 0)
    {
        m_busyGpus -= gpus * job.computeTime / job.iterationTime;
    }
    m_busyGpus += gpus * job.computeTime / iteration;
    job.iterationTime = iteration;
    ScheduleFinish(job);
}

void
ClusterEngine::ScheduleFinish(ClusterJob& job)
{
    m_finishes.Set(job, job.remainingIterations * job.iterationTime);
}

double
ClusterEngine::NonDataTime(const ClusterJob& job) const
{
    return job.computeTime + (1.0 - m_syncOverlap) * job.syncTime;
}

PacedGroup&
ClusterEngine::GroupOf(uint32_t id)
{
    auto it = m_pacedGroups.find(id);
    if (it == m_pacedGroups.end())
    {
        it = m_pacedGroups.emplace(id, std::make_unique<PacedGroup>(id)).first;
    }
    return *it->second;
}

void
ClusterEngine::ApplyPaceChanges(ReportingTermModel& model)
{
    m_paceChanges.clear();
    model.TakePaceChanges(m_paceChanges);
    double now = NowSeconds();
    for (const auto& [id, pace] : m_paceChanges)
    {
        NS_ABORT_MSG_IF(!(pace > 0 && std::isfinite(pace)),
                        "pace group " << id << " got pace " << pace << " s per unit");
        PacedGroup& group = GroupOf(id);
        if (pace == group.Pace())
        {
            continue;
        }
        group.SetPace(now, pace);
        // Members that cross their threshold change sides; the others move with the clock.
        for (ClusterJob* job : group.ClockedAbovePace())
        {
            TakeOffClock(*job);
            Park(*job);
        }
        for (ClusterJob* job : group.ParkedAtPace())
        {
            group.Unpark(*job);
            PutOnClock(*job);
        }
        m_groupsMoved.insert(id);
    }
    m_paceChanges.clear();
}

void
ClusterEngine::PaceJob(ClusterJob& job, uint32_t group, double work, double floor)
{
    NS_ABORT_MSG_IF(!(work > 0), "job " << job.record.id << " got paced work " << work);
    if (job.pacedGroup && job.pacedGroup->Id() == group && job.pacedWork == work &&
        job.pacedFloor == floor)
    {
        return; // already there
    }
    LeaveGroup(job);
    PacedGroup& g = GroupOf(group);
    NS_ABORT_MSG_IF(!(g.Pace() > 0),
                    "job " << job.record.id << " joins pace group " << group
                           << ", which has no pace yet");
    job.pacedGroup = &g;
    job.pacedWork = work;
    job.pacedFloor = floor;
    // on the clock from the pace where its data term outlasts compute, sync and the floor
    job.pacedThreshold = std::max(NonDataTime(job), floor) / work;
    if (job.pacedThreshold <= g.Pace())
    {
        PutOnClock(job);
    }
    else
    {
        Park(job);
    }
}

void
ClusterEngine::PutOnClock(ClusterJob& job)
{
    AdvanceProgress(job); // at its own iteration time so far
    if (job.iterationTime > 0)
    {
        m_busyGpus -= job.gpus * job.computeTime / job.iterationTime;
    }
    m_finishes.Remove(job); // the group's event times it from now on
    double now = NowSeconds();
    job.pacedGroup->Clock(job, job.remainingIterations * job.pacedWork, now);
    job.iterationTime = job.dataTime = job.IterationTimeNow();
    m_groupsMoved.insert(job.pacedGroup->Id());
}

void
ClusterEngine::TakeOffClock(ClusterJob& job)
{
    AdvanceProgress(job); // brings remainingIterations and iterationTime up to the clock
    job.pacedGroup->Unclock(job);
    m_busyGpus += job.gpus * job.computeTime / job.iterationTime;
    m_groupsMoved.insert(job.pacedGroup->Id());
}

void
ClusterEngine::Park(ClusterJob& job)
{
    job.pacedGroup->Park(job);
    job.dataTime = std::max(job.pacedWork * job.pacedGroup->Pace(), job.pacedFloor);
    // Compute and sync (or its floor) dominate: it runs at its own pace, on its own event.
    Retime(job, std::max(job.dataTime, NonDataTime(job)));
}

void
ClusterEngine::LeaveGroup(ClusterJob& job)
{
    if (!job.pacedGroup)
    {
        return;
    }
    if (job.pacedClocked)
    {
        // Timed alone from now on: whoever keeps it running sets its iteration time (and so
        // its finish event, see Retime); a finish or a preemption needs none.
        TakeOffClock(job);
    }
    else
    {
        job.pacedGroup->Unpark(job);
    }
    job.pacedGroup = nullptr;
}

void
ClusterEngine::OnGroupFinish(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    PacedGroup& group = GroupOf(id);
    ClusterJob* job = group.First();
    AdvanceProgress(*job);
    FinishJob(job); // takes it off the clock; the pass it asks for re-arms the group's event
}

void
ClusterEngine::ScheduleGroupFinishes()
{
    double now = NowSeconds();
    for (uint32_t id : m_groupsMoved)
    {
        PacedGroup& group = GroupOf(id);
        Simulator::Remove(group.finishEvent);
        if (group.First())
        {
            group.finishEvent =
                Simulator::Schedule(EventTimeAfter(group.UntilFirst(now)) - Simulator::Now(),
                                    &ClusterEngine::OnGroupFinish,
                                    this,
                                    id);
        }
    }
    m_groupsMoved.clear();
}

void
ClusterEngine::RecordUtilization()
{
    if (m_running.empty())
    {
        m_busyGpus = 0; // drop the rounding residue of the incremental sum
    }
    double busy = m_busyGpus;
    for (const auto& entry : m_pacedGroups)
    {
        busy += entry.second->Busy();
    }
    busy = std::max(0.0, busy);
    UtilizationSample sample{NowSeconds(),
                             m_topology.TotalGpus() - m_allocator->FreeGpus(),
                             busy,
                             static_cast<uint32_t>(m_running.size()),
                             m_waitingCount};
    UtilizationSample& last = m_utilization.back();
    if (sample.allocated == last.allocated && sample.busy == last.busy &&
        sample.running == last.running && sample.waiting == last.waiting)
    {
        return;
    }
    if (sample.time == last.time)
    {
        last = sample; // same instant: keep the state after the last pass only
        return;
    }
    m_utilization.push_back(sample);
}

void
ClusterEngine::MaybePrintProgress()
{
    // Looking at the clock every pass would cost more than the pass: every 4096th.
    if (m_progressInterval <= 0 || (m_passes & 4095) != 0 || ProgressReporter::IsQuiet())
    {
        return;
    }
    auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - m_lastProgress).count() < m_progressInterval)
    {
        return;
    }
    m_lastProgress = now;
    std::ostringstream line;
    line << "simulated " << std::fixed << std::setprecision(2)
         << Simulator::Now().GetSeconds() / 86400 << " days | jobs done " << m_finished << " of "
         << m_jobs.size() << " | running " << m_running.size() << ", waiting " << m_waitingCount
         << " | wall " << std::chrono::duration<double>(now - m_wallStart).count() << " s";
    ProgressReporter::Report("aicluster", line.str());
}

const std::vector<Ptr<ClusterJob>>&
ClusterEngine::Jobs() const
{
    NS_LOG_FUNCTION(this);
    return m_jobs;
}

const std::vector<RejectedJob>&
ClusterEngine::Rejected() const
{
    NS_LOG_FUNCTION(this);
    return m_rejected;
}

const std::vector<UtilizationSample>&
ClusterEngine::Utilization() const
{
    NS_LOG_FUNCTION(this);
    return m_utilization;
}

uint64_t
ClusterEngine::Passes() const
{
    NS_LOG_FUNCTION(this);
    return m_passes;
}

uint64_t
ClusterEngine::FinishedJobs() const
{
    NS_LOG_FUNCTION(this);
    return m_finished;
}

double
ClusterEngine::WallSeconds() const
{
    NS_LOG_FUNCTION(this);
    return m_wallSeconds;
}

uint64_t
ClusterEngine::EventsProcessed() const
{
    NS_LOG_FUNCTION(this);
    return m_events;
}

} // namespace ns3
