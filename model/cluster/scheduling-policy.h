/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_SCHEDULING_POLICY_H
#define AICLUSTER_SCHEDULING_POLICY_H

#include "cluster-job.h"

#include "ns3/object.h"

#include <limits>
#include <string>
#include <tuple>

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

  protected:
    /**
     * \brief Each policy registers Backfill itself, so that each has its own default and
     *        Config::SetDefault("ns3::<Policy>::Backfill", ...) works per policy.
     * \param tid the policy's TypeId
     * \param byDefault the attribute's default
     * \return tid with the Backfill attribute added
     */
    static TypeId WithBackfill(TypeId tid, bool byDefault);

  private:
    bool m_backfill{true};
};

} // namespace ns3

#endif // AICLUSTER_SCHEDULING_POLICY_H
