/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_PROBLEM_H
#define AICLUSTER_STORAGE_PROBLEM_H

#include "ns3/water-fill.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One running job as the storage allocation sees it, or count identical ones.
 *
 * demand is the rate at which the job would read its dataset if data loading
 * never stalled it: compute rate T(g) [samples/s] times bytes per sample.
 *
 * Jobs that read the same dataset at the same demand on as many GPUs are
 * interchangeable to every policy (each answers them alike), so one entry may
 * stand for count of them: sums over jobs weigh it by count, and its bandwidth
 * and hit are each one's. The storage model hands the policies its running set
 * so grouped (a few dozen entries for hundreds of jobs on the Philly trace).
 */
struct StorageDemand
{
    uint64_t id{0};      //!< job id; for count > 1 the lowest of them (deterministic ties)
    uint32_t dataset{0}; //!< index into StorageProblem::datasetBytes
    double demand{0};    //!< read rate of one job at compute speed [bytes/s]
    uint32_t gpus{1};    //!< GPUs one job runs on
    uint32_t count{1};   //!< identical jobs this entry stands for (>= 1)
};

/**
 * \ingroup aicluster
 * \brief What a storage allocation policy decides from: datasets, running jobs, budgets, prices.
 *
 * All quantities in bytes, seconds and an abstract currency unit ("$").
 */
struct StorageProblem
{
    std::vector<double> datasetBytes; //!< d_k: size of dataset k [bytes]
    std::vector<StorageDemand> jobs;  //!< the running jobs (an entry may stand for count)
    double cacheCapacity{0};          //!< C: compute-side cache [bytes]
    double bandwidthCapacity{0};      //!< B: aggregate remote bandwidth [bytes/s]
    double clientBandwidth{0};        //!< u: per-job remote bandwidth cap [bytes/s]; 0 = none
    double bandwidthPrice{0};         //!< p_b: [$ per (byte/s) per s] (= $ per byte read)
    double cachePrice{0};             //!< p_c: [$ per byte per s]

    /**
     * \brief Check the problem's numbers.
     * \throws std::invalid_argument naming the bad field and value
     */
    void Validate() const;

    /** \return per-dataset total demand R_k = sum of its readers' demands [bytes/s] */
    std::vector<double> DatasetDemand() const;

    /** \param total set to DatasetDemand(), its buffer reused (for callers on a hot path) */
    void DatasetDemand(std::vector<double>& total) const;

    /** \return the number of jobs (sum of the entries' counts) */
    uint64_t JobCount() const;
};

/**
 * \brief A job's read rate: min(demand, b / (1 - h)), its demand if it misses nothing.
 *
 * The one formula of the model's rate (DESIGN.md "Storage throughput model"): the allocation,
 * CBA's trials and the engine's data term all call it, so they agree to the bit.
 * \param demand its read rate at compute speed [bytes/s]
 * \param hit fraction of its reads the cache serves
 * \param bandwidth remote bandwidth it has [bytes/s]
 * \param emptyDataset its dataset has no bytes (nothing to read remotely)
 * \return its read rate [bytes/s]
 */
inline double
ReadRate(double demand, double hit, double bandwidth, bool emptyDataset)
{
    double miss = 1.0 - hit;
    if (miss <= 0 || emptyDataset)
    {
        return demand;
    }
    return std::min(demand, bandwidth / miss);
}

/**
 * \ingroup aicluster
 * \brief A policy's answer: cache per dataset, remote bandwidth and cache hit fraction per job
 *        (per entry of StorageProblem::jobs: each of its count jobs has them).
 */
struct StorageAllocation
{
    std::vector<double> cache;     //!< c_k: bytes of dataset k held in the cache
    std::vector<double> bandwidth; //!< b_j: remote bandwidth bought for job j [bytes/s]
    std::vector<double> hit;       //!< h_j: fraction of job j's reads served by the cache
    double scale{1};               //!< fraction of the demands the policy aimed to serve (CBA)
    /**
     * Max-min fair level of the remote bandwidth [bytes/s]: jobs whose b_j equals it are
     * bottlenecked by the aggregate together; +infinity if no level binds (or the policy does
     * not share bandwidth max-min fair).
     */
    double level{std::numeric_limits<double>::infinity()};

