/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_JOB_RECORD_H
#define AICLUSTER_JOB_RECORD_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The one internal record of a training job, whatever trace it came from.
 *
 * Trace readers fill what their format carries; the TraceAnnotator fills the
 * rest (model, dataset, iterations) from the WorkloadCatalog, by a documented
 * and seeded rule. A field a reader could not know is left at its "unknown"
 * value so the annotator can tell it apart from a real zero.
 */
struct JobRecord
{
    static constexpr double UNKNOWN = -1.0; //!< value of a numeric field the trace lacks

    uint64_t id{0};             //!< unique within one loaded trace: 0, 1, 2, ... in submit order
    std::string name;           //!< the trace's own job id or name (may be empty)
    double submitTime{0};       //!< submission time [s] since the start of the trace
    uint32_t numGpus{0};        //!< GPUs the job asks for (whole GPUs; see gpuFraction)
    double gpuFraction{1.0};    //!< share of one GPU a GPU-sharing task asks for (Alibaba), else 1
    double duration{UNKNOWN};   //!< run time [s] the trace recorded on numGpus GPUs
    double totalSteps{UNKNOWN}; //!< training iterations the trace gives (Gavel), else unknown
    uint32_t globalBatch{0};    //!< global batch size [samples] the trace gives (Pollux), else 0
    std::string user;           //!< user name or hash (may be empty)
    std::string vc;             //!< virtual cluster / queue / tenant (may be empty)
    std::string status;         //!< final state the trace recorded (Pass, Killed, Failed, ...)
    std::string jobType;        //!< workload type the trace records (Acme: Pretrain, SFT,
                                //!< Evaluation, Debug, Other); empty if it records none
    uint32_t numNodes{0};       //!< nodes the job asked for (Acme node_num); 0 = not recorded
    std::string model;          //!< workload-catalog entry name; empty until annotated
    std::string dataset;        //!< dataset name; empty until annotated
    double iterations{UNKNOWN}; //!< work in training iterations; set by the annotator
    std::string source;         //!< "file:line" the record was read from, for error messages
};

/**
 * \ingroup aicluster
 * \brief A loaded trace's job records, read-only and shared: every engine that replays them
 *        refers to these records instead of copying them (ClusterEngine::SetJobs).
 */
using SharedJobRecords = std::shared_ptr<const std::vector<JobRecord>>;

} // namespace ns3

#endif // AICLUSTER_JOB_RECORD_H
