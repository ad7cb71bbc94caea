/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AICLUSTER_SCHEDULING_POLICY_H
#define AICLUSTER_SCHEDULING_POLICY_H

#include "cluster-job.h"

#include "ns3/object.h"

#include <limits>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Order of jobs in the queue: smaller runs first. Ties end on the job id.
 */
struct PriorityKey
{
    double primary{0};   //!< main criterion (policy specific)
    double secondary{0}; //!< tie breaker (usually submit time)
    uint64_t id{0};      //!< job id, last tie breaker: the order is total

    /** \param o other key \return true if this key goes first */
    bool operator<(const PriorityKey& o) const
    {
        return std::tie(primary, secondary, id) < std::tie(o.primary, o.secondary, o.id);
    }
};

/**
 * \ingroup aicluster
 * \brief Which waiting jobs start, and (for preemptive policies) which running jobs yield.
 *
 * The engine keeps the jobs ordered by Key() and walks them in that order,
 * giving each its GPUs while enough are free. A preemptive policy's walk
 * covers running jobs too: a running job that no longer makes the cut is
 * preempted. Without Backfill the walk stops at the first job that does not
 * fit (strict order); with it, later smaller jobs may start.
 * Keys may change only at times the policy announces with NextKeyChange().
 */
class SchedulingPolicy : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();

    /** \return short name used in result files, e.g. "fifo" */
    virtual std::string Name() const = 0;
    /** \return true if running jobs may be preempted */
    virtual bool IsPreemptive() const = 0;
    /** \return true if a job may start ahead of an earlier one that does not fit */
    bool Backfill() const;
    /** \param backfill true to let a job start ahead of an earlier one that does not fit */
    void SetBackfill(bool backfill);

    /**
     * \param job a waiting or running job, progress brought up to now
     * \return its place in the order
     */
    virtual PriorityKey Key(const ClusterJob& job) const = 0;

    /**
     * \param job a waiting or running job, progress brought up to now
     * \param now the current time [s]
     * \return the time [s] at which Key(job) will change by itself, or +infinity
     */
    virtual double NextKeyChange(const ClusterJob& job, double now) const;

    /**
     * \brief Bring the policy's own state of the job (e.g. its queue level) up to date at
     *        now. The job is the engine's and read only: a policy keeps its state itself.
     * \param job the job, progress brought up to now
     * \param now the current time [s]
     */
    virtual void Update(const ClusterJob& job, double now) const;

    /**
     * \param job a job this policy has seen in Update()
     * \return its queue level (0 = highest) for multi-level policies, 0 otherwise. The engine
     *         publishes it as ClusterJob::priorityLevel for the models (INA's Static priority).
     */
    virtual uint32_t Level(const ClusterJob& job) const;

    /**
     * \brief The job finished: the policy may drop its state of it.
     * \param job the job
     */
    virtual void Forget(const ClusterJob& job) const;

  private:
    bool m_backfill{true};
};

/**
 * \ingroup aicluster
 * \brief First in, first out by submit time, non-preemptive.
 */
class FifoPolicy : public SchedulingPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool IsPreemptive() const override;
    PriorityKey Key(const ClusterJob& job) const override;
};

/**
 * \ingroup aicluster
 * \brief Shortest job first by the trace's run time (the oracle used by SJF baselines),
 *        non-preemptive; jobs without a recorded run time use their compute-bound estimate.
 */
class SjfPolicy : public SchedulingPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool IsPreemptive() const override;
    PriorityKey Key(const ClusterJob& job) const override;
};

/**
 * \ingroup aicluster
 * \brief Tiresias' discretized two-dimensional least-attained-service (2D-LAS), preemptive.
 *
 * A job's attained service is GPUs x time it has run [GPU-s]. Queue level l
 * holds jobs whose service is between Thresholds[l-1] and Thresholds[l]; lower
 * levels go first (Gu et al., NSDI'19). Inside a level, LevelOrder picks the order:
 * by submit time (SubmitTime, the default; a waiting job may preempt a running one of
 * its own level that was submitted later), or as the Tiresias reference simulator does
 * (LevelEntry: the level's running jobs first, never preempted by a waiting job of
 * the same level, then its waiting jobs, each in order of entry into the level).
 * Against starvation, a waiting job whose wait since it last queued reaches
 * StarvationFactor times its total run time is promoted back to level 0
 * (its service so far no longer counts for the level).
 */
class TiresiasPolicy : public SchedulingPolicy
{
  public:
    /** The order of the jobs inside one level. */
    enum LevelOrder
    {
        SUBMIT_TIME, //!< by submit time, running or waiting alike
        LEVEL_ENTRY, //!< running before waiting, each by time of entry into the level
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool IsPreemptive() const override;
    PriorityKey Key(const ClusterJob& job) const override;
    double NextKeyChange(const ClusterJob& job, double now) const override;
    void Update(const ClusterJob& job, double now) const override;
    uint32_t Level(const ClusterJob& job) const override;
    void Forget(const ClusterJob& job) const override;

    /** \param thresholds ascending queue thresholds [GPU-s], comma separated */
    void SetThresholds(const std::string& thresholds);
    /** \return the thresholds, comma separated */
    std::string GetThresholds() const;

  private:
    /** \return the level for a service counted for the level [GPU-s] */
    uint32_t LevelOf(double service) const;

    /** The policy's state of one job. */
    struct JobLevel
    {
        uint32_t level{0};         //!< its queue level (0 = highest)
        double serviceBaseline{0}; //!< attained service [GPU-s] not counted for the level
                                   //!< (set on promotion)
        double entry{-1};          //!< time [s] it entered its level, -1: its submit time
    };

    /** \return the job's state (a new one, level 0, if never seen) */
    JobLevel& StateOf(const ClusterJob& job) const;
    /** \return service counted for the level now [GPU-s] */
    static double LevelService(const ClusterJob& job, const JobLevel& state, double now);

    std::vector<double> m_thresholds;
    double m_starvationFactor;
    LevelOrder m_levelOrder; //!< the order inside a level
    /// Each job's level state, by job id (dropped when it finishes).
    mutable std::unordered_map<uint64_t, JobLevel> m_levels;
};

} // namespace ns3

#endif // AICLUSTER_SCHEDULING_POLICY_H
