/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_ITERATION_MODEL_H
#define AICLUSTER_ITERATION_MODEL_H

#include "cluster-job.h"
#include "cluster-topology.h"
#include "link-share.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One term of a job's iteration time (data loading or gradient sync), pluggable.
 *
 * The engine composes a running job's iteration time as
 *   iterationTime = max(dataTime, computeTime + (1 - overlap) * syncTime)
 * (data loading is prefetched in parallel with compute; gradient sync follows
 * the backward pass, of which a configurable fraction overlaps it).
 * computeTime comes from the workload catalog; the two other terms come from
 * an IterationTermModel each.
 *
 * The contract is two calls:
 * - Evaluate(): "evaluate these jobs". The engine calls it when jobs start and, for jobs
 *   whose term depends on others (IsCoupled()), whenever the set of such jobs changes; the
 *   terms stand until the next call. A model whose state moves on its own (a cache fill
 *   completing, say) calls NotifyChanged() and the engine re-evaluates every running job.
 * - JobStopped(): "this job stopped" (finished or preempted), before the next Evaluate().
 *
 * A model reads the jobs (ClusterJob) but never writes them: their state is the engine's.
 * Models that track the running jobs themselves and report only the terms that moved (the
 * storage model) opt into ReportingTermModel.
 *
 * IterationTermModel and its refinement ReportingTermModel are one contract with the engine
 * (the same calls, plus the reporting ones) and share this file; each model lives in a file
 * pair of its own (ideal-data-loading, ideal-gradient-sync, ring-all-reduce-sync, ...).
 */
class IterationTermModel : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();

    /**
     * \brief Set the per-iteration seconds this term adds for every running job.
     * \param topology the cluster
     * \param running the running jobs, with their placements and profiles
     * \param seconds output, resized by the caller to running.size(): seconds[i] for running[i]
     */
    virtual void Evaluate(const ClusterTopology& topology,
                          const std::vector<Ptr<const ClusterJob>>& running,
                          std::vector<double>& seconds) = 0;

    /**
     * \brief The job stopped running (finished or preempted): the engine calls this on both
     *        models as the job leaves, before the next Evaluate(). A model that keeps per-job
     *        state drops the job's here. Default: nothing.
     * \param job the job, already WAITING (placement cleared) or FINISHED
     */
    virtual void JobStopped(const ClusterJob& job);

    /**
     * \return true if a job's term depends on the other running jobs (contention). The engine
     *         then re-evaluates every running job whenever the running set changes; otherwise
     *         only jobs that just started are evaluated, which keeps big replays fast.
     */
    virtual bool DependsOnOtherJobs() const;

    /**
     * \param job a job about to run
     * \return true if this job's term depends on other running jobs; false if it depends on
     *         the job alone (e.g. a single-node job under a network model). The engine
     *         re-evaluates coupled jobs whenever a coupled job starts or stops, and an
     *         uncoupled job only when it starts. Default: DependsOnOtherJobs().
     */
    virtual bool IsCoupled(const ClusterJob& job) const;

    /**
     * \brief Called by the engine before a run so that the model can ask for re-evaluation.
     * \param onChange called (at the current simulation time) when the model's answer changed
     */
    void SetChangeCallback(Callback<void> onChange);

    /**
     * \param job a running job this model gave a term
     * \return the resource that binds its term now, for attribution (jobs.csv's bound column):
     *         e.g. storage, cpu, pcie-uplink, rail. Default: the model's TypeId name without
     *         "ns3::".
     */
    virtual std::string Bottleneck(const ClusterJob& job) const;

    /**
     * \brief The links this model's traffic shares with the other term's (set by
     *        ClusterBuilder when both gradient sync and a data loader are on; none by default).
     * \param links the shared links, or null
     */
    void SetLinkShare(Ptr<LinkShare> links);
    /** \return the shared links, null if this model's traffic shares none */
    Ptr<LinkShare> GetLinkShare() const;

    /**
     * \brief A gradient-sync model's traffic through the nodes' rail NICs (LinkShare).
     * \param job a running job
     * \param traffic output, appended to: per node the job's sync crosses, bytes per
     *        iteration and the model's own peak rate there. Default: none.
     */
    virtual void LinkTraffic(const ClusterJob& job, std::vector<SyncLinkTraffic>& traffic) const;

  protected:
    friend class LinkShare; // asks a sync model to re-evaluate when the data load moves

    void DoDispose() override;

    /** \brief Tell the engine this model's terms changed (schedules a re-evaluation now). */
    void NotifyChanged();

  private:
    Callback<void> m_onChange;
    Ptr<LinkShare> m_links;
};

