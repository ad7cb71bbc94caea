/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STAGED_DATA_LOADING_H
#define AICLUSTER_STAGED_DATA_LOADING_H

#include "provisioning-data-loading.h"
#include "provisioning-model.h"

#include "ns3/cluster-engine.h"
#include "ns3/iteration-model.h"
#include "ns3/storage-data-loading.h"
#include "ns3/traced-callback.h"

#include <map>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The data path as one data-loading term: storage tier -> provisioning loader.
 *
 * The storage model (a cache/bandwidth allocation policy over the compute-side cache tier
 * and the remote storage) gives each job the rate its dataset can be read at: cache hits
 * plus the remote bandwidth the policy allotted. The provisioning loader reads what its own
 * host-memory cache misses from that storage tier, and moves it through the training nodes'
 * (or the provisioning pool's) CPUs, host memory, PCIe and rails to the GPUs. The two stages
 * are a pipeline, so a job's data term is the slower stage's:
 *   dataTime = max(loaderTime, loaderMissFraction * storageTime)
 * (loaderMissFraction = 1 - the loader's raw and decoded hit fractions: only misses reach
 * storage). The loader's own backend has no limits of its own here (the storage model owns
 * the remote storage), so neither stage counts the storage cluster twice.
 *
 * It reports changes (the storage model does): the storage stage's moves come through its
 * TakeChanges(). The loader stage reports its own (ProvisioningDataLoading's PaceGroups): a
 * job the loader starves on the pool's level keeps the loader's pace group, with the storage
 * stage's term as its floor, max(work x pace, miss x storage, checkpoint), so a new level
 * reaches the engine as one pace change. Without PaceGroups (or with LinkShare) the loader
 * stage is solved in full whenever the running set changes.
 */
class StagedDataLoading : public ReportingTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StagedDataLoading();
    ~StagedDataLoading() override;

    /**
     * \param storage the storage stage (its SharedPace is turned off: terms are composed)
     * \param loader the provisioning stage
     */
    void SetStages(Ptr<StorageDataLoading> storage, Ptr<ProvisioningDataLoading> loader);
    /** \return the storage stage */
    Ptr<StorageDataLoading> GetStorageStage() const;
    /** \return the provisioning stage */
    Ptr<ProvisioningDataLoading> GetLoaderStage() const;

    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    bool DependsOnOtherJobs() const override;
    /** \brief The job left: the storage stage drops it, then this model. \param job it */
    void JobStopped(const ClusterJob& job) override;
    bool ReportsChanges() const override;
    void TakeChanges(std::vector<TermChange>& changes) override;
    /** \param changes the loader stage's pace changes (its pace group), appended */
    void TakePaceChanges(std::vector<PaceChange>& changes) override;
    /** \return storage if the storage stage binds the job, else the loader's resource */
    std::string Bottleneck(const ClusterJob& job) const override;

    /** What each stage gives a running job now. */
    struct Stages
    {
        double storage{0};    //!< storage stage's term for all of its bytes [s per iteration]
        double loader{0};     //!< loader stage's term [s per iteration]
        double miss{1};       //!< share of samples the loader reads from the storage tier
        double checkpoint{0}; //!< storage stage's stopped term while it writes a checkpoint [s]
        std::string loaderBottleneck; //!< the loader's binding resource
        int32_t loaderGroup{-1};      //!< the loader's pace group, -1: its term is `loader`
        double loaderWork{0};         //!< with a group: the loader's term is work x pace
    };

    /** \param id a running job's id \return its stages' terms (nullptr if not running) */
    const Stages* StagesOf(uint64_t id) const;

  protected:
    void DoDispose() override;

  private:
    /** One running job. */
    struct Slot
    {
        Ptr<const ClusterJob> job; //!< the job
        Stages stages;             //!< its stages now
        double reported{-1};       //!< data term the engine has [s]; -1 = none
        int32_t reportedGroup{-1}; //!< pace group the engine has it in
        double reportedFloor{0};   //!< with a group: the floor the engine has
        double reportedWork{0};    //!< with a group: the work the engine has
    };

    void OnStageChanged();
    void OnStageJobsChanged();
    /** \return the composed term of a slot (its loader term at the current pace) */
    double Compose(const Stages& s) const;
    /** \param s a slot's stages \return the storage stage's term and the checkpoint's: the
     * floor of a paced loader term */
    static double Floor(const Stages& s);
    /** \param s a slot's stages \return the loader's term now */
    double LoaderTerm(const Stages& s) const;
    /** Run the loader stage on the started jobs; take its changes into the slots. */
    void EvaluateKeptLoader(const ClusterTopology& topology,
                            const std::vector<Ptr<const ClusterJob>>& running);
    /** Solve the loader stage on every running job (when the running set changed). */
    void EvaluateWholeLoader(const ClusterTopology& topology);
    /** \param slot a slot whose stages moved: report its term if the engine's differs */
    void Report(Slot& slot);

    Ptr<StorageDataLoading> m_storage;
    Ptr<ProvisioningDataLoading> m_loader;
    std::map<uint64_t, Slot> m_slots; //!< running jobs by id
    bool m_runningChanged{false};     //!< the loader stage must be re-solved
    std::vector<TermChange> m_scratch;
    std::vector<TermChange> m_changes;
    std::vector<PaceChange> m_paceChanges; //!< the loader stage's, for the engine
    std::map<uint32_t, double> m_paces;    //!< the loader stage's paces by group
};

} // namespace ns3

#endif // AICLUSTER_STAGED_DATA_LOADING_H
