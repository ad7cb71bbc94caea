/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "provisioning-model.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/split-mix.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProvisioningModel");
NS_OBJECT_ENSURE_REGISTERED(ProvisioningModel);

namespace
{
/// Stands for "unbounded" in the solver, which needs finite capacities.
constexpr double kUnbounded = 1e18;

double
Finite(double x)
{
    return std::isfinite(x) ? std::min(x, kUnbounded) : kUnbounded;
}

/// \param x a capacity as computed \return the solver's: positive and finite
double
SolverCapacity(double x)
{
    return Finite(std::max(x, 1e-12));
}

/// \param d a number \return its bits
uint64_t
Bits(double d)
{
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

/// \param h a running hash \param id a resource or flow \param weight its weight
/// \return h with (id, weight) mixed in: the keys that find identical flows and constraints
uint64_t
MixUsage(uint64_t h, uint32_t id, double weight)
{
    h = (h ^ id) * 0x9e3779b97f4a7c15ULL;
    return (h ^ Bits(weight)) * 0xff51afd7ed558ccdULL;
}

} // namespace

TypeId
ProvisioningModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProvisioningModel")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<ProvisioningModel>()
            .AddAttribute("CpuCores",
                          "CPU cores of each training node available to data loading [cores]. "
                          "Assumption: 64 of a 2-socket host's 96-128 cores; the rest run the "
                          "training processes.",
                          DoubleValue(64),
                          MakeDoubleAccessor(&ProvisioningModel::m_cpuCores),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("DramBandwidth",
                          "Host DRAM bandwidth of a node, CPU and DMA bytes together [bytes/s]. "
                          "Assumption: ~75% of 2 sockets x 8 channels DDR4-3200 (409.6 GB/s).",
                          DoubleValue(300e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_dramBandwidth),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("CacheBytesPerNode",
                          "Host memory each node lends to a cache tier (Alluxio, KSpeed) "
                          "[bytes]. Assumption: half of 1 TiB.",
                          DoubleValue(512e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_cacheBytesPerNode),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FrontendBandwidth",
                          "Storage (frontend) NIC of each node, off the rails [bytes/s]. "
                          "Assumption: one 200 Gb/s NIC.",
                          DoubleValue(25e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_frontendBandwidth),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("CopyCpuSecondsPerByte",
                          "CPU time to copy one byte in host memory (pinned staging buffer, "
                          "cache client) [core-s/byte]. Default: ~10 GB/s single-core memcpy "
                          "(STREAM Copy on one core of a current Xeon/EPYC is 10-15 GB/s).",
                          DoubleValue(1e-10),
                          MakeDoubleAccessor(&ProvisioningModel::m_copyCpuPerByte),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PrefetchDepth",
                          "Batches a GPU's loader keeps in flight; sets the read requests a "
                          "storage client has outstanding (depth x local batch) [batches]. "
                          "Default: PyTorch DataLoader prefetch_factor.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ProvisioningModel::m_prefetchDepth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PoolNodes",
                          "Memory/CPU nodes of the provisioning pool that DPP and KSpeed use, "
                          "each on every rail like a training node (same template), with its "
                          "own cores (PoolCores), cache memory (PoolCacheBytes), DRAM "
                          "(PoolDramBandwidth) and storage NIC (PoolFrontendBandwidth) "
                          "[nodes, 0 to 4096]. KSpeed with 0 pools the training nodes "
                          "themselves. Default: not set (4294967295), the pool scales with the "
                          "cluster (PoolNodesPerTrainingNode).",
                          UintegerValue(ProvisioningModel::kUnsetNodes),
                          MakeUintegerAccessor(&ProvisioningModel::m_poolNodes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PoolNodesPerTrainingNode",
                          "Pool nodes per training node when neither PoolNodes nor DppNodes is "
                          "set; the pool is this times the training nodes, rounded up (at most "
                          "4096) [nodes/node]. Assumption: one 64-core pool node per four "
                          "8-GPU trainers, i.e. 2 pool cores per GPU; the bundled sample's 16 "
                          "trainers get 4. A fixed pool starves a large cluster (4 nodes for "
                          "Philly's 2,816 GPUs lose most GPU time to data); DPP sizes its pool "
                          "to the trainers' demand (Zhao et al., ISCA 2022).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&ProvisioningModel::m_poolNodesPerTrainingNode),
                          MakeDoubleChecker<double>(0, 16))
            .AddAttribute("PoolCores",
                          "Cores of each pool node for loading [cores]. Assumption: a 64-core "
                          "host.",
                          DoubleValue(64),
                          MakeDoubleAccessor(&ProvisioningModel::m_poolCores),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("PoolCacheBytes",
                          "Memory of each pool node that KSpeed caches samples in [bytes]. "
                          "Assumption: 512 GB (half of 1 TiB, as CacheBytesPerNode).",
                          DoubleValue(512e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_poolCacheBytes),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PoolDramBandwidth",
                          "DRAM bandwidth of each pool node, CPU and DMA bytes together "
                          "[bytes/s]. Default as DramBandwidth.",
                          DoubleValue(300e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_poolDram),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("PoolFrontendBandwidth",
                          "Storage NIC of each pool node, off the rails [bytes/s]. Default as "
                          "FrontendBandwidth (one 200 Gb/s NIC).",
                          DoubleValue(25e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_poolFrontend),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("DppNodes",
                          "Alias of PoolNodes kept for older scripts: when set (not the "
                          "default 'unset' value 4294967295) it overrides PoolNodes [nodes].",
                          UintegerValue(ProvisioningModel::kUnsetNodes),
                          MakeUintegerAccessor(&ProvisioningModel::m_dppNodesAlias),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DppCores",
                          "Alias of PoolCores kept for older scripts: when set (> 0) it "
                          "overrides PoolCores [cores].",
                          DoubleValue(0),
                          MakeDoubleAccessor(&ProvisioningModel::m_dppCoresAlias),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("TcpReceiveCpuSecondsPerByte",
                          "Core-seconds to receive one byte over TCP into user space (stack, "
                          "and the copy out of the socket buffer) [core-s/byte]. Default: "
                          "~42 Gb/s per core for one long flow with TSO/GRO and jumbo frames "
                          "(Cai et al., Understanding host network stack overheads, SIGCOMM "
                          "2021): 1/(5.25e9).",
                          DoubleValue(1.0 / 5.25e9),
                          MakeDoubleAccessor(&ProvisioningModel::m_tcpReceiveCpuPerByte),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("TcpSendCpuSecondsPerByte",
                          "Core-seconds to send one byte over TCP (copy into the socket "
                          "buffer; segmentation offloaded) [core-s/byte]. Default: one "
                          "memcpy, as CopyCpuSecondsPerByte (the sender side of Cai et al. "
                          "2021 is cheaper than the receiver's).",
                          DoubleValue(1e-10),
                          MakeDoubleAccessor(&ProvisioningModel::m_tcpSendCpuPerByte),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("FuseCpuSecondsPerByte",
                          "Core-seconds per byte read through a FUSE mount (Alluxio FUSE): "
                          "the kernel-to-daemon and daemon-to-application copies and their "
                          "context switches [core-s/byte]. Default: two memcpys (2e-10); "
                          "Vangoor et al., To FUSE or Not to FUSE, FAST 2017, measure FUSE's "
                          "extra copies and context switches as its main overheads.",
                          DoubleValue(2e-10),
                          MakeDoubleAccessor(&ProvisioningModel::m_fuseCpuPerByte),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("CacheablePreprocessFraction",
                          "Share of a sample's preprocessing CPU that is deterministic (decode) "
                          "and so saved by caching the preprocessed sample; the rest (random "
                          "augmentation) runs every epoch [0..1]. Assumption.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&ProvisioningModel::m_cacheableFraction),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AggregatePerNode",
                          "One max-min flow per (job, node) carrying that node's GPUs of the job "
                          "(exact when they are symmetric, as under rail affinity; faster for "
                          "whole-cluster replays) instead of one flow per GPU.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ProvisioningModel::m_aggregate),
                          MakeBooleanChecker())
            .AddAttribute("ReuseUsages",
                          "With AggregatePerNode, keep the resource usage of every (job, node) "
                          "flow between Solves and reuse it while its inputs (workload, cache "
                          "plan, node, GPU indices) are the same: a replay solves at every "
                          "scheduling pass. Only while this model's, its loader's and "
                          "ns3::RdmaEndpoint's attributes stay as they were (cleared when the "
                          "cluster, the loader or the node resources change).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ProvisioningModel::m_reuseUsages),
                          MakeBooleanChecker())
            .AddAttribute("UsageCacheSweepBytes",
                          "With ReuseUsages, the kept usages are swept of those not used since "
                          "the last sweep once they hold this many bytes and have grown by half "
                          "of it since (or doubled in number past 4096). An Alluxio flow lists "
                          "every peer node's resources, some 50 KB on 352 nodes. Memory and "
                          "rebuilding time only: a swept usage is built again the same [bytes].",
                          UintegerValue(uint64_t{64} << 20),
                          MakeUintegerAccessor(&ProvisioningModel::m_sweepBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MergePoolTwins",
                          "With ReuseUsages, when every flow uses the pool nodes alike (as "
                          "KSpeed's Spread does: the same weight on each node's cores, DRAM, "
                          "storage NIC, storage client and links), solve on pool node 0's "
                          "resources alone: the others carry the same loads and bind "
                          "together, so the rates, loads and utilisations are bit-identical "
                          "and a flow's usage lists one pool node instead of all. Any flow "
                          "that is not alike, or a pass that needs the full solver, takes the "
                          "full usages.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ProvisioningModel::m_mergePoolTwins),
                          MakeBooleanChecker())
            .AddAttribute("BuildFromPoolNodeZero",
                          "With MergePoolTwins, build a new flow's usage for a pass on pool "
                          "node 0's resources from pool node 0's part alone when the loader "
                          "spreads it over the pool alike (KSpeed's Spread, DPP) and every pool "
                          "node's path to the GPU is pool node 0's (one leaf per rail for the "
                          "pool, no ECMP choice on the way): the weights off the pool are "
                          "added once per pool node all the same, so the usage is the one "
                          "the full build gives, to the bit, without routing and listing "
                          "every pool node. Otherwise the usage is built over every pool node.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ProvisioningModel::m_buildFromPoolNodeZero),
                          MakeBooleanChecker())
            .AddAttribute("SkipFeasibleSolves",
                          "When no resource's demand (every flow at its GPUs' pace) exceeds its "
                          "capacity, give every flow its demand without building the max-min "
                          "solver: the loads are the demands, summed in the solver's order, so "
                          "rates, bottlenecks, utilisation and rail loads are bit-identical to a "
                          "solve. Flows with identical usages (which the solver merges) or a "
                          "resource over capacity take the solver.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ProvisioningModel::m_skipFeasible),
                          MakeBooleanChecker())
            .AddAttribute("SolveOverloadedOnly",
                          "With SkipFeasibleSolves, when some resource's demand exceeds its "
                          "capacity, give the max-min solver only those resources (one of "
                          "each set with the same capacity, flows and weights, as Spread's "
                          "pool nodes) and the flows that use one; the others get their "
                          "demand. A resource whose demand fits never binds, so the rates are "
                          "the same; the fill's order and the loads' sums are the full "
                          "solver's, so results are bit-identical. Flows with identical "
                          "usages take the full solver.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ProvisioningModel::m_overloadedOnly),
                          MakeBooleanChecker())
            .AddAttribute(
                "Fairness",
                "How GPUs of jobs that contend for a resource share it: DominantShare (max-min "
                "on each GPU's dominant share of the resources it uses per sample: "
                "dominant-resource fairness), DemandFraction (max-min on the fraction of its "
                "demand each GPU receives; a loading benchmark uses the catalog's compute rate "
                "as the demand) or Samples (max-min in samples/s, which starves jobs with "
                "cheap samples when they share with jobs of expensive ones).",
                EnumValue(ProvisioningModel::DOMINANT_SHARE),
                MakeAiclusterEnumAccessor(&ProvisioningModel::m_fairness),
                MakeEnumChecker(ProvisioningModel::DOMINANT_SHARE,
                                "DominantShare",
                                ProvisioningModel::DEMAND_FRACTION,
                                "DemandFraction",
                                ProvisioningModel::SAMPLES,
                                "Samples"));
    return tid;
}

ProvisioningModel::ProvisioningModel() = default;
ProvisioningModel::~ProvisioningModel() = default;

uint32_t
ProvisioningModel::ScaledPoolNodes() const
{
    double scaled = std::ceil(m_poolNodesPerTrainingNode * m_cluster.nodes);
    return static_cast<uint32_t>(std::min(scaled, static_cast<double>(kMaxPoolNodes)));
}

void
ProvisioningModel::CheckPoolSize(const char* attribute, uint32_t nodes)
{
    if (nodes != kUnsetNodes && nodes > kMaxPoolNodes)
    {
        throw std::invalid_argument("ns3::ProvisioningModel::" + std::string(attribute) + " is " +
                                    std::to_string(nodes) + ": expected 0 to " +
                                    std::to_string(kMaxPoolNodes) + " nodes");
    }
}

void
ProvisioningModel::SetCluster(const RailClusterConfig& cluster, Ptr<StorageBackend> storage)
{
    if (!storage)
    {
        throw std::invalid_argument("ProvisioningModel::SetCluster: storage backend is null");
    }
    cluster.Validate();
    CheckPoolSize("PoolNodes", m_poolNodes);
    CheckPoolSize("DppNodes", m_dppNodesAlias);
    m_cluster = cluster;
    m_topology.reset();
    m_railLinkOf.clear();
    m_staticBuilt = false;
    m_paths.clear();
    m_peerPaths.clear();
    ForgetUsages();
    m_storage = storage;
    auto endpoint = CreateObject<RdmaEndpoint>();
    UintegerValue mtu;
    endpoint->GetAttribute("Mtu", mtu);
    m_wireFactor = (mtu.Get() + 62.0) / mtu.Get();
}

void
ProvisioningModel::SetLoader(Ptr<ProvisioningLoader> loader)
{
    m_loader = loader;
    ForgetUsages();
    m_twinsRefused = false;
}

Ptr<ProvisioningLoader>
ProvisioningModel::GetLoader() const
{
    return m_loader;
}

RailClusterConfig
ProvisioningModel::FabricConfig() const
{
    RailClusterConfig c = m_cluster;
    c.nodes = m_cluster.nodes + PoolNodes();
    return c;
}

void
ProvisioningModel::EnsureTopology()
{
    if (!m_storage)
    {
        throw std::logic_error("ProvisioningModel: SetCluster was not called");
    }
    // pool nodes hang off the same rails as the trainers (rebuilt if PoolNodes changed)
    if (!m_topology || m_topology->GetConfig().nodes != m_cluster.nodes + PoolNodes())
    {
        m_topology = std::make_unique<RailTopology>(FabricConfig());
        m_railLinkOf.clear();
        m_staticBuilt = false;
        m_paths.clear();
        m_peerPaths.clear();
        ForgetUsages();
    }
}

const RailTopology&
ProvisioningModel::Topology() const
{
    if (!m_topology)
    {
        throw std::logic_error("ProvisioningModel: no topology before the first Solve");
    }
    return *m_topology;
}

Ptr<StorageBackend>
ProvisioningModel::Storage() const
{
    return m_storage;
}

const ProvisioningUtilization&
ProvisioningModel::GetUtilization() const
{
    if (!m_utilValid && m_solved)
    {
        ComputeUtilization();
    }
    return m_util;
}

const std::string&
ProvisioningModel::KindName(uint8_t kind)
{
    static const std::string names[] = {"pcie-device",
                                        "rail",
                                        "host-memory",
                                        "pcie-uplink",
                                        "cpu",
                                        "pool-cpu",
                                        "storage-nic",
                                        "storage",
                                        "storage-client"};
    return names[kind];
}

uint32_t
ProvisioningModel::AddResource(double capacity, Kind kind) const
{
    m_caps.push_back(SolverCapacity(capacity));
    m_kinds.push_back(kind);
    return static_cast<uint32_t>(m_caps.size() - 1);
}

uint32_t
ProvisioningModel::JobIndex(const ProvisioningJob& job) const
{
    if (!m_jobs || m_jobs->empty() || &job < m_jobs->data() ||
        &job >= m_jobs->data() + m_jobs->size())
    {
        throw std::logic_error("ProvisioningModel: a loader asked for a storage client of a job "
                               "outside the current Solve");
    }
    return static_cast<uint32_t>(&job - m_jobs->data());
}

uint32_t
ProvisioningModel::Client(const ProvisioningJob& job, uint32_t node, double samples) const
{
    if (m_poolZeroProbe)
    {
        return m_staticCount; // a probe's usage is dropped: no client is made or recorded
    }
    uint32_t k = JobIndex(job);
    ClientSlot* slot = &ClientSlotOf(k, node);
    if (slot->stamp != m_clientStamp)
    {
        if (2 * (m_clients.size() + 1) > m_clientTable.size())
        {
            // grow (the table stays at most half full) and place this Solve's clients again
            m_clientTable.assign(std::max<size_t>(64, 4 * m_clientTable.size()), ClientSlot{});
            for (uint32_t i = 0; i < m_clients.size(); ++i)
            {
                ClientSlot& s = ClientSlotOf(m_clients[i].job, m_clients[i].node);
                s = {m_clientStamp, m_clients[i].job, m_clients[i].node, i};
            }
            slot = &ClientSlotOf(k, node);
        }
        // capacity set by SizeClients once every flow has said what it reads through it
        *slot = {m_clientStamp, k, node, static_cast<uint32_t>(m_clients.size())};
        m_clients.push_back({k, node, AddResource(kUnbounded, KIND_STORAGE_CLIENT), 0.0});
    }
    ClientRec& c = m_clients[slot->index];
    c.inFlight += samples;
    if (m_recording)
    {
        m_recording->push_back({{node, samples}, c.res});
    }
    return c.res;
}

ProvisioningModel::ClientSlot&
ProvisioningModel::ClientSlotOf(uint32_t job, uint32_t node) const
{
    if (m_clientTable.empty())
    {
        m_clientTable.assign(64, ClientSlot{});
    }
    size_t mask = m_clientTable.size() - 1;
    // every bit of the job and of the node reaches the low bits (a product alone left the
    // job out of them, so a pool node's clients of every job shared one probe chain)
    uint64_t h = SplitMixFinal(static_cast<uint64_t>(job) << 32 | node);
    for (size_t i = h & mask;; i = (i + 1) & mask)
    {
        ClientSlot& s = m_clientTable[i];
        if (s.stamp != m_clientStamp || (s.job == job && s.node == node))
        {
            return s; // empty (for this Solve), or its own
        }
    }
}

void
ProvisioningModel::SizeClients()
{
    // A GPU's loader keeps PrefetchDepth x localBatch samples in flight; a client serving a
    // share s of the raw reads of n GPUs has depth x batch x (sum of s) reads outstanding and,
    // below its bandwidth cap, is latency bound (StorageBackend::ClientThroughput).
    for (const auto& c : m_clients)
    {
        const WorkloadProfile& p = *m_jobs->at(c.job).profile;
        double outstanding = m_prefetchDepth * std::max(1u, p.localBatch) * c.inFlight;
        double cap = m_storage->ClientThroughput(p.rawBytesPerSample,
                                                 static_cast<uint32_t>(std::ceil(outstanding)));
        m_caps[c.res] = SolverCapacity(cap);
    }
}

void
ProvisioningModel::BuildResources()
{
    // The links' and nodes' resources change only with the topology and the attributes below:
    // a replay solves at every scheduling pass, so they are built once and only the storage
    // clients (per job) are made anew.
    double poolCores = m_dppCoresAlias > 0 ? m_dppCoresAlias : m_poolCores;
    const double scalars[] = {poolCores,
                              m_cpuCores,
                              m_poolFrontend,
                              m_frontendBandwidth,
                              m_poolDram,
                              m_dramBandwidth,
                              m_storage->AggregateBandwidth(),
                              static_cast<double>(m_cluster.nodes),
                              static_cast<double>(PoolNodes())};
    constexpr size_t nScalars = sizeof(scalars) / sizeof(scalars[0]);
    m_clients.clear();
    ++m_clientStamp; // every slot of m_clientTable empty
    // compared in place (DescribeJob asks at every (re)description of a job)
    bool sameScalars = m_staticBuilt && m_staticKey.size() >= nScalars &&
                       std::equal(scalars, scalars + nScalars, m_staticKey.begin());
    // The reserve is compared only if SetRailReserve moved it since the last build: a pass
    // describes many jobs, each asking here, and the reserve is as long as the cluster.
    const bool reserveMoved = m_reserveMoved;
    m_reserveMoved = false;
    if (sameScalars && m_staticKey.size() == nScalars + m_railReserve.size() &&
        (!reserveMoved ||
         std::equal(m_railReserve.begin(), m_railReserve.end(), m_staticKey.begin() + nScalars)))
    {
        m_caps.resize(m_staticCount);
        m_kinds.resize(m_staticCount);
        return;
    }
    if (sameScalars && m_staticKey.size() == nScalars + m_railReserve.size() && m_reserveLinksValid)
    {
        UpdateReserveCaps(m_staticKey.data() + nScalars);
        return;
    }
    // Only the rail reserve moved (gradient sync started or stopped somewhere): the same
    // resources with other capacities on training nodes' rails. The kept usages stay valid
    // if the pool twins do; their dominant shares are computed again when next used.
    bool keepUsages = sameScalars;
    ++m_nStaticBuilds;
    std::vector<uint32_t> twinRep;
    std::vector<uint32_t> twinCount;
    bool twinsValid = m_twinsValid;
    if (keepUsages)
    {
        twinRep.swap(m_twinRep);
        twinCount.swap(m_twinCount);
    }
    m_caps.clear();
    m_kinds.clear();
    const RailTopology& t = Topology();
    std::vector<std::pair<uint32_t, uint32_t>> reserveLinks; // (node, link) where it applies
    for (uint32_t l = 0; l < t.GetLinks().size(); ++l)
    {
        const auto& link = t.GetLinks()[l];
        RailVertexKind a = t.GetVertex(link.a).kind;
        RailVertexKind b = t.GetVertex(link.b).kind;
        auto has = [&](RailVertexKind k) { return a == k || b == k; };
        Kind kind = KIND_PCIE_DEVICE;
        if (!link.inNode)
        {
            kind = KIND_RAIL;
        }
        else if (has(RailVertexKind::HOST_MEMORY))
        {
            kind = KIND_HOST_MEMORY;
        }
        else if (has(RailVertexKind::ROOT_COMPLEX))
        {
            kind = KIND_PCIE_UPLINK;
        }
        double reserve = 0;
        if (!link.inNode && !m_railReserve.empty())
        {
            // A node's rail link gives other traffic (gradient sync) its share of the reserve.
            int32_t node = -1;
            for (uint32_t end : {link.a, link.b})
            {
                const auto& v = t.GetVertex(end);
                if (v.kind == RailVertexKind::NIC && v.node >= 0 &&
                    static_cast<uint32_t>(v.node) < m_railReserve.size())
                {
                    node = v.node;
                }
            }
            if (node >= 0)
            {
                reserve = ReservedOnLink(static_cast<uint32_t>(node));
                reserveLinks.emplace_back(static_cast<uint32_t>(node), l);
            }
        }
        AddResource(link.bytesPerSec - reserve, kind);
        AddResource(link.bytesPerSec - reserve, kind);
    }
    IndexReserveLinks(reserveLinks);
    uint32_t n = m_cluster.nodes;
    m_res = Resources{};
    for (uint32_t i = 0; i < n + PoolNodes(); ++i)
    {
        bool pool = i >= n;
        m_res.cpu.push_back(
            AddResource(pool ? poolCores : m_cpuCores, pool ? KIND_POOL_CPU : KIND_CPU));
        m_res.frontend.push_back(
            AddResource(pool ? m_poolFrontend : m_frontendBandwidth, KIND_STORAGE_NIC));
        m_res.dram.push_back(AddResource(pool ? m_poolDram : m_dramBandwidth, KIND_HOST_MEMORY));
    }
    m_res.storage = AddResource(m_storage->AggregateBandwidth(), KIND_STORAGE);
    m_staticCount = static_cast<uint32_t>(m_caps.size());
    m_staticKey.assign(scalars, scalars + nScalars);
    m_staticKey.insert(m_staticKey.end(), m_railReserve.begin(), m_railReserve.end());
    m_staticBuilt = true;
    BuildPoolTwins();
    if (keepUsages && twinsValid == m_twinsValid && twinRep == m_twinRep &&
        twinCount == m_twinCount)
    {
        ++m_capsEpoch; // kept entries: staticShare computed again on reuse
    }
    else
    {
        ForgetUsages();
    }
}

double
ProvisioningModel::ReservedOnLink(uint32_t node) const
{
    return m_railReserve[node] / m_cluster.node.nics;
}

void
ProvisioningModel::IndexReserveLinks(std::vector<std::pair<uint32_t, uint32_t>> links)
{
    std::stable_sort(links.begin(), links.end(), [](const auto& x, const auto& y) {
        return x.first < y.first;
    });
    m_reserveLinkOf.assign(m_railReserve.size() + 1, 0);
    m_reserveLinks.clear();
    // UpdateReserveCaps leaves the pool twins as they are: valid only while no reserved link
    // touches a pool node (whose resources BuildPoolTwins compares). Rails end at switches.
    m_reserveLinksValid = true;
    const RailTopology& t = Topology();
    auto inPool = [&](uint32_t v) {
        int32_t node = t.GetVertex(v).node;
        return node >= static_cast<int32_t>(m_cluster.nodes);
    };
    for (const auto& [node, l] : links)
    {
        ++m_reserveLinkOf[node + 1];
        m_reserveLinks.push_back(l);
        const auto& link = t.GetLinks()[l];
        m_reserveLinksValid = m_reserveLinksValid && !inPool(link.a) && !inPool(link.b);
    }
    std::partial_sum(m_reserveLinkOf.begin(), m_reserveLinkOf.end(), m_reserveLinkOf.begin());
}

void
ProvisioningModel::UpdateReserveCaps(const double* before)
{
    // The caps BuildResources would give, computed the same way, for the nodes whose reserve
    // changed (an event-driven replay moves a few per pass; a rebuild visits every link).
    m_caps.resize(m_staticCount);
    m_kinds.resize(m_staticCount);
    const RailTopology& t = Topology();
    for (uint32_t node = 0; node < m_railReserve.size(); ++node)
    {
        if (m_railReserve[node] == before[node])
        {
            continue;
        }
        for (uint32_t i = m_reserveLinkOf[node]; i < m_reserveLinkOf[node + 1]; ++i)
        {
            uint32_t l = m_reserveLinks[i];
            double cap = SolverCapacity(t.GetLinks()[l].bytesPerSec - ReservedOnLink(node));
            m_caps[2 * l] = cap;
            m_caps[2 * l + 1] = cap;
        }
    }
    std::copy(m_railReserve.begin(), m_railReserve.end(), m_staticKey.end() - m_railReserve.size());
    ++m_capsEpoch; // as a rebuild with the same pool twins: kept usages, shares computed again
}

void
ProvisioningModel::BuildPoolTwins()
{
    // Pool nodes are built from one template: vertex i of pool node q and its j-th link are
    // those of pool node 0, when the kinds, positions and capacities say so. Twins must
    // carry higher ids than their pool-node-0 resource (the solvers keep the lowest id of a
    // set of identical constraints).
    uint32_t n = m_cluster.nodes;
    uint32_t pool = PoolNodes();
    auto untwin = [&]() { // every resource its own
        m_twinRep.resize(m_caps.size());
        std::iota(m_twinRep.begin(), m_twinRep.end(), 0u);
        m_twinCount.assign(m_caps.size(), 0);
    };
    untwin();
    m_twinsValid = false;
    m_twinsRefused = false;
    m_poolSharesSwitches = false;
    if (pool < 2)
    {
        return;
    }
    const RailTopology& t = Topology();
    std::vector<std::vector<uint32_t>> verts(pool); // per pool node, by position in the node
    for (uint32_t v = 0; v < t.GetNVertices(); ++v)
    {
        const auto& x = t.GetVertex(v);
        if (x.node >= static_cast<int32_t>(n) && x.node < static_cast<int32_t>(n + pool))
        {
            auto& list = verts[x.node - n];
            list.resize(std::max<size_t>(list.size(), x.nodeLocal + 1), kUnused);
            list[x.nodeLocal] = v;
        }
    }
    auto twin = [&](uint32_t member, uint32_t rep) {
        if (!(rep < member) || m_caps[rep] != m_caps[member] || m_kinds[rep] != m_kinds[member])
        {
            return false;
        }
        m_twinRep[member] = rep;
        ++m_twinCount[rep];
        return true;
    };
    for (uint32_t q = 1; q < pool; ++q)
    {
        if (verts[q].size() != verts[0].size())
        {
            return untwin();
        }
        for (uint32_t i = 0; i < verts[0].size(); ++i)
        {
            uint32_t a = verts[0][i];
            uint32_t b = verts[q][i];
            if (a == kUnused || b == kUnused || t.GetVertex(a).kind != t.GetVertex(b).kind ||
                t.GetAdjacentLinks(a).size() != t.GetAdjacentLinks(b).size())
            {
                return untwin();
            }
            for (uint32_t j = 0; j < t.GetAdjacentLinks(a).size(); ++j)
            {
                uint32_t la = t.GetAdjacentLinks(a)[j];
                uint32_t lb = t.GetAdjacentLinks(b)[j];
                const auto& oa = t.GetVertex(t.OtherEnd(a, la));
                const auto& ob = t.GetVertex(t.OtherEnd(b, lb));
                bool inA = oa.node == static_cast<int32_t>(n);
                bool inB = ob.node == static_cast<int32_t>(n + q);
                if (inA != inB || oa.kind != ob.kind || (inA && oa.nodeLocal != ob.nodeLocal))
                {
                    return untwin();
                }
                uint32_t da = t.DirectedLink(a, la);
                uint32_t db = t.DirectedLink(b, lb);
                if (m_twinRep[db] != db)
                {
                    if (m_twinRep[db] != da)
                    {
                        return untwin();
                    }
                    continue; // an in-node link, mapped from its other end
                }
                if (!twin(db, da) || !twin(db ^ 1u, da ^ 1u))
                {
                    return untwin();
                }
            }
        }
        for (const auto* list : {&m_res.cpu, &m_res.frontend, &m_res.dram})
        {
            if (!twin(list->at(n + q), list->at(n)))
            {
                return untwin();
            }
        }
    }
    m_twinsValid = true;
    // The twins map each pool node's NIC uplinks to pool node 0's, whatever switch they
    // reach; AddOverPool's paths also need the same switches (one leaf group for the pool).
    auto switchesOf = [&](uint32_t node, uint32_t nic, std::vector<uint32_t>& out) {
        out.clear();
        uint32_t v = t.Nic(node, nic);
        for (uint32_t l : t.GetAdjacentLinks(v))
        {
            if (!t.GetLinks()[l].inNode)
            {
                out.push_back(t.OtherEnd(v, l));
            }
        }
    };
    std::vector<uint32_t> first;
    std::vector<uint32_t> other;
    for (uint32_t r = 0; r < m_cluster.node.nics; ++r)
    {
        switchesOf(n, r, first);
        for (uint32_t q = 1; q < pool; ++q)
        {
            switchesOf(n + q, r, other);
            if (other != first)
            {
                return;
            }
        }
    }
    m_poolSharesSwitches = true;
}

void
ProvisioningModel::AddPath(uint32_t src, uint32_t dst, uint32_t rail, double bytes, UsageBuilder& u)
    const
{
    if (bytes <= 0 || src == dst)
    {
        return;
    }
    const RailTopology& t = Topology();
    int32_t ns = t.GetVertex(src).node;
    int32_t nd = t.GetVertex(dst).node;
    CachedPath uncached;
    const CachedPath* path = &uncached;
    if (src >= (1u << 24) || dst >= (1u << 24) || rail >= (1u << 16))
    {
        uncached.links = RouteLinks(src, dst, rail); // oneChoice left false
    }
    else
    {
        uint64_t key =
            (static_cast<uint64_t>(src) << 40) | (static_cast<uint64_t>(dst) << 16) | rail;
        auto it = m_paths.find(key);
        if (it == m_paths.end())
        {
            CachedPath p;
            p.links = RouteLinks(src, dst, rail);
            // ECMP hashes the source: with a choice somewhere, another pool node's path may
            // take other links
            p.oneChoice = true;
            const auto [srcNic, dstNic] = RouteNics(src, dst, rail);
            uint32_t at = src;
            for (uint32_t l : p.links)
            {
                uint32_t target = t.Waypoint(at, dst, srcNic, dstNic);
                p.oneChoice = p.oneChoice && t.NextHopLinks(at, target).size() == 1;
                at = t.OtherEnd(at, l / 2);
            }
            it = m_paths.emplace(key, std::move(p)).first;
        }
        path = &it->second;
    }
    if (m_inPoolZeroBody &&
        !(path->oneChoice && m_poolSharesSwitches && ns == static_cast<int32_t>(PoolNode(0)) &&
          nd >= 0 && static_cast<uint32_t>(nd) < m_cluster.nodes))
    {
        // not known to be every pool node's path alike (pool node q's mapped to its twins,
        // the rest the same links): the usage is built over every pool node
        m_poolZeroRefused = true;
    }
    for (uint32_t l : path->links)
    {
        u.Add(l, bytes * m_wireFactor);
    }
    u.AddTransfer({src, dst, rail, bytes});
}

std::pair<uint32_t, uint32_t>
ProvisioningModel::RouteNics(uint32_t src, uint32_t dst, uint32_t rail) const
{
    const RailTopology& t = Topology();
    int32_t ns = t.GetVertex(src).node;
    int32_t nd = t.GetVertex(dst).node;
    if (ns == nd)
    {
        return {0, 0}; // inside a node: no NIC
    }
    return {t.Nic(ns, rail), t.Nic(nd, rail)};
}

std::vector<uint32_t>
ProvisioningModel::RouteLinks(uint32_t src, uint32_t dst, uint32_t rail) const
{
    const auto [srcNic, dstNic] = RouteNics(src, dst, rail);
    uint64_t flowId = (static_cast<uint64_t>(src) << 32) | dst;
    return Topology().Path(src, dst, srcNic, dstNic, flowId);
}

void
ProvisioningModel::AddPathsFromPeers(uint32_t node,
                                     uint32_t rail,
                                     double bytes,
                                     UsageBuilder& u) const
{
    const RailTopology& t = Topology();
    const uint32_t nodes = TrainingNodes();
    const uint32_t dst = t.HostMemory(node);
    if (bytes <= 0 || m_inPoolZeroBody)
    {
        // nothing to add, or a pool node 0 build: AddPath checks each path
        for (uint32_t src = 0; src < nodes; ++src)
        {
            if (src != node)
            {
                AddPath(t.HostMemory(src), dst, rail, bytes, u);
            }
        }
        return;
    }
    uint64_t key = (static_cast<uint64_t>(node) << 32) | rail;
    auto it = m_peerPaths.find(key);
    if (it == m_peerPaths.end())
    {
        std::vector<uint32_t> links;
        for (uint32_t src = 0; src < nodes; ++src)
        {
            if (src != node)
            {
                std::vector<uint32_t> path = RouteLinks(t.HostMemory(src), dst, rail);
                links.insert(links.end(), path.begin(), path.end());
            }
        }
        it = m_peerPaths.emplace(key, std::move(links)).first;
    }
    const double weight = bytes * m_wireFactor; // AddPath's, per link
    for (uint32_t l : it->second)
    {
        u.Add(l, weight);
    }
    for (uint32_t src = 0; src < nodes; ++src)
    {
        if (src != node)
        {
            u.AddTransfer({t.HostMemory(src), dst, rail, bytes});
        }
    }
}

void
ProvisioningModel::AddOverPool(UsageBuilder& u, const std::function<void(uint32_t)>& body) const
{
    uint32_t pool = PoolNodes();
    if (!m_poolZeroBuild || pool < 2)
    {
        for (uint32_t q = 0; q < pool; ++q)
        {
            body(q);
        }
        return;
    }
    m_poolZeroSeen = true;
    size_t from = u.Size();
    m_inPoolZeroBody = true;
    body(0);
    m_inPoolZeroBody = false;
    if (!m_poolZeroProbe)
    {
        // Pool nodes 1 .. P-1 would add the same weights on the resources off the pool
        // (storage, the GPU's rail and PCIe links), in the same order; their own resources
        // are pool node 0's twins, left out of a compact pass, as are their clients.
        u.AddAgain(from, pool - 1, [this](uint32_t r) { return !OnPoolNodeZero(r); });
    }
}

bool
ProvisioningModel::OnPoolNodeZero(uint32_t r) const
{
    if (r < m_staticCount)
    {
        return m_twinCount[r] > 0;
    }
    // a storage client: Client() numbers them after the static resources, in m_clients' order
    const ClientRec& c = m_clients.at(r - m_staticCount);
    NS_ASSERT_MSG(c.res == r, "storage clients are numbered in m_clients' order");
    return c.node == PoolNode(0);
}

bool
ProvisioningModel::BuildFromPoolNodeZero(const ProvisioningJob& job,
                                         const CachePlan& plan,
                                         uint32_t node,
                                         uint32_t firstGpu,
                                         uint32_t count,
                                         CachedUsage& c)
{
    // Only a loader whose samples pass through the pool spreads them over it (AddOverPool);
    // for the others (Alluxio, local) the probe would build the whole usage to find that out,
    // once per new flow: a full build is what they get anyway.
    if (!m_buildFromPoolNodeZero || !m_compactPass || !m_twinsValid || !m_poolSharesSwitches ||
        !m_loader->ReadsThroughPool(*this))
    {
        return false;
    }

    // The flags hold while this function runs, however it ends.
    struct PoolZeroFlags
    {
        ProvisioningModel* m;

        ~PoolZeroFlags()
        {
            m->m_poolZeroBuild = false;
            m->m_poolZeroProbe = false;
            m->m_inPoolZeroBody = false;
        }
    } flags{this};

    // A probe first, with no side effect (no client is made): does the usage go through
    // AddOverPool, and is every path it takes there alike from every pool node?
    m_poolZeroBuild = true;
    m_poolZeroProbe = true;
    m_poolZeroSeen = false;
    m_poolZeroRefused = false;
    FlowUsage(job, plan, node, firstGpu, count, nullptr); // dropped
    m_poolZeroProbe = false;
    if (!m_poolZeroSeen || m_poolZeroRefused)
    {
        return false;
    }
    std::vector<std::pair<ClientCall, uint32_t>> calls;
    UsageBuilder u = FlowUsage(job, plan, node, firstGpu, count, &calls);
    NS_ASSERT_MSG(!m_poolZeroRefused, "the build took other paths than its probe");
    // As CompactUsage would leave the full build's entry (symmetric, full lists dropped):
    // the Client() calls are those on pool node 0 and off the pool, all kept.
    c.compact = u.Take();
    ClientCallsOf(c.compact, calls, c.compactClientCall, c.compactClients);
    for (uint32_t i = 0; i < calls.size(); ++i)
    {
        c.calls.push_back(calls[i].first);
        c.compactCalls.push_back(i);
    }
    c.symmetric = true;
    c.fullDropped = true;
    ++m_nPoolZeroBuilds;
    return true;
}

UsageBuilder
ProvisioningModel::FlowUsage(const ProvisioningJob& job,
                             const CachePlan& plan,
                             uint32_t node,
                             uint32_t firstGpu,
                             uint32_t count,
                             std::vector<std::pair<ClientCall, uint32_t>>* calls)
{
    // Client() records its calls while m_recording is set: cleared however the build ends.
    struct Recording
    {
        ProvisioningModel* m;

        ~Recording()
        {
            m->m_recording = nullptr;
        }
    } recording{this};

    m_recording = calls;
    UsageBuilder u;
    // room for as many weights per GPU as the last build had (an Alluxio usage adds thousands
    // per GPU: grown by doubling, its copies were 3% of an Alluxio replay)
    u.Reserve(m_weightsPerGpu * count);
    for (uint32_t i = 0; i < count; ++i)
    {
        m_loader->AddSampleUsage(*this, job, plan, node, firstGpu + i, u);
    }
    m_weightsPerGpu = u.Size() / std::max(1u, count);
    return u;
}

void
ProvisioningModel::ClientCallsOf(const std::vector<MaxMinSolver::Usage>& usage,
                                 const std::vector<std::pair<ClientCall, uint32_t>>& calls,
                                 std::vector<int32_t>& clientCall,
                                 std::vector<uint32_t>& clientEntries)
{
    // Each entry's first call with its resource: calls sorted by (resource, call), then
    // looked up (a scan per entry cost entries x calls: 88 pool nodes x 8 GPUs of calls)
    std::vector<std::pair<uint32_t, int32_t>>& byRes = m_callsByRes;
    byRes.clear();
    for (size_t i = 0; i < calls.size(); ++i)
    {
        byRes.emplace_back(calls[i].second, static_cast<int32_t>(i));
    }
    std::sort(byRes.begin(), byRes.end());
    clientCall.assign(usage.size(), -1);
    clientEntries.clear();
    for (size_t e = 0; e < usage.size(); ++e)
    {
        auto at = std::lower_bound(byRes.begin(),
                                   byRes.end(),
                                   std::make_pair(usage[e].first, int32_t{-1}));
        if (at != byRes.end() && at->first == usage[e].first)
        {
            clientCall[e] = at->second;
            clientEntries.push_back(static_cast<uint32_t>(e));
        }
    }
}

void
ProvisioningModel::AddStorageToHost(const ProvisioningJob& job,
                                    uint32_t node,
                                    double bytes,
                                    UsageBuilder& u) const
{
    if (bytes <= 0)
    {
        return;
    }
    const RailTopology& t = Topology();
    u.Add(m_res.storage, bytes);
    u.Add(Client(job, node, bytes / job.profile->rawBytesPerSample), bytes);
    u.Add(m_res.frontend.at(node), bytes);
    // The storage NIC sits on its own root port: its DMA enters host memory through the
    // memory port (root complex -> memory), not through the GPUs' PCIe switches.
    uint32_t mem = t.HostMemory(node);
    for (uint32_t l : t.GetAdjacentLinks(mem))
    {
        u.Add(t.DirectedLink(t.OtherEnd(mem, l), l), bytes);
    }
    u.Add(m_res.dram.at(node), bytes);
}

void
ProvisioningModel::AddHostToGpu(uint32_t node, uint32_t gpu, double bytes, UsageBuilder& u) const
{
    // pinned staging copy (read + write) then the GPU's DMA read over PCIe
    u.Add(m_res.cpu.at(node), bytes * m_copyCpuPerByte);
    u.Add(m_res.dram.at(node), 3 * bytes);
    const RailTopology& t = Topology();
    AddPath(t.HostMemory(node), t.Gpu(node, gpu), gpu % m_cluster.node.nics, bytes, u);
}

std::vector<ProvisioningJobResult>
ProvisioningModel::Solve(const std::vector<ProvisioningJob>& jobs)
{
    if (!m_loader)
    {
        throw std::logic_error("ProvisioningModel::Solve: no loader set");
    }
    EnsureTopology();
    std::vector<uint32_t> used(m_cluster.nodes, 0);
    for (const auto& j : jobs)
    {
        if (!j.profile)
        {
            throw std::invalid_argument("ProvisioningModel::Solve: job '" + j.name +
                                        "' has no workload profile");
        }
        for (const auto& [node, g] : j.gpusOnNode)
        {
            if (node >= m_cluster.nodes || used[node] + g > m_cluster.node.gpus)
            {
                throw std::invalid_argument("ProvisioningModel::Solve: job '" + j.name +
                                            "' places " + std::to_string(g) + " GPUs on node " +
                                            std::to_string(node) + ", beyond the cluster (" +
                                            std::to_string(m_cluster.nodes) + " nodes x " +
                                            std::to_string(m_cluster.node.gpus) + " GPUs)");
            }
            used[node] += g;
        }
        if (!j.firstGpu.empty() && j.firstGpu.size() != j.gpusOnNode.size())
        {
            throw std::invalid_argument("ProvisioningModel::Solve: job '" + j.name + "' gives " +
                                        std::to_string(j.firstGpu.size()) + " first GPUs for " +
                                        std::to_string(j.gpusOnNode.size()) + " nodes");
        }
        for (size_t e = 0; e < j.firstGpu.size(); ++e)
        {
            if (j.firstGpu[e] + j.gpusOnNode[e].second > m_cluster.node.gpus)
            {
                throw std::invalid_argument("ProvisioningModel::Solve: job '" + j.name +
                                            "' has GPUs beyond index " +
                                            std::to_string(m_cluster.node.gpus - 1) + " on node " +
                                            std::to_string(j.gpusOnNode[e].first));
            }
        }
    }
    bool compact = m_mergePoolTwins && m_aggregate && m_reuseUsages;
    std::optional<std::vector<ProvisioningJobResult>> out = SolvePass(jobs, compact);
    if (!out)
    {
        out = SolvePass(jobs, false);
    }
    return std::move(*out);
}

std::optional<std::vector<ProvisioningJobResult>>
ProvisioningModel::SolvePass(const std::vector<ProvisioningJob>& jobs, bool compact)
{
    m_jobs = &jobs;
    BuildResources();
    m_compactPass = compact && m_twinsValid && !m_twinsRefused;
    m_compactBroken = false;
    SweepUsages();        // bounded: plans and placements vary over a long replay
    m_flowCached.clear(); // entries of m_usages stay in place until the next Solve
    m_utilFresh = false;
    std::vector<CachePlan> plans = m_loader->PlanCaches(*this, jobs);
    m_flows.clear();
    PassFlows flows;
    if (!DescribeFlows(jobs, plans, flows))
    {
        // A flow not alike on every pool node: this loader's flows are not (KSpeed's
        // Local), so this and later passes take the full usages.
        m_twinsRefused = true;
        m_jobs = nullptr;
        return std::nullopt;
    }
    const auto& usageOf = m_usageOf;
    SizeClients();
    m_solved = false;
    m_fast =
        m_skipFeasible && SolveFeasible(usageOf, flows.jobOf, flows.groupSize, flows.demand, jobs);
    m_nFast += m_fast ? 1 : 0;
    // SolveFeasible found some resource over capacity but computed every flow's unit and
    // cap, and no two flows alike: the reduced solver gives the full solver's results.
    m_reduced = !m_fast && m_skipFeasible && m_overloadedOnly && m_distinctFlows &&
                m_flowUnit.size() == usageOf.size();
    if (m_compactPass && !m_fast && !m_reduced)
    {
        m_jobs = nullptr;
        return std::nullopt; // the full solver needs every pool node's resources
    }
    flows.solverId.assign(usageOf.size(), -1);
    flows.unit.assign(usageOf.size(), 1.0);
    if (m_reduced)
    {
        SolveReduced(usageOf);
        ++m_nReduced;
    }
    else if (!m_fast)
    {
        SolveWithSolver(jobs, flows);
    }
    for (size_t f = 0; f < m_flows.size(); ++f)
    {
        m_flows[f].rate = PerGpuRate(f, flows);
    }
    std::vector<ProvisioningJobResult> out;
    out.reserve(jobs.size());
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        out.push_back(JobResult(k, jobs[k], plans[k], flows));
    }
    m_utilValid = false; // computed when asked for
    m_solved = true;
    m_nCompact += m_compactPass ? 1 : 0;
    m_jobs = nullptr;
    return out;
}

std::vector<MaxMinSolver::Usage>&
ProvisioningModel::NewUsage()
{
    if (m_spareUsage.empty())
    {
        m_usageOf.emplace_back();
    }
    else
    {
        m_usageOf.push_back(std::move(m_spareUsage.back()));
        m_spareUsage.pop_back();
        m_usageOf.back().clear();
    }
    return m_usageOf.back();
}

bool
ProvisioningModel::DescribeFlows(const std::vector<ProvisioningJob>& jobs,
                                 const std::vector<CachePlan>& plans,
                                 PassFlows& flows)
{
    // the last Solve's lists are kept for this one's flows
    for (auto& list : m_usageOf)
    {
        m_spareUsage.push_back(std::move(list));
    }
    m_usageOf.clear();
    std::vector<uint32_t> used(m_cluster.nodes, 0); // per node: GPUs handed out so far
    flows.flowsOf.resize(jobs.size());
    flows.demand.resize(jobs.size());
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        const auto& j = jobs[k];
        flows.demand[k] = j.GpuDemand();
        for (size_t e = 0; e < j.gpusOnNode.size(); ++e)
        {
            const auto& [node, count] = j.gpusOnNode[e];
            // its GPUs' indices: as the caller holds them, or after the jobs' before it
            uint32_t gpu = j.firstGpu.empty() ? used[node] : j.firstGpu[e];
            used[node] += count;
            if (m_aggregate && m_reuseUsages)
            {
                // aggregated: one flow carries the node's GPUs of the job (usages summed)
                flows.flowsOf[k].push_back(static_cast<uint32_t>(m_usageOf.size()));
                ReusedUsage(j, plans[k], node, gpu, count, NewUsage());
                if (m_compactBroken)
                {
                    return false;
                }
                flows.jobOf.push_back(static_cast<uint32_t>(k));
                flows.groupSize.push_back(count);
                continue;
            }
            AddBuiltFlows(k, jobs, plans[k], node, gpu, count, flows);
        }
    }
    return true;
}

void
ProvisioningModel::AddBuiltFlows(size_t k,
                                 const std::vector<ProvisioningJob>& jobs,
                                 const CachePlan& plan,
                                 uint32_t node,
                                 uint32_t gpu,
                                 uint32_t count,
                                 PassFlows& flows)
{
    const auto& j = jobs[k];
    // aggregated: one flow carries the node's GPUs of the job (usages summed); else one per GPU
    uint32_t groups = m_aggregate ? 1 : count;
    uint32_t perGroup = m_aggregate ? count : 1;
    for (uint32_t c = 0; c < groups; ++c)
    {
        UsageBuilder u;
        for (uint32_t i = 0; i < perGroup; ++i)
        {
            m_loader->AddSampleUsage(*this, j, plan, node, gpu++, u);
        }
        if (!m_aggregate)
        {
            ProvisioningFlow f;
            f.job = static_cast<uint32_t>(k);
            f.node = node;
            f.gpu = gpu - 1;
            f.demand = flows.demand[k];
            f.transfers = u.Transfers();
            m_flows.push_back(std::move(f));
        }
        auto usage = u.Take();
        if (!m_aggregate)
        {
            m_flows.back().usage = usage;
        }
        flows.flowsOf[k].push_back(static_cast<uint32_t>(m_usageOf.size()));
        NewUsage() = std::move(usage);
        flows.jobOf.push_back(static_cast<uint32_t>(k));
        flows.groupSize.push_back(perGroup);
    }
}

void
ProvisioningModel::SolveWithSolver(const std::vector<ProvisioningJob>& jobs, PassFlows& flows)
{
    const auto& usageOf = m_usageOf;
    // The solver holds only the resources some flow uses, renumbered in ascending id order:
    // every order the fill depends on (ties between resources, component walks) is the same
    // as over all resources, so are the rates, and the solver's size follows the running jobs.
    for (uint32_t r : m_used)
    {
        m_localOf[r] = kUnused;
    }
    m_used.clear();
    m_localOf.resize(m_caps.size(), kUnused);
    for (const auto& usage : usageOf)
    {
        for (const auto& [r, w] : usage)
        {
            if (m_localOf[r] == kUnused)
            {
                m_localOf[r] = 0; // marked; numbered below
                m_used.push_back(r);
            }
        }
    }
    std::sort(m_used.begin(), m_used.end());
    std::vector<double> usedCaps(m_used.size());
    for (uint32_t i = 0; i < m_used.size(); ++i)
    {
        m_localOf[m_used[i]] = i;
        usedCaps[i] = m_caps[m_used[i]];
    }
    if (m_solver)
    {
        m_solver->Reset(usedCaps); // as new, its buffers kept
    }
    else
    {
        m_solver = std::make_unique<MaxMinSolver>(usedCaps);
    }
    // No two flows alike (SolveFeasible's hashes differ): every flow makes a class of its
    // own, in the same order, whether or not the solver looks for identical ones.
    bool known = m_skipFeasible && m_flowUnit.size() == usageOf.size();
    if (known && m_distinctFlows)
    {
        m_solver->SetMergeIdenticalFlows(false);
    }
    for (size_t f = 0; f < usageOf.size(); ++f)
    {
        uint32_t k = flows.jobOf[f];
        const auto& usage = usageOf[f];
        if (usage.empty())
        {
            continue; // a sample that uses nothing (no data) is bounded by its GPU alone
        }
        double demand = flows.demand[k];
        double perGpu =
            known ? m_flowUnit[f]
                  : FlowUnit(usage,
                             flows.groupSize[f],
                             demand,
                             jobs[k],
                             m_flowCached.size() == usageOf.size() ? m_flowCached[f] : nullptr);
        flows.unit[f] = perGpu;
        m_scaled.assign(usage.begin(), usage.end());
        for (auto& [res, w] : m_scaled)
        {
            w *= perGpu;
            res = m_localOf[res];
        }
        flows.solverId[f] = m_solver->AddFlow(m_scaled, Finite(demand / perGpu));
    }
    m_solver->SolveAll();
}

double
ProvisioningModel::PerGpuRate(size_t f, const PassFlows& flows) const
{
    if (m_usageOf[f].empty())
    {
        return flows.demand[flows.jobOf[f]];
    }
    if (m_reduced)
    {
        return m_reducedRate[f] * m_flowUnit[f];
    }
    // Without a solver every flow got its cap (SolveFeasible): the solver's rate is the cap.
    return m_fast ? m_flowCap[f] * m_flowUnit[f]
                  : m_solver->GetRate(flows.solverId[f]) * flows.unit[f];
}

ProvisioningJobResult
ProvisioningModel::JobResult(size_t k,
                             const ProvisioningJob& job,
                             const CachePlan& plan,
                             const PassFlows& flows)
{
    const double demand = flows.demand[k];
    ProvisioningJobResult r;
    r.name = job.name;
    r.gpus = job.TotalGpus();
    r.gpuDemand = demand;
    r.cache = plan;
    r.perGpu = std::numeric_limits<double>::infinity();
    uint32_t slowest = 0;
    for (uint32_t f : flows.flowsOf[k])
    {
        double perGpu = PerGpuRate(f, flows);
        if (perGpu < r.perGpu)
        {
            r.perGpu = perGpu;
            slowest = f;
        }
    }
    if (flows.flowsOf[k].empty())
    {
        r.perGpu = 0;
        r.bottleneck = "none";
        return r;
    }
    r.stallFraction =
        std::isfinite(demand) && demand > 0 ? std::max(0.0, 1 - r.perGpu / demand) : 0.0;
    r.bottleneck =
        r.perGpu < Finite(demand) * (1 - 1e-9) ? BottleneckOf(m_usageOf.at(slowest)) : "gpu";
    return r;
}

std::string
ProvisioningModel::BottleneckOf(const std::vector<MaxMinSolver::Usage>& usage)
{
    bool here = m_fast || m_reduced; // loads in m_fastLoad
    if (here && !m_utilFresh)
    {
        // every loaded resource's load / capacity once (LoadOf's quotient), rather than once
        // per usage of every slower-than-demand job
        m_utilOf.resize(m_caps.size(), 0.0);
        for (uint32_t res : m_utilSet)
        {
            m_utilOf[res] = 0.0;
        }
        m_utilSet.assign(m_fastTouched.begin(), m_fastTouched.end());
        for (uint32_t res : m_utilSet)
        {
            m_utilOf[res] = m_fastLoad[res] / m_caps[res];
        }
        m_utilFresh = true;
    }
    std::string bottleneck = "gpu"; // no resource loaded at all
    double worst = 0;
    for (const auto& [res, w] : usage)
    {
        double util = here ? m_utilOf[res] : LoadOf(res) / m_caps[res];
        if (util > worst)
        {
            worst = util;
            bottleneck = KindName(m_kinds[res]);
        }
    }
    return bottleneck;
}

double
ProvisioningModel::FlowUnit(const std::vector<MaxMinSolver::Usage>& usage,
                            uint32_t groupSize,
                            double demand,
                            const ProvisioningJob& job,
                            const CachedUsage* cached,
                            double* clientShare) const
{
    // Every flow rises in units x of its own: one GPU of it receives x * unit samples/s. The
    // unit sets the fairness between unlike jobs: 1 sample/s (Samples), the GPU's demand
    // (DemandFraction) or the samples/s that take all of its dominant resource
    // (DominantShare: x is the dominant share, DRF's progressive filling).
    if (clientShare)
    {
        *clientShare = std::numeric_limits<double>::quiet_NaN(); // not known (no cache entry)
    }
    if (m_fairness != DOMINANT_SHARE)
    {
        return UnitWithoutShare(demand, job);
    }
    double share = 0; // of one GPU's sample: usages are summed over the flow's GPUs
    if (cached)
    {
        // the same maximum (max is exact in any order): the fixed capacities' part was
        // taken when the entry was built, the storage clients' capacities are this Solve's
        share = cached->staticShare;
        double clients = 0;
        bool compact = m_compactPass && cached->symmetric; // usage is the compact list
        for (uint32_t e : compact ? cached->compactClients : cached->clientEntries)
        {
            double s = EntryShare(usage[e], groupSize);
            share = std::max(share, s);
            clients = std::max(clients, s);
        }
        if (clientShare)
        {
            *clientShare = clients;
        }
    }
    else
    {
        share = ShareOver(usage, groupSize);
    }
    return UnitOfShare(share);
}

double
ProvisioningModel::ShareOver(const std::vector<MaxMinSolver::Usage>& usage,
                             uint32_t groupSize) const
{
    double share = 0;
    for (const MaxMinSolver::Usage& entry : usage)
    {
        share = std::max(share, EntryShare(entry, groupSize));
    }
    return share;
}

double
ProvisioningModel::UnitWithoutShare(double demand, const ProvisioningJob& job) const
{
    if (m_fairness == DEMAND_FRACTION)
    {
        uint32_t g = std::max(1u, job.TotalGpus());
        double ref =
            std::isfinite(demand) && demand > 0 ? demand : job.profile->SamplesPerSecond(g) / g;
        return std::isfinite(ref) && ref > 0 ? ref : 1.0;
    }
    return 1.0;
}

double
ProvisioningModel::KeptFlowUnit(const LevelFlow& flow,
                                uint32_t groupSize,
                                double demand,
                                const ProvisioningJob& job) const
{
    if (m_fairness != DOMINANT_SHARE)
    {
        return UnitWithoutShare(demand, job); // no capacity in it
    }
    if (std::isnan(flow.clientShare))
    {
        return flow.clientShare; // not known: equal to no unit, so the job is described again
    }
    // StaticShare's maximum over the same fixed resources (a compact list leaves out pool
    // twins of the same weight and capacity), at today's capacities, then the clients'
    return UnitOfShare(std::max(ShareOver(flow.usage, groupSize), flow.clientShare));
}

bool
ProvisioningModel::SolveFeasible(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf,
                                 const std::vector<uint32_t>& jobOf,
                                 const std::vector<uint32_t>& groupSize,
                                 const std::vector<double>& demand,
                                 const std::vector<ProvisioningJob>& jobs)
{
    // Each resource's demand, sum of weight x cap over the flows in the order the solver adds
    // them (MaxMinSolver::AddDemand): a fresh solver's demand, to the bit. When none exceeds
    // its capacity (less the solver's margin) the solver gives every flow its cap, and a
    // resource's load (weight x rate summed over the classes in creation order) is this same
    // sum, provided no two flows merge into one class (a class adds weight x rate x members
    // once): flows whose usages and caps hash alike take the solver.
    if (m_fastLoad.size() < m_caps.size())
    {
        m_fastLoad.resize(m_caps.size(), 0.0);
    }
    for (uint32_t r : m_fastTouched)
    {
        m_fastLoad[r] = 0.0;
    }
    m_fastTouched.clear();
    m_flowKeys.clear();
    m_flowCap.assign(usageOf.size(), 0.0);
    m_flowUnit.assign(usageOf.size(), 1.0);
    bool ok = true;
    m_distinctFlows = false;
    for (size_t f = 0; f < usageOf.size() && ok; ++f)
    {
        const auto& usage = usageOf[f];
        if (usage.empty())
        {
            continue;
        }
        uint32_t k = jobOf[f];
        double perGpu = FlowUnit(usage,
                                 groupSize[f],
                                 demand[k],
                                 jobs[k],
                                 m_flowCached.size() == usageOf.size() ? m_flowCached[f] : nullptr);
        double cap = Finite(demand[k] / perGpu);
        if (!(cap > 0))
        {
            return false; // the solver reports it
        }
        m_flowUnit[f] = perGpu;
        m_flowCap[f] = cap;
        uint64_t key = Bits(cap);
        for (const auto& [r, w] : usage)
        {
            double scaled = w * perGpu;
            if (r >= m_caps.size() || !(scaled > 0))
            {
                ok = false; // the solver reports it
                break;
            }
            key = MixUsage(key, r, scaled);
            double& load = m_fastLoad[r];
            if (load == 0.0)
            {
                m_fastTouched.push_back(r);
            }
            load += scaled * cap;
        }
        m_flowKeys.push_back(key);
    }
    if (!ok)
    {
        m_flowUnit.clear(); // not all computed
        return false;
    }
    std::sort(m_flowKeys.begin(), m_flowKeys.end());
    m_distinctFlows = std::adjacent_find(m_flowKeys.begin(), m_flowKeys.end()) == m_flowKeys.end();
    for (uint32_t r : m_fastTouched)
    {
        if (m_fastLoad[r] > m_caps[r] * (1 - 1e-9))
        {
            return false;
        }
    }
    return m_distinctFlows;
}

void
ProvisioningModel::SolveReduced(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf)
{
    ListOverCapacity(usageOf);
    std::vector<double> caps;
    std::vector<uint32_t> idOf = KeepDistinctConstraints(caps);
    if (m_solver)
    {
        m_solver->Reset(caps); // as new, its buffers kept
    }
    else
    {
        m_solver = std::make_unique<MaxMinSolver>(caps);
    }
    // Distinct flows made a class each in the full solver: the same here, in the same order.
    m_solver->SetMergeIdenticalFlows(false);
    // Each flow's usages of the kept resources, in its usage's order (m_overUses is in flow
    // order, then usage order).
    std::vector<int64_t> solverId(usageOf.size(), -1);
    for (size_t e = 0; e < m_overUses.size();)
    {
        uint32_t f = std::get<0>(m_overUses[e]);
        m_scaled.clear();
        for (; e < m_overUses.size() && std::get<0>(m_overUses[e]) == f; ++e)
        {
            uint32_t id = idOf[std::get<1>(m_overUses[e])];
            if (id != kUnused)
            {
                m_scaled.emplace_back(id, std::get<2>(m_overUses[e]));
            }
        }
        if (!m_scaled.empty())
        {
            solverId[f] = m_solver->AddFlow(m_scaled, m_flowCap[f]);
        }
    }
    m_solver->SolveAll();
    SetReducedRates(usageOf, solverId);
}

void
ProvisioningModel::ListOverCapacity(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf)
{
    // Resources over capacity at full demand (SolveFeasible's sums, the solver's criterion):
    // only these can bind. Ascending ids, as the full solver numbers its resources, so that
    // ties between levels break the same way.
    m_overList.clear();
    for (uint32_t r : m_fastTouched)
    {
        if (m_fastLoad[r] > m_caps[r] * (1 - 1e-9))
        {
            m_overList.push_back(r);
        }
    }
    std::sort(m_overList.begin(), m_overList.end());
    m_overLocal.resize(m_caps.size(), kUnused);
    if (m_overFlows.size() < m_overList.size())
    {
        m_overFlows.resize(m_overList.size());
    }
    for (uint32_t i = 0; i < m_overList.size(); ++i)
    {
        m_overLocal[m_overList[i]] = i; // list index until KeepDistinctConstraints
        m_overFlows[i].clear();
    }
    m_overUses.clear();
    for (uint32_t f = 0; f < usageOf.size(); ++f)
    {
        for (const auto& [r, w] : usageOf[f])
        {
            if (m_overLocal[r] != kUnused)
            {
                double scaled = w * m_flowUnit[f];
                m_overFlows[m_overLocal[r]].emplace_back(f, scaled);
                m_overUses.emplace_back(f, m_overLocal[r], scaled);
            }
        }
    }
}

std::vector<uint32_t>
ProvisioningModel::KeepDistinctConstraints(std::vector<double>& caps)
{
    // Identical constraints (same capacity, same flows at the same weights) have the same
    // level at every step of the fill and saturate together; the first (lowest id) freezes
    // their flows, so the others are left out. Every other over-capacity resource gets a
    // solver id, in ascending order.
    std::vector<uint32_t> keep(m_overList.size(), 1);
    std::vector<std::pair<uint64_t, uint32_t>> byHash(m_overList.size()); // (hash, list index)
    for (uint32_t i = 0; i < m_overList.size(); ++i)
    {
        uint64_t h = Bits(m_caps[m_overList[i]]);
        for (const auto& [f, w] : m_overFlows[i])
        {
            h = MixUsage(h, f, w);
        }
        byHash[i] = {h, i};
    }
    std::sort(byHash.begin(), byHash.end());
    for (size_t a = 0; a < byHash.size(); ++a)
    {
        for (size_t b = a; b-- > 0 && byHash[b].first == byHash[a].first;)
        {
            uint32_t i = byHash[a].second; // a later resource than j (same hash, sorted)
            uint32_t j = byHash[b].second;
            if (keep[j] && m_caps[m_overList[j]] == m_caps[m_overList[i]] &&
                m_overFlows[j] == m_overFlows[i])
            {
                keep[i] = 0;
                break;
            }
        }
    }
    for (uint32_t i = 0; i < m_overList.size(); ++i)
    {
        m_overLocal[m_overList[i]] = kUnused;
        keep[i] = keep[i] ? static_cast<uint32_t>(caps.size()) : kUnused; // its solver id
        if (keep[i] != kUnused)
        {
            caps.push_back(m_caps[m_overList[i]]);
        }
    }
    return keep;
}

void
ProvisioningModel::SetReducedRates(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf,
                                   const std::vector<int64_t>& solverId)
{
    // Rates (solver units): the solver's, or the cap for flows it does not hold. Loads as the
    // full solver sums them (MaxMinSolver::ComputeLoads): class by class in creation order,
    // which is flow order, weight x rate.
    m_reducedRate.assign(usageOf.size(), 0.0);
    for (uint32_t r : m_fastTouched)
    {
        m_fastLoad[r] = 0.0;
    }
    for (uint32_t f = 0; f < usageOf.size(); ++f)
    {
        if (usageOf[f].empty())
        {
            continue;
        }
        double rate = solverId[f] >= 0 ? m_solver->GetRate(solverId[f]) : m_flowCap[f];
        m_reducedRate[f] = rate;
        for (const auto& [r, w] : usageOf[f])
        {
            m_fastLoad[r] += w * m_flowUnit[f] * rate;
        }
    }
}

std::size_t
ProvisioningModel::UsageKeyHash::operator()(const UsageKey& k) const
{
    std::size_t h = std::hash<const void*>()(k.profile);
    for (double d : {k.rawHit, k.decodedHit, k.bytes})
    {
        h = h * 1000003u ^ std::hash<double>()(d);
    }
    for (uint32_t v : {k.node, k.firstGpu, k.count})
    {
        h = h * 1000003u ^ v;
    }
    return h;
}

void
ProvisioningModel::ReusedUsage(const ProvisioningJob& job,
                               const CachePlan& plan,
                               uint32_t node,
                               uint32_t firstGpu,
                               uint32_t count,
                               std::vector<MaxMinSolver::Usage>& out)
{
    UsageKey key{job.profile, plan.rawHit, plan.decodedHit, plan.bytes, node, firstGpu, count};
    auto it = m_usages.find(key);
    if (it != m_usages.end() && it->second.fullDropped && !(m_compactPass && it->second.symmetric))
    {
        m_usageBytes -= UsageBytes(it->second);
        m_usages.erase(it); // its full usage is needed: built again (no flow of this pass has it)
        it = m_usages.end();
    }
    if (it == m_usages.end())
    {
        CachedUsage c;
        if (BuildFromPoolNodeZero(job, plan, node, firstGpu, count, c))
        {
            StaticShare(c, count); // over the compact lists: the same maximum
        }
        else
        {
            // Built as Solve builds it, with the storage-client requests recorded.
            std::vector<std::pair<ClientCall, uint32_t>> calls;
            c.usage = FlowUsage(job, plan, node, firstGpu, count, &calls).Take();
            ClientCallsOf(c.usage, calls, c.clientCall, c.clientEntries);
            for (const auto& [call, res] : calls)
            {
                c.calls.push_back(call);
            }
            StaticShare(c, count);
            if (m_twinsValid)
            {
                CompactUsage(c);
            }
            if (m_compactPass && c.symmetric)
            {
                // a pass on the compact usages needs only those (and the Client() calls); a
                // pass on the full ones builds the entry again (ReusedUsage): with 88 pool
                // nodes the full list is most of an entry's memory
                c.fullDropped = true;
                std::vector<MaxMinSolver::Usage>().swap(c.usage);
                std::vector<int32_t>().swap(c.clientCall);
                std::vector<uint32_t>().swap(c.clientEntries);
            }
        }
        c.lastUse = m_usageStamp;
        const CachedUsage& stored = m_usages.emplace(key, std::move(c)).first->second;
        m_usageBytes += UsageBytes(stored);
        ++m_nUsagesBuilt;
        m_flowCached.push_back(&stored);
        if (m_compactPass && !stored.symmetric)
        {
            m_compactBroken = true; // this pass is solved again on the full usages
        }
        // built in this Solve: its clients' ids are this Solve's
        out = m_compactPass && stored.symmetric ? stored.compact : stored.usage;
        return;
    }
    // Reused: the same Client() requests, in the same order, give this job its clients (new
    // ids, and the same reads in flight); the rest of the usage is as it was.
    CachedUsage& c = it->second;
    c.lastUse = m_usageStamp;
    if (c.epoch != m_capsEpoch)
    {
        StaticShare(c, count); // the rails' capacities moved since it was built
    }
    m_flowCached.push_back(&c);
    bool compact = m_compactPass && c.symmetric;
    m_compactBroken = m_compactBroken || (m_compactPass && !c.symmetric);
    std::vector<uint32_t>& ids = m_callIds;
    ids.assign(c.calls.size(), kUnused);
    if (compact)
    {
        // The twins' clients on pool nodes q > 0 are not in the compact usage: not made, so
        // a pass costs the same with 1 or 88 pool nodes. The kept ones are made in the same
        // order, so their ids keep their order (and the solve its bits).
        for (uint32_t i : c.compactCalls)
        {
            ids[i] = Client(job, c.calls[i].node, c.calls[i].samples);
        }
    }
    else
    {
        for (size_t i = 0; i < c.calls.size(); ++i)
        {
            ids[i] = Client(job, c.calls[i].node, c.calls[i].samples);
        }
    }
    const auto& usage = compact ? c.compact : c.usage;
    const auto& clientCall = compact ? c.compactClientCall : c.clientCall;
    out.assign(usage.begin(), usage.end());
    for (size_t e = 0; e < out.size(); ++e)
    {
        if (clientCall[e] >= 0)
        {
            NS_ASSERT_MSG(ids[clientCall[e]] != kUnused, "a kept entry's client was not made");
            out[e].first = ids[clientCall[e]];
        }
    }
}

void
ProvisioningModel::StaticShare(CachedUsage& c, uint32_t count) const
{
    // FlowUnit's dominant share over the resources whose capacities stay fixed until the
    // next BuildResources that changes them (then c.epoch is stale); the clients' vary per
    // Solve
    // Without its full usage, over the compact one: the entries left out are pool twins of
    // kept ones, with the same weight and (twins) the same capacity, so the same maximum.
    const auto& usage = c.fullDropped ? c.compact : c.usage;
    const auto& clientCall = c.fullDropped ? c.compactClientCall : c.clientCall;
    c.staticShare = 0;
    for (size_t e = 0; e < usage.size(); ++e)
    {
        if (clientCall[e] < 0)
        {
            c.staticShare = std::max(c.staticShare, EntryShare(usage[e], count));
        }
    }
    c.epoch = m_capsEpoch;
}

void
ProvisioningModel::SweepUsages()
{
    // Called before a pass looks entries up. Entries of jobs long gone would pile up (their
    // keys name a placement and a cache plan): when the table has doubled in entries since the
    // last sweep, or grown in bytes by half of UsageCacheSweepBytes past it, those not used
    // since that sweep go. Only what is rebuilt changes, never a result. The byte rule is for
    // Alluxio, whose usages list every peer node's resources (some 50 KB on 352 nodes): the
    // count alone let thousands stay, and a doubling of the bytes kept ever longer periods'
    // worth (Philly: 264 MB kept at the last of four sweeps; now about 70 MB).
    ++m_usageStamp;
    if (m_usages.size() < std::max<size_t>(kSweepEntries, 2 * m_usagesSwept) &&
        m_usageBytes < std::max<uint64_t>(m_sweepBytes, m_usageBytesSwept + m_sweepBytes / 2))
    {
        return;
    }
    for (auto it = m_usages.begin(); it != m_usages.end();)
    {
        if (it->second.lastUse < m_sweepStamp)
        {
            m_usageBytes -= UsageBytes(it->second);
            it = m_usages.erase(it);
        }
        else
        {
            ++it;
        }
    }
    m_sweepStamp = m_usageStamp;
    m_usagesSwept = m_usages.size();
    m_usageBytesSwept = m_usageBytes;
}

void
ProvisioningModel::ForgetUsages()
{
    m_usages.clear();
    m_usageBytes = 0;
    m_usagesSwept = 0;
    m_usageBytesSwept = 0;
}

size_t
ProvisioningModel::UsageBytes(const CachedUsage& c)
{
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    return sizeof(UsageKey) + sizeof(CachedUsage) + bytes(c.usage) + bytes(c.clientCall) +
           bytes(c.calls) + bytes(c.clientEntries) + bytes(c.compact) + bytes(c.compactClientCall) +
           bytes(c.compactClients) + bytes(c.compactCalls);
}

void
ProvisioningModel::CompactUsage(CachedUsage& c) const
{
    // each entry's pool node, looked up once for both steps
    std::vector<int64_t>& poolOf = m_compactPoolOf;
    poolOf.resize(c.usage.size());
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        poolOf[e] = PoolNodeOfEntry(c, e);
    }
    c.symmetric = TwinsMirrorPoolNodeZero(c, poolOf);
    if (c.symmetric)
    {
        KeepOffTwinEntries(c, poolOf);
    }
}

int64_t
ProvisioningModel::PoolNodeOfCall(const CachedUsage& c, uint32_t call) const
{
    uint32_t node = c.calls[call].node;
    uint32_t n = m_cluster.nodes;
    return node >= n && node < n + PoolNodes() ? int64_t(node - n) : -1;
}

int64_t
ProvisioningModel::PoolNodeOfEntry(const CachedUsage& c, size_t e) const
{
    uint32_t r = c.usage[e].first;
    if (c.clientCall[e] >= 0)
    {
        return PoolNodeOfCall(c, c.clientCall[e]);
    }
    if (m_twinRep[r] != r)
    {
        return 1; // a twin: on some pool node q > 0
    }
    return m_twinCount[r] > 0 ? 0 : -1;
}

bool
ProvisioningModel::TwinsMirrorPoolNodeZero(const CachedUsage& c,
                                           const std::vector<int64_t>& poolOf) const
{
    // An entry on pool node q > 0 (a static twin, or the job's storage client there) is
    // dropped when pool node 0's same resource is in the list with the same weight, and each
    // kept pool-node-0 entry must have all P - 1 twins: then every pool node's resource gets
    // the same sum from every flow, in the same order, and the dropped ones mirror the kept.
    int64_t client0 = -1; // entry of the storage client on pool node 0
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        if (c.clientCall[e] >= 0 && poolOf[e] == 0)
        {
            client0 = static_cast<int64_t>(e);
        }
    }
    // Resource -> entry and kept entry -> its twins in the list, in flat arrays (hash maps
    // built per call cost more than building the usage itself with 88 pool nodes). An entry
    // of m_compactEntryOf counts only when its stamp is this call's: nothing to clear.
    if (++m_compactStamp == 0)
    {
        std::fill(m_compactStampOf.begin(), m_compactStampOf.end(), 0u);
        m_compactStamp = 1;
    }
    size_t statics = m_twinRep.size(); // only static resources are looked up (twin reps)
    m_compactStampOf.resize(statics, 0u);
    m_compactEntryOf.resize(statics, 0u);
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        uint32_t r = c.usage[e].first;
        if (r < statics)
        {
            m_compactStampOf[r] = m_compactStamp;
            m_compactEntryOf[r] = static_cast<uint32_t>(e);
        }
    }
    std::vector<uint32_t>& twinsSeen = m_compactTwinsSeen; // per entry
    twinsSeen.assign(c.usage.size(), 0u);
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        if (poolOf[e] <= 0)
        {
            continue;
        }
        size_t rep;
        if (c.clientCall[e] >= 0)
        {
            if (client0 < 0)
            {
                return false;
            }
            rep = static_cast<size_t>(client0);
        }
        else
        {
            uint32_t r = m_twinRep[c.usage[e].first];
            if (m_compactStampOf[r] != m_compactStamp)
            {
                return false;
            }
            rep = m_compactEntryOf[r];
        }
        if (c.usage[rep].second != c.usage[e].second)
        {
            return false;
        }
        ++twinsSeen[rep];
    }
    const uint32_t twins = PoolNodes() - 1; // of each entry on pool node 0
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        if (poolOf[e] == 0 && twinsSeen[e] != twins)
        {
            return false;
        }
    }
    return true;
}

void
ProvisioningModel::KeepOffTwinEntries(CachedUsage& c, const std::vector<int64_t>& poolOf) const
{
    // Sized before filling: an entry is kept for the run (with every peer node's resources,
    // an Alluxio usage is thousands of entries), and a list grown by doubling would keep up
    // to twice its size.
    size_t kept = 0;
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        kept += poolOf[e] > 0 ? 0 : 1;
    }
    c.compact.clear();
    c.compactClientCall.clear();
    c.compactClients.clear();
    c.compactCalls.clear();
    c.compact.reserve(kept);
    c.compactClientCall.reserve(kept);
    for (uint32_t i = 0; i < c.calls.size(); ++i)
    {
        if (PoolNodeOfCall(c, i) <= 0)
        {
            c.compactCalls.push_back(i); // off the pool, or on pool node 0
        }
    }
    for (size_t e = 0; e < c.usage.size(); ++e)
    {
        if (poolOf[e] > 0)
        {
            continue;
        }
        if (c.clientCall[e] >= 0)
        {
            c.compactClients.push_back(static_cast<uint32_t>(c.compact.size()));
        }
        c.compact.push_back(c.usage[e]);
        c.compactClientCall.push_back(c.clientCall[e]);
    }
}

void
ProvisioningModel::SetRailReserve(std::vector<double> reserve)
{
    m_reserveMoved = m_reserveMoved || reserve != m_railReserve;
    m_railReserve = std::move(reserve);
}

void
ProvisioningModel::ReserveResources(uint32_t node, std::vector<uint32_t>& out) const
{
    if (node + 1 >= m_reserveLinkOf.size())
    {
        return; // no reserve applies to it
    }
    for (uint32_t i = m_reserveLinkOf[node]; i < m_reserveLinkOf[node + 1]; ++i)
    {
        out.push_back(2 * m_reserveLinks[i]); // as UpdateReserveCaps sets them
        out.push_back(2 * m_reserveLinks[i] + 1);
    }
}

void
ProvisioningModel::EnsureRailLinks() const
{
    if (m_railLinkOf.size() == m_cluster.nodes + 1)
    {
        return;
    }
    // Every node's rail uplinks (NIC to switch), in the order RailLoads adds them: the
    // topology's, fixed until it changes.
    const RailTopology& t = Topology();
    m_railLinkOf.assign(1, 0);
    m_railPosOut.clear(); // rebuilt below from the new list
    m_railLinks.clear();
    for (uint32_t n = 0; n < m_cluster.nodes; ++n)
    {
        for (uint32_t r = 0; r < m_cluster.node.nics; ++r)
        {
            uint32_t nic = t.Nic(n, r);
            for (uint32_t l : t.GetAdjacentLinks(nic))
            {
                if (t.GetLinks()[l].inNode)
                {
                    continue; // its PCIe side
                }
                m_railLinks.push_back(t.DirectedLink(nic, l));
            }
        }
        m_railLinkOf.push_back(static_cast<uint32_t>(m_railLinks.size()));
    }
}

ProvisioningModel::RailUplinks
ProvisioningModel::GetRailUplinks() const
{
    EnsureRailLinks();
    return {m_railLinks.data(), m_railLinkOf.data(), m_cluster.nodes};
}

void
ProvisioningModel::RailLoads(std::vector<double>& out, std::vector<double>& in) const
{
    out.assign(m_cluster.nodes, 0.0);
    in.assign(m_cluster.nodes, 0.0);
    if (!m_solved || !m_topology)
    {
        return;
    }
    EnsureRailLinks();
    if (m_fast || m_reduced)
    {
        // Only the nodes with a loaded link (m_fastTouched; every other load is 0), each
        // node's links added in the order of the loop below: the same sums.
        if (m_railPosOut.size() != 2 * Topology().GetLinks().size())
        {
            m_railPosOut.assign(2 * Topology().GetLinks().size(), kUnused);
            m_railPosIn.assign(2 * Topology().GetLinks().size(), kUnused);
            m_railNodeOf.assign(m_railLinks.size(), 0);
            for (uint32_t n = 0; n < m_cluster.nodes; ++n)
            {
                for (uint32_t i = m_railLinkOf[n]; i < m_railLinkOf[n + 1]; ++i)
                {
                    m_railPosOut[m_railLinks[i]] = i;
                    m_railPosIn[m_railLinks[i] ^ 1u] = i;
                    m_railNodeOf[i] = n;
                }
            }
        }
        // each loaded link's load in its slot, then each node with one: its slots summed
        // in the loop's order below (the others hold 0), and cleared again
        m_railVal.resize(2 * m_railLinks.size(), 0.0);
        m_railNodeMark.resize(m_cluster.nodes, 0);
        m_railNodes.clear();
        for (uint32_t r : m_fastTouched)
        {
            for (uint32_t side = 0; side < 2; ++side)
            {
                const auto& pos = side == 0 ? m_railPosOut : m_railPosIn;
                if (r < pos.size() && pos[r] != kUnused)
                {
                    m_railVal[2 * pos[r] + side] = m_fastLoad[r];
                    uint32_t n = m_railNodeOf[pos[r]];
                    if (!m_railNodeMark[n])
                    {
                        m_railNodeMark[n] = 1;
                        m_railNodes.push_back(n);
                    }
                }
            }
        }
        for (uint32_t n : m_railNodes)
        {
            for (uint32_t i = m_railLinkOf[n]; i < m_railLinkOf[n + 1]; ++i)
            {
                out[n] += m_railVal[2 * i];
                in[n] += m_railVal[2 * i + 1];
                m_railVal[2 * i] = 0.0;
                m_railVal[2 * i + 1] = 0.0;
            }
            m_railNodeMark[n] = 0;
        }
        return;
    }
    for (uint32_t n = 0; n < m_cluster.nodes; ++n)
    {
        for (uint32_t i = m_railLinkOf[n]; i < m_railLinkOf[n + 1]; ++i)
        {
            uint32_t up = m_railLinks[i];
            out[n] += LoadOf(up);
            in[n] += LoadOf(up ^ 1u);
        }
    }
}

double
ProvisioningModel::LoadOf(uint32_t resource) const
{
    if (m_fast || m_reduced)
    {
        return resource < m_fastLoad.size() ? m_fastLoad[resource] : 0.0;
    }
    // The solver holds the resources some flow uses; the others carry nothing.
    if (resource >= m_localOf.size() || m_localOf[resource] == kUnused)
    {
        return 0.0;
    }
    return m_solver->GetLoad(m_localOf[resource]);
}

void
ProvisioningModel::ComputeUtilization() const
{
    // Resources no flow uses carry no load (utilisation 0): only the solver's are visited.
    m_util = ProvisioningUtilization{};
    m_utilValid = true;
    bool here = m_fast || m_reduced; // loads in m_fastLoad
    const std::vector<uint32_t>& used = here ? m_fastTouched : m_used;
    for (uint32_t i = 0; i < used.size(); ++i)
    {
        uint32_t r = used[i];
        FoldUtilization(m_util, r, (here ? m_fastLoad[r] : m_solver->GetLoad(i)) / m_caps[r]);
    }
}

void
ProvisioningModel::FoldUtilization(ProvisioningUtilization& util,
                                   uint32_t resource,
                                   double share) const
{
    double& slot = util.*UtilizationSlot(resource);
    slot = std::max(slot, share);
}

UtilizationField
ProvisioningModel::UtilizationSlot(uint32_t resource) const
{
    switch (m_kinds[resource])
    {
    case KIND_STORAGE:
    case KIND_STORAGE_CLIENT:
        return resource == m_res.storage ? &ProvisioningUtilization::storage
                                         : &ProvisioningUtilization::storageClient;
    case KIND_CPU:
    case KIND_POOL_CPU:
        return &ProvisioningUtilization::cpu;
    case KIND_HOST_MEMORY:
        return &ProvisioningUtilization::hostMemory;
    case KIND_PCIE_UPLINK:
        return &ProvisioningUtilization::pcieUplink;
    case KIND_PCIE_DEVICE:
        return &ProvisioningUtilization::pcieDevice;
    case KIND_RAIL:
        return &ProvisioningUtilization::rail;
    case KIND_STORAGE_NIC:
        return &ProvisioningUtilization::frontend;
    }
    return &ProvisioningUtilization::cpu; // not reached: every kind is listed
}

std::vector<CachePlan>
ProvisioningModel::PlanCaches(const std::vector<ProvisioningJob>& jobs)
{
    NS_LOG_FUNCTION(this << jobs.size());
    if (!m_loader)
    {
        throw std::logic_error("ProvisioningModel::PlanCaches: no loader set");
    }
    EnsureTopology();
    return m_loader->PlanCaches(*this, jobs);
}

uint32_t
ProvisioningModel::StaticCount()
{
    EnsureTopology();
    m_solved = false; // BuildResources drops the last Solve's storage clients
    m_utilValid = false;
    BuildResources();
    return m_staticCount;
}

uint32_t
ProvisioningModel::LevelResource()
{
    StaticCount();
    if (!m_loader)
    {
        return kNoResource;
    }
    // Unless every sample goes through all the pool's cores (local, Alluxio, KSpeed with
    // Placement=Local or on the training nodes), the backend is the one stage shared by every
    // flow that reads: when it binds, they share it at one level.
    return m_loader->ReadsThroughPool(*this) && PoolNodes() > 0 ? m_res.cpu.at(PoolNode(0))
                                                                : m_res.storage;
}

bool
ProvisioningModel::DescribeJob(const ProvisioningJob& job,
                               const CachePlan& plan,
                               std::vector<LevelFlow>& out)
{
    NS_LOG_FUNCTION(this << job.name);
    if (!m_loader)
    {
        throw std::logic_error("ProvisioningModel::DescribeJob: no loader set");
    }
    if (!job.profile)
    {
        throw std::invalid_argument("ProvisioningModel::DescribeJob: job '" + job.name +
                                    "' has no workload profile");
    }
    const std::vector<uint32_t>& firstGpu = job.firstGpu;
    if (!m_aggregate || !m_reuseUsages || firstGpu.size() != job.gpusOnNode.size())
    {
        throw std::logic_error("ProvisioningModel::DescribeJob needs AggregatePerNode, "
                               "ReuseUsages and a first GPU per node of the job");
    }
    // out's flows (a job's before, or the level's spares) lend their usage lists' storage
    size_t made = 0; // flows of this job in out
    // Client() knows a job by its place in m_jobs: the job is copied into a kept one-job
    // list (its strings and vectors reuse their storage; a replay describes a job at every
    // start and resume)
    std::vector<ProvisioningJob>& one = m_describedJob;
    one.resize(1);
    one[0] = job;
    StaticCount(); // the static resources, no clients yet
    m_jobs = &one;
    m_compactPass = m_twinsValid; // one pool node's resources for all, when they are alike
    m_compactBroken = false;
    SweepUsages();
    m_flowCached.clear();
    // Kept from call to call: ReusedUsage assigns each list in full, into the storage of the
    // last job's (a flow with storage clients copies its static entries out, so its list stays)
    std::vector<std::vector<MaxMinSolver::Usage>>& usages = m_describedUsages;
    usages.resize(job.gpusOnNode.size());
    for (size_t i = 0; i < usages.size(); ++i)
    {
        const auto& [node, count] = job.gpusOnNode[i];
        if (node >= m_cluster.nodes || count > m_cluster.node.gpus ||
            firstGpu[i] + count > m_cluster.node.gpus)
        {
            m_jobs = nullptr;
            throw std::invalid_argument("ProvisioningModel::DescribeJob: job '" + job.name +
                                        "' places GPUs beyond node " + std::to_string(node));
        }
        ReusedUsage(one[0], plan, node, firstGpu[i], count, usages[i]);
    }
    SizeClients();
    bool ok = !m_compactBroken;
    double demand = job.GpuDemand();
    // its storage clients are its own: their load at its demand must fit (else they bind)
    std::vector<double>& clientLoad = m_describedClientLoad;
    clientLoad.assign(m_caps.size() - m_staticCount, 0.0);
    for (size_t i = 0; ok && i < usages.size(); ++i)
    {
        if (made == out.size())
        {
            out.emplace_back();
        }
        LevelFlow& f = out[made++];
        f.usage.clear();
        f.unit = LevelFlow{}.unit;
        f.cap = LevelFlow{}.cap;
        f.clientShare = LevelFlow{}.clientShare;
        if (!usages[i].empty())
        {
            uint32_t count = job.gpusOnNode[i].second;
            f.unit = FlowUnit(usages[i], count, demand, one[0], m_flowCached[i], &f.clientShare);
            f.cap = Finite(demand / f.unit);
            ok = f.cap > 0;
        }
        bool clients = false;
        for (const auto& [r, w] : usages[i])
        {
            double scaled = w * f.unit;
            if (!ok || r >= m_caps.size() || !(scaled > 0))
            {
                ok = false; // the solver refuses it
                break;
            }
            if (r >= m_staticCount)
            {
                clientLoad[r - m_staticCount] += scaled * f.cap;
                clients = true;
            }
        }
        // its static entries, in order: the usage itself when it has no client (an Alluxio
        // flow's thousands of peer entries are not copied again)
        if (ok && !clients)
        {
            f.usage.swap(usages[i]); // the list f held, emptied, is the next job's to fill
        }
        else if (ok)
        {
            f.usage.reserve(usages[i].size());
            for (const auto& [r, w] : usages[i])
            {
                if (r < m_staticCount)
                {
                    f.usage.emplace_back(r, w);
                }
            }
        }
    }
    out.resize(made);
    for (size_t c = 0; ok && c < clientLoad.size(); ++c)
    {
        ok = clientLoad[c] <= m_caps[m_staticCount + c] * (1 - 1e-9);
    }
    m_jobs = nullptr;
    return ok;
}

} // namespace ns3
