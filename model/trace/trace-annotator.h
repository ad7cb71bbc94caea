/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
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

    /**
     * How a job whose trace records a job type (Acme: Pretrain, SFT, Evaluation, Debug,
     * Other) and no model is mapped (doc/annotator.md):
     *  - "acme" (default): Pretrain and Debug jobs get the catalog's pre-training LLM, SFT jobs
     *    its fine-tuning LLM, of the largest model that the job runs with at least
     *    llmMinReplicas data-parallel replicas (else the smallest that fits); Evaluation jobs an
     *    inference-like LLM evaluation drawn uniformly among those that fit; Other, unknown
     *    types and jobs too small for any LLM layout follow modelRule
     *  - "ignore": the type is not looked at; every job follows modelRule
     */
    std::string jobTypeRule{"acme"};
    uint32_t llmMinReplicas{8}; //!< data-parallel replicas a job must hold for a larger model

    /**
     * Which jobs share a dataset (a job whose trace names a dataset keeps it):
     *  - "model": every job reads its model's catalog dataset (default; most sharing)
     *  - "vc": jobs of the same virtual cluster and dataset share a copy ("<dataset>@vc:<vc>")
     *  - "user": jobs of the same user and dataset share a copy ("<dataset>@user:<user>")
     *  - "pool": each catalog dataset has datasetPoolSize variants ("<dataset>@pool:<i>"),
     *    a job reads one drawn uniformly
     *  - "job": no sharing, every job its own copy ("<dataset>@job:<16 hex digits>")
     */
    std::string datasetRule{"model"};
    /** Probability [0..1] that a job reads its group's shared dataset; else its own copy. */
    double datasetShareProbability{1.0};
    uint32_t datasetPoolSize{4}; //!< variants per catalog dataset, for "pool" (>= 1)
    /** Each dataset's size is its catalog size times a factor drawn log-uniformly in
     *  [datasetScaleMin, datasetScaleMax] from the dataset name's own stream (0 < min <= max). */
    double datasetScaleMin{1.0};
    double datasetScaleMax{1.0}; //!< see datasetScaleMin
};

/**
 * \ingroup aicluster
 * \brief A dataset as the storage model needs it: size and bytes per sample.
 */
struct DatasetSpec
{
    std::string name;         //!< dataset name (JobRecord::dataset)
    double bytes{0};          //!< size [bytes]
    double bytesPerSample{0}; //!< stored size of one sample [bytes]
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
 * compute-bound run time), else from totalSteps (divided by numGpus when the
 * profile's stepsCountedPerWorker is set, as for Gavel), else from the model's
 * samplesToTarget / globalBatch (localBatch * numGpus when the trace gives no batch).
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

    /**
     * \brief Size and bytes per sample of an annotated job's dataset.
     *
     * Bytes per sample: the model's rawBytesPerSample. Size: the model's
     * datasetBytes times the dataset's scale factor (options datasetScaleMin/Max),
     * a function of the seed and the dataset name only, so every job reading a
     * dataset sees the same size.
     * \param job an annotated job (model and dataset set)
     * \return the dataset's spec
     * \throws std::invalid_argument if the job's model is not in the catalog
     */
    DatasetSpec Dataset(const JobRecord& job) const;

    /**
     * \brief The seed of a job's own random stream (see doc/annotator.md).
     *
     * splitmix64 of (seed XOR splitmix64(FNV-1a-64 of the job's name, user, vc, submitTime,
     * numGpus, gpuFraction, duration, totalSteps and globalBatch)); not its id or position.
     *
     * \param seed the annotator seed
     * \param job the job
     * \return the 64-bit seed of the job's std::mt19937_64
     */
    static uint64_t JobStreamSeed(uint64_t seed, const JobRecord& job);

    /// AnnotatorOptions::datasetRule, decoded once.
    enum class DatasetRule
    {
        MODEL,
        VC,
        USER,
        POOL,
        JOB
    };

  private:
    const WorkloadCatalog& m_catalog;
    AnnotatorOptions m_options;
    /// The "gpu-time" rule's catalog entries (cifar10, deepspeech2, bert, yolov3, imagenet),
    /// looked up once rather than by alias for every job; unset under another rule.
    const WorkloadProfile* m_gpuTimeApps[5]{};
    DatasetRule m_datasetRule{DatasetRule::MODEL}; //!< options' datasetRule
    bool m_weighted{false};                        //!< modelRule "weighted"
    bool m_acmeTypes{false};                       //!< jobTypeRule "acme"
};

} // namespace ns3

#endif // AICLUSTER_TRACE_ANNOTATOR_H
