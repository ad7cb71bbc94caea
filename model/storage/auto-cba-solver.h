/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_AUTO_CBA_SOLVER_H
#define AICLUSTER_AUTO_CBA_SOLVER_H

#include "storage-problem.h"

#include <cstdint>
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

} // namespace ns3

#endif // AICLUSTER_AUTO_CBA_SOLVER_H
