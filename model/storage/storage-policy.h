/*
 * SPDX-License-Identifier: GPL-2.0-only
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
};

/** \ingroup aicluster \brief No cache: every byte is read remotely, bandwidth max-min fair. */
class NoCachePolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
    bool UsesCache() const override;
};

/**
 * \ingroup aicluster
 * \brief Cache every dataset that fits whole, in order of its first reader (lowest job id);
 *        bandwidth max-min fair.
 */
class CacheAllPolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
};

/**
 * \ingroup aicluster
 * \brief Equal cache share per running job (a dataset gets its readers' shares, at most its
 *        size) and max-min fair bandwidth.
 */
class FairSharePolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
};

/**
 * \ingroup aicluster
 * \brief One LRU cache shared by all datasets (Alluxio-like).
 *
 * A shared LRU holds what was read in the last T seconds, so dataset k
 * occupies min(d_k, R_k T) with T set by the capacity (R_k: its readers'
 * demand); its hit fraction is LruShuffledHitRatio(c_k/d_k) < c_k/d_k, since
 * shuffled epochs evict items before they are read again. Bandwidth max-min fair.
 */
class SharedLruPolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    bool IsLru() const override;
    std::string Name() const override;
};

/**
 * \ingroup aicluster
 * \brief Benefit-ranked cache (Quiver-like): whole datasets in decreasing order of remote
 *        bytes saved per cached byte (sum of readers' demands / size), skipping those that do
 *        not fit; bandwidth max-min fair. Cost-oblivious.
 */
class BenefitRankedPolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
};

/**
 * \ingroup aicluster
 * \brief Joint cache/bandwidth allocation that maximizes throughput under the given scheduler
 *        (SiloD-like), cost-oblivious.
 *
 * Each job first gets a max-min fair bandwidth share b_j; caching x of its
 * dataset then raises it to min(T, b_j / (1 - x)), saturating at x = 1 - b_j/T.
 * Datasets are cached up to their saturation point in decreasing order of
 * throughput gained per cached byte (fractional for the last one), and the
 * bandwidth freed by saturated jobs is water-filled to the others.
 */
class SiloDLikePolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;

  private:
    // Work vectors of Allocate(), kept between calls.
    std::vector<double> m_share;    //!< per entry: max-min fair bandwidth share b_j
    std::vector<double> m_saturate; //!< per dataset: fraction that saturates its readers
    std::vector<double> m_gain;     //!< per dataset: throughput its saturation gains
    std::vector<double> m_demand;   //!< per dataset: summed demand R_k
    std::vector<double> m_perByte;  //!< per dataset: gain per cached byte
    std::vector<size_t> m_order;    //!< datasets by decreasing gain per byte
};

/**
 * \ingroup aicluster
 * \brief CBA: the minimum-IO-cost cache and bandwidth that serve every job at its compute
 *        rate (CbaSolver::MinCost); when the capacities (or the budget) cannot, by Scarcity:
 *
 * - THROUGHPUT (default). If the capacities bind: the plan of highest delivered throughput
 *   among candidates that each give every job at least its rate without a cache
 *   (NoCachePolicy's max-min fair share): no cache, SiloD-like saturation, whole datasets
 *   by density, a density prefix, and the common fraction if it gives every job that much
 *   too; then the minimum IO cost for the chosen per-job rates (CbaSolver::MaxScale with
 *   targets). If the budget binds: that plan (or the every-demand plan) with its cache and
 *   its cached datasets' readers kept, and the readers of uncached data throttled, max-min
 *   fair on the bandwidth the budget leaves, so no job pays more per byte read than
 *   without the budget; if the cached part alone is over budget, or a throttled reader
 *   would get less than the common fraction gives it, the common fraction.
 * - COMMON: the largest common fraction of every demand (CbaSolver::MaxScale).
 */
class CbaPolicy : public StorageAllocationPolicy
{
  public:
    /** How CBA allocates when it cannot serve every job at its compute rate. */
    enum Scarcity
    {
        THROUGHPUT, //!< most throughput, never below no cache per job; least cost for it
        COMMON,     //!< the largest common fraction of the demands (a common slowdown)
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    CbaPolicy();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
    /** \return the IO budget [$ per s]; 0 = none */
    double BudgetPerSecond() const;

    /**
     * \brief The THROUGHPUT plan when the capacities bind, without a budget (whatever the
     *        Scarcity attribute says).
     * \param problem the allocation problem
     * \param common CbaSolver::MaxScale(problem, 0), one of the candidates
     * \return the allocation; its scale field holds the served share of the total demand
     */
    StorageAllocation ThroughputFirst(const StorageProblem& problem,
                                      const StorageAllocation& common);

  private:
    /**
     * \brief The THROUGHPUT plan when the budget binds.
     * \param problem the allocation problem
     * \param plan the plan without a budget (over it)
     * \param common CbaSolver::MaxScale(problem, budget): the answer if plan's cache and
     *        its readers alone are over budget
     * \return the allocation (cost rate within the budget)
     */
    StorageAllocation WithinBudget(const StorageProblem& problem,
                                   const StorageAllocation& plan,
                                   const StorageAllocation& common) const;

    double m_budgetPerHour;       //!< [$ per hour]; 0 = none
    Scarcity m_scarcity;          //!< rule when the demands cannot all be served
    Ptr<SiloDLikePolicy> m_silod; //!< one candidate plan of ThroughputFirst
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_POLICY_H
