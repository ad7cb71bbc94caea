/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_HELPER_H
#define AICLUSTER_STORAGE_HELPER_H

#include "storage-data-loading.h"

#include "ns3/cluster-engine.h"
#include "ns3/trace-annotator.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief What a whole-cluster run with disaggregated storage is configured by.
 */
struct StorageOptions
{
    std::string policy{"cba"};       //!< none, cache-all, fair, lru, quiver, silod, cba, autocba
    double cacheBytes{10e12};        //!< cache tier capacity [bytes]
    std::string medium{"ssd"};       //!< cache medium: ssd or memory (sets the default price)
    double cachePrice{-1};           //!< [$ per GB-hour]; < 0 = the medium's default
    double bandwidth{25e9};          //!< aggregate remote bandwidth [bytes/s]
    double clientBandwidth{3.125e9}; //!< per-job remote bandwidth cap [bytes/s]; 0 = none
    double bandwidthPrice{-1};       //!< [$ per (GB/s)-hour]; < 0 = StorageBackend's default
    double ioBudgetPerHour{0};       //!< IO budget of cba/autocba [$ per hour]; 0 = none
    bool prefetch{false};            //!< prefetch grown caches instead of lazy fill
    std::string utility{"linear"};   //!< autocba's utility: linear or deadline
    double deadlineSlack{2};         //!< deadline = submit + slack x requested run time

    /**
     * \brief Check the options.
     * \throws std::invalid_argument naming the bad option and what was expected
     */
    void Validate() const;
};

/**
 * \ingroup aicluster
 * \brief Headline storage numbers of one run.
 */
struct StorageRunSummary
{
    std::string policy;        //!< policy name
    uint64_t finished{0};      //!< jobs finished
    double ioCost{0};          //!< total IO cost [$]
    double bandwidthCost{0};   //!< of which remote bandwidth (incl. prefetch) [$]
    double cacheCost{0};       //!< of which cache space [$]
    double welfareLinear{0};   //!< sum over finished jobs of ideal run time / JCT (speed)
    double welfareDeadline{0}; //!< finished jobs with JCT <= slack x ideal run time
    double meanJct{0};         //!< [s]
    double hitRatio{0};        //!< bytes from cache / bytes read
    double meanBandwidth{0};   //!< remote bytes / active time [bytes/s]
    double peakBandwidth{0};   //!< most bandwidth bought at once [bytes/s]
    double peakCache{0};       //!< most cache reserved at once [bytes]
    double makespan{0};        //!< last finish - first submit [s]
    uint64_t solves{0};        //!< allocation solves
};

/**
 * \ingroup aicluster
 * \brief Puts disaggregated storage into a ClusterEngine, ns-3 helper style.
 *
 * \code
 *   std::vector<JobRecord> jobs = ReadTrace(path, readOptions);
 *   TraceAnnotator annotator(catalog, annotatorOptions); // datasetRule etc. set
 *   annotator.Annotate(jobs);
 *   Ptr<ClusterEngine> engine = engineHelper.Create(jobs, catalog);
 *   StorageOptions storage;          // storage.policy = "cba", budgets ...
 *   Ptr<StorageDataLoading> model = StorageHelper(storage).Install(engine, jobs, annotator);
 *   engine->Run();
 *   StorageRunSummary s = StorageHelper::Summarize(engine, model, storage);
 * \endcode
 */
class StorageHelper
{
  public:
    /** \param options the storage configuration (validated) */
    explicit StorageHelper(const StorageOptions& options);

    /**
     * \brief Create the storage data-loading model (and, for autocba, the GPU sizing
     *        policy), register the jobs' datasets, and plug both into the engine.
     * \param engine an engine with its jobs set, not yet run
     * \param jobs the annotated jobs
     * \param annotator the annotator that annotated them (sizes the datasets)
     * \return the model (read its Totals() after the run)
     */
    Ptr<StorageDataLoading> Install(Ptr<ClusterEngine> engine,
                                    const std::vector<JobRecord>& jobs,
                                    const TraceAnnotator& annotator) const;

    /** \return every policy name Install() accepts: the baselines, cba and autocba */
    static std::vector<std::string> PolicyNames();

    /**
     * \param engine an engine after Run()
     * \param model its storage model
     * \param options the options it ran with (for the deadline slack)
     * \return the headline numbers
     */
    static StorageRunSummary Summarize(Ptr<const ClusterEngine> engine,
                                       Ptr<StorageDataLoading> model,
                                       const StorageOptions& options);

  private:
    StorageOptions m_options;
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_HELPER_H
