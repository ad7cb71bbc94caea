/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-builder.h"

#include "ns3/boolean.h"
#include "ns3/csv-column-text.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ideal-data-loading.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/staged-data-loading.h"
#include "ns3/storage-backend.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterBuilder");
NS_OBJECT_ENSURE_REGISTERED(ClusterBuilder);

namespace
{

void
Require(bool ok, const std::string& attribute, const std::string& expected)
{
    if (!ok)
    {
        throw std::invalid_argument("ns3::ClusterBuilder::" + attribute + ": expected " + expected);
    }
}

/// The provisioning columns of components.csv, in order: the series records these figures
/// only, so a pass does not walk the classes it never writes (thousands of PCIe device links).
const std::vector<std::pair<const char*, UtilizationField>> kSeriesShares{
    {"provisioning_cpu_share", &ProvisioningUtilization::cpu},
    {"provisioning_storage_share", &ProvisioningUtilization::storage},
    {"provisioning_rail_share", &ProvisioningUtilization::rail},
    {"provisioning_pcie_uplink_share", &ProvisioningUtilization::pcieUplink},
    {"provisioning_host_memory_share", &ProvisioningUtilization::hostMemory}};

/** \return the figures of kSeriesShares */
const std::vector<UtilizationField>&
SeriesFields()
{
    static const std::vector<UtilizationField> fields = [] {
        std::vector<UtilizationField> f;
        for (const auto& [name, field] : kSeriesShares)
        {
            f.push_back(field);
        }
        return f;
    }();
    return fields;
}

} // namespace

