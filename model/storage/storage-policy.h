/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_POLICY_H
#define AICLUSTER_STORAGE_POLICY_H

#include "storage-problem.h"

#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief How cache space and remote bandwidth are split among running jobs and datasets.
 *
 * One interface for every policy: the storage data-loading model calls
 * Allocate() whenever the running set changes (arrival, finish, scaling), and
 * the answer holds until the next call.
 */
class StorageAllocationPolicy : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();

    /**
     * \param problem datasets, running jobs, capacities and prices
     * \return cache per dataset, bandwidth and hit fraction per job
     */
    virtual StorageAllocation Allocate(const StorageProblem& problem) = 0;

    /**
     * \return true if the cache is an LRU cache (hits follow LruShuffledHitRatio of the
     *         cached fraction), false for a never-evict cache (hits = cached fraction)
     */
    virtual bool IsLru() const;

    /**
     * \return true if the policy keeps a compute-side cache at all (then it also keeps loaded
     *         model weights there, StorageDataLoading's ModelLoading); false for none
     */
    virtual bool UsesCache() const;

    /** \return the policy's short name */
    virtual std::string Name() const = 0;

    /**
     * \param name a short name, one of Names() (autocba: CbaPolicy, sized by StorageHelper)
     * \return the policy's TypeId name
     * \throws std::invalid_argument naming the unknown policy and listing the known ones
     */
    static std::string TypeNameOf(const std::string& name);

    /** \return the short names TypeNameOf() accepts, baselines first: the one registry */
    static std::vector<std::string> Names();

    /** \return Names() joined by ", " (for help texts and errors) */
    static std::string NameList();

  protected:
    /**
     * \brief Fill hit fractions (uniform cache: c_k / d_k) and max-min fair bandwidth for the
     *        remote part of each job's demand, given alloc.cache.
     */
    static void CompleteWithFairBandwidth(const StorageProblem& problem, StorageAllocation& alloc);

    /**
     * \brief Cache whole datasets in the given order while they fit (skipping one that does
     *        not), then share the bandwidth fairly: the common shape of the greedy policies.
     * \param problem the allocation problem
     * \param order dataset indices, most deserving first
     * \return the allocation
     */
    static StorageAllocation CacheWholeDatasets(const StorageProblem& problem,
                                                const std::vector<size_t>& order);

    /**
     * \brief The datasets with at least one reader, by decreasing key (ties by index).
     * \param problem the allocation problem
     * \param demand per dataset, its readers' summed demand R_k
     * \param key per dataset, its rank (higher first)
     * \param order set to the dataset indices
     */
    static void ReadDatasetsBy(const StorageProblem& problem,
                               const std::vector<double>& demand,
                               const std::vector<double>& key,
                               std::vector<size_t>& order);

    /**
     * \brief ReadDatasetsBy, returned.
     * \param problem the allocation problem
     * \param demand per dataset, its readers' summed demand R_k
     * \param key per dataset, its rank (higher first)
     * \return the dataset indices
     */
    static std::vector<size_t> ReadDatasetsBy(const StorageProblem& problem,
                                              const std::vector<double>& demand,
                                              const std::vector<double>& key);
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_POLICY_H