    /**
     * \param problem the problem this answers
     * \param j a job index
     * \return the job's read rate min(demand, b / (1 - h)) [bytes/s]
     */
    double Rate(const StorageProblem& problem, size_t j) const
    {
        // Inline: CBA's candidate plans ask it for every job several times per solve.
        return ReadRate(problem.jobs[j].demand,
                        hit[j],
                        bandwidth[j],
                        problem.datasetBytes[problem.jobs[j].dataset] <= 0);
    }

    /** \return sum over jobs of Rate() [bytes/s] */
    double TotalRate(const StorageProblem& problem) const;

    /** \return IO cost per second: p_b * sum b_j + p_c * sum c_k [$/s] */
    double CostRate(const StorageProblem& problem) const;

    /** \return sum over jobs of b_j [bytes/s] */
    double TotalBandwidth(const StorageProblem& problem) const;

    /** \return sum of c_k [bytes] */
    double TotalCache() const;

    /**
     * \brief Check the allocation against the problem's capacities (with a relative slack).
     * \return "" if it respects them, else what it violates
     */
    std::string Violation(const StorageProblem& problem) const;
};

/**
 * \brief Hit fraction of an LRU cache holding x = c/d of a dataset that is read as a fresh
 *        uniformly random permutation every epoch (steady state, one reader).
 *
 * H(x) = x + (1 - x) ln(1 - x), derived in doc/storage.md; H(x) < x for 0 < x < 1.
 * \param x cached fraction, clamped to [0, 1]
 * \return the hit fraction
 */
double LruShuffledHitRatio(double x);

/**
 * \brief WaterFill() (model/common/water-fill.h) for the entries of a problem: want i stands
 *        for jobs[i].count consumers.
 * \param wants what one consumer of each entry could use, overwritten with its share
 * \param capacity what there is to split
 * \param jobs the entries (only their counts are read)
 * \return the level, or +infinity if every want fits
 */
double WaterFill(std::vector<double>& wants,
                 double capacity,
                 const std::vector<StorageDemand>& jobs);

/**
 * \ingroup aicluster
 * \brief The order a LazyDatasetOrder last produced for one caller, kept so that the caller's
 *        next problem (the next scheduling pass: a few datasets added or removed, some keys
 *        moved) is sorted starting from it, in about one pass instead of a sort from scratch.
 *
 * It only says where to start: the order produced is the sort of distinct (-key, index) pairs,
 * which is unique, so a stale or wrong hint gives the same order, only more slowly (the storage
 * tests hold hinted orders to unhinted ones).
 */
class DatasetOrderHint
{
  public:
    /**
     * \brief Sort keyed, starting from the kept order, and keep the result.
     * \param bytes the problem's dataset sizes: they line the kept order up with the problem's
     *        indices (StorageDataLoading erases a dataset anywhere and appends new ones, so a
     *        dataset's index moves between passes)
     * \param keyed distinct (-key, index) pairs in increasing index order; sorted on return
     */
    void Sort(const std::vector<double>& bytes, std::vector<std::pair<double, size_t>>& keyed);

  private:
    /**
     * \param keyed pairs over the kept order's sizes
     * \return whether they are the kept order's pairs, bit for bit (then it is their sort)
     */
    bool SameAsKept(const std::vector<std::pair<double, size_t>>& keyed) const;

    std::vector<double> m_bytes;                     //!< sizes of the kept order's datasets
    std::vector<int64_t> m_rank;                     //!< per kept dataset, its position or -1
    size_t m_kept{0};                                //!< datasets in the kept order
    std::vector<std::pair<double, size_t>> m_output; //!< the last call's pairs as sorted
    std::vector<std::pair<double, size_t>> m_slot;   //!< work: pairs at their kept positions
    std::vector<std::pair<double, size_t>> m_rest;   //!< work: pairs with no kept position
};