TypeId
ClusterBuilder::GetTypeId()
{
    // One set of defaults: the plain structs the components take are the source, so a
    // default-constructed ClusterTopology, RailClusterConfig or StorageOptions describes the
    // same cluster as a default ClusterBuilder, the command line and a scenario file without
    // the field. (Locals: GetTypeId() may run during static initialization.)
    const ClusterTopology kTopology;
    const RailClusterConfig kRail;
    const StorageOptions kStorage;
    const AnnotatorOptions kAnnotator;
    static TypeId tid =
        TypeId("ns3::ClusterBuilder")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<ClusterBuilder>()
            // ---- training nodes and racks
            .AddAttribute("Nodes",
                          "Training nodes [nodes] (scenario cluster.nodes, --nodes).",
                          UintegerValue(kTopology.numNodes),
                          MakeUintegerAccessor(&ClusterBuilder::m_nodes),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("GpusPerNode",
                          "GPUs per node [GPUs]; each has its own NIC on its own rail "
                          "(cluster.gpus_per_node, --gpus-per-node).",
                          UintegerValue(kTopology.gpusPerNode),
                          MakeUintegerAccessor(&ClusterBuilder::m_gpusPerNode),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            .AddAttribute("NodesPerRack",
                          "Nodes under one top-of-rack switch [nodes] "
                          "(cluster.nodes_per_rack, --nodes-per-rack).",
                          UintegerValue(kTopology.nodesPerRack),
                          MakeUintegerAccessor(&ClusterBuilder::m_nodesPerRack),
                          MakeUintegerChecker<uint32_t>(1, 1000000))
            // ---- rail fabric and node internals
            .AddAttribute("RailRate",
                          "Rate of every rail link, NIC to leaf [bit/s].",
                          DataRateValue(DataRate(uint64_t(kRail.railRateBps))),
                          MakeDataRateAccessor(&ClusterBuilder::m_railRate),
                          MakeDataRateChecker())
            .AddAttribute("Spines",
                          "Spine switches of the rail fabric [switches].",
                          UintegerValue(kRail.spines),
                          MakeUintegerAccessor(&ClusterBuilder::m_spines),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SpineRate",
                          "Rate of every leaf-spine link [bit/s]; 0 = the rail rate.",
                          DataRateValue(DataRate(uint64_t(kRail.spineRateBps))),
                          MakeDataRateAccessor(&ClusterBuilder::m_spineRate),
                          MakeDataRateChecker())
            .AddAttribute("NodesPerLeaf",
                          "Nodes under one leaf switch per rail [nodes]; 0 = all nodes, one "
                          "leaf per rail.",
                          UintegerValue(kRail.nodesPerLeaf),
                          MakeUintegerAccessor(&ClusterBuilder::m_nodesPerLeaf),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PcieSwitches",
                          "PCIe switches per node [switches]; GPUs and NICs are spread evenly "
                          "over them (at most one per GPU).",
                          UintegerValue(kRail.node.pcieSwitches),
                          MakeUintegerAccessor(&ClusterBuilder::m_pcieSwitches),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("PcieGen",
                          "PCIe generation of every in-node link (3..6).",
                          UintegerValue(kRail.node.pcieGen),
                          MakeUintegerAccessor(&ClusterBuilder::m_pcieGen),
                          MakeUintegerChecker<uint32_t>(3, 6))
            .AddAttribute("PcieLanes",
                          "Lanes of every PCIe link [lanes].",
                          UintegerValue(kRail.node.pcieLanes),
                          MakeUintegerAccessor(&ClusterBuilder::m_pcieLanes),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("NicDmaBandwidth",
                          "Bytes/s one NIC moves over PCIe [bytes/s]; 0 = from the rail rate "
                          "(RailNodeTemplate::nicDmaEfficiency x RailRate).",
                          DoubleValue(kRail.node.nicDmaBandwidth),
                          MakeDoubleAccessor(&ClusterBuilder::m_nicDmaBandwidth),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("MemoryBandwidth",
                          "Bytes/s host memory accepts from DMA per node [bytes/s].",
                          DoubleValue(kRail.node.memoryBandwidth),
                          MakeDoubleAccessor(&ClusterBuilder::m_memoryBandwidth),
                          MakeDoubleChecker<double>(1))
            // ---- components
            .AddAttribute(
                "Scheduler",
                "Scheduling policy: a short name of ComponentRegistry (fifo, sjf, tiresias).",
                StringValue("fifo"),
                MakeStringAccessor(&ClusterBuilder::m_scheduler),
                MakeStringChecker())
            .AddAttribute("Placement",
                          "GPU placement: consolidated or spread (placement, --placement).",
                          StringValue("consolidated"),
                          MakeStringAccessor(&ClusterBuilder::m_placement),
                          MakeStringChecker())
            .AddAttribute("GradientSync",
                          "Gradient sync: ideal (free), ring or none (ring all-reduce), or "
                          "in-network aggregation switchml, atp, esa on the aggregator pool of "
                          "each ToR (and the spine for jobs spanning racks) (ina, --ina). "
                          "Default esa: the quick start shows every component that is cheap "
                          "enough for it.",
                          StringValue("esa"),
                          MakeStringAccessor(&ClusterBuilder::m_sync),
                          MakeStringChecker())
            .AddAttribute("InaPoolSize",
                          "Aggregators per switch [aggregators]; 0 = "
                          "ns3::InaGradientSync::PoolSize (ina_pool_size, --ina-pool-size).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClusterBuilder::m_inaPoolSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Provisioning",
                          "Data-provisioning loader: ideal (never stalls), local, dpp, alluxio "
                          "or kspeed (provisioning, --provisioning).",
                          StringValue("kspeed"),
                          MakeStringAccessor(&ClusterBuilder::m_provisioning),
                          MakeStringChecker())
            .AddAttribute("ProvisioningPoolNodes",
                          "CPU nodes of the provisioning (DPP, KSpeed) pool [nodes]; 0 = "
                          "the model's default, ns3::ProvisioningModel::PoolNodes if set, else "
                          "one pool node per 4 training nodes, rounded up "
                          "(PoolNodesPerTrainingNode); at most " +
                              std::to_string(ProvisioningModel::kMaxPoolNodes) +
                              " (provisioning_pool_nodes, --provisioning-pool-nodes).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClusterBuilder::m_provisioningPoolNodes),
                          MakeUintegerChecker<uint32_t>(0, ProvisioningModel::kMaxPoolNodes))
            .AddAttribute("ShareLinks",
                          "Gradient sync and the provisioning loader's traffic share the nodes' "
                          "rail NICs in the rate model (ns3::LinkShare, doc/cluster.md) when "
                          "both are on; false = each sees the full rates [bool].",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ClusterBuilder::m_shareLinks),
                          MakeBooleanChecker())
            // ---- storage cluster and cache tier
            .AddAttribute("StoragePolicy",
                          "Cache/bandwidth allocation of the disaggregated storage: ideal (no "
                          "storage model), none, cache-all, fair, lru, quiver, silod, cba, "
                          "autocba (storage.policy, --storage-policy).",
                          StringValue("cba"),
                          MakeStringAccessor(&ClusterBuilder::m_storagePolicy),
                          MakeStringChecker())
            .AddAttribute("CacheBytes",
                          "Compute-side cache tier capacity [bytes] (storage.cache_bytes).",
                          DoubleValue(kStorage.cacheBytes),
                          MakeDoubleAccessor(&ClusterBuilder::m_cacheBytes),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("CacheMedium",
                          "Cache medium, ssd or memory (sets its price) (storage.medium).",
                          StringValue(kStorage.medium),
                          MakeStringAccessor(&ClusterBuilder::m_cacheMedium),
                          MakeStringChecker())
            .AddAttribute("CachePrice",
                          "Cache price [$ per GB-hour]; < 0 = the medium's default.",
                          DoubleValue(kStorage.cachePrice),
                          MakeDoubleAccessor(&ClusterBuilder::m_cachePrice),
                          MakeDoubleChecker<double>())
            .AddAttribute("StorageBandwidth",
                          "Aggregate remote storage bandwidth [bytes/s] "
                          "(storage.bandwidth_Bps).",
                          DoubleValue(kStorage.bandwidth),
                          MakeDoubleAccessor(&ClusterBuilder::m_storageBandwidth),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("ClientBandwidth",
                          "Remote bandwidth cap of one job [bytes/s]; 0 = none "
                          "(storage.client_bandwidth_Bps).",
                          DoubleValue(kStorage.clientBandwidth),
                          MakeDoubleAccessor(&ClusterBuilder::m_clientBandwidth),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("BandwidthPrice",
                          "Remote bandwidth price [$ per (GB/s)-hour]; < 0 = "
                          "ns3::StorageBackend::BandwidthPrice.",
                          DoubleValue(kStorage.bandwidthPrice),
                          MakeDoubleAccessor(&ClusterBuilder::m_bandwidthPrice),
                          MakeDoubleChecker<double>())
            .AddAttribute("IoBudget",
                          "IO budget of cba/autocba [$ per hour]; 0 = none "
                          "(storage.io_budget_per_hour).",
                          DoubleValue(kStorage.ioBudgetPerHour),
                          MakeDoubleAccessor(&ClusterBuilder::m_ioBudget),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Prefetch",
                          "Prefetch a grown cache instead of filling it lazily "
                          "(storage.prefetch).",
                          BooleanValue(kStorage.prefetch),
                          MakeBooleanAccessor(&ClusterBuilder::m_prefetch),
                          MakeBooleanChecker())
            .AddAttribute("Utility",
                          "autocba's job utility: linear or deadline.",
                          StringValue(kStorage.utility),
                          MakeStringAccessor(&ClusterBuilder::m_utility),
                          MakeStringChecker())
            .AddAttribute("DeadlineSlack",
                          "autocba: deadline = submit + slack x requested run time [factor].",
                          DoubleValue(kStorage.deadlineSlack),
                          MakeDoubleAccessor(&ClusterBuilder::m_deadlineSlack),
                          MakeDoubleChecker<double>(1))
            // ---- annotator
            .AddAttribute("DatasetRule",
                          "Which jobs share a dataset: model, vc, user, pool or job "
                          "(annotator.dataset_rule, --dataset-rule).",
                          StringValue(kAnnotator.datasetRule),
                          MakeStringAccessor(&ClusterBuilder::m_datasetRule),
                          MakeStringChecker())
            .AddAttribute("ModelRule",
                          "How jobs without a model get one: gpu-time or weighted "
                          "(annotator.model_rule, --model-rule).",
                          StringValue(kAnnotator.modelRule),
                          MakeStringAccessor(&ClusterBuilder::m_modelRule),
                          MakeStringChecker());
    return tid;
}

ClusterBuilder::ClusterBuilder()
{
    NS_LOG_FUNCTION(this);
}

ClusterBuilder::~ClusterBuilder()
{
    NS_LOG_FUNCTION(this);
}

void
ClusterBuilder::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_storageModel = nullptr;
    m_provisioningModel = nullptr;
    m_links = nullptr;
    Object::DoDispose();
}

ClusterTopology
ClusterBuilder::GetTopology() const
{
    NS_LOG_FUNCTION(this);
    ClusterTopology t;
    t.numNodes = m_nodes;
    t.gpusPerNode = m_gpusPerNode;
    t.nodesPerRack = m_nodesPerRack;
    return t;
}

RailClusterConfig
ClusterBuilder::GetRailConfig() const
{
    NS_LOG_FUNCTION(this);
    RailClusterConfig c;
    c.nodes = m_nodes;
    c.node.gpus = m_gpusPerNode;
    c.node.nics = m_gpusPerNode;
    c.node.pcieSwitches = std::min(m_pcieSwitches, m_gpusPerNode);
    c.node.pcieGen = m_pcieGen;
    c.node.pcieLanes = m_pcieLanes;
    c.node.nicDmaBandwidth = m_nicDmaBandwidth;
    c.node.memoryBandwidth = m_memoryBandwidth;
    c.railRateBps = static_cast<double>(m_railRate.GetBitRate());
    c.spines = m_spines;
    c.spineRateBps = static_cast<double>(m_spineRate.GetBitRate());
    c.nodesPerLeaf = m_nodesPerLeaf;
    return c;
}

StorageOptions
ClusterBuilder::GetStorageOptions() const
{
    NS_LOG_FUNCTION(this);
    StorageOptions o;
    o.policy = m_storagePolicy;
    o.cacheBytes = m_cacheBytes;
    o.medium = m_cacheMedium;
    o.cachePrice = m_cachePrice;
    o.bandwidth = m_storageBandwidth;
    o.clientBandwidth = m_clientBandwidth;
    o.bandwidthPrice = m_bandwidthPrice;
    o.ioBudgetPerHour = m_ioBudget;
    o.prefetch = m_prefetch;
    o.utility = m_utility;
    o.deadlineSlack = m_deadlineSlack;
    return o;
}

AnnotatorOptions
ClusterBuilder::GetAnnotatorOptions() const
{
    NS_LOG_FUNCTION(this);
    AnnotatorOptions o = m_annotator;
    o.datasetRule = m_datasetRule;
    o.modelRule = m_modelRule;
    o.seed = RngSeedManager::GetSeed();
    return o;
}

void
ClusterBuilder::SetAnnotatorOptions(const AnnotatorOptions& options)
{
    NS_LOG_FUNCTION(this);
    m_annotator = options;
    m_datasetRule = options.datasetRule;
    m_modelRule = options.modelRule;
}

void
ClusterBuilder::Validate() const
{
    NS_LOG_FUNCTION(this);
    ComponentRegistry::Find("scheduler", m_scheduler);
    ComponentRegistry::Find("placement", m_placement);
    ComponentRegistry::Find("sync", m_sync);
    ComponentRegistry::Find("provisioning", m_provisioning);
    ComponentRegistry::Find("storage", m_storagePolicy);
    if (m_storagePolicy != "ideal")
    {
        GetStorageOptions().Validate();
    }
    Require(m_storageBandwidth > 0 && std::isfinite(m_storageBandwidth),
            "StorageBandwidth",
            "a bandwidth > 0 [bytes/s]");
    Require(m_railRate.GetBitRate() > 0, "RailRate", "a rate > 0 [bit/s]");
}

void
ClusterBuilder::Annotate(std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog) const
{
    NS_LOG_FUNCTION(this << jobs.size());
    TraceAnnotator(catalog, GetAnnotatorOptions()).Annotate(jobs);
}

Ptr<StorageDataLoading>
ClusterBuilder::GetStorageModel() const
{
    NS_LOG_FUNCTION(this);
    return m_storageModel;
}

Ptr<ProvisioningDataLoading>
ClusterBuilder::GetProvisioningModel() const
{
    NS_LOG_FUNCTION(this);
    return m_provisioningModel;
}

Ptr<LinkShare>
ClusterBuilder::GetLinkShare() const
{
    NS_LOG_FUNCTION(this);
    return m_links;
}

Ptr<ClusterEngine>
ClusterBuilder::Build(const std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog)
{
    NS_LOG_FUNCTION(this << jobs.size());
    return Build(std::make_shared<const std::vector<JobRecord>>(jobs), catalog);
}

Ptr<ClusterEngine>
ClusterBuilder::Build(SharedJobRecords jobs, const WorkloadCatalog& catalog)
{
    NS_LOG_FUNCTION(this << jobs->size());
    Validate();
    m_storageModel = nullptr;
    m_provisioningModel = nullptr;
    m_links = nullptr;
    m_ina = nullptr;

    Ptr<ClusterEngine> engine = CreateObject<ClusterEngine>();
    engine->SetTopology(GetTopology());

    engine->SetScheduler(
        ComponentRegistry::Factory(ComponentRegistry::Find("scheduler", m_scheduler))
            .Create<SchedulingPolicy>());
    engine->SetAllocator(
        ComponentRegistry::Factory(ComponentRegistry::Find("placement", m_placement))
            .Create<GpuAllocator>());

    const ComponentAlias& sync = ComponentRegistry::Find("sync", m_sync);
    ObjectFactory syncFactory = ComponentRegistry::Factory(sync);
    TypeId::AttributeInformation poolSize;
    if (m_inaPoolSize > 0 && syncFactory.GetTypeId().LookupAttributeByName("PoolSize", &poolSize))
    {
        syncFactory.Set("PoolSize", UintegerValue(m_inaPoolSize));
    }
    Ptr<IterationTermModel> syncModel = syncFactory.Create<IterationTermModel>();
    m_ina = DynamicCast<InaGradientSync>(syncModel);
    engine->SetGradientSyncModel(syncModel);
    engine->SetDataLoadingModel(CreateObject<IdealDataLoading>());
    engine->SetJobs(jobs, catalog);

    // The data path: storage tier -> provisioning loader -> PCIe/rails -> GPU.
    StorageOptions storage = GetStorageOptions();
    if (m_storagePolicy != "ideal")
    {
        TraceAnnotator annotator(catalog, GetAnnotatorOptions());
        m_storageModel = StorageHelper(storage).Install(engine, *jobs, annotator);
    }
    if (m_provisioning != "ideal")
    {
        // The loader reads from the storage cluster of this description; when a storage model
        // is on, that model owns the storage tier's limits (cache hits, remote bandwidth per
        // dataset) and the loader's own backend has none (StagedDataLoading).
        Ptr<StorageBackend> backend = CreateObject<StorageBackend>();
        const double unlimited = 1e18; // [bit/s]
        backend->SetAttribute(
            "AggregateBandwidth",
            DataRateValue(DataRate(uint64_t(m_storageModel ? unlimited : storage.bandwidth * 8))));
        backend->SetAttribute(
            "ClientBandwidth",
            DataRateValue(DataRate(uint64_t(m_storageModel ? 0.0 : storage.clientBandwidth * 8))));
        ObjectFactory loader =
            ComponentRegistry::Factory(ComponentRegistry::Find("provisioning", m_provisioning));
        m_provisioningModel = CreateObject<ProvisioningDataLoading>();
        m_provisioningModel->Configure(loader.Create<ProvisioningLoader>(), backend);
        m_provisioningModel->SetNodeTemplate(GetRailConfig());
        if (m_provisioningPoolNodes > 0)
        {
            m_provisioningModel->GetModel()->SetAttribute("PoolNodes",
                                                          UintegerValue(m_provisioningPoolNodes));
        }
        if (m_storageModel)
        {
            // The storage tier feeds the loader: compose the two stages.
            Ptr<StagedDataLoading> staged = CreateObject<StagedDataLoading>();
            staged->SetStages(m_storageModel, m_provisioningModel);
            engine->SetDataLoadingModel(staged);
        }
        else
        {
            engine->SetDataLoadingModel(m_provisioningModel);
        }
        if (m_shareLinks && m_sync != "ideal")
        {
            // Gradient sync and the loader's traffic cross the same rails: one LinkShare.
            m_links = CreateObject<LinkShare>();
            m_links->SetLinks(GetTopology(),
                              static_cast<double>(m_railRate.GetBitRate()) / 8,
                              m_gpusPerNode);
            m_links->SetSyncModel(PeekPointer(syncModel));
            syncModel->SetLinkShare(m_links);
            m_provisioningModel->SetLinkShare(m_links);
        }
    }
    m_series.clear();
    m_provisioningSolves = 0;
    if (m_storageModel)
    {
        m_storageModel->TraceConnectWithoutContext(
            "Allocation",
            MakeCallback(&ClusterBuilder::OnStorageAllocation, this));
    }
    if (m_provisioningModel)
    {
        m_provisioningModel->TraceConnectWithoutContext(
            "Solved",
            MakeCallback(&ClusterBuilder::OnProvisioningSolved, this));
    }
    if (m_ina)
    {
        m_ina->TraceConnectWithoutContext("PoolOccupancy",
                                          MakeCallback(&ClusterBuilder::OnPoolOccupancy, this));
    }
    return engine;
}

ClusterBuilder::ComponentSample&
ClusterBuilder::NewSample()
{
    NS_LOG_FUNCTION(this);
    double now = Simulator::Now().GetSeconds();
    if (!m_series.empty() && m_series.back().time == now)
    {
        return m_series.back();
    }
    if (m_series.empty())
    {
        m_series.emplace_back();
    }
    else
    {
        m_series.push_back(m_series.back()); // a deque's elements stay where they are
    }
    m_series.back().time = now;
    return m_series.back();
}

void
ClusterBuilder::OnStorageAllocation(double /* time */,
                                    double costRate,
                                    double bandwidth,
                                    double cache)
{
    NS_LOG_FUNCTION(this);
    ComponentSample& s = NewSample();
    s.storageCostRate = costRate;
    s.storageBandwidth = bandwidth;
    s.storageCache = cache;
}

void
ClusterBuilder::OnProvisioningSolved(const std::vector<ProvisioningJobResult>& /* results */)
{
    NS_LOG_FUNCTION(this);
    ++m_provisioningSolves;
    NewSample().provisioning = m_provisioningModel->GetUtilization(SeriesFields());
}

void
ClusterBuilder::OnPoolOccupancy()
{
    NS_LOG_FUNCTION(this);
    NewSample().pools = m_ina->PoolOccupancy(GetTopology().NumRacks());
}

std::map<std::string, std::map<std::string, double>>
ClusterBuilder::Figures(Ptr<const ClusterEngine> engine) const
{
    NS_LOG_FUNCTION(this << engine);
    std::map<std::string, std::map<std::string, double>> figures;
    double lostData = 0;
    double lostSync = 0;
    double syncJobs = 0;
    double syncSum = 0;
    for (const auto& job : engine->Jobs())
    {
        lostData += job->stallData;
        lostSync += job->stallSync;
        if (job->state == ClusterJob::FINISHED && job->syncTime > 0)
        {
            ++syncJobs;
            syncSum += job->syncTime / job->iterationTime;
        }
    }
    if (m_sync != "ideal")
    {
        figures["ina"] = {{"gpu_time_lost_to_sync_gpu_h", lostSync / 3600},
                          {"jobs_with_sync", syncJobs},
                          {"mean_sync_share_of_iteration", syncJobs ? syncSum / syncJobs : 0.0}};
    }
    // Time averages of the series over the run (each value holds until the next sample).
    auto timeAverage = [this](auto value) {
        double area = 0;
        for (size_t i = 0; i + 1 < m_series.size(); ++i)
        {
            area += value(m_series[i]) * (m_series[i + 1].time - m_series[i].time);
        }
        double span = m_series.size() > 1 ? m_series.back().time - m_series.front().time : 0.0;
        return span > 0 ? area / span : 0.0;
    };
    if (m_provisioningModel)
    {
        double peakCpu = 0;
        double peakRail = 0;
        for (const auto& s : m_series)
        {
            peakCpu = std::max(peakCpu, s.provisioning.cpu);
            peakRail = std::max(peakRail, s.provisioning.rail);
        }
        figures["provisioning"] = {
            {"pool_nodes", double(m_provisioningModel->GetModel()->PoolNodes())},
            {"solves", double(m_provisioningSolves)},
            {"cpu_busiest_share_mean",
             timeAverage([](const ComponentSample& s) { return s.provisioning.cpu; })},
            {"cpu_busiest_share_peak", peakCpu},
            {"rail_busiest_share_peak", peakRail},
            {"gpu_time_lost_to_data_gpu_h", lostData / 3600}};
    }
    if (m_links)
    {
        const LinkShare::Figures& l = m_links->GetFigures();
        figures["links"] = {{"sync_evaluations_slowed", double(l.slowedSyncs)},
                            {"min_sync_share_of_peak", l.minSyncShare},
                            {"peak_rail_data_share", l.peakDataShare},
                            {"peak_rail_sync_reserve_share", l.peakReserveShare}};
    }
    if (m_storageModel)
    {
        StorageRunSummary st =
            StorageHelper::Summarize(engine, m_storageModel, GetStorageOptions());
        figures["storage"] = {{"io_cost_usd", st.ioCost},
                              {"bandwidth_cost_usd", st.bandwidthCost},
                              {"cache_cost_usd", st.cacheCost},
                              {"cache_hit_ratio", st.hitRatio},
                              {"mean_remote_bandwidth_Bps", st.meanBandwidth},
                              {"peak_remote_bandwidth_Bps", st.peakBandwidth},
                              {"peak_cache_bytes", st.peakCache},
                              {"allocation_solves", double(st.solves)}};
        const StorageTotals& totals = m_storageModel->Totals(); // settled by Summarize
        if (totals.checkpoints > 0)
        {
            figures["storage"]["checkpoints"] = double(totals.checkpoints);
            figures["storage"]["checkpoint_bytes"] = totals.checkpointBytes;
            figures["storage"]["gpu_time_lost_to_checkpoints_gpu_h"] =
                totals.checkpointStallGpuSeconds / 3600;
        }
        if (totals.modelLoads > 0)
        {
            figures["storage"]["model_loads"] = double(totals.modelLoads);
            figures["storage"]["model_loads_from_cache"] = double(totals.modelLoadsFromCache);
            figures["storage"]["model_load_bytes_remote"] = totals.modelLoadBytesRemote;
            figures["storage"]["gpu_time_lost_to_model_loads_gpu_h"] =
                totals.modelLoadStallGpuSeconds / 3600;
        }
        if (!m_provisioningModel)
        {
            figures["storage"]["gpu_time_lost_to_data_gpu_h"] = lostData / 3600;
        }
    }
    return figures;
}

void
ClusterBuilder::WriteComponentSeries(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    std::string path = dir + "/components.csv";
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error(path + ": cannot open for writing");
    }
    out << "time_s,storage_bandwidth_Bps,storage_cache_bytes,storage_cost_per_s";
    for (const auto& [name, field] : kSeriesShares)
    {
        out << ',' << name;
    }
    // With INA: the aggregators held at each pool, ToRs by rack, then the spine.
    const uint32_t racks = m_ina ? GetTopology().NumRacks() : 0;
    for (uint32_t r = 0; r < racks; ++r)
    {
        out << ",ina_tor" << r << "_aggregators";
    }
    out << (m_ina ? ",ina_spine_aggregators\n" : "\n");
    // One row per scheduling pass: numbers as a stream with precision 12 writes them ("%.12g",
    // which std::to_chars in general form with precision 12 is), gathered a megabyte at a time.
    // Each column keeps its last value's text: most repeat from row to row (CsvColumnText).
    std::vector<CsvColumnText> columns(4 + kSeriesShares.size() + (m_ina ? racks + 1 : 0));
    std::string buffer;
    size_t column = 0;
    auto number = [&](double value, char before) {
        if (before)
        {
            buffer += before;
        }
        columns[column++].Append(buffer, value);
    };
    for (const auto& s : m_series)
    {
        column = 0;
        number(s.time, 0);
        number(s.storageBandwidth, ',');
        number(s.storageCache, ',');
        number(s.storageCostRate, ',');
        for (const auto& [name, field] : kSeriesShares)
        {
            number(s.provisioning.*field, ',');
        }
        for (uint32_t p = 0; m_ina && p <= racks; ++p)
        {
            number(p < s.pools.size() ? s.pools[p] : 0.0, ',');
        }
        buffer += '\n';
        if (buffer.size() >= (1u << 20))
        {
            out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            buffer.clear();
        }
    }
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

} // namespace ns3
