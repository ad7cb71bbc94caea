/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_DATA_LOADING_H
#define AICLUSTER_STORAGE_DATA_LOADING_H

#include "cache-tier.h"
#include "dataset-registry.h"
#include "storage-backend.h"
#include "storage-policy.h"
#include "storage-problem.h"
#include "storage-totals.h"

#include "ns3/cluster-engine.h"
#include "ns3/event-id.h"
#include "ns3/iteration-model.h"
#include "ns3/nstime.h"
#include "ns3/trace-annotator.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The data-loading term of the cluster engine under disaggregated storage.
 *
 * Every running job reads its dataset (DatasetSpec: size d, bytes per sample)
 * at its compute rate T(g) if it can. A StorageAllocationPolicy decides, on
 * every change of the running set, how much of each dataset the compute-side
 * cache holds (c) and how much remote bandwidth each job gets (b). A job's
 * per-iteration data time is
 *   samples per iteration * bytes per sample * (1 - h) / b,
 * h = c/d for a never-evict cache (LruShuffledHitRatio(c/d) for an LRU), so
 * the engine's max(dataTime, computeTime + ...) gives the rate
 * min(T(g), b / (1 - h)).
 *
 * Cache growth is not instant: lazily (default) the new bytes only serve hits
 * after the dataset's readers have read it once more (one epoch at their
 * rates when the fill starts), or, with Prefetch, after PrefetchBandwidth has
 * fetched them (charged at the bandwidth price); a fill under way absorbs
 * later target changes without restarting. Until then its readers miss more
 * than the plan assumed; they want the extra remote bandwidth that keeps them
 * at the planned rate (up to the per-client cap). The extras share what the
 * plan leaves of the aggregate bandwidth, with at least an equal share B / n
 * per filling job (so a reader whose plan is all-cache still progresses); the
 * fill traffic is charged. Shrinking is immediate; a dataset no running job
 * reads is released. The model schedules its own event when a fill completes
 * and calls NotifyChanged() then.
 *
 * Costs: bandwidth as bought (b_j, charged while the job runs), cache as
 * reserved (c_k, charged from the decision on), see StorageTotals.
 *
 * Checkpoints (attribute Checkpoints, doc/llm.md): a job whose workload writes
 * checkpoints (WorkloadProfile::checkpointBytes > 0) writes one after every
 * CheckpointInterval of running time (0: its catalog interval), synchronously:
 * it stops computing until the write has reached the remote storage. Writes
 * share the remote storage's aggregate bandwidth with the reads: the writers
 * split what the reads' plan leaves of it equally, each at least an equal share
 * B / n of the running jobs (as a filling reader) and at most the per-client
 * cap. A write is re-timed whenever that share moves; its bytes are charged at
 * the bandwidth price. Caching more reads (CBA) leaves more for the writes.
 *
 * Model loading (attribute ModelLoading, doc/llm.md): a job whose workload starts
 * from trained weights (WorkloadProfile::loadsWeights: fine-tuning, evaluation)
 * reads parameters x WeightBytesPerParameter bytes before its first iteration,
 * at every start and resume, stopped until they are read. From the remote
 * storage they go at a checkpoint writer's share (the remote transfers split what
 * the reads' plan leaves, each at least B / n, at most the per-client cap),
 * charged; a policy that keeps a cache (every policy but none) then keeps the
 * weights in the cache tier, in the space its plan leaves free (least recently
 * used weights go first; charged at the cache price), and the next job of the same
 * workload reads them from there at WeightsCacheBandwidth.
 */