/**
 * \ingroup aicluster
 * \brief StorageAllocationPolicy::ReadDatasetsBy's order (the datasets with a reader and bytes,
 *        by decreasing key, ties by index), sorted only as far as it is read: the greedy
 *        prefixes (SiloD-like, CBA's density prefix and CbaSolver) stop once the cache is full,
 *        which with a small cache is after a few of hundreds or thousands of datasets. With a
 *        DatasetOrderHint it is sorted whole, from the hint's order.
 */
class LazyDatasetOrder
{
  public:
    /**
     * \brief Start the order (one pass over the datasets, heaped in O(n), or sorted from hint).
     * \param problem the allocation problem
     * \param demand per dataset, its readers' summed demand R_k
     * \param key per dataset, its rank (higher first; not NaN)
     * \param hint the caller's last order, updated to this one; null: none
     */
    void Reset(const StorageProblem& problem,
               const std::vector<double>& demand,
               const std::vector<double>& key,
               DatasetOrderHint* hint = nullptr);

    /**
     * \brief Reset with each dataset's key its density demand[k] / bytes (CbaSolver's order).
     * \param problem the allocation problem
     * \param demand per dataset, its summed loads R_k
     * \param hint the caller's last order, updated to this one; null: none
     */
    void ResetByDensity(const StorageProblem& problem,
                        const std::vector<double>& demand,
                        DatasetOrderHint* hint = nullptr);

    /**
     * \param i a position in the order
     * \return whether the order has a dataset at position i (sorted as far as i)
     */
    bool Has(size_t i)
    {
        return i < m_sorted.size() || (!m_heap.empty() && Extend(i));
    }

    /**
     * \param i a position for which Has(i) was true
     * \return the dataset at position i
     */
    size_t At(size_t i) const
    {
        return m_sorted[i];
    }

  private:
    /**
     * \brief Reset's work for a key given per dataset.
     * \param key callable: dataset index -> its key
     */
    template <class Key>
    void Start(const StorageProblem& problem,
               const std::vector<double>& demand,
               Key key,
               DatasetOrderHint* hint);

    /** \brief Sort as far as position i. \param i the position \return Has(i) */
    bool Extend(size_t i);

    std::vector<std::pair<double, size_t>> m_heap;  //!< (-key, index), a min-heap
    std::vector<std::pair<double, size_t>> m_keyed; //!< work: the pairs of a hinted sort
    std::vector<size_t> m_sorted;                   //!< the order so far
};

/**
 * \ingroup aicluster
 * \brief CBA: minimum-IO-cost cache and bandwidth for given target read rates, in closed form.
 *
 * Solves   min  p_b sum_j b_j + p_c sum_k c_k
 *          s.t. b_j = r_j (1 - c_k/d_k) for each job j reading dataset k,
 *               b_j <= u, sum_j b_j <= B, sum_k c_k <= C, 0 <= c_k <= d_k
 * by caching datasets in decreasing order of read density rho_k = R_k / d_k,
 * first what per-job caps force, then as much as the bandwidth capacity needs
 * and the price ratio pays for (doc/storage.md has the derivation).
 */
class CbaSolver
{
  private:
    /** Per dataset: what the solution depends on of the jobs' targets. */
    struct Loads
    {
        std::vector<double> demand; //!< R_k: summed targets of its readers [bytes/s]
        std::vector<double> peak;   //!< largest target of one reader [bytes/s]
    };

