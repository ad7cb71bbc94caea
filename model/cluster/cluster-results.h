/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_RESULTS_H
#define AICLUSTER_CLUSTER_RESULTS_H

#include "cluster-engine.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Headline numbers of one engine run.
 */
struct RunSummary
{
    uint64_t jobs{0};         //!< jobs accepted
    uint64_t finished{0};     //!< jobs finished
    uint64_t rejected{0};     //!< jobs that could not run
    double meanJct{0};        //!< mean job completion time (finish - submit) [s]
    double medianJct{0};      //!< median JCT [s]
    double p95Jct{0};         //!< 95th percentile JCT [s]
    double p99Jct{0};         //!< 99th percentile JCT [s]
    double meanQueueing{0};   //!< mean first start - submit [s]
    double medianQueueing{0}; //!< median queueing delay [s]
    double makespan{0};       //!< last finish - first submit [s]
    double gpuAllocation{0};  //!< time-average share of GPUs allocated over the makespan [0..1]
    double gpuBusy{0};        //!< time-average share of GPUs computing (not stalled) [0..1]
    uint64_t preemptions{0};  //!< preemptions in total
};

/**
 * \ingroup aicluster
 * \brief Where a run came from: everything needed to reproduce it.
 */
struct RunInfo
{
    std::string experiment;                      //!< e.g. "trace-replay"
    uint64_t seed{1};                            //!< ns-3 RngSeed (and annotator seed)
    uint64_t run{1};                             //!< ns-3 RngRun
    std::string commandLine;                     //!< argv as given
    std::map<std::string, std::string> settings; //!< scenario settings (trace, filters, ...)
    /** per component (ina, provisioning, storage): its headline figures, name -> value */
    std::map<std::string, std::map<std::string, double>> components;
};

/**
 * \ingroup aicluster
 * \brief Turns an engine's finished run into numbers and result files.
 */
class ClusterResults
{
  public:
    /**
     * \param engine an engine after Run()
     * \return the headline numbers (JCT quantiles by GSL over finished jobs)
     */
    static RunSummary Summarize(Ptr<const ClusterEngine> engine);

    /**
     * \brief How jobs.csv and utilization.csv write a number.
     * \param value the number
     * \return std::to_chars' text of value (the shortest form that reads back to the same
     *         double), written through the files' short cuts
     */
    static std::string NumberText(double value);

    /**
     * \brief Write jobs.csv, utilization.csv and summary.json into dir (created if needed).
     *
     * summary.json holds the summary, the run info (seed, command line,
     * settings), every attribute of the engine, its scheduler, allocator and
     * models, the rejected jobs with reasons, and the module version.
     * \param dir output directory
     * \param engine an engine after Run()
     * \param info how the run was set up
     * \return the summary written (as Summarize gives it), so that callers need not compute it
     *         again
     * \throws std::runtime_error naming the file if it cannot be written
     */
    static RunSummary Write(const std::string& dir,
                            Ptr<const ClusterEngine> engine,
                            const RunInfo& info);

    /**
     * \param object any ns-3 object
     * \return its TypeId name and every attribute as "name" -> serialized value
     */
    static std::map<std::string, std::string> Attributes(Ptr<const Object> object);
};

} // namespace ns3

#endif // AICLUSTER_CLUSTER_RESULTS_H
