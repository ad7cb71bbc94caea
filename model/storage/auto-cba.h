/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_AUTO_CBA_H
#define AICLUSTER_AUTO_CBA_H

#include "storage-data-loading.h"
#include "storage-problem.h"

#include "ns3/job-sizing-policy.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief A job's utility as a function of its read rate (= training throughput x bytes/sample).
 */
struct JobUtility
{
    /** Shape of the utility. */
    enum Kind
    {
        LINEAR,   //!< weight * r / reference: linear in throughput, 1 at the requested speed
        DEADLINE, //!< weight * min(1, r / needed): full value once it meets its deadline
        CONCAVE,  //!< weight * sqrt(r / reference): diminishing returns, 1 at the requested speed
    };

    Kind kind{LINEAR};   //!< shape
    double weight{1};    //!< value of the job at full utility
    double reference{0}; //!< LINEAR, CONCAVE: rate at the requested GPUs [bytes/s]
    double needed{0};    //!< DEADLINE: rate that meets the deadline [bytes/s]

    /** \param rate read rate [bytes/s] \return utility */
    double operator()(double rate) const;

    /**
     * \param name "linear", "deadline" or "concave"
     * \return the kind
     * \throws std::invalid_argument naming the unknown kind
     */
    static Kind KindOf(const std::string& name);
};

/**
 * \ingroup aicluster
 * \brief One job of the AutoCBA problem: the GPU counts it may run on and what it reads there.
 */
struct AutoCbaJob
{
    uint64_t id{0};             //!< job id
    uint32_t dataset{0};        //!< index into the problem's datasets
    std::vector<uint32_t> gpus; //!< GPU counts it may run on
    std::vector<double> demand; //!< read rate at compute speed on each count [bytes/s]
    size_t requested{0};        //!< index of the count it asked for
    JobUtility utility;         //!< its utility
};

/**
 * \ingroup aicluster
 * \brief AutoCBA: GPUs, cache and bandwidth that maximize total utility under an IO budget.
 *
 * For a choice of GPU counts g, the IO side is CBA under the budget
 * (CbaSolver::MaxScale: the largest common fraction of the compute rates the
 * budget and capacities can serve, at minimum cost), and the welfare is the sum
 * of the jobs' utilities at the resulting rates. The GPU counts are found by
 * best-improvement local search from the requested counts (one job's count
 * changed per step, total within the GPU capacity), so the answer is never
 * worse than CBA with the requested (fixed) GPUs.
 */
class AutoCbaSolver
{
  public:
    /** The answer. */
    struct Result
    {
        std::vector<size_t> choice;   //!< per job: index into its gpus
        StorageAllocation allocation; //!< cache and bandwidth (problem built from choice)
        StorageProblem problem;       //!< the storage problem at that choice
        double welfare{0};            //!< sum of utilities
    };

    /**
     * \param base datasets, capacities and prices (its jobs are ignored)
     * \param jobs the jobs
     * \param totalGpus GPUs available to them
     * \param budget IO budget [$/s]; 0 = none
     * \param autoScale false: keep the requested counts (CBA with fixed GPUs)
     * \return the best choice found
     */
    static Result Solve(const StorageProblem& base,
                        const std::vector<AutoCbaJob>& jobs,
                        uint32_t totalGpus,
                        double budget,
                        bool autoScale);

    /**
     * \return the welfare and allocation of one choice of GPU counts
     */
    static Result Evaluate(const StorageProblem& base,
                           const std::vector<AutoCbaJob>& jobs,
                           const std::vector<size_t>& choice,
                           double budget);

    /** \return sum over jobs of their utility of the rate the allocation gives them */
    static double Welfare(const std::vector<AutoCbaJob>& jobs,
                          const StorageProblem& problem,
                          const StorageAllocation& allocation);

  private:
    /** \return base with the jobs at the given choice of GPU counts */
    static StorageProblem ProblemOf(const StorageProblem& base,
                                    const std::vector<AutoCbaJob>& jobs,
                                    const std::vector<size_t>& choice);
};

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

#endif // AICLUSTER_AUTO_CBA_H