    /**
     * \brief ScaleOf's bisection steps without a budget, decided without a pass over the
     *        datasets where that cannot change the answer.
     *
     * While no per-job cap binds (alpha * peak_k <= u for every dataset), CacheFractions'
     * outcome for alpha is, in exact arithmetic, whether alpha (S - R) - B <= its slack: S the
     * summed loads, R what the whole cache removes of them at alpha = 1 when it is filled in
     * density order (the greedy the solver runs). A step is decided from that line when it is
     * farther from 0 than a bound on the rounding of both CacheFractions' sums and this
     * line's; other steps (the last ones of a bisection, near its answer) run CacheFractions.
     * So ScaleOf's alpha is the same, bit for bit, in about a third of the passes.
     */
    class StepBound
    {
      public:
        /**
         * \brief Set the line up for the loads (one walk of the order while the cache lasts).
         * \param problem the problem
         * \param loads its loads
         * \param sorted the density order (Has(i), At(i))
         */
        template <class Order>
        void Reset(const StorageProblem& problem, const Loads& loads, Order& sorted);

        /**
         * \param alpha a scale of the loads
         * \return 1 if CacheFractions is certain to find alpha feasible, 0 if certain to find
         *         it infeasible, -1 if it must be asked
         */
        int Outcome(double alpha) const;

      private:
        bool m_valid{false};   //!< Reset found a line (bandwidth capacity > 0, finite inputs)
        double m_alphaCap{0};  //!< below it, no per-job cap binds
        double m_sum{0};       //!< S: summed loads of the non-empty datasets [bytes/s]
        double m_slope{0};     //!< S - R [bytes/s]
        double m_bandwidth{0}; //!< B [bytes/s]
        double m_allowed{0};   //!< CacheFractions' slack on the excess [bytes/s]
        double m_rhoCache{0};  //!< the largest density read times C [bytes/s]
        double m_terms{0};     //!< operations whose rounding the bound covers
    };

    /**
     * What a bisection step of ScaleOf without a budget needs of the loads while no per-job
     * cap binds (CacheFractionsIn then forces no fraction): gathered once per bisection.
     */
    struct Uncapped
    {
        std::vector<double> demand; //!< R_k of the non-empty datasets, in index order
        double peak{0};             //!< the largest peak load of those datasets
    };

    /** Per-dataset work buffers of one solve, kept between solves. */
    struct Scratch
    {
        Loads loads;               //!< the loads
        LazyDatasetOrder lazy;     //!< the density order of MaxScale and MinCost
        std::vector<double> rho;   //!< densities
        std::vector<size_t> order; //!< datasets by decreasing density
        std::vector<double> x;     //!< cached fractions
    };

  public:
    /**
     * \brief Reference switch for the tests: false makes ScaleOf run CacheFractions at every
     *        bisection step (no StepBound), as before it existed. Same answers either way.
     * \param use whether ScaleOf decides steps by StepBound (default true)
     */
    static void UseStepBound(bool use);

    /**
     * \param problem datasets, capacities and prices
     * \param targets r_j: read rate to serve per job [bytes/s] (problem.jobs order)
     * \param out the allocation, when feasible
     * \param hint the caller's last density order, updated (DatasetOrderHint); null: none
     * \return false if no allocation serves the targets within the capacities
     */
    static bool MinCost(const StorageProblem& problem,
                        const std::vector<double>& targets,
                        StorageAllocation& out,
                        DatasetOrderHint* hint = nullptr);

    /**
     * \brief MinCost's first half: the cached fractions, without the allocation.
     * \param problem datasets, capacities and prices
     * \param targets r_j per job (problem.jobs order) [bytes/s]
     * \param x set to the cached fraction per dataset (hits are min(1, x_k)), when feasible
     * \param hint the caller's last density order, updated (DatasetOrderHint); null: none
     * \return false if no allocation serves the targets within the capacities
     */
    static bool MinCostFractions(const StorageProblem& problem,
                                 const std::vector<double>& targets,
                                 std::vector<double>& x,
                                 DatasetOrderHint* hint = nullptr);

    /**
     * \brief MinCost's second half: the allocation of fractions from MinCostFractions.
     * \param problem the problem
     * \param targets the targets they serve
     * \param x the fractions
     * \param out the allocation MinCost gives (its buffers reused)
     */
    static void FillMinCost(const StorageProblem& problem,
                            const std::vector<double>& targets,
                            const std::vector<double>& x,
                            StorageAllocation& out);

