/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_JOB_H
#define AICLUSTER_CLUSTER_JOB_H

#include "cluster-topology.h"
#include "finish-queue.h"

#include "ns3/event-id.h"
#include "ns3/huge-pages.h"
#include "ns3/job-record.h"
#include "ns3/simple-ref-count.h"
#include "ns3/workload-catalog.h"

#include <memory>
#include <string>

namespace ns3
{

class PacedGroup;

/**
 * \ingroup aicluster
 * \brief A job inside the rate-level cluster engine: its live state, and the trace record it
 *        refers to.
 *
 * Progress is kept as remaining iterations at lastUpdate; between events the
 * job's iteration time is constant, so progress at any time is computed from
 * those two numbers, never stepped.
 *
 * The record is shared, not copied: a full trace has tens of thousands of jobs, and a copy
 * per job and engine (ClusterEngine::SetJobs) doubled the memory a replay touches and the time
 * it takes to load (issue #13). The job owns a share of its record, so a job that outlives its
 * engine (a model's list of running jobs, a test's handle) still reads a valid one. The jobs
 * themselves are created all at once and live in huge-page-backed pools (HugePagePooled).
 */
class ClusterJob : public SimpleRefCount<ClusterJob>, public HugePagePooled<ClusterJob>
{
  public:
    /**
     * \param record the job's trace record, kept alive by the job (the engine's jobs share
     *        the trace's list: SharedJobRecords, through shared_ptr's aliasing constructor)
     */
    explicit ClusterJob(std::shared_ptr<const JobRecord> record)
        : record(*record),
          recordOwner(std::move(record))
    {
    }

    /** Life cycle of a job. */
    enum State
    {
        PENDING,  //!< not yet submitted (submit time in the future)
        WAITING,  //!< submitted, queued
        RUNNING,  //!< holds GPUs and makes progress
        FINISHED, //!< all iterations done
    };

    const JobRecord& record;                 //!< what the (annotated) trace says
    const WorkloadProfile* profile{nullptr}; //!< catalog entry of record.model
    State state{PENDING};                    //!< where the job is in its life cycle
    uint32_t gpus{0};       //!< GPUs it runs on (requested, or a sizing policy's choice)
    JobPlacement placement; //!< GPUs held while RUNNING

  private:
    /// FinishQueue: its finish's index in the queue's heap, or FinishQueue::kNotQueued. Kept
    /// in the job, whose fields a re-time reads anyway: a table by job id would be a cache
    /// miss per re-time.
    uint32_t finishPlace{FinishQueue::kNotQueued};

  public:
    double remainingIterations{0}; //!< iterations left at lastUpdate
    double lastUpdate{0};          //!< time [s] remainingIterations refers to

    double computeTime{0}; //!< per-iteration compute time [s] on the current placement
    double dataTime{0}; //!< per-iteration data-loading time [s] (hidden behind compute by prefetch)
    double syncTime{0}; //!< per-iteration gradient-sync time [s] (exposed)
    double iterationTime{0}; //!< per-iteration wall time [s] now, composed from the three

    double startTime{-1};      //!< first start [s], -1 before
    double finishTime{-1};     //!< finish [s], -1 before
    double attainedService{0}; //!< GPU-seconds received so far (at lastUpdate)
    double lastQueued{0};      //!< time [s] it last entered the queue (for starvation ageing)
    uint32_t priorityLevel{0}; //!< the policy's queue level (SchedulingPolicy::Level), 0 = highest
    uint32_t preemptions{0};   //!< times it was preempted

    // Attribution (engine bookkeeping): GPU-seconds this job held without computing, by cause.
    double stallData{0};   //!< GPU-s lost waiting for data beyond compute + exposed sync
    double stallSync{0};   //!< GPU-s lost to exposed gradient sync
    std::string bound;     //!< what bound it at finish: compute, data:<resource>, sync:<resource>
    std::string dataCause; //!< data:<resource> its data stall is charged to (at finish)
    std::string syncCause; //!< sync:<pool or link> its sync stall is charged to (at finish)

    /**
     * \param now simulation time [s], at or after lastUpdate
     * \return iterations left now (remainingIterations is only brought up to date lazily)
     */
    double RemainingIterationsAt(double now) const;
    /** \return the iteration time now [s] (iterationTime lags for a job on a paced clock) */
    double IterationTimeNow() const;

  private:
    // Bookkeeping only the engine (and its pace groups) reads or writes.
    friend class ClusterEngine;
    friend class FinishQueue;
    friend class PacedGroup;
    friend struct PacedGroupProbe; // test/test-paced-group.cc sets a member's work and threshold

    EventId priorityEvent;      //!< its next priority change (multi-level policies), if any
    uint64_t selectedInPass{0}; //!< last scheduling pass that chose it
    bool coupled{false};        //!< its terms depend on other running jobs

    // A data term on a shared pace (PacedGroup), while RUNNING.
    PacedGroup* pacedGroup{nullptr}; //!< its group, nullptr if timed on its own
    double pacedWork{0};             //!< its data term's units per iteration
    double pacedFloor{0};            //!< its least data term [s]: max(work * pace, this)
    double pacedThreshold{0}; //!< max(compute + exposed sync, floor) / work: the pace it binds at
    double pacedMark{0};      //!< on the clock: the group's virtual time at its finish
    bool pacedClocked{false}; //!< on the group's clock (data-bound), else timed alone

    std::shared_ptr<const JobRecord> recordOwner; //!< keeps record alive
};

} // namespace ns3

#endif // AICLUSTER_CLUSTER_JOB_H
