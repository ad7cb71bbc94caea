/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_AUTO_CBA_JOB_SIZER_H
#define AICLUSTER_AUTO_CBA_JOB_SIZER_H

#include "auto-cba-solver.h"
#include "storage-problem.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The best GPU count of one job, the other jobs fixed: where AutoCbaSolver's local
 *        search ends when only that job has options (an arrival among running jobs), with one
 *        CBA solve per count and buffers kept between calls.
 *
 * Between counts only that job's demand changes, so CBA is re-solved per dataset
 * (CbaSolver::Trials). When the scale and the cached fractions of the other jobs' datasets
 * come out as at the last full rating, the other jobs' rates are the same bit for bit, so
 * the welfare is re-summed (in job order, as AutoCbaSolver::Welfare sums) from their kept
 * utilities; otherwise every job is re-rated. The answers are AutoCbaSolver::Solve's.
 */
class AutoCbaJobSizer
{
  public:
    /**
     * \param problem the storage problem with every job at its requested count; the sized
     *        job's entry is set to each count in turn and left at the best
     * \param utility per job (problem.jobs order), its utility
     * \param job index of the job to size
     * \param options its counts, their demands and the requested one (the other jobs are
     *        held at their counts in the problem)
     * \param used GPUs the requested counts take
     * \param totalGpus GPUs available to them all
     * \param budget IO budget [$/s]; 0 = none
     * \return index into options.gpus of the count of highest welfare (ties: requested)
     */
    size_t Best(StorageProblem& problem,
                const std::vector<JobUtility>& utility,
                size_t job,
                const AutoCbaJob& options,
                uint64_t used,
                uint32_t totalGpus,
                double budget);

    /** \return the welfare at the count the last Best() returned */
    double BestWelfare() const;

    /**
     * \brief Price GPU time in the welfare and the budget of the next Best() calls.
     * \param cost utility one job's requested GPUs cost per unit time: count g of a job
     *        that asked for r costs weight x cost x (g / r - 1) of welfare (0 = GPUs free)
     * \param pricePerSecond [$ per GPU-second]: count g takes price x (g - r) from the IO
     *        budget (when there is one; a count it leaves nothing for is not tried)
     */
    void SetGpuPricing(double cost, double pricePerSecond);

  private:
    /** \brief Set the sized job's entry of the problem to its option o (of job's). */
    void SetCount(StorageProblem& problem, const AutoCbaJob& job, size_t o) const;
    /** \return the welfare of the last solve, every job re-rated (and kept) */
    double RateAll(const std::vector<JobUtility>& utility);
    /** \return whether the last solve gives the other jobs their kept rates */
    bool OthersUnchanged() const;
    /** \return the welfare of the last solve */
    double TrialWelfare(const std::vector<JobUtility>& utility);

    CbaSolver::Trials m_cba;        //!< CBA with the sized job's demand varying
    size_t m_job{0};                //!< the sized job
    std::vector<char> m_othersRead; //!< per dataset: read by a job other than the sized one
    std::vector<double> m_utility;  //!< per job: utility at the last full rating
    double m_sumBefore{0};          //!< their sum over the jobs before the sized one
    double m_keptScale{0};          //!< the scale of the last full rating
    std::vector<double> m_keptX;    //!< the cached fractions of the last full rating
    double m_bestWelfare{0};        //!< welfare at the best count so far
    double m_gpuCost{0};            //!< welfare cost of a job's requested GPUs (SetGpuPricing)
    double m_gpuPrice{0};           //!< [$ per GPU-second] charged to the budget
};

} // namespace ns3

#endif // AICLUSTER_AUTO_CBA_JOB_SIZER_H