    /** An allocation's totals, as CbaPolicy compares its candidate plans. */
    struct Totals
    {
        double rate{0};   //!< StorageAllocation::TotalRate [bytes/s]
        double served{0}; //!< sum over jobs of count * rate / demand (count for demand 0)
        double cost{0};   //!< StorageAllocation::CostRate [$/s]
    };

    /**
     * \brief The totals of FillMinCost's allocation, bit for bit, without building it (each
     *        job's hit, bandwidth and rate as Fill and StorageAllocation::Rate compute them,
     *        each sum over the same terms in the same order).
     * \param problem the problem
     * \param targets the targets
     * \param x fractions from MinCostFractions
     * \return the totals
     */
    static Totals MinCostTotals(const StorageProblem& problem,
                                const std::vector<double>& targets,
                                const std::vector<double>& x);

    /**
     * \brief The largest alpha in [0, 1] such that alpha * demand is feasible (and, if
     *        budget > 0, costs at most budget), and its minimum-cost allocation.
     * \param problem the problem (demands in problem.jobs)
     * \param budget IO cost limit [$/s]; 0 = none
     * \param hint the caller's last density order, updated (DatasetOrderHint); null: none
     * \return the allocation; its scale field holds alpha
     */
    static StorageAllocation MaxScale(const StorageProblem& problem,
                                      double budget,
                                      DatasetOrderHint* hint = nullptr);

    /**
     * \brief MaxScale for given per-job targets: the largest beta in [0, 1] such that
     *        beta * targets is feasible (and, if budget > 0, costs at most budget), at
     *        minimum cost for those rates.
     * \param problem the problem (its demands cap the rates)
     * \param targets r_j per job (problem.jobs order), each at most its demand [bytes/s]
     * \param budget IO cost limit [$/s]; 0 = none
     * \param hint the caller's last density order, updated (DatasetOrderHint); null: none
     * \return the allocation; its scale field holds beta; every job reads at least
     *         beta * r_j (at its demand if its dataset is wholly cached)
     */
    static StorageAllocation MaxScale(const StorageProblem& problem,
                                      const std::vector<double>& targets,
                                      double budget,
                                      DatasetOrderHint* hint = nullptr);

    /**
     * \brief MaxScale for problems that differ in one job's demand only, solved without a
     *        pass over the other jobs and without allocating (AutoCBA's trials of one job's
     *        GPU counts).
     *
     * MaxScale sees the jobs only through per-dataset summed and peak demands and the
     * datasets' density order, and only the varying job's dataset changes between trials:
     * its sum is redone from the readers before the job (summed once) plus the job plus the
     * readers after it, the same additions in the same order as MaxScale's; its peak is the
     * larger of the others' and the job's; and it is moved to its place in the order. So the
     * answers are MaxScale's, bit for bit (the storage tests check it).
     */
    class Trials
    {
      public:
        /**
         * \param problem the problem, kept by reference: between Solve() calls only the
         *        varying job's demand (and GPU count) may change
         * \param job index of the varying job in problem.jobs
         * \param budget IO cost limit [$/s]; 0 = none
         */
        void Reset(const StorageProblem& problem, size_t job, double budget);

        /** \brief Solve MaxScale for the varying job's current demand. */
        void Solve();

        /** \param budget IO cost limit of the next Solve() calls [$/s]; 0 = none */
        void SetBudget(double budget);

        /** \return alpha of the last Solve() */
        double Scale() const;

        /** \return per dataset, the cached fraction of the last Solve() (hits are min(1, x)) */
        const std::vector<double>& Fractions() const;

        /**
         * \param j a job index
         * \return its rate in the last Solve(), bit for bit MaxScale's allocation's Rate(j)
         */
        double Rate(size_t j) const;

        /** \param out MaxScale's allocation for the last Solve() (its buffers reused) */
        void Fill(StorageAllocation& out) const;

      private:
        /** \brief Recompute the varying job's dataset's loads for its current demand. */
        void UpdateLoads();
        /** \brief Move the varying job's dataset to its place in the density order. */
        void UpdateOrder();

