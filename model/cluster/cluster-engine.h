/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_ENGINE_H
#define AICLUSTER_CLUSTER_ENGINE_H

#include "cluster-job.h"
#include "cluster-topology.h"
#include "finish-queue.h"
#include "gpu-allocator.h"
#include "iteration-model.h"
#include "job-sizing-policy.h"
#include "ordered-demands.h"
#include "paced-group.h"
#include "scheduling-policy.h"

#include "ns3/job-record.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/workload-catalog.h"

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One point of the cluster's utilization time series (recorded when it changes).
 */
struct UtilizationSample
{
    double time;        //!< [s]
    uint32_t allocated; //!< GPUs held by running jobs
    double busy;        //!< GPU-equivalents computing: sum of gpus * computeTime / iterationTime
    uint32_t running;   //!< running jobs
    uint32_t waiting;   //!< queued jobs
};

/**
 * \ingroup aicluster
 * \brief A job the engine could not run, and why.
 */
struct RejectedJob
{
    JobRecord record;   //!< the job
    std::string reason; //!< e.g. "asks for 128 GPUs, the cluster has 64"
};

/**
 * \ingroup aicluster
 * \brief Rate-level, event-driven cluster engine: replays jobs through a scheduler,
 *        a GPU allocator and the iteration-time models.
 *
 * Events happen only when something changes: a job arrives, finishes, is
 * preempted, crosses a priority threshold, or a model reports new rates.
 * Between events every running job's iteration time is constant, so its
 * progress is computed from the elapsed time, never stepped. Same-time
 * events are coalesced into one scheduling pass.
 */
