/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_WORKLOAD_CATALOG_H
#define AICLUSTER_WORKLOAD_CATALOG_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One workload (model + dataset) of the catalog, with numbers from public measurements.
 *
 * Data-parallel training with a fixed per-GPU (local) batch: one iteration on g
 * GPUs processes localBatch * g samples and takes ComputeTime(g) seconds of GPU
 * compute, plus whatever gradient synchronisation and data loading add (those
 * are modelled elsewhere).
 */
struct WorkloadProfile
{
    std::string name;    //!< catalog key, e.g. "resnet50-imagenet"
    std::string domain;  //!< image, audio, text, recommendation, ...
    std::string source;  //!< where the numbers come from (citation)
    std::string gpuType; //!< GPU (and node) the times were measured on, e.g. "A100-SXM4-40GB ..."
    uint32_t localBatch{0}; //!< samples per GPU per iteration
    std::map<uint32_t, double>
        computeTimeByGpus; //!< measured compute time per iteration [s] at g GPUs
    std::map<uint32_t, double>
        syncTimeByGpus;              //!< measured gradient-sync time per iteration [s] at g GPUs
                                     //!< (empty when computeTimeByGpus includes sync, e.g. Gavel)
    double gradientBytes{0};         //!< gradient size exchanged per iteration [bytes]
    double rawBytesPerSample{0};     //!< stored (encoded) size of one sample [bytes]
    double decodedBytesPerSample{0}; //!< size after decode/augment, as fed to the GPU [bytes]
    double cpuSecondsPerSample{0};   //!< CPU time to decode and augment one sample [core-seconds]
    std::string dataset;             //!< default dataset name
    double datasetBytes{0};          //!< size of that dataset [bytes]
    double samplesToTarget{
        0}; //!< samples to reach target accuracy (Pollux-style traces); 0 = unknown
    /**
     * True when a trace's step count for this workload counts every worker's steps (Gavel:
     * each of g workers runs its own step loop), so one data-parallel iteration on g GPUs
     * is g trace steps; false when a trace step is one data-parallel iteration.
     */
    bool stepsCountedPerWorker{false};

    // LLM fields (optional in the catalog file; doc/workload-catalog.md, doc/llm.md).
    double parameters{0};         //!< model parameters (0 = not given)
    uint32_t sequenceLength{0};   //!< tokens per sample (0 = not given)
    uint32_t tensorParallel{1};   //!< tensor-parallel degree (inside one node, on NVLink)
    uint32_t pipelineParallel{1}; //!< pipeline-parallel degree (stages on different nodes)
    uint32_t minGpus{1};          //!< smallest job it runs on (= tensorParallel x pipelineParallel)
    double checkpointBytes{0};    //!< bytes one checkpoint writes [bytes] (0 = none)
    double checkpointInterval{0}; //!< time between checkpoints at compute speed [s] (0 = none)
    std::vector<std::string> jobTypes; //!< trace job types (Acme) the annotator maps to it
    bool inference{false};             //!< forward passes only: no gradients (gradientBytes 0)
    /**
     * The job starts from trained weights (fine-tuning, evaluation) that it loads from the
     * storage before its first iteration: `parameters` x
     * ns3::StorageDataLoading::WeightBytesPerParameter bytes (doc/llm.md). False: it starts
     * from random weights (pre-training) or loads nothing worth modelling.
     */
    bool loadsWeights{false};

    /**
     * \param gpus GPUs the job runs on (>= 1)
     * \return compute time per iteration [s]: measured where available, else interpolated
     *         (log-linear in g) between, or held flat beyond, the measured points
     */
    double ComputeTime(uint32_t gpus) const;

    /**
     * \param gpus GPUs the job runs on (>= 1)
     * \return the measured gradient-sync time per iteration [s], interpolated like ComputeTime
     */
    double MeasuredSyncTime(uint32_t gpus) const;

    /**
     * \param gpus GPUs the job runs on (>= 1)
     * \return compute-bound training throughput [samples/s] = localBatch * gpus / ComputeTime(gpus)
     */
    double SamplesPerSecond(uint32_t gpus) const;
};

/**
 * \ingroup aicluster
 * \brief The workload-profile catalog: a JSON data file in data/ (see doc/workload-catalog.md).
 */
class WorkloadCatalog
{
  public:
    /**
     * \brief Load a catalog file.
     * \param path the JSON file
     * \return the catalog
     * \throws TraceError naming the file and the bad field if it is missing or invalid
     */
    static WorkloadCatalog Load(const std::string& path);

    /** \return the catalog bundled with the module (data/workload-catalog.json) */
    static const WorkloadCatalog& Default();

    /** \return the path of the bundled catalog file */
    static std::string DefaultPath();

    /**
     * \param name a workload name or an alias (e.g. a Gavel job type or a Pollux application)
     * \return the profile
     * \throws std::invalid_argument naming the unknown workload and listing the known ones
     */
    const WorkloadProfile& Get(const std::string& name) const;

    /** \return true if name is a workload name or alias */
    bool Has(const std::string& name) const;

    /**
     * \param name a workload name or an alias
     * \return the profile, or nullptr if name is neither (Has and Get in one look-up)
     */
    const WorkloadProfile* Find(const std::string& name) const;

    /** \return all workload names, sorted */
    std::vector<std::string> Names() const;

    /** \return the file this catalog was loaded from */
    const std::string& Path() const;

  private:
    std::string m_path;
    std::map<std::string, WorkloadProfile> m_profiles;
    std::map<std::string, std::string> m_aliases; //!< alias -> name
};

} // namespace ns3

#endif // AICLUSTER_WORKLOAD_CATALOG_H