        const StorageProblem* m_problem{nullptr}; //!< the problem being tried
        size_t m_job{0};                          //!< the varying job
        double m_budget{0};                       //!< IO cost limit [$/s]
        Loads m_loads;                            //!< per-dataset loads, the job's as of now
        double m_before{0};          //!< summed demands of its dataset's readers before it
        double m_peakOthers{0};      //!< largest demand of its dataset's other readers
        std::vector<size_t> m_after; //!< its dataset's readers after it
        std::vector<double> m_rho;   //!< densities of the datasets in m_order
        std::vector<size_t> m_order; //!< datasets by decreasing density
        std::vector<double> m_x;     //!< cached fractions of the last Solve()
        double m_alpha{1};           //!< alpha of the last Solve()
    };

  private:
    /** \brief loads = the per-dataset loads of the targets (problem.jobs order; null: demands) */
    static void LoadsOf(const StorageProblem& problem,
                        const std::vector<double>* targets,
                        Loads& loads);
    /** \return this thread's scratch buffers for MinCost and MaxScale */
    static Scratch& ScratchBuffers();
    /** \return whether dataset a comes before b: denser, ties by index */
    static bool Denser(const std::vector<double>& rho, size_t a, size_t b);
    /**
     * \brief order = datasets read (and non-empty), by decreasing density R_k / d_k.
     * \param rho the densities of those datasets
     */
    static void DensityOrder(const StorageProblem& problem,
                             const Loads& loads,
                             std::vector<double>& rho,
                             std::vector<size_t>& order);
    /**
     * \brief Minimum-cost cached fractions x_k for the loads scaled by alpha.
     * \param outcomeOnly only the return value is wanted (a bisection step without a
     *        budget): it returns as soon as the answer is certain, leaving x incomplete
     * \return false if the capacities cannot serve them
     */
    static bool CacheFractions(const StorageProblem& problem,
                               const Loads& loads,
                               double alpha,
                               const std::vector<size_t>& sorted,
                               std::vector<double>& x,
                               bool outcomeOnly = false);
    /**
     * \brief CacheFractions over an order read position by position (Has(i), At(i)).
     * \param live with outcomeOnly, if no per-job cap binds at alpha: the loads gathered by
     *        LiveLoads, summed instead of a pass over every dataset (x is then left as is);
     *        null: that pass
     * \return as CacheFractions
     */
    template <class Order>
    static bool CacheFractionsIn(const StorageProblem& problem,
                                 const Loads& loads,
                                 double alpha,
                                 Order& sorted,
                                 std::vector<double>& x,
                                 bool outcomeOnly,
                                 const Uncapped* live = nullptr);
    /** \brief live = the non-empty datasets' summed loads, in index order, and peak */
    static void LiveLoads(const StorageProblem& problem, const Loads& loads, Uncapped& live);
    /**
     * \brief The largest feasible (and affordable) alpha in [0, 1] for the loads.
     * \param x its cached fractions
     * \return alpha
     */
    static double ScaleOf(const StorageProblem& problem,
                          const Loads& loads,
                          const std::vector<size_t>& sorted,
                          double budget,
                          std::vector<double>& x);
    /** \brief ScaleOf over an order read position by position. \return alpha */
    template <class Order>
    static double ScaleOfIn(const StorageProblem& problem,
                            const Loads& loads,
                            Order& sorted,
                            double budget,
                            std::vector<double>& x);
    /** \return the IO cost rate of fractions x for the loads scaled by alpha [$/s] */
    static double CostRate(const StorageProblem& problem,
                           const Loads& loads,
                           double alpha,
                           const std::vector<double>& x);
    static bool s_useStepBound; //!< see UseStepBound
    /** \brief Per-dataset cache, per-job bandwidth and hit of fractions x (null: demands). */
    static void Fill(const StorageProblem& problem,
                     const std::vector<double>* targets,
                     double alpha,
                     const std::vector<double>& x,
                     StorageAllocation& out);
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_PROBLEM_H