class ClusterEngine : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ClusterEngine();
    ~ClusterEngine() override;

    /** \param topology the cluster's shape */
    void SetTopology(const ClusterTopology& topology);
    /** \return the cluster's shape */
    const ClusterTopology& GetTopology() const;

    /**
     * \brief Load the (annotated) jobs to replay.
     *
     * Jobs that can never run (no GPU, more GPUs than the cluster, an unknown
     * model, no work) are not silently dropped: they are listed by Rejected().
     * Each job refers to its record in the shared list rather than copying it, so that
     * engines replaying one trace (one per policy) hold its records once (issue #13).
     * \param jobs annotated job records, any order
     * \param catalog the workload catalog the jobs' models come from (must outlive the run)
     */
    void SetJobs(SharedJobRecords jobs, const WorkloadCatalog& catalog);

    /**
     * \brief As SetJobs above, for a caller that holds no shared list: the records are copied
     *        once into one.
     * \param jobs annotated job records, any order
     * \param catalog the workload catalog the jobs' models come from (must outlive the run)
     */
    void SetJobs(const std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog);

    /**
     * \brief How a preemptive pass under contention finds its jobs (call before Run). Not an
     *        attribute: the choice is the same either way, so it is no setting of a result.
     * \param prefix true (the default): look only past the longest prefix of the queue order
     *        that fits, the prefix running whole; false: walk every job in order (the
     *        reference the tests compare with)
     */
    void SetPrefixSelection(bool prefix);

    /** \param policy the scheduling policy */
    void SetScheduler(Ptr<SchedulingPolicy> policy);
    /** \return the scheduling policy */
    Ptr<SchedulingPolicy> GetScheduler() const;
    /** \param allocator the GPU allocator (placement rule) */
    void SetAllocator(Ptr<GpuAllocator> allocator);
    /** \return the GPU allocator */
    Ptr<GpuAllocator> GetAllocator() const;
    /** \param model the data-loading term model */
    void SetDataLoadingModel(Ptr<IterationTermModel> model);
    /** \return the data-loading term model */
    Ptr<IterationTermModel> GetDataLoadingModel() const;
    /** \param model the gradient-sync term model */
    void SetGradientSyncModel(Ptr<IterationTermModel> model);
    /** \return the gradient-sync term model */
    Ptr<IterationTermModel> GetGradientSyncModel() const;

    /** \brief Schedule the first arrival; run with Simulator::Run(). */
    void Start();

    /** \brief Start(), Simulator::Run() until every job is done, and time the run. */
    void Run();

    /** \return all accepted jobs, by submit time */
    const std::vector<Ptr<ClusterJob>>& Jobs() const;
    /** \return the jobs that could not run, with reasons */
    const std::vector<RejectedJob>& Rejected() const;
    /** \return utilization time series (one sample per change) */
    const std::vector<UtilizationSample>& Utilization() const;
    /** \return scheduling passes run */
    uint64_t Passes() const;
    /** \return jobs finished so far */
    uint64_t FinishedJobs() const;
    /** \return wall-clock time of the last Run() [s] */
    double WallSeconds() const;
    /** \return simulator events executed during the last Run() */
    uint64_t EventsProcessed() const;

    /** TracedCallback signature for job life-cycle events. */
    typedef void (*JobTracedCallback)(Ptr<const ClusterJob> job);

  protected:
    void DoDispose() override;

  private:
    using QueueEntry = std::pair<PriorityKey, ClusterJob*>;
    using JobSet = std::set<QueueEntry>;              //!< jobs in priority order
    using DemandClasses = std::map<uint32_t, JobSet>; //!< GPU demand -> its jobs

    void OnArrival();
    /** The finish queue's event: the job's finish is due. */
    void OnFinish(ClusterJob* job);
    void FinishJob(ClusterJob* job);
    void OnPriorityChange(ClusterJob* job);
    void RequestPass();
    void Resize(ClusterJob& job, uint32_t gpus);
    void Reschedule();
    /**
     * \brief The plain walk: every class's jobs merged in key order, each taken while it fits.
     * \param budget GPUs to give out
     * \param includeRunning walk the running jobs too (a preemptive pass under contention)
     * \param from the walk starts at this key (null: at the first job)
     * \return the jobs taken, in key order (the engine's scratch: valid until the next call)
     */
    const std::vector<ClusterJob*>& SelectJobs(uint32_t budget,
                                               bool includeRunning,
                                               const PriorityKey* from = nullptr) const;
    /**
     * \brief A preemptive pass under contention, as SelectJobs(total, true) decides it but
     *        with a look only at the jobs past the longest prefix of the order that fits
     *        (m_activeOrder): the prefix runs whole.
     * \param total the cluster's GPUs
     * \param starts the waiting jobs chosen, in key order (output)
     * \param victims the running jobs not chosen, by id (output)
     */
    void SelectContended(uint32_t total,
                         std::vector<ClusterJob*>& starts,
                         std::vector<ClusterJob*>& victims);
    /**
     * \brief SelectJobs(total, true), then the running jobs it leaves out.
     * \param total the cluster's GPUs
     * \param starts the waiting jobs chosen, in key order (output)
     * \param victims the running jobs not chosen, by id (output)
     */
    void SelectContendedByWalk(uint32_t total,
                               std::vector<ClusterJob*>& starts,
                               std::vector<ClusterJob*>& victims);
    void StartJob(ClusterJob* job);
    void PreemptJob(ClusterJob* job);
    void UpdateRates();
    void SetIterationTime(ClusterJob& job, double data, double sync);
    /**
     * Give a job timed on its own a new iteration time: progress so far, new finish event
     * (none of it if the time is unchanged and its finish event is pending).
     */
    void Retime(ClusterJob& job, double iteration);
    /**
     * Give a job timed on its own a new iteration time whose progress AdvanceProgress has
     * brought up to now: the busy GPUs and its finish event follow.
     */
    void ApplyIterationTime(ClusterJob& job, double iteration);
    /**
     * \return true if the job's iteration time is unchanged and its finish event pending:
     *         a re-time then leaves it as it is
     */
    bool FinishStands(const ClusterJob& job, double iteration) const;
    /** (Re)queue the job's own finish from remainingIterations and iterationTime. */
    void ScheduleFinish(ClusterJob& job);
    /** \return the job's compute plus exposed sync time per iteration [s] */
    double NonDataTime(const ClusterJob& job) const;
    /** \return the pace group of this id (made on first use) */
    PacedGroup& GroupOf(uint32_t id);
    /** Apply the data model's new paces: the groups' clocks, and members changing sides. */
    void ApplyPaceChanges(ReportingTermModel& model);
    /**
     * Put a running job in a pace group with this work per iteration and least data term
     * (or keep it there).
     */
    void PaceJob(ClusterJob& job, uint32_t group, double work, double floor);
    /** Move a member timed on its own onto its group's clock. */
    void PutOnClock(ClusterJob& job);
    /** Take a member off its group's clock (progress brought up to now; no finish event). */
    void TakeOffClock(ClusterJob& job);
    /** Time a member that compute or sync bind on its own, on its own event. */
    void Park(ClusterJob& job);
    /** Take a job out of its pace group, if any (no finish event until it is re-timed). */
    void LeaveGroup(ClusterJob& job);
    /** The earliest mark of a group's clock is reached: that job finishes. */
    void OnGroupFinish(uint32_t id);
    /** Re-arm the finish event of every group whose clock or first member moved. */
    void ScheduleGroupFinishes();
    /** Apply the terms a change-reporting model moved on its own (isData: its term). */
    void ApplyChanges(ReportingTermModel& model, bool isData);
    void AddRunning(ClusterJob* job);
    void RemoveRunning(ClusterJob* job);
    void OnModelChanged();
    void AdvanceProgress(ClusterJob& job) const;
    /**
     * Add the GPU time a running job lost since lastUpdate to its stall totals, by cause.
     * \param job a job \param now the time [s] \param remainingNow its RemainingIterationsAt(now)
     */
    void AccountStall(ClusterJob& job, double now, double remainingNow) const;
    /** \return what binds a running job: compute, data:<resource> or sync:<resource> */
    std::string BoundOf(const ClusterJob& job) const;
    /**
     * Add the job to the ordered sets its state puts it in (call after a state/key change).
     * \param job the job
     * \param inOrder also to m_activeOrder (false: the caller's Rekey moves it there)
     * \return its key
     */
    PriorityKey Track(ClusterJob* job, bool inOrder = true);
    /**
     * Remove the job from its ordered sets (call before a state/key change).
     * \param job the job
     * \param inOrder also from m_activeOrder (false: the caller's Rekey moves it there)
     * \return its key
     */
    PriorityKey Untrack(ClusterJob* job, bool inOrder = true);
    /**
     * Move a job that stays waiting or running (a preemptive policy's) in m_activeOrder from
     * one key to another: nothing to do if they are the same.
     * \param before its key before \param after its key now \param demand its GPUs
     */
    void Rekey(const PriorityKey& before, const PriorityKey& after, uint32_t demand);
    void SchedulePriorityEvent(ClusterJob* job);
    /**
     * \brief Bring the scheduling policy's state of the job up to date and publish its
     *        queue level (ClusterJob::priorityLevel).
     * \param job the job, progress brought up to now
     * \param now the current time [s]
     */
    void UpdatePolicy(ClusterJob& job, double now);
    void RecordUtilization();
    void MaybePrintProgress();

    ClusterTopology m_topology;
    Ptr<SchedulingPolicy> m_scheduler;
    Ptr<GpuAllocator> m_allocator;
    Ptr<IterationTermModel> m_dataModel;
    Ptr<IterationTermModel> m_syncModel;
    Ptr<ReportingTermModel> m_dataReporting; //!< m_dataModel if it reports its changes, else null
    Ptr<ReportingTermModel> m_syncReporting; //!< m_syncModel if it reports its changes, else null
    Ptr<JobSizingPolicy> m_sizer;
    double m_syncOverlap;
    double m_progressInterval;

    std::vector<Ptr<ClusterJob>> m_jobs;
    std::vector<RejectedJob> m_rejected;
    size_t m_nextArrival{0};
    DemandClasses m_waitingByDemand; //!< waiting jobs by GPU demand, each class in key order
    DemandClasses m_runningByDemand; //!< running jobs likewise (preemptive policies only)
    uint64_t m_waitingDemandSum{0};  //!< GPUs asked by the waiting jobs
    uint32_t m_waitingCount{0};      //!< waiting jobs
    bool m_prefixSelection{true};    //!< SelectContended (else the plain walk, the reference)
    /// Waiting and running jobs of a preemptive policy in key order, for SelectContended.
    OrderedDemands m_activeOrder;
    std::map<uint64_t, ClusterJob*> m_running; //!< by id: deterministic model order
    bool m_passPending{false};
    std::vector<Ptr<ClusterJob>> m_startedThisPass; //!< jobs whose terms need a first evaluation
    std::map<uint64_t, ClusterJob*> m_coupled;      //!< running jobs whose terms depend on others
    bool m_coupledSetChanged{false};                //!< a coupled job started, finished or yielded
    bool m_modelChanged{false};                     //!< a term model asked for re-evaluation

    /// A cursor of SelectJobs' merge: a demand class's next job.
    struct SelectCursor
    {
        JobSet::const_iterator next; //!< its next job
        JobSet::const_iterator end;  //!< the class's end
        uint32_t demand;             //!< the class's GPUs per job
    };

    // Scratch of a pass, kept so that its buffers are reused (issue #13: hundreds of
    // thousands of Tiresias passes)
    mutable std::vector<SelectCursor> m_cursors;   //!< SelectJobs' heap of class cursors
    mutable std::vector<ClusterJob*> m_chosen;     //!< SelectJobs' answer
    std::vector<ClusterJob*> m_starts;             //!< Reschedule's jobs to start
    std::vector<ClusterJob*> m_victims;            //!< Reschedule's jobs to preempt
    std::vector<QueueEntry> m_prefix;              //!< SelectContended's waiting prefix jobs
    std::vector<Ptr<ClusterJob>> m_subjects;       //!< UpdateRates' jobs to evaluate
    std::vector<Ptr<const ClusterJob>> m_readOnly; //!< the same, as the models see them
    std::vector<double> m_dataTimes;               //!< UpdateRates' data terms [s]
    std::vector<double> m_syncTimes;               //!< UpdateRates' sync terms [s]
    std::vector<ReportingTermModel::TermChange> m_changes;         //!< scratch for ApplyChanges()
    std::vector<ReportingTermModel::PaceChange> m_paceChanges;     //!< scratch, ApplyPaceChanges()
    std::map<uint32_t, std::unique_ptr<PacedGroup>> m_pacedGroups; //!< the data model's groups
    std::set<uint32_t> m_groupsMoved; //!< groups whose finish event needs re-arming
    FinishQueue m_finishes;           //!< finishes of the running jobs timed on their own
    double m_busyGpus{0};             //!< sum over running jobs of gpus * compute / iteration
    uint64_t m_passes{0};
    uint64_t m_finished{0};
    std::vector<UtilizationSample> m_utilization;

    std::chrono::steady_clock::time_point m_wallStart;
    std::chrono::steady_clock::time_point m_lastProgress;
    double m_wallSeconds{0};
    uint64_t m_eventsAtStart{0};
    uint64_t m_events{0};

    TracedCallback<Ptr<const ClusterJob>> m_submitTrace;
    TracedCallback<Ptr<const ClusterJob>> m_startTrace;
    TracedCallback<Ptr<const ClusterJob>> m_preemptTrace;
    TracedCallback<Ptr<const ClusterJob>> m_finishTrace;
};

} // namespace ns3

#endif // AICLUSTER_CLUSTER_ENGINE_H
