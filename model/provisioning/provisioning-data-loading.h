/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROVISIONING_DATA_LOADING_H
#define AICLUSTER_PROVISIONING_DATA_LOADING_H

#include "gpu-index-allocator.h"
#include "provisioning-level.h"
#include "provisioning-model.h"

#include "ns3/cluster-engine.h"
#include "ns3/iteration-model.h"
#include "ns3/node-pool.h"
#include "ns3/storage-data-loading.h"
#include "ns3/traced-callback.h"

#include <map>
#include <set>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The cluster engine's data-loading term from a data-provisioning loader.
 *
 * On every change of the running set, the running jobs (placements, workload profiles) are
 * handed to a ProvisioningModel with one loader (local, DPP, Alluxio or KSpeed); a job whose
 * slowest GPU receives r samples/s gets dataTime = localBatch / r per iteration, so the
 * engine's max(dataTime, computeTime + ...) runs it at min(loader rate, compute rate).
 * GPUs consume at most the catalog's compute rate. The rail cluster is the engine's
 * ClusterTopology (nodes, GPUs per node = NICs per node) on the node template given to
 * SetNodeTemplate. Jobs share storage, pool CPUs and the cache, so every job is coupled.
 *
 * With PaceGroups (the default) the model keeps the running jobs itself and reports what
 * changed (ReportingTermModel). While the stage every flow shares is the only resource over
 * capacity at full demand (ProvisioningModel::LevelResource: the pool's cores, KSpeed's at a
 * replay's defaults; the storage backend for local and Alluxio), every job's GPUs receive
 * min(demand,
 * L x unit) samples/s for one level L (ProvisioningLevel): its data term is its own work
 * (localBatch / unit) times one pace 1 / L, and the engine keeps those jobs on one clock
 * (PacedGroup). A pass then costs what changed. Whenever another resource could bind (or a
 * job's flows differ between pool nodes), the pass solves every running job in full and
 * reports their terms one by one. The sums are kept in another order than a full solve
 * adds them, so terms can differ from PaceGroups=false in the last digits.
 */
class ProvisioningDataLoading : public ReportingTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ProvisioningDataLoading();

    /**
     * \param loader local | dpp | alluxio | kspeed (or a custom loader via the model)
     * \param storage the backend storage (shared with other components)
     */
    void Configure(const std::string& loader, Ptr<StorageBackend> storage);
    /**
     * \param loader the loader (e.g. created from a TypeId of ComponentRegistry::Aliases())
     * \param storage the backend storage (shared with other components)
     */
    void Configure(Ptr<ProvisioningLoader> loader, Ptr<StorageBackend> storage);
    /**
     * \return per job of the last Evaluate() (every running job, or with PaceGroups the jobs
     *         just started), in order, the loader's results
     */
    const std::vector<ProvisioningJobResult>& LastResults() const;
    /** \param node node template; rail rate and spines (gpus and nics follow the topology) */
    void SetNodeTemplate(const RailClusterConfig& node);
    /** \return the provisioning model (set its attributes or loader here) */
    Ptr<ProvisioningModel> GetModel() const;

    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    bool DependsOnOtherJobs() const override;
    /** \return the loader's binding resource for this job at its last evaluation */
    std::string Bottleneck(const ClusterJob& job) const override;
    void JobStopped(const ClusterJob& job) override;
    /** \return PaceGroups */
    bool ReportsChanges() const override;
    void TakeChanges(std::vector<TermChange>& changes) override;
    void TakePaceChanges(std::vector<PaceChange>& changes) override;
    /**
     * \param id a job kept (PaceGroups)
     * \return the share of its samples its cache plan reads from storage (1 if not kept)
     */
    double MissOf(uint64_t id) const;
    /**
     * \param fields the figures to compute, every one if empty; the others are 0 (a
     *        whole-cluster series that records a few classes need not walk the thousands
     *        of PCIe device links at every pass)
     * \return the busiest share of each resource class at the last evaluation
     */
    ProvisioningUtilization GetUtilization(const std::vector<UtilizationField>& fields = {}) const;

    /** \return passes that used the level (PaceGroups), and passes solved in full */
    std::pair<uint64_t, uint64_t> GetPassCounts() const
    {
        return {m_levelPasses, m_fullPasses};
    }

    /** Signature of the Solved trace: running jobs, their per-GPU samples/s. */
    typedef void (*SolvedTracedCallback)(const std::vector<ProvisioningJobResult>& results);

  private:
    /** A running job, kept between passes (PaceGroups). */
    struct Running
    {
        Ptr<const ClusterJob> job;  //!< the engine's job
        ProvisioningJob spec;       //!< as the model sees it
        CachePlan plan;             //!< its cache plan
        bool described{false};      //!< its flows are in m_level
        bool levelable{false};      //!< DescribeJob accepted its flows
        double work{0};             //!< localBatch / slowest unit (0: not on the level)
        int32_t reportedGroup{-2};  //!< group last reported (-1 none, -2 nothing yet)
        double reportedSeconds{-1}; //!< term last reported without a group [s]
        double reportedWork{0};     //!< work last reported with the group
        double fullRate{0};         //!< samples/s per GPU of the last full pass
        double threshold{0};        //!< the level below which it is starved (0: never)
        /// what its description (DescribeJob) was made from, when it was last described: the
        /// plan, its first GPUs and the model's static builds (DescriptionStands)
        CachePlan describedPlan;
        std::vector<uint32_t> describedFirstGpu; //!< see describedPlan
        uint64_t describedBuilds{0};             //!< see describedPlan
    };

    /** \param job an engine job \param spec set to the model's view of it */
    static void Describe(const ClusterJob& job, ProvisioningJob& spec);
    /** Build the model's cluster for this topology; true if it was (re)built */
    bool EnsureCluster(const ClusterTopology& topology);
    /** The plain evaluation: solve every given job (PaceGroups off). */
    void EvaluateAll(const std::vector<Ptr<const ClusterJob>>& running,
                     std::vector<double>& seconds);
    /**
     * \brief EvaluateAll's GPUs: the running jobs hold theirs from one evaluation to the next.
     * \param running the running jobs \param jobs their model views, given their first GPUs
     */
    void HoldGpus(const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<ProvisioningJob>& jobs);
    /** \param job a job now running: keep it, mark what its start moves */
    void Admit(Ptr<const ClusterJob> job);
    /**
     * \param id a job not kept
     * \return its new entry in m_running, all fields as a new Running's (a spare node's
     *         vectors keep their storage, empty)
     */
    Running& KeepRunning(uint64_t id);
    /** \param it a kept job's entry: erase it, keeping its node as a spare (m_spareRunning) */
    void DropRunning(std::map<uint64_t, Running>::iterator it);
    /**
     * \brief Give a job its GPUs' indices (m_gpuIndices); mark the jobs whose indices moved.
     * \param id the job \param spec its model view, given its first GPUs
     */
    void TakeGpus(uint64_t id, ProvisioningJob& spec);
    /** \param profile a running job's profile: count it; true if the plans may move */
    bool CountProfile(const WorkloadProfile* profile, uint64_t id, int sign);
    /** Recompute the cache plans; mark the jobs whose plan moved. */
    void Replan();
    /** (Re)describe the marked jobs to m_level. */
    void DescribeMarked();
    /**
     * \param id a kept job \param r it, its plan set
     * \return true if describing it again would give the flows m_level keeps of it: it was
     *         described with this plan and these GPUs, and every flow's unit comes out the
     *         same from today's capacities (ProvisioningModel::KeptFlowUnit: a job on a node
     *         whose rail reserve moved, its flows off the rails or bound elsewhere)
     */
    bool DescriptionStands(uint64_t id, const Running& r) const;
    /** The pass with the level: report the pace and the jobs whose term moved. */
    /**
     * \param all report every job \param moved else the jobs (re)described now
     * \param level the level (ProvisioningLevel::Level())
     */
    void LevelPass(bool all, const std::vector<uint64_t>& moved, double level);
    /**
     * The pass without it: solve every running job in full and report moved terms.
     * \param moved the jobs (re)described now (reported whatever their term)
     */
    void FullPass(const std::vector<uint64_t>& moved);
    /**
     * \param r a running job \param seconds its term \param group its group \param work its
     * work \param force report it even if unchanged (its cache plan may have moved)
     */
    void Report(Running& r, double seconds, int32_t group, double work, bool force);
    /** \param links the shared rails: take what gradient sync keeps of them now */
    void ApplyRailReserve(LinkShare& links);
    /** \param links the shared rails: tell them the data load of this pass */
    void ShareRailLoads(LinkShare& links);
    /**
     * \param r a kept job \return true if the level gives its GPUs less than their demand
     *         (then its term is on the pace group)
     */
    bool Starved(const Running& r) const;
    /** \param r a running job \return its samples/s per GPU at the current level */
    double LevelRate(const Running& r) const;

    Ptr<ProvisioningModel> m_model;
    RailClusterConfig m_template;
    uint32_t m_builtNodes{0};
    uint32_t m_builtGpus{0};
    Ptr<StorageBackend> m_storage;
    uint64_t m_evaluations{0};
    std::vector<ProvisioningJobResult> m_lastResults;
    /// the running jobs as the model sees them, kept from pass to pass so that their names'
    /// and placements' storage is reused
    std::vector<ProvisioningJob> m_jobs;
    /// per job id: its last binding resource (looked up for every running job at every pass)
    std::unordered_map<uint64_t, std::string> m_bottleneck;
    TracedCallback<const std::vector<ProvisioningJobResult>&> m_solved;

    bool m_paceGroups{true};               //!< keep the running jobs and report changes (attribute)
    uint32_t m_paceGroup{0};               //!< the engine's pace group id for the level's jobs
    std::map<uint64_t, Running> m_running; //!< kept jobs by id (the engine's order)
    /// stopped jobs' nodes of m_running, emptied but for their vectors' storage: the next
    /// starts take them (Tiresias stops and restarts jobs 330,000 times on Philly, and each
    /// time freed and allocated the node and its three vectors)
    SpareNodes<std::map<uint64_t, Running>> m_spareRunning;
    KeptSyncReserve m_syncReserve; //!< what the sync of the kept jobs on two nodes or more keeps
    std::vector<uint32_t> m_reserveMoved; //!< scratch of ApplyRailReserve: the nodes it moved
    std::vector<uint32_t> m_capsMoved;    //!< scratch of ApplyRailReserve: the rails it moved
    std::vector<double> m_railOut;        //!< scratch of ShareRailLoads: per node, out
    std::vector<double> m_railIn;         //!< scratch of ShareRailLoads: per node, in
    /// m_railOut and m_railIn hold the loads at the level m_railLevel of the level's sums at
    /// m_railSumsMoves (ProvisioningLevel::SumsMoves), which ShareRailLoads then reuses
    bool m_railLoadsAtLevel{false};
    uint64_t m_railSumsMoves{0}; //!< see m_railLoadsAtLevel
    double m_railLevel{0};       //!< see m_railLoadsAtLevel
    /// per node: the kept jobs with GPUs there, each once, unordered (a node holds a few; a
    /// tree per node cost an allocation per start and stop, and Tiresias makes 330,000 each)
    std::vector<std::vector<uint64_t>> m_onNode;
    GpuIndexAllocator m_gpuIndices;    //!< the GPUs each job holds (kept jobs, or EvaluateAll's)
    std::vector<uint64_t> m_gpusMoved; //!< scratch of TakeGpus
    /// by dataset: its readers by job id (a dataset stays once listed, empty when no running
    /// job reads it)
    PooledMap<std::string, PooledMap<uint64_t, const WorkloadProfile*>> m_readers;
    /// running jobs per profile (a profile stays once listed, at 0 when none runs)
    PooledMap<const WorkloadProfile*, uint32_t> m_profiles;

    /** Where CountProfile counts a profile's jobs. */
    struct ProfileSlots
    {
        PooledMap<uint64_t, const WorkloadProfile*>* readers; //!< its dataset's in m_readers
        uint32_t* running;                                    //!< its count in m_profiles
    };

    /// per profile seen: its slots, so that a start or stop need not look its dataset's name
    /// up in m_readers (whose datasets, like m_profiles' profiles, stay once listed, so that
    /// these stay valid; both are cleared together)
    std::unordered_map<const WorkloadProfile*, ProfileSlots> m_profileSlots;
    std::map<const WorkloadProfile*, CachePlan> m_planOf; //!< the plans of the running profiles
    bool m_plansStale{true};                              //!< the datasets' readers moved: Replan
    PooledSet<uint64_t> m_marked;                         //!< jobs to (re)describe
    PooledSet<std::pair<double, uint64_t>> m_byThreshold; //!< jobs on the level, by threshold
    bool m_setMoved{false};     //!< a job came or went since the last Solved trace
    uint32_t m_notLevelable{0}; //!< kept jobs whose flows DescribeJob refused
    ProvisioningLevel m_level;  //!< the kept jobs' flows
    uint32_t m_levelResource{ProvisioningModel::kNoResource}; //!< LevelResource()
    bool m_levelValid{false};                                 //!< the last pass used the level
    double m_pace{0};                                         //!< pace last reported [s per unit]
    double m_levelNow{0};                                     //!< L of the last level pass
    uint64_t m_levelPasses{0};
    uint64_t m_fullPasses{0};
    std::vector<TermChange> m_changes;
    std::vector<PaceChange> m_paceChanges;
    mutable ProvisioningUtilization m_util; //!< of the last level pass (computed when asked)
    mutable uint64_t m_utilClasses{0};      //!< the classes m_util holds (a bit each)
    /**
     * \param util every figure \param fields those to keep, all if empty
     * \return util with the figures not in fields set to 0
     */
    static ProvisioningUtilization OnlyFields(const ProvisioningUtilization& util,
                                              const std::vector<UtilizationField>& fields);
    std::vector<UtilizationField> m_classSlots; //!< per class: its member
    /// the class of the rails and leaf-spine links in m_level (m_classSlots.size(): none)
    uint32_t m_railClass{0};
    mutable std::vector<double> m_busiest; //!< scratch of GetUtilization, per class
};

} // namespace ns3

#endif // AICLUSTER_PROVISIONING_DATA_LOADING_H
