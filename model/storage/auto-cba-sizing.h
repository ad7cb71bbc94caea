/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_AUTO_CBA_SIZING_H
#define AICLUSTER_AUTO_CBA_SIZING_H

#include "auto-cba-job-sizer.h"
#include "auto-cba-solver.h"
#include "storage-data-loading.h"

#include "ns3/job-sizing-policy.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The engine's job-sizing hook for AutoCBA: picks a submitted job's GPU count.
 *
 * Candidates: the requested count times 1/4, 1/2, 1, 2, 4 (within 1 and the
 * cluster). With the running jobs as the storage model last saw them, the
 * count that maximizes AutoCbaSolver's welfare (running jobs plus this one,
 * within the GPUs the running jobs leave, under the storage policy's budget)
 * wins; ties keep the requested count.
 */
class AutoCbaSizing : public JobSizingPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    AutoCbaSizing();

    /** \param storage the engine's storage data-loading model (its policy a CbaPolicy) */
    void SetStorage(Ptr<StorageDataLoading> storage);

    uint32_t GpusFor(const ClusterJob& job, const ClusterTopology& topology, double now) override;

    /**
     * \param job a job (profile set)
     * \param requestedRate its read rate at compute speed on the requested GPUs [bytes/s]
     * \return its utility function, by this object's attributes (DEADLINE: the deadline is
     *         submit + DeadlineSlack x its run time on the requested GPUs, so the needed rate
     *         is requestedRate / DeadlineSlack)
     */
    JobUtility UtilityOf(const ClusterJob& job, double requestedRate) const;

  private:
    /**
     * \param id the job's id
     * \param job the job (read only the first time)
     * \return its read rate on its requested GPUs, computed once per job [bytes/s]
     */
    double RequestedRate(uint64_t id, const ClusterJob& job);
    /**
     * \brief Set m_utilities to the running jobs' utilities, plus a slot for the arrival.
     * \param arrival the job being sized (its utility kind is every job's)
     * \param problem the storage problem with the arrival, the running jobs first
     * \return GPUs the running jobs take
     */
    uint64_t SetRunningJobs(const ClusterJob& arrival, const StorageProblem& problem);
    /**
     * \brief Set m_arrival (and m_utilities' last entry) to the arrival and its candidates.
     * \param job the arrival
     * \param dataset its dataset's index in the storage problem
     * \param totalGpus GPUs of the cluster
     */
    void SetArrival(const ClusterJob& job, uint32_t dataset, uint32_t totalGpus);

    Ptr<StorageDataLoading> m_storage;
    std::string m_utility;
    double m_deadlineSlack;
    double m_gpuCost;  //!< welfare cost of a job's requested GPUs (attribute GpuCost)
    double m_gpuPrice; //!< [$ per GPU-hour] charged to the budget (attribute GpuPrice)
    std::vector<double> m_requestedRate; //!< by job id; < 0 = not computed yet
    // Reused between arrivals (they keep their capacity).
    std::vector<JobUtility> m_utilities; //!< per job of the problem, its utility
    AutoCbaJob m_arrival;                //!< the arrival and its candidate counts
    AutoCbaJobSizer m_sizer;             //!< sizes the arrival
};

} // namespace ns3

#endif // AICLUSTER_AUTO_CBA_SIZING_H