class StorageDataLoading : public ReportingTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageDataLoading();
    ~StorageDataLoading() override;

    /**
     * \brief Register a dataset (again with the same numbers is fine).
     * \param spec name, size, bytes per sample
     * \throws std::invalid_argument on a negative size, or a name registered with other numbers
     */
    void AddDataset(const DatasetSpec& spec);

    /**
     * \brief Register the datasets of annotated jobs, as the annotator sizes them.
     * \param jobs annotated jobs
     * \param annotator the annotator that annotated them
     */
    void AddDatasetsOf(const std::vector<JobRecord>& jobs, const TraceAnnotator& annotator);

    /** \param name a dataset name \return true if registered */
    bool HasDataset(const std::string& name) const;

    /** \param policy the allocation policy */
    void SetPolicy(Ptr<StorageAllocationPolicy> policy);
    /** \return the allocation policy */
    Ptr<StorageAllocationPolicy> GetPolicy() const;
    /** \param backend the remote storage */
    void SetBackend(Ptr<StorageBackend> backend);
    /** \return the remote storage */
    Ptr<StorageBackend> GetBackend() const;
    /** \param cache the cache tier */
    void SetCacheTier(Ptr<CacheTier> cache);
    /** \return the cache tier */
    Ptr<CacheTier> GetCacheTier() const;

    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    bool DependsOnOtherJobs() const override;
    /**
     * \brief A job left (finished or preempted): its bandwidth stops being charged (and its
     *        dataset's cache is released) the moment it leaves.
     * \param job the job
     */
    void JobStopped(const ClusterJob& job) override;
    bool ReportsChanges() const override;
    void TakeChanges(std::vector<TermChange>& changes) override;
    void TakePaceChanges(std::vector<PaceChange>& changes) override;
    /**
     * \return storage-checkpoint if at least half of the GPU time it lost to data went to
     *         stopped checkpoint writes, else storage-remote (the remote bandwidth its policy
     *         allotted binds its reads)
     */
    std::string Bottleneck(const ClusterJob& job) const override;

    /**
     * \param id a job id
     * \return the term that stops it [s per iteration] while it writes a checkpoint, else 0
     */
    double CheckpointTerm(uint64_t id) const;

    /**
     * \param job a job with a profile
     * \return the interval between its checkpoints [s] (0: it writes none)
     */
    double CheckpointIntervalOf(const ClusterJob& job) const;

    /**
     * \brief The allocation problem the running jobs pose: only the datasets they read, one
     *        entry per job.
     * \param running jobs with placements (or gpus set) and profiles
     * \param datasets output, if not null: registered index of each of the problem's datasets
     * \return the problem, with this model's capacities and prices
     * \throws std::invalid_argument naming a job whose dataset is not registered
     */
    StorageProblem BuildProblem(const std::vector<Ptr<const ClusterJob>>& running,
                                std::vector<uint32_t>* datasets = nullptr) const;

    /**
     * \brief The problem of the running set (as of the last evaluation, one entry per job, in
     *        LastJobs() order) plus one more job, last.
     * \param job a job about to start (not running), with a profile and its GPU count set
     * \return the problem, with this model's capacities and prices
     * \throws std::invalid_argument if the job's dataset is not registered
     */
    StorageProblem ProblemWith(const ClusterJob& job) const;

    /**
     * \param job a job with a profile
     * \param gpus GPUs it would run on
     * \return its read rate at compute speed [bytes/s]
     */
    double DemandOf(const ClusterJob& job, uint32_t gpus) const;

    /** \brief Integrate costs and bytes up to now. */
    void Settle();

    /** \return the totals so far (call Settle() first for "up to now") */
    const StorageTotals& Totals() const;

    /** \return the last problem solved: identical running jobs share an entry (count) */
    const StorageProblem& LastProblem() const;
    /** \return the last allocation (per entry of LastProblem()) */
    const StorageAllocation& LastAllocation() const;
    /** \return the running jobs of the last evaluation, in problem order */
    const std::vector<Ptr<const ClusterJob>>& LastJobs() const;

    /** \param name a dataset \return the cache bytes that serve hits now */
    double EffectiveCache(const std::string& name) const;

    /** TracedCallback signature: time [s], cost rate [$/s], bandwidth [bytes/s], cache [bytes]. */
    typedef void (*AllocationTracedCallback)(double, double, double, double);

  protected:
    void DoDispose() override;

  private:
    /** Per dataset: what the policy wants cached and what serves hits now. */
    struct CacheState
    {
        double target{0};
        double effective{0};
        double filling{-1}; //!< target of the pending fill, -1 if none
        EventId fillEvent;
        /// HitOf's answer for the effective bytes in hitFor (-1: none yet). A fill completing
        /// changes one dataset, so the others' hit ratios (a log1p each under LRU) are kept.
        mutable double hit{0};
        mutable double hitFor{-1}; //!< the effective bytes hit was computed for
    };

    /** Per job id: its registered dataset, its demand at the GPU count last seen, its slot. */
    struct JobInfo
    {
        uint32_t dataset{0};
        uint32_t gpus{0}; //!< 0 = not looked up yet
        double demand{0};
        int64_t slot{-1};               //!< index in m_jobs while running, else -1
        bool writing{false};            //!< stopped, writing a checkpoint
        double checkpointGpuSeconds{0}; //!< GPU time it stopped for checkpoints [GPU-s]
        double loadGpuSeconds{0};       //!< GPU time it stopped loading weights [GPU-s]
    };

    /** What a stopped job's transfer is. */
    enum TransferKind : uint8_t
    {
        CHECKPOINT_WRITE, //!< a checkpoint, written to the remote storage
        LOAD_REMOTE,      //!< model weights, read from the remote storage
        LOAD_CACHE,       //!< model weights, read from the cache tier
    };

    /** A running job's checkpoint writes: the next one, or the one under way. */
    struct CheckpointState
    {
        double bytesLeft{0}; //!< bytes of the write under way still to write [bytes]
        double rate{0};      //!< its write bandwidth now [bytes/s]
        double last{0};      //!< time [s] bytesLeft refers to
        double start{0};     //!< time [s] the write under way started
        double stopped{0};   //!< the term that stops the job [s per iteration]
        EventId event;       //!< the next write's start, or the write's end
        TransferKind kind{CHECKPOINT_WRITE}; //!< what the transfer under way is
    };

    /** Model weights kept in the cache tier. */
    struct CachedWeights
    {
        double bytes{0};   //!< their size [bytes]
        double lastUse{0}; //!< when a load last started or ended on them [s]
    };

    /**
     * What makes running jobs identical to the policies: registered dataset, demand, GPUs;
     * and the job id if GroupIdenticalJobs is false (else 0).
     */
    using EntryKey = std::tuple<uint32_t, double, uint32_t, uint64_t>;
    /** \return the key of an entry of m_problem */
    EntryKey KeyOf(const StorageDemand& entry) const;

    void OnFillDone(uint32_t dataset);
    /** Add a job that just started to the running set (and its dataset to the problem). */
    void AddJob(const Ptr<const ClusterJob>& job);
    /** \return the problem's index of a registered dataset, added if no running job reads it */
    uint32_t LocalDataset(uint32_t dataset);
    /** Put the job at this slot in the entry of its identical jobs (a new entry if none). */
    void JoinEntry(uint32_t slot, const EntryKey& key, uint32_t local);
    /** Take the job at this slot out of the running set (and its dataset, if last reader). */
    void RemoveJob(uint32_t slot);
    /** Take the job at this slot out of its entry (and the entry out, if it was the last). */
    void LeaveEntry(uint32_t slot);
    /** Take the problem's dataset at this index out: its last reader left. */
    void RemoveDataset(uint32_t local);
    /** Re-solve the allocation for the running set, start fills, report changed terms. */
    void Resolve();
    void UpdateCaches();
    void StartFills();
    void Release(uint32_t dataset);
    double HitOf(uint32_t dataset) const;
    /**
     * Rates of every entry and terms of their jobs from the allocation and the effective
     * caches; the jobs whose term differs from what the engine has are queued for
     * TakeChanges().
     */
    void RecomputeRates();
    /** Add (sign +1) or take out (-1) jobs of entry e, as they are now, from the running sums. */
    void AddToSums(size_t e, double jobs);
    /**
     * \return whether the terms of entry e's jobs stand after its hit and rate moved from
     *         oldHit and oldRate to m_hits[e] and m_rates[e] (atLevel: it is on the pace now)
     */
    bool TermsStand(uint32_t e, double oldHit, double oldRate, bool atLevel) const;
    /**
     * RecomputeRates after a fill completed, with the running set and the plan as at the last
     * re-rating: the same changes, over the entries the fill can move.
     * \param local the filled dataset (index in m_problem)
     */
    void RerateAfterFill(uint32_t local);
    /**
     * New rates and terms for the entries in m_moved (in entry order), the pace if it moved,
     * and terms for the fresh jobs.
     * \param filling whether a fill is under way (bandwidths now are m_extra's, else the plan's)
     */
    void RerateMoved(bool filling);
    /**
     * Index the entries by dataset (m_readersStart, m_readerEntries), unless done since the
     * last solve: a fill re-rates through it only when no job came or went since.
     */
    void IndexReaders();
    /** Every entry's bandwidth while caches fill (m_extra): the plan, plus extras if behind. */
    void FillExtras();
    /**
     * \brief FillExtras with only the dataset's hit moved.
     * \param local the dataset (m_problem's)
     * \return whether the share moved: every reader behind its plan has a new extra, not only
     *         the dataset's readers
     */
    bool UpdateExtrasAfterFill(uint32_t local);
    /**
     * \param e an entry \param hit its dataset's hit fraction now
     * \return the bandwidth beyond its plan that keeps it at its planned rate (> 0: behind)
     */
    double MoreWanted(size_t e, double hit) const;
    /** Give entry e, behind by more, its extra at m_extrasShare. \param e \param more */
    void SetExtra(size_t e, double more);
    /** \return the share of what each reader behind wants that the leftover gives (<= 1) */
    double ShareOfLeftover() const;
    /**
     * Term of the job at slot j from its entry's hit, bandwidth and rate; atLevel: that
     * bandwidth is the common max-min level, so its term goes on the shared pace.
     */
    void SetTerm(uint32_t j, bool atLevel);
    /** Stop the run: the policy left a job that misses the cache without bandwidth. */
    [[noreturn]] void AbortNoBandwidth(uint32_t j) const;
    // Checkpoint writes (separate from the read path above).
    /** Schedule the job's next checkpoint write one interval from now (if it writes any). */
    void ScheduleCheckpoint(const ClusterJob& job);
    /** A checkpoint write starts: the job stops, the writers' shares are re-rated. */
    void OnCheckpointStart(uint64_t id);
    /** A checkpoint write has reached the remote storage: the job computes again. */
    void OnCheckpointDone(uint64_t id);
    /** Forget the job's checkpoints (it left): cancel its next write or the one under way. */
    void DropCheckpoint(uint64_t id);
    /** Bring every write under way to now at its rate (bytes written, charged). */
    void SettleWrites();
    /** Give every write under way its share of the remote bandwidth now; re-time its end. */
    void RateWriters();
    // Model loading at start (uses the transfer machinery of the checkpoint writes).
    /** \return the bytes of weights the job loads at start (0: none) */
    double WeightBytesOf(const ClusterJob& job) const;
    /**
     * Start the weights load of a job just added at slot j (stopped until done).
     * \return false if it loads none
     */
    bool StartLoad(uint32_t j);
    /** A weights load has ended: cache the weights (if remote), the job computes. */
    void OnLoadDone(uint64_t id);
    /** Keep weights in the cache tier (evicting least recently used ones) if they fit. */
    void CacheWeights(const std::string& key, double bytes);
    /** Evict least recently used weights until they fit beside the plan's cache. */
    void FitWeights();

    /** Copy this model's capacities and prices (backend, cache tier) into the problem. */
    void SetCapacities(StorageProblem& problem) const;
    /** Look up (once) the job's dataset and demand. */
    JobInfo& InfoOf(const ClusterJob& job) const;

    Ptr<StorageAllocationPolicy> m_policy;
    Ptr<StorageBackend> m_backend;
    Ptr<CacheTier> m_cacheTier;
    bool m_prefetch;
    bool m_sharedPace{true};
    bool m_keepHitRatios{true};    //!< KeepHitRatios attribute
    bool m_incrementalFills{true}; //!< IncrementalFills attribute
    bool m_groupJobs{true};
    DataRate m_prefetchRate;
    bool m_checkpoints{true};
    Time m_checkpointInterval;
    bool m_modelLoading{true};
    double m_weightBytesPerParameter{2};
    DataRate m_weightsCacheRate;
    uint32_t m_remoteTransfers{0};                         //!< writes and remote loads under way
    std::map<std::string, CachedWeights> m_weights;        //!< per workload: its cached weights
    double m_weightsBytes{0};                              //!< bytes of m_weights
    std::map<uint64_t, CheckpointState> m_checkpointState; //!< per running job that checkpoints
    uint32_t m_writers{0};                                 //!< writes under way

    DatasetRegistry m_datasets; //!< the registered datasets, by index
    std::vector<CacheState> m_caches;

    mutable std::vector<JobInfo> m_jobInfo;     //!< indexed by job id (ids are dense)
    mutable std::vector<uint32_t> m_localStamp; //!< BuildProblem: per registered dataset: stamp
    mutable std::vector<uint32_t> m_localIndex; //!< BuildProblem: per registered dataset: index
    mutable uint32_t m_stamp{0};

    // The running set, kept incrementally between passes. The problem the policy solves has
    // one entry per group of identical jobs (m_problem.jobs[e], count of them); the entries'
    // vectors below are indexed like it, the jobs' vectors by slot (jobs in m_jobs order).
    std::vector<int64_t> m_localOf;   //!< per registered dataset: index in m_problem, or -1
    std::vector<uint32_t> m_globalOf; //!< registered index of each dataset of m_problem
    std::vector<uint32_t> m_readers;  //!< running readers of each dataset of m_problem
    std::vector<uint32_t> m_newFills; //!< problem datasets whose fill starts this evaluation
    std::map<EntryKey, uint32_t> m_entryIndex; //!< the entry of each kind of running job
    bool m_dirty{false};                       //!< the running set changed since the last solve

    StorageProblem m_problem;
    StorageAllocation m_alloc;
    // Per job (slot).
    std::vector<Ptr<const ClusterJob>> m_jobs; //!< the running jobs
    std::vector<StorageDemand> m_demands;      //!< each as an entry of its own (ProblemWith)
    std::vector<uint32_t> m_entryOf;           //!< the entry of each
    std::vector<uint32_t> m_memberAt;          //!< its index in m_members of its entry
    std::vector<double> m_seconds;             //!< data term as the engine has it [s]; -1 = none
    std::vector<double> m_iterationBytes;      //!< bytes read per iteration [bytes]
    std::vector<double> m_pacedWork; //!< on the shared pace: missed bytes per iteration, else 0
    std::vector<uint64_t> m_fresh;   //!< ids of the jobs added since the last re-rating
    // Per entry.
    std::vector<std::vector<uint32_t>> m_members; //!< the slots of its jobs
    std::vector<uint8_t> m_atLevel;               //!< its jobs are on the shared pace (hits as now)
    std::vector<double> m_rates;                  //!< read rate of each of its jobs now [bytes/s]
    std::vector<double> m_hits;                   //!< hit fraction now
    std::vector<double> m_bandwidth; //!< remote bandwidth of each job now (plan + fill)
    std::vector<double> m_extra;     //!< FillExtras: bandwidth of each job now
    std::vector<uint8_t> m_onExtra;  //!< FillExtras: its cache is behind its plan
    std::vector<std::pair<uint32_t, double>> m_behind;   //!< FillExtras: those, extra wanted
    std::vector<std::pair<uint32_t, double>> m_refilled; //!< UpdateExtrasAfterFill: work
    std::vector<uint32_t> m_behindEntries;               //!< RerateAfterFill: work
    double m_extrasLeft{0};  //!< FillExtras: what the plan leaves of the bandwidth [bytes/s]
    double m_extrasFloor{0}; //!< FillExtras: a filling reader's floor B / n [bytes/s]
    double m_extrasShare{1}; //!< FillExtras: the share of its want each reader behind gets
    /// The last re-rating ran FillExtras (a fill was under way): its m_extra, m_onExtra,
    /// m_behind and shares hold, for RerateAfterFill.
    bool m_extrasKept{false};
    uint32_t m_fillsUnderWay{0};   //!< datasets of m_problem whose fill is pending
    std::vector<uint32_t> m_moved; //!< RecomputeRates: entries whose hit or bandwidth moved
    // Per dataset of m_problem.
    std::vector<double> m_datasetHit;  //!< hit fraction now
    std::vector<double> m_datasetRate; //!< StartFills: its readers' summed rate [bytes/s]
    /// IndexReaders: dataset d's entries are m_readerEntries[m_readersStart[d] ..
    /// m_readersStart[d + 1]), in entry order
    std::vector<uint32_t> m_readersStart;
    std::vector<uint32_t> m_readerEntries; //!< IndexReaders: entries by dataset
    std::vector<uint32_t> m_readerCursor;  //!< IndexReaders: work
    bool m_readersIndexed{false};          //!< the index holds for the entries now

    std::vector<TermChange> m_changes;     //!< terms changed since the engine last took them
    std::vector<PaceChange> m_paceChanges; //!< the remote level's pace, if it moved
    double m_pace{0}; //!< 1 / the last level reported [s per byte]; 0 = none yet
    /** The pace group of the jobs bottlenecked together on the remote bandwidth. */
    static constexpr int32_t kRemoteGroup = 0;
    double m_lastSettle{0};
    // What Settle() integrates, kept current by RecomputeRates(), UpdateCaches() and RemoveJob().
    double m_sumBandwidth{0}; //!< sum over jobs of their bandwidth [bytes/s]
    double m_sumRate{0};      //!< sum over jobs of their rates [bytes/s]
    double m_sumHitRate{0};   //!< sum over jobs of rate * hit [bytes/s]
    double m_sumCache{0};     //!< sum of the active datasets' cache targets [bytes]
    StorageTotals m_totals;

    TracedCallback<double, double, double, double> m_allocationTrace;
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_DATA_LOADING_H
