/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AICLUSTER_TRACE_ANNOTATOR_H
#define AICLUSTER_TRACE_ANNOTATOR_H

#include "job-record.h"
#include "workload-catalog.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Options of the TraceAnnotator (documented in doc/annotator.md).
 */
struct AnnotatorOptions
{
    uint64_t seed{1}; //!< same seed, same annotation
    /**
     * How a model is chosen for a job the trace names none for:
     *  - "gpu-time": Sia/Pollux's rule, by the job's GPU-time bucket (default)
     *  - "weighted": draw from modelWeights
     */
    std::string modelRule{"gpu-time"};
    std::map<std::string, double> modelWeights; //!< catalog name -> weight, for "weighted"
};

/**
 * \ingroup aicluster
 * \brief Gives each job what its trace lacks, deterministically.
 *
 * Fills JobRecord::model (if empty), JobRecord::dataset (if empty) and
 * JobRecord::iterations. A job's draws depend only on the seed and the job's
 * own fields (not on its position in the trace), so filtering a trace does
 * not change the annotation of the jobs that remain.
 *
 * Iterations: from the trace's duration when known
 * (duration / ComputeTime(numGpus): the trace's run time is taken as the ideal,
 * compute-bound run time), else from totalSteps, else from the model's
 * samplesToTarget / globalBatch.
 */
class TraceAnnotator
{
  public:
    /**
     * \param catalog the workload catalog (must outlive the annotator)
     * \param options rule and seed
     * \throws std::invalid_argument on an unknown rule or a weight naming an unknown model
     */
    TraceAnnotator(const WorkloadCatalog& catalog, const AnnotatorOptions& options);

    /**
     * \param jobs annotated in place
     * \throws TraceError (naming the job's source) if a job names an unknown model or
     *         gives neither duration, steps nor a model with samplesToTarget
     */
    void Annotate(std::vector<JobRecord>& jobs) const;

    /** \param job annotated in place */
    void Annotate(JobRecord& job) const;

  private:
    const WorkloadCatalog& m_catalog;
    AnnotatorOptions m_options;
};

} // namespace ns3

#endif // AICLUSTER_TRACE_ANNOTATOR_H
