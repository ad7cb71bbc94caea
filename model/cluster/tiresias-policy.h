/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TIRESIAS_POLICY_H
#define AICLUSTER_TIRESIAS_POLICY_H

#include "scheduling-policy.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * TiresiasPolicy: Tiresias' discretized two-dimensional least-attained-service.
 */

namespace ns3
{

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

#endif // AICLUSTER_TIRESIAS_POLICY_H
