/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_BUILDER_H
#define AICLUSTER_CLUSTER_BUILDER_H

#include "ns3/cluster-engine.h"
#include "ns3/component-registry.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/object.h"
#include "ns3/provisioning-data-loading.h"
#include "ns3/rail-topology.h"
#include "ns3/storage-helper.h"
#include "ns3/trace-annotator.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The one description of a whole cluster and the one builder of its engine.
 *
 * Every field is an attribute of this object (so `--ns3::ClusterBuilder::Nodes=32`, a
 * scenario file's `attributes` section and C++ `SetAttribute` all reach it), and its initial
 * values are the defaults of the command line and scenario files too (ClusterScenario reads
 * them from here): the training nodes (GPUs, PCIe switches, one NIC per GPU on its rail),
 * racks, the rail fabric, the aggregator pools of the switches when in-network aggregation
 * is on, the provisioning loader and its pool, the storage cluster and its cache tier, the
 * scheduler and the placement rule. Components are chosen by short names resolved in one
 * table (ComponentRegistry).
 *
 * \code
 *   Ptr<ClusterBuilder> cluster = CreateObject<ClusterBuilder>();
 *   cluster->SetAttribute("GradientSync", StringValue("esa"));
 *   cluster->SetAttribute("Provisioning", StringValue("kspeed"));
 *   cluster->SetAttribute("StoragePolicy", StringValue("cba"));
 *   std::vector<JobRecord> jobs = ReadTrace(ClusterScenario::DefaultTracePath());
 *   cluster->Annotate(jobs, WorkloadCatalog::Default());
 *   Ptr<ClusterEngine> engine = cluster->Build(jobs, WorkloadCatalog::Default());
 *   engine->Run();
 *   ClusterResults::Write("results/my-run", engine, cluster->Info("my-run"));
 * \endcode
 */
class ClusterBuilder : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ClusterBuilder();
    ~ClusterBuilder() override;

    /** \return nodes, GPUs per node and nodes per rack */
    ClusterTopology GetTopology() const;
    /** \return the rail fabric and node template (nodes and GPUs follow GetTopology()) */
    RailClusterConfig GetRailConfig() const;
    /** \return the storage cluster, cache tier and storage policy */
    StorageOptions GetStorageOptions() const;
    /**
     * \return the annotator's options: the DatasetRule and ModelRule attributes, the other
     *         fields as SetAnnotatorOptions() gave them, the seed as ns-3's RngSeed
     */
    AnnotatorOptions GetAnnotatorOptions() const;
    /**
     * \brief Set the annotator's options (DatasetRule and ModelRule attributes included).
     * \param options model weights, dataset sharing etc.; the seed is ignored (ns-3 RngSeed)
     */
    void SetAnnotatorOptions(const AnnotatorOptions& options);

    /**
     * \brief Check every field and name; nothing is created.
     * \throws std::invalid_argument naming the attribute and what was expected
     */
    void Validate() const;

    /**
     * \brief Give the jobs models, datasets and work as this cluster's annotator does.
     * \param jobs trace records, annotated in place
     * \param catalog the workload catalog
     */
    void Annotate(std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog) const;

    /**
     * \brief Build the engine with every chosen component installed on this one cluster.
     * \param jobs annotated jobs (Annotate()), shared with the engine rather than copied
     *        (ClusterEngine::SetJobs)
     * \param catalog the workload catalog (must outlive the engine)
     * \return a new engine, ready to Run()
     * \throws std::invalid_argument naming a bad attribute or unknown name
     */
    Ptr<ClusterEngine> Build(SharedJobRecords jobs, const WorkloadCatalog& catalog);

    /**
     * \brief As Build above, for a caller that holds no shared list: the records are copied
     *        once into one.
     * \param jobs annotated jobs (Annotate())
     * \param catalog the workload catalog (must outlive the engine)
     * \return a new engine, ready to Run()
     */
    Ptr<ClusterEngine> Build(const std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog);

    /** \return the storage model of the last Build(), null with StoragePolicy ideal */
    Ptr<StorageDataLoading> GetStorageModel() const;
    /** \return the provisioning model of the last Build(), null with Provisioning ideal */
    Ptr<ProvisioningDataLoading> GetProvisioningModel() const;
    /**
     * \return the links gradient sync and data loading share in the last Build(), null
     *         unless both are on (and ShareLinks)
     */
    Ptr<LinkShare> GetLinkShare() const;

    /**
     * \param engine the engine of the last Build(), after its run
     * \return per component (ina, provisioning, storage) that is on, its headline figures
     *         (name with unit -> value), for summary.json and the printed report
     */
    std::map<std::string, std::map<std::string, double>> Figures(
        Ptr<const ClusterEngine> engine) const;

    /**
     * \brief Write the components' time series of the last run into dir/components.csv: at
     *        every change of a component's state, the storage bandwidth bought and cache
     *        reserved, the provisioning tier's busiest CPU, storage, rail and PCIe shares and,
     *        with INA, the aggregators held at each ToR's and the spine's pool.
     * \param dir the result directory (exists)
     * \throws std::runtime_error naming the file if it cannot be written
     */
    void WriteComponentSeries(const std::string& dir) const;

  protected:
    void DoDispose() override;

  private:
    // Topology
    uint32_t m_nodes;
    uint32_t m_gpusPerNode;
    uint32_t m_nodesPerRack;
    // Rail fabric and node template (RailClusterConfig)
    DataRate m_railRate;
    uint32_t m_spines;
    DataRate m_spineRate;
    uint32_t m_nodesPerLeaf;
    uint32_t m_pcieSwitches;
    uint32_t m_pcieGen;
    uint32_t m_pcieLanes;
    double m_nicDmaBandwidth{0};
    double m_memoryBandwidth{0};
    // Components
    std::string m_scheduler;
    std::string m_placement;
    std::string m_sync;
    uint32_t m_inaPoolSize;
    std::string m_provisioning;
    uint32_t m_provisioningPoolNodes;
    bool m_shareLinks{true};
    // Storage (StorageOptions)
    std::string m_storagePolicy;
    double m_cacheBytes;
    std::string m_cacheMedium;
    double m_cachePrice;
    double m_storageBandwidth;
    double m_clientBandwidth;
    double m_bandwidthPrice;
    double m_ioBudget;
    bool m_prefetch;
    std::string m_utility;
    double m_deadlineSlack;
    // Annotator
    std::string m_datasetRule;
    std::string m_modelRule;
    AnnotatorOptions m_annotator; //!< the fields that are not attributes

    /** One point of the components' time series. */
    struct ComponentSample
    {
        double time{0};                       //!< [s]
        double storageBandwidth{0};           //!< remote bandwidth bought [bytes/s]
        double storageCache{0};               //!< cache reserved [bytes]
        double storageCostRate{0};            //!< IO cost rate [$/s]
        ProvisioningUtilization provisioning; //!< busiest shares (those kSeriesShares lists)
        std::vector<double> pools; //!< INA: aggregators held per ToR (by rack), then spine
    };

    void OnStorageAllocation(double time, double costRate, double bandwidth, double cache);
    void OnProvisioningSolved(const std::vector<ProvisioningJobResult>& results);
    void OnPoolOccupancy();
    /** \return a new sample at now, carrying the last values of both components */
    ComponentSample& NewSample();

    /// A deque: a replay appends a sample per solve (about 110,000 on Philly), and a vector's
    /// doubling copied them all and touched fresh pages at every growth.
    std::deque<ComponentSample> m_series;
    uint64_t m_provisioningSolves{0};

    Ptr<StorageDataLoading> m_storageModel;
    Ptr<ProvisioningDataLoading> m_provisioningModel;
    Ptr<LinkShare> m_links;
    Ptr<InaGradientSync> m_ina; //!< the INA sync model of the last Build(), if INA is on
};

} // namespace ns3

#endif // AICLUSTER_CLUSTER_BUILDER_H