/**
 * \ingroup aicluster
 * \brief Opt-in refinement of IterationTermModel: a model that keeps its own state of the
 *        running jobs and reports which terms changed.
 *
 * The engine then evaluates a job only when it starts, calls Evaluate() in every scheduling
 * pass (with the jobs that just started, possibly none) and applies TakePaceChanges() and
 * TakeChanges(), the other jobs whose term moved; it never re-evaluates the whole running set
 * for this model (IsCoupled() is not consulted). An arrival then costs what it changes, not
 * the whole running set. Departures arrive through JobStopped(), as for every model; when
 * its state moves on its own the model calls NotifyJobsChanged(). Data-loading models may
 * put jobs on a shared pace (pace groups, see PacedGroup).
 */
class ReportingTermModel : public IterationTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();

    /**
     * \brief Called by the engine before a run, for models that report their changes.
     * \param onJobsChanged called (at the current simulation time) when TakeChanges() has
     *        something new; the engine collects it in a pass at that time
     */
    void SetJobsChangedCallback(Callback<void> onJobsChanged);

    /**
     * \return true if this model reports its changes now (default); false leaves it to the
     *         engine as a plain IterationTermModel (coupled jobs re-evaluated together)
     */
    virtual bool ReportsChanges() const;

    /**
     * \brief A running job's new term.
     *
     * With a pace group (group >= 0, data-loading models only) the term is work * pace of
     * that group of the model (or floor, if that is more), and stays so until a later change names
     * the job again: a new pace then reaches the engine through TakePaceChanges() alone, however
     * many jobs share it (the engine keeps them on one virtual clock, see PacedGroup).
     */
    struct TermChange
    {
        /**
         * \param j the job
         * \param s its term now [s]
         * \param g its pace group, -1 for none
         * \param w with a group: the term's units per iteration (s = w * pace)
         */
        TermChange(const Ptr<const ClusterJob>& j,
                   double s,
                   int32_t g = -1,
                   double w = 0,
                   double f = 0)
            : job(j),
              seconds(s),
              group(g),
              work(w),
              floor(f)
        {
        }

        Ptr<const ClusterJob> job; //!< the job, as the model was given it (read-only)
        double seconds;            //!< its term now [s]
        int32_t group;             //!< its pace group, -1 = none
        double work;               //!< with a group: units per iteration
        /// with a group: the least term [s]; the term is max(work x pace, floor) (another
        /// stage of the data path that does not move with the pace)
        double floor;
    };

    /** A pace group's new pace [s per unit of work]. */
    struct PaceChange
    {
        uint32_t group; //!< the group
        double pace;    //!< seconds per unit of work (> 0)
    };

    /**
     * \brief Hand the engine the running jobs whose term changed since the last call (the
     *        jobs of the Evaluate() call just made may be among them; a repeat is harmless).
     * \param changes output, appended to
     */
    virtual void TakeChanges(std::vector<TermChange>& changes) = 0;

    /**
     * \brief Hand the engine the pace groups whose pace changed since the last call. The
     *        engine applies them before TakeChanges(); a group's pace must be given before
     *        (or with) the first change that puts a job in it. Default: none.
     * \param changes output, appended to
     */
    virtual void TakePaceChanges(std::vector<PaceChange>& changes);

  protected:
    /**
     * \brief What TakeChanges() and TakePaceChanges() do: hand over every kept change, in
     *        order. Into an empty output the kept vector is swapped, not copied (a small-cache
     *        replay reports nearly every running job at every pass: a copy would count a
     *        reference up and down per change).
     * \param kept the model's changes, empty afterwards
     * \param out the engine's output, appended to
     */
    template <class Change>
    static void HandOver(std::vector<Change>& kept, std::vector<Change>& out)
    {
        if (out.empty())
        {
            out.swap(kept);
        }
        else
        {
            out.insert(out.end(), kept.begin(), kept.end());
        }
        kept.clear();
    }

    /**
     * \brief Tell the engine TakeChanges() has new terms (schedules a pass now that collects
     *        them, without re-evaluating every running job).
     */
    void NotifyJobsChanged();

  private:
    Callback<void> m_onJobsChanged;
};

} // namespace ns3

#endif // AICLUSTER_ITERATION_MODEL_H
