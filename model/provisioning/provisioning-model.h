/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROVISIONING_MODEL_H
#define AICLUSTER_PROVISIONING_MODEL_H

#include "provisioning-loader.h"

#include "ns3/max-min-solver.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rail-topology.h"
#include "ns3/storage-backend.h"
#include "ns3/workload-catalog.h"

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Result of one job.
 */
struct ProvisioningJobResult
{
    std::string name;        //!< job label
    uint32_t gpus{0};        //!< GPUs
    double gpuDemand{0};     //!< samples/s one GPU consumes (inf for a loading benchmark)
    double perGpu{0};        //!< samples/s delivered to its slowest GPU (the job's pace)
    double stallFraction{0}; //!< 1 - perGpu / gpuDemand (0 for a loading benchmark)
    std::string bottleneck;  //!< gpu, storage, storage-client, cpu, dpp-cpu, host-memory, ...
    CachePlan cache;         //!< its dataset's cache plan
};

/**
 * \ingroup aicluster
 * \brief One GPU's data stream as solved (kept for the packet-level realization).
 */
struct ProvisioningFlow
{
    uint32_t job{0};                               //!< index of its job
    uint32_t node{0};                              //!< node of the GPU
    uint32_t gpu{0};                               //!< GPU index on the node
    double demand{0};                              //!< samples/s the GPU consumes (may be inf)
    double rate{0};                                //!< samples/s the rate level gives it
    std::vector<MaxMinSolver::Usage> usage;        //!< resources per sample
    std::vector<UsageBuilder::Transfer> transfers; //!< fabric transfers per sample
};

/**
 * \ingroup aicluster
 * \brief Peak utilization (load / capacity) of each resource class.
 */
struct ProvisioningUtilization
{
    double storage{0};       //!< storage aggregate bandwidth
    double storageClient{0}; //!< most loaded storage client
    double cpu{0};           //!< most loaded CPU pool (training node or DPP pool)
    double hostMemory{0};    //!< most loaded host memory (DRAM bandwidth or DMA port)
    double pcieUplink{0};    //!< most loaded PCIe switch uplink (either direction)
    double pcieDevice{0};    //!< most loaded GPU/NIC PCIe link
    double rail{0};          //!< most loaded rail or leaf-spine link
    double frontend{0};      //!< most loaded storage NIC
};

/** One figure of ProvisioningUtilization: the busiest share of one resource class */
using UtilizationField = double ProvisioningUtilization::*;

/**
 * \ingroup aicluster
 * \brief Rate-level data provisioning: steady-state samples/s per GPU of every job as a
 * weighted max-min allocation over storage, CPU, host memory, PCIe and rails.
 *
 * Resources: the directed links of the RailTopology (PCIe device links, PCIe switch uplinks,
 * the host-memory DMA port, rails, leaf-spine links; capacities from RailClusterConfig), and
 * per training node its CPU cores for data loading, its DRAM bandwidth (CPU and DMA bytes),
 * its storage NIC and its storage client; the StorageBackend's aggregate bandwidth; the DPP
 * pool's cores, NICs and storage clients. One flow per GPU, in samples/s, capped at the GPU's
 * consumption rate; the loader sets its weights. A data-parallel job runs at its slowest GPU.
 * Bytes on fabric and PCIe links carry the RoCE header overhead (Mtu + 62) / Mtu of
 * ns3::RdmaEndpoint::Mtu, as the RDMA fabrics do.
 */
class ProvisioningModel : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ProvisioningModel();
    ~ProvisioningModel() override;

    /**
     * \param cluster training nodes and node template (PoolNodes pool nodes of the same
     * template, with their own cores, memory and storage NIC, are appended to the fabric: the
     * DPP and KSpeed pools) \param storage backend storage
     */
    void SetCluster(const RailClusterConfig& cluster, Ptr<StorageBackend> storage);
    /** \param loader the loader to evaluate */
    void SetLoader(Ptr<ProvisioningLoader> loader);
    /** \return the loader */
    Ptr<ProvisioningLoader> GetLoader() const;

    /**
     * Solve for a set of jobs (replaces any earlier solution).
     * \param jobs jobs with placements on the cluster's nodes
     * \return per job result, in order
     * \throws std::invalid_argument on a placement outside the cluster or a missing profile
     */
    std::vector<ProvisioningJobResult> Solve(const std::vector<ProvisioningJob>& jobs);

    /**
     * \return per-GPU flows of the last Solve (empty with AggregatePerNode), usages and
     * transfers per sample, for the packet-level realization
     */
    const std::vector<ProvisioningFlow>& GetFlows() const
    {
        return m_flows;
    }

    /** \param resource id \return true if it is a directed link of the fabric */
    bool IsLink(uint32_t resource) const
    {
        return resource < 2 * Topology().GetLinks().size();
    }

    /** \param resource id \return its class: cpu, storage, rail, pcie-uplink, ... */
    const std::string& ResourceKind(uint32_t resource) const
    {
        return KindName(m_kinds.at(resource));
    }

    /** \return utilization of the last Solve */
    const ProvisioningUtilization& GetUtilization() const;

    /**
     * \return Solves that gave every flow its demand without building the max-min solver,
     *         because no resource was over capacity (SkipFeasibleSolves)
     */
    uint64_t GetNSkippedSolves() const
    {
        return m_nFast;
    }

    /**
     * \return Solves whose solver held only the resources over capacity at full demand (and
     *         the flows that use one), one of each set of identical constraints
     *         (SolveOverloadedOnly)
     */
    uint64_t GetNReducedSolves() const
    {
        return m_nReduced;
    }

    /**
     * \return Solves that used one pool node's resources for all pool nodes, every flow
     *         using them alike (MergePoolTwins)
     */
    uint64_t GetNCompactSolves() const
    {
        return m_nCompact;
    }

    /** One (job, node) flow of a job described alone (DescribeJob), for the level pass. */
    struct LevelFlow
    {
        /// its fixed-capacity resources (ids below StaticCount()) with their weights per
        /// sample, one pool node's resources standing for all when they are alike
        std::vector<MaxMinSolver::Usage> usage;
        double unit{1}; //!< samples/s per GPU per unit of solver rate (FlowUnit)
        double cap{0};  //!< its GPUs' demand in solver units
        /// its dominant share over its job's own storage clients, which a move of fixed
        /// capacities leaves as it is (KeptFlowUnit); NaN: not known
        double clientShare{std::numeric_limits<double>::quiet_NaN()};
    };

    /**
     * \brief The unit DescribeJob would give a flow it gave before, after fixed capacities
     *        moved (a node's rail reserve): its usage and its storage clients stay, so only
     *        the dominant share over its fixed resources is taken again, bit for bit.
     * \param flow a flow of DescribeJob \param groupSize its GPUs
     * \param demand its job's demand \param job its job
     * \return samples/s per GPU per unit of solver rate (NaN when the flow's clients' share
     *         is not known: then it equals no unit)
     */
    double KeptFlowUnit(const LevelFlow& flow,
                        uint32_t groupSize,
                        double demand,
                        const ProvisioningJob& job) const;

    /**
     * \brief Describe one job's (job, node) flows alone, as a Solve builds them, for a
     *        caller that keeps the running jobs itself (ProvisioningDataLoading's pace).
     *
     * The job's storage clients are its own: they are sized here and checked at full demand
     * rather than kept. The last Solve's results are no longer available afterwards.
     * \param job the job (profile and gpuRate set; firstGpu given, one per entry of
     *        gpusOnNode)
     * \param plan its cache plan (PlanCaches over the running jobs)
     * \param out its flows, one per entry of job.gpusOnNode (output; the flows it held
     *        lend their usage lists' storage, ProvisioningLevel::TakeSpareFlows)
     * \return false if the job's flows cannot be kept this way: a flow not alike on every
     *         pool node (with two or more), a usage the solver would refuse, or a storage
     *         client of the job over capacity at the job's demand
     */
    bool DescribeJob(const ProvisioningJob& job,
                     const CachePlan& plan,
                     std::vector<LevelFlow>& out);
    /** \param jobs running jobs \return the loader's cache plan of each, in order */
    std::vector<CachePlan> PlanCaches(const std::vector<ProvisioningJob>& jobs);
    /** \return resources with a fixed capacity (links, nodes, storage): ids below this */
    uint32_t StaticCount();
    /**
     * \return the stage every sample of the loader passes through, where ProvisioningLevel
     *         keeps the running flows' water level: pool node 0's cores (the pool's, when its
     *         nodes are alike) if the loader reads through the pool, else the storage backend
     *         (kNoResource before a loader is set)
     */
    uint32_t LevelResource();
    /**
     * \brief Fold one resource's load / capacity into the busiest share of its class.
     * \param util the shares (updated) \param resource its id \param share load / capacity
     */
    void FoldUtilization(ProvisioningUtilization& util, uint32_t resource, double share) const;
    /** \param resource a resource id \return the member of ProvisioningUtilization of its class */
    UtilizationField UtilizationSlot(uint32_t resource) const;
    /** No resource (LevelResource without a loader) */
    static constexpr uint32_t kNoResource = 0xffffffffu;

    /**
     * \brief Bytes/s of every training node's rail links that other traffic (gradient sync,
     *        LinkShare) keeps: the next Solve gives each rail link of node n, each way, its
     *        rate less reserve[n] / NICs per node. Empty (default): the links' full rates.
     * \param reserve per training node [bytes/s]
     */
    void SetRailReserve(std::vector<double> reserve);
    /**
     * \brief The static resources whose capacity follows a training node's rail reserve: its
     *        rail links, each way. Valid once a StaticCount() after SetRailReserve built them.
     * \param node a training node \param out appended to: their ids
     */
    void ReserveResources(uint32_t node, std::vector<uint32_t>& out) const;
    /**
     * \brief The last Solve's load on every training node's rail links, summed over its rails.
     * \param out per training node, bytes/s sent out of it over its rails (output)
     * \param in per training node, bytes/s received over its rails (output)
     */
    void RailLoads(std::vector<double>& out, std::vector<double>& in) const;

    /**
     * Every training node's directed rail uplinks (NIC to switch), in the order RailLoads
     * adds them; each one's reverse (id ^ 1) is the downlink. Valid until the topology
     * changes.
     */
    struct RailUplinks
    {
        const uint32_t* links;   //!< every node's, one node after the other
        const uint32_t* offsets; //!< node -> its first in links (one more entry at the end)
        uint32_t nodes;          //!< training nodes (offsets has one entry more)

        /** \param node a training node \return its uplinks, [first, last) */
        std::pair<const uint32_t*, const uint32_t*> Of(uint32_t node) const
        {
            return {links + offsets[node], links + offsets[node + 1]};
        }
    };

    /** \return the training nodes' rail uplinks (RailUplinks) */
    RailUplinks GetRailUplinks() const;

    // ---- what loaders use -------------------------------------------------------------
    /** \return the topology (after SetCluster) */
    const RailTopology& Topology() const;
    /** \return the storage backend */
    Ptr<StorageBackend> Storage() const;

    /** \return bytes on a link per payload byte: (Mtu + 62) / Mtu */
    double WireFactor() const
    {
        return m_wireFactor;
    }

    /** Resource ids (valid during Solve). */
    struct Resources
    {
        std::vector<uint32_t> cpu;      //!< per node (training, then pool), core-seconds/s
        std::vector<uint32_t> dram;     //!< per node (training, then pool), DRAM bytes/s
        std::vector<uint32_t> frontend; //!< per node (training, then pool), storage NIC bytes/s
        uint32_t storage{0};            //!< backend aggregate, bytes/s
    };

    /** How jobs that contend for a resource share it. */
    enum Fairness
    {
        DOMINANT_SHARE,  //!< max-min on each GPU's dominant share (DRF)
        DEMAND_FRACTION, //!< max-min on the fraction of each GPU's demand it receives
        SAMPLES          //!< max-min in samples/s (unlike jobs get equal samples/s)
    };

    /** \return resource ids of the current Solve */
    const Resources& Res() const
    {
        return m_res;
    }

    /**
     * Add fabric/PCIe usage of `bytes` per sample on the path src -> dst (endpoints).
     * \param src source endpoint \param dst destination endpoint \param rail NIC index used on
     * both sides \param bytes payload bytes per sample \param u output
     */
    void AddPath(uint32_t src, uint32_t dst, uint32_t rail, double bytes, UsageBuilder& u) const;

    /**
     * AddPath from the host memory of every training node but `node` to `node`'s, `bytes` per
     * sample each, in node order: the same additions in the same order as those AddPath calls.
     * The links of those paths are kept as one list per (node, rail), so a build reads one
     * list instead of looking up a path per peer (an Alluxio usage on 352 nodes has 351).
     * \param node the receiving training node \param rail NIC index used on both sides
     * \param bytes payload bytes per sample from each peer \param u output
     */
    void AddPathsFromPeers(uint32_t node, uint32_t rail, double bytes, UsageBuilder& u) const;

    /** \return training nodes (nodes 0 .. n-1 of the topology) */
    uint32_t TrainingNodes() const
    {
        return m_cluster.nodes;
    }

    /** \param p pool node index \return its node index in the topology */
    uint32_t PoolNode(uint32_t p) const
    {
        return m_cluster.nodes + p;
    }

    /** \param p DPP pool node index \return its node index (the pool's) */
    uint32_t DppNode(uint32_t p) const
    {
        return PoolNode(p);
    }

    /** \return the fabric the model solves on: training nodes, then the pool nodes */
    RailClusterConfig FabricConfig() const;

    /** \return resource capacities of the last Solve (links first, as directed link ids) */
    const std::vector<double>& Capacities() const
    {
        return m_caps;
    }

    /**
     * \brief Add what `body` adds for each pool node q = 0 .. PoolNodes() - 1, in that order.
     *
     * For a loader that spreads every sample over the pool alike (KSpeed's Spread, DPP):
     * body(q) uses pool node q's own resources (its cores, DRAM, storage NIC and client, its links:
     * AddStorageToHost and AddPath from its host memory) where it uses a pool node's, and the
     * same resources with the same weights elsewhere. When a usage is built for a pass on
     * pool node 0's resources (MergePoolTwins), only body(0) runs and the weights it adds
     * off pool node 0 are added P - 1 times more: the other pool nodes' paths (880 of them
     * per GPU on the tenfold Philly trace) are neither routed nor listed, and the usage is
     * the one the full build and CompactUsage would give, to the bit. A usage whose paths are
     * not each pool node's alike (AddPath checks them first) is built in full, and so is
     * every usage of a loader whose samples do not pass through the pool
     * (ProvisioningLoader::ReadsThroughPool false: no probe is built for it).
     * \param u output \param body adds the usage through pool node q
     */
    void AddOverPool(UsageBuilder& u, const std::function<void(uint32_t)>& body) const;

    /**
     * \return usages built from pool node 0's part alone (AddOverPool), since the model was
     *         created
     */
    uint64_t GetNPoolNodeZeroBuilds() const
    {
        return m_nPoolZeroBuilds;
    }

    /** \return bytes the kept usages hold now (ReuseUsages; UsageCacheSweepBytes) */
    uint64_t GetUsageCacheBytes() const
    {
        return m_usageBytes;
    }

    /**
     * \return builds of every static resource since the model was created (not those that
     *         only moved the rails of a new rail reserve): a description of a job
     *         (DescribeJob) made before the last one may no longer be the model's
     */
    uint64_t GetNStaticBuilds() const
    {
        return m_nStaticBuilds;
    }

    /** \return kept usages built since the model was created (ReuseUsages: the misses) */
    uint64_t GetNUsagesBuilt() const
    {
        return m_nUsagesBuilt;
    }

    /**
     * Add a raw read from backend storage into a training node's host memory (aggregate,
     * the job's storage client on that node, the node's storage NIC, its memory DMA port and
     * DRAM).
     * \param job the job reading \param node reader \param bytes per sample \param u output
     */
    void AddStorageToHost(const ProvisioningJob& job,
                          uint32_t node,
                          double bytes,
                          UsageBuilder& u) const;
    /**
     * The storage client of one job on one node (created on first use in a Solve). Its
     * capacity is StorageBackend::ClientThroughput(the job's raw sample size, PrefetchDepth x
     * the job's local batch x the reads in flight it serves), so every job's client is sized
     * by its own samples and batch.
     * \param job the job \param node the node whose client reads \param samples raw samples
     * read through it per sample delivered to the calling GPU \return resource id
     */
    uint32_t Client(const ProvisioningJob& job, uint32_t node, double samples) const;
    /**
     * Add the trainer-side staging of decoded samples in host memory and their copy to the
     * GPU: the pinned-buffer copy (CPU, 2x DRAM), the DMA read (DRAM) and the PCIe path.
     * \param node node \param gpu GPU \param bytes decoded bytes per sample \param u output
     */
    void AddHostToGpu(uint32_t node, uint32_t gpu, double bytes, UsageBuilder& u) const;

    /// PoolNodes' and DppNodes' default: not set (the pool scales with the cluster).
    static constexpr uint32_t kUnsetNodes = 0xffffffffu;
    /// Largest pool PoolNodes, DppNodes, the scaled default or a scenario may give [nodes]
    /// (the scenario's provisioning_pool_nodes and ClusterBuilder's ProvisioningPoolNodes
    /// are bounded by it, so their errors name them).
    static constexpr uint32_t kMaxPoolNodes = 4096;

    /**
     * \return pool nodes (DPP's and KSpeed's memory/CPU tier): DppNodes if set, else PoolNodes
     * if set, else ScaledPoolNodes()
     */
    uint32_t PoolNodes() const
    {
        if (m_dppNodesAlias != kUnsetNodes)
        {
            return m_dppNodesAlias;
        }
        return m_poolNodes != kUnsetNodes ? m_poolNodes : ScaledPoolNodes();
    }

    /**
     * \return the pool size when neither PoolNodes nor DppNodes is set:
     * ceil(PoolNodesPerTrainingNode x training nodes), at most 4096
     */
    uint32_t ScaledPoolNodes() const;

    /** \return DPP pool nodes (the pool's) */
    uint32_t DppNodes() const
    {
        return PoolNodes();
    }

    /** \return bytes of memory each pool node lends to KSpeed's cache */
    double PoolCacheBytes() const
    {
        return m_poolCacheBytes;
    }

    /** \return core-seconds a TCP receive costs per byte (stack + copy to user space) */
    double TcpReceiveCpuPerByte() const
    {
        return m_tcpReceiveCpuPerByte;
    }

    /** \return core-seconds a TCP send costs per byte */
    double TcpSendCpuPerByte() const
    {
        return m_tcpSendCpuPerByte;
    }

    /** \return core-seconds per byte read through a FUSE mount (its extra copies) */
    double FuseCpuPerByte() const
    {
        return m_fuseCpuPerByte;
    }

    /** \return bytes of host memory each node lends to a cache tier */
    double CacheBytesPerNode() const
    {
        return m_cacheBytesPerNode;
    }

    /** \return core-seconds to copy one byte in host memory */
    double CopyCpuPerByte() const
    {
        return m_copyCpuPerByte;
    }

    /** \return share of preprocessing CPU saved by caching preprocessed samples */
    double CacheableFraction() const
    {
        return m_cacheableFraction;
    }

  private:
    /**
     * Refuse a pool size above 4096 nodes.
     * \param attribute the attribute's name \param nodes its value (kUnsetNodes passes)
     * \throws std::invalid_argument naming the attribute and the range
     */
    static void CheckPoolSize(const char* attribute, uint32_t nodes);

    double m_cpuCores;                 //!< cores per training node for data loading
    double m_dramBandwidth;            //!< DRAM bytes/s per node
    double m_cacheBytesPerNode;        //!< host memory per node lent to a cache tier
    double m_frontendBandwidth;        //!< storage NIC bytes/s per node
    double m_copyCpuPerByte;           //!< core-s per byte for a host-memory copy
    uint32_t m_prefetchDepth;          //!< batches prefetched per GPU
    uint32_t m_poolNodes;              //!< pool nodes (DPP, KSpeed); kUnsetNodes = scaled
    double m_poolNodesPerTrainingNode; //!< pool nodes per training node when not set
    double m_poolCores;                //!< cores per pool node
    double m_poolCacheBytes;           //!< memory per pool node for KSpeed's cache
    double m_poolDram;                 //!< DRAM bytes/s per pool node
    double m_poolFrontend;             //!< storage NIC bytes/s per pool node
    double m_tcpReceiveCpuPerByte;     //!< core-s per byte received over TCP
    double m_tcpSendCpuPerByte;        //!< core-s per byte sent over TCP
    double m_fuseCpuPerByte;           //!< core-s per byte read through FUSE
    uint32_t m_dppNodesAlias;          //!< DppNodes (alias of PoolNodes when set)
    double m_dppCoresAlias;            //!< DppCores (alias of PoolCores when > 0)
    double m_cacheableFraction;   //!< share of preprocessing CPU that is deterministic (cacheable)
    bool m_aggregate;             //!< one flow per (job, node) instead of per GPU
    bool m_reuseUsages;           //!< keep (job, node) flows' usages between Solves
    bool m_mergePoolTwins;        //!< solve on one pool node's resources for all alike
    bool m_buildFromPoolNodeZero; //!< AddOverPool builds pool node 0's part alone
    bool m_skipFeasible{true};    //!< no solver when every demand fits (SkipFeasibleSolves)
    bool m_overloadedOnly{true};  //!< the solver holds only over-capacity resources
    Fairness m_fairness;          //!< how contending jobs share a resource

    /** A storage client of one job on one node. */
    struct ClientRec
    {
        uint32_t job;    //!< job index
        uint32_t node;   //!< node
        uint32_t res;    //!< resource id
        double inFlight; //!< raw samples in flight per unit of PrefetchDepth x local batch
    };

    const std::vector<ProvisioningJob>* m_jobs{nullptr}; //!< jobs of the current Solve

    /// (job, node) -> index in m_clients: an open-addressing table (entries of earlier
    /// Solves are stale by their stamp), so that a pass allocates nothing for its clients
    struct ClientSlot
    {
        uint64_t stamp{0}; //!< m_clientStamp when set (else empty)
        uint32_t job{0};   //!< job index
        uint32_t node{0};  //!< node
        uint32_t index{0}; //!< index in m_clients
    };

    mutable std::vector<ClientSlot> m_clientTable; //!< size a power of 2, at most half full
    mutable uint64_t m_clientStamp{0};             //!< the current Solve's stamp
    /**
     * \param job job index \param node node
     * \return its slot in m_clientTable (empty if it has no client yet)
     */
    ClientSlot& ClientSlotOf(uint32_t job, uint32_t node) const;
    mutable std::vector<ClientRec> m_clients;

    /** Resource classes (ResourceKind's names), stored per resource as a small number */
    enum Kind : uint8_t
    {
        KIND_PCIE_DEVICE,
        KIND_RAIL,
        KIND_HOST_MEMORY,
        KIND_PCIE_UPLINK,
        KIND_CPU,
        KIND_POOL_CPU,
        KIND_STORAGE_NIC,
        KIND_STORAGE,
        KIND_STORAGE_CLIENT
    };

    /** \param kind a resource class \return its name */
    static const std::string& KindName(uint8_t kind);

    void BuildResources();
    /** \param node a training node \return its rail reserve's share on each of its rails */
    double ReservedOnLink(uint32_t node) const;
    /**
     * Keep, per node, the rail links its reserve applies to (m_reserveLinks), for
     * UpdateReserveCaps. \param links (node, link) pairs, in link order
     */
    void IndexReserveLinks(std::vector<std::pair<uint32_t, uint32_t>> links);
    /**
     * The static resources' caps after only the rail reserve moved: the links of the nodes
     * whose reserve changed get what a rebuild would give them.
     * \param before the reserve the caps were built with, per node
     */
    void UpdateReserveCaps(const double* before);
    /**
     * Map every resource of pool nodes 1..P-1 (cores, storage NIC, DRAM, the node's links) to
     * the same resource of pool node 0, when the pool nodes are alike (m_twinRep); see
     * MergePoolTwins.
     */
    void BuildPoolTwins();
    /**
     * One Solve over the jobs (checked by Solve).
     * \param jobs the jobs \param compact use the usages without pool twins (MergePoolTwins)
     *
eturn per job result; empty optional when the compact usages cannot give the full
     * usages' results (a flow not alike on every pool node, or the full solver needed)
     */
    std::optional<std::vector<ProvisioningJobResult>> SolvePass(
        const std::vector<ProvisioningJob>& jobs,
        bool compact);

    /** The flows of one SolvePass, besides their usages (m_usageOf, by the same index) */
    struct PassFlows
    {
        std::vector<std::vector<uint32_t>> flowsOf; //!< per job: its flows
        std::vector<double> demand;                 //!< per job: samples/s per GPU (GpuDemand)
        std::vector<uint32_t> jobOf;                //!< per flow: its job
        std::vector<uint32_t> groupSize;            //!< per flow: its GPUs
        std::vector<int64_t> solverId;              //!< per flow: its id in m_solver (-1: none)
        std::vector<double> unit; //!< per flow: samples/s per GPU per unit of solver rate
    };

    /**
     * Describe every (job, node) flow of the pass: its usage in m_usageOf, the rest in flows.
     * \param jobs the jobs \param plans their cache plans \param flows filled
     *
eturn false if a flow is not alike on every pool node in a compact pass
     */
    bool DescribeFlows(const std::vector<ProvisioningJob>& jobs,
                       const std::vector<CachePlan>& plans,
                       PassFlows& flows);
    /**
     * Build the usages of one job's GPUs on one node from the loader (no reused usage): one
     * flow for them all (AggregatePerNode), else one per GPU.
     * \param k the job's index \param jobs the jobs \param plan its cache plan
     * \param node the node \param gpu index of its first GPU there \param count its GPUs there
     * \param flows the pass's flows, appended to
     */
    void AddBuiltFlows(size_t k,
                       const std::vector<ProvisioningJob>& jobs,
                       const CachePlan& plan,
                       uint32_t node,
                       uint32_t gpu,
                       uint32_t count,
                       PassFlows& flows);
    /**
eturn a cleared usage list appended to m_usageOf (a spare one when there is one) */
    std::vector<MaxMinSolver::Usage>& NewUsage();
    /**
     * Solve the pass with the full max-min solver over the resources the flows use.
     * \param jobs the jobs \param flows the pass's flows; their solver ids and units set
     */
    void SolveWithSolver(const std::vector<ProvisioningJob>& jobs, PassFlows& flows);
    /** \param f a flow \param flows the pass's flows
eturn its samples/s per GPU */
    double PerGpuRate(size_t f, const PassFlows& flows) const;
    /**
     * \param k the job's index \param job the job \param plan its cache plan
     * \param flows the pass's flows (solved)
     *
eturn the job's result: its slowest flow's rate and what binds it
     */
    ProvisioningJobResult JobResult(size_t k,
                                    const ProvisioningJob& job,
                                    const CachePlan& plan,
                                    const PassFlows& flows);
    /**
     * \param usage a flow slower than its demand
     *
eturn the kind of the most utilised resource it uses ("gpu" if it loads none)
     */
    std::string BottleneckOf(const std::vector<MaxMinSolver::Usage>& usage);
    uint32_t AddResource(double capacity, Kind kind) const;
    /** \param resource id \return its load in the last Solve (0 if no flow used it) */
    double LoadOf(uint32_t resource) const;
    /**
     * The merged usage of one (job, node) flow (AggregatePerNode), from m_usages when its
     * inputs are the same as before, its storage clients requested again.
     * \param job the job \param plan its cache plan \param node the node
     * \param firstGpu index of its first GPU on the node \param count its GPUs there
     * \param out set to its usage (resource ids of this Solve)
     */
    void ReusedUsage(const ProvisioningJob& job,
                     const CachePlan& plan,
                     uint32_t node,
                     uint32_t firstGpu,
                     uint32_t count,
                     std::vector<MaxMinSolver::Usage>& out);
    void SizeClients();
    uint32_t JobIndex(const ProvisioningJob& job) const;
    /** Build m_railLinks and m_railLinkOf for the current topology (once). */
    void EnsureRailLinks() const;
    void ComputeUtilization() const;
    void EnsureTopology();

    RailClusterConfig m_cluster;
    std::unique_ptr<RailTopology> m_topology;
    Ptr<StorageBackend> m_storage;
    Ptr<ProvisioningLoader> m_loader;
    double m_wireFactor{1.062};
    Resources m_res;
    std::unique_ptr<MaxMinSolver> m_solver;
    mutable std::vector<double> m_caps;
    mutable std::vector<uint8_t> m_kinds; //!< per resource: its class (Kind)

    // Kept from one Solve to the next, since a replay solves at every scheduling pass:
    static constexpr uint32_t kUnused = 0xffffffffu;
    std::vector<double> m_staticKey;       //!< inputs of the resources before the clients
    uint32_t m_staticCount{0};             //!< resources before the storage clients
    bool m_staticBuilt{false};             //!< m_staticKey describes the current topology
    std::vector<uint32_t> m_reserveLinkOf; //!< node -> first of its m_reserveLinks
    std::vector<uint32_t> m_reserveLinks;  //!< the links a node's rail reserve applies to
    bool m_reserveLinksValid{false};       //!< UpdateReserveCaps may replace a rebuild
    /// SetRailReserve changed the reserve since the last BuildResources (which compares it
    /// with m_staticKey's only then)
    bool m_reserveMoved{true};
    /// per static resource: the same resource of pool node 0 when it belongs to pool node
    /// q > 0 and the pool nodes are alike, else itself (BuildPoolTwins)
    std::vector<uint32_t> m_twinRep;
    /// per static resource: how many resources have it as their twin (0 for most)
    std::vector<uint32_t> m_twinCount;
    bool m_twinsValid{false};    //!< m_twinRep maps the pool nodes (at least two, all alike)
    bool m_compactPass{false};   //!< this pass solves on the compact usages
    bool m_compactBroken{false}; //!< a usage of this pass has no compact form
    /// a flow was not alike on the pool nodes: no compact pass until the loader or the
    /// resources change
    bool m_twinsRefused{false};
    uint64_t m_nCompact{0}; //!< Solves on the compact usages

    /**
     * \param src source endpoint \param dst destination endpoint \param rail NIC index used on
     * both sides (between nodes)
     * \return the directed links of the route src -> dst, as the fabric routes it (ECMP hashed
     * on the pair)
     */
    std::vector<uint32_t> RouteLinks(uint32_t src, uint32_t dst, uint32_t rail) const;
    /**
     * \param src source endpoint \param dst destination endpoint \param rail NIC index used on
     * both sides
     * \return the NICs the route leaves src's node and enters dst's by: the rail's on each
     * node, (0, 0) within a node (RouteLinks and AddPath's hop checks)
     */
    std::pair<uint32_t, uint32_t> RouteNics(uint32_t src, uint32_t dst, uint32_t rail) const;

    /** A path of AddPath */
    struct CachedPath
    {
        std::vector<uint32_t> links; //!< its directed links, in order
        bool oneChoice{false};       //!< no hop had two equal-cost links to choose from
    };

    /// AddPath's paths by (src, dst, rail): routing is deterministic and every pass asks for
    /// the same paths again
    mutable std::unordered_map<uint64_t, CachedPath> m_paths;
    /// FlowUsage's last build: weights added per GPU (the room it makes for the next)
    size_t m_weightsPerGpu{0};
    /// AddPathsFromPeers' links by (node, rail): every peer's path, one after the other
    mutable std::unordered_map<uint64_t, std::vector<uint32_t>> m_peerPaths;
    /// every pool node's NIC r has the fabric neighbours of pool node 0's NIC r (the same
    /// leaves): with one choice per hop, their paths to a training node meet there
    bool m_poolSharesSwitches{false};
    /// AddOverPool runs body(0) alone: a usage is probed (m_poolZeroProbe) or built from
    /// pool node 0's part (BuildFromPoolNodeZero)
    mutable bool m_poolZeroBuild{false};
    /// probing: Client() makes no client, AddOverPool does not repeat, AddPath only checks
    mutable bool m_poolZeroProbe{false};
    mutable bool m_inPoolZeroBody{false}; //!< AddOverPool is running body(0) alone
    mutable bool m_poolZeroSeen{false};   //!< the usage being probed called AddOverPool
    /// a path of body(0) is not known to be every pool node's alike: built in full
    mutable bool m_poolZeroRefused{false};
    uint64_t m_nPoolZeroBuilds{0}; //!< usages built from pool node 0's part
    uint64_t m_nUsagesBuilt{0};    //!< entries of m_usages built (GetNUsagesBuilt)
    uint64_t m_nStaticBuilds{0};   //!< full builds of the static resources (GetNStaticBuilds)
    /// resource id -> the solver's id (kUnused: no flow uses it); the solver holds only the
    /// resources some flow uses, in ascending id order, so its size follows the running jobs
    /// rather than the cluster
    std::vector<uint32_t> m_localOf;
    std::vector<uint32_t> m_used; //!< resource ids of the solver's resources, ascending
    /// The last Solve gave every flow its demand without a solver (SkipFeasibleSolves):
    /// m_fastLoad holds the loads of the resources in m_fastTouched (0 elsewhere)
    bool m_fast{false};
    /// The last Solve's solver held only the over-capacity resources (SolveOverloadedOnly):
    /// m_fastLoad holds the loads, as with m_fast, and m_reducedRate every flow's solver rate
    bool m_reduced{false};
    uint64_t m_nReduced{0};            //!< Solves that took the reduced solver
    std::vector<double> m_reducedRate; //!< per flow: its rate in the solver's units
    /// (flow, index in m_overList, weight in the solver's units) of the over-capacity usages
    std::vector<std::tuple<uint32_t, uint32_t, double>> m_overUses;
    /// per flow: its usage, kept from Solve to Solve with the spare lists in m_spareUsage so
    /// that a pass allocates nothing
    std::vector<std::vector<MaxMinSolver::Usage>> m_usageOf;
    std::vector<std::vector<MaxMinSolver::Usage>> m_spareUsage; //!< cleared usage lists
    std::vector<uint32_t> m_overList;  //!< over-capacity resources, ascending
    std::vector<uint32_t> m_overLocal; //!< per resource: solver id (kUnused: not held)
    /// per over-capacity resource (index in m_overList): the flows using it, with weights
    std::vector<std::vector<std::pair<uint32_t, double>>> m_overFlows;
    bool m_solved{false};                       //!< a Solve has completed
    uint64_t m_nFast{0};                        //!< Solves that took no solver
    std::vector<double> m_fastLoad;             //!< per resource: demand = load when m_fast
    std::vector<uint32_t> m_fastTouched;        //!< resources with a load in m_fastLoad
    std::vector<uint64_t> m_flowKeys;           //!< per flow: hash of its scaled usage and cap
    std::vector<double> m_flowCap;              //!< per flow: its cap in the solver's units
    std::vector<double> m_flowUnit;             //!< per flow: samples/s per unit of its solver rate
    bool m_distinctFlows{false};                //!< no two flows of the last Solve alike
    std::vector<MaxMinSolver::Usage> m_scaled;  //!< a flow's usage in the solver's units
    mutable std::vector<uint32_t> m_railLinks;  //!< directed rail uplinks, node by node
    mutable std::vector<uint32_t> m_railLinkOf; //!< node -> first of its m_railLinks
    /**
     * \brief Solve with the resources over capacity at full demand only (after a
     * SolveFeasible that found distinct flows and some resource over capacity).
     *
     * A resource whose demand fits never binds, so leaving it out does not change the
     * max-min rates; flows that use none of the others get their cap. Of resources with the
     * same capacity and the same flows at the same weights (Spread's pool nodes) one stays.
     * The fill then freezes the same classes in the same order with the same levels as over
     * all resources; loads are summed over the flows in the solver's order (bit-identical).
     * \param usageOf per flow: its usage
     */
    void SolveReduced(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf);
    /**
     * Lists the resources over capacity at full demand (m_overList, ascending) and the flows'
     * usages of them (m_overFlows, m_overUses), for SolveReduced.
     * \param usageOf per flow: its usage
     */
    void ListOverCapacity(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf);
    /**
     * \param caps appended: the kept constraints' capacities, in solver id order
     * \return per resource of m_overList: its solver id, kUnused where an identical
     *         constraint of a lower id stands for it
     */
    std::vector<uint32_t> KeepDistinctConstraints(std::vector<double>& caps);
    /**
     * Sets m_reducedRate and m_fastLoad from the reduced solve.
     * \param usageOf per flow: its usage \param solverId per flow: its solver id (-1: none)
     */
    void SetReducedRates(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf,
                         const std::vector<int64_t>& solverId);

    /**
     * Feasibility test of SkipFeasibleSolves: sums every resource's demand in the solver's
     * order and checks that no flows would merge into one class.
     * \param usageOf per flow, its usage \param jobOf per flow, its job
     * \param groupSize per flow, its GPUs \param demand per job, samples/s per GPU
     * \param jobs the jobs
     *
eturn true if every flow gets its cap (results may be computed without a solver)
     */
    bool SolveFeasible(const std::vector<std::vector<MaxMinSolver::Usage>>& usageOf,
                       const std::vector<uint32_t>& jobOf,
                       const std::vector<uint32_t>& groupSize,
                       const std::vector<double>& demand,
                       const std::vector<ProvisioningJob>& jobs);
    struct CachedUsage;
    /** \param usage its usage \param groupSize its GPUs \param demand its job's demand
     * \param job its job \param cached the usage's cache entry (ReuseUsages; nullptr: none):
     * its dominant share over the resources other than storage clients, computed once
     * \param clientShare set to the dominant share over the storage clients alone, when
     *        cached is given (else NaN; nullptr: not asked for)
     * \return samples/s per GPU per unit of solver rate */
    double FlowUnit(const std::vector<MaxMinSolver::Usage>& usage,
                    uint32_t groupSize,
                    double demand,
                    const ProvisioningJob& job,
                    const CachedUsage* cached = nullptr,
                    double* clientShare = nullptr) const;
    /** \param demand a job's demand \param job the job \return FlowUnit under a fairness
     *  that has no dominant share in it (Samples, DemandFraction) */
    double UnitWithoutShare(double demand, const ProvisioningJob& job) const;

    /**
     * \param entry a usage entry (resource, weight per sample of the flow's GPUs)
     * \param groupSize the flow's GPUs
     * \return the entry's share of its resource per GPU sample: weight / GPUs / capacity, in
     *         that order, wherever a dominant share is taken (the shares must agree to the bit)
     */
    double EntryShare(const MaxMinSolver::Usage& entry, uint32_t groupSize) const
    {
        return entry.second / groupSize / m_caps[entry.first];
    }

    /**
     * \param usage a flow's usage \param groupSize its GPUs
     * \return the largest EntryShare over the usage (0 if empty)
     */
    double ShareOver(const std::vector<MaxMinSolver::Usage>& usage, uint32_t groupSize) const;

    /** \param share a flow's dominant share \return its unit under DominantShare */
    static double UnitOfShare(double share)
    {
        return share > 0 ? 1.0 / share : 1.0;
    }

    /** A storage-client request (Client()) a loader made while building a flow's usage */
    struct ClientCall
    {
        uint32_t node;  //!< node whose client reads
        double samples; //!< raw samples in flight it adds
    };

    /** What a (job, node) flow's usage depends on, besides the attributes */
    struct UsageKey
    {
        const WorkloadProfile* profile; //!< the job's workload
        double rawHit;                  //!< its cache plan
        double decodedHit;              //!< its cache plan
        double bytes;                   //!< its cache plan
        uint32_t node;                  //!< the node
        uint32_t firstGpu;              //!< the first of its GPUs' indices on the node
        uint32_t count;                 //!< its GPUs on the node

        /** \param o another key \return true if equal */
        bool operator==(const UsageKey& o) const
        {
            return profile == o.profile && rawHit == o.rawHit && decodedHit == o.decodedHit &&
                   bytes == o.bytes && node == o.node && firstGpu == o.firstGpu && count == o.count;
        }
    };

    /** Hash of a UsageKey */
    struct UsageKeyHash
    {
        /** \param k key \return hash */
        std::size_t operator()(const UsageKey& k) const;
    };

    /** A flow's usage as the loader built it */
    struct CachedUsage
    {
        std::vector<MaxMinSolver::Usage> usage; //!< merged usage (clients: see clientCall)
        std::vector<int32_t> clientCall;        //!< per entry: its Client() call, or -1
        std::vector<ClientCall> calls;          //!< the Client() calls, in order
        std::vector<uint32_t> clientEntries;    //!< entries that are storage clients
        /// max over the other entries of weight / GPUs / capacity (FlowUnit's dominant
        /// share), with the capacities of m_capsEpoch epoch
        double staticShare{0};
        uint64_t epoch{0};   //!< m_capsEpoch when staticShare was computed
        uint64_t lastUse{0}; //!< m_usageStamp of the last pass that used it (SweepUsages)
        /// built in a compact pass and symmetric: usage, clientCall and clientEntries were
        /// dropped (only the compact lists are used; a full pass builds the entry again)
        bool fullDropped{false};
        /// The usage uses every pool node alike (MergePoolTwins): each entry on pool node
        /// q > 0 has its twin on pool node 0 with the same weight. Then `compact` is `usage`
        /// without those entries, with its own client bookkeeping.
        bool symmetric{false};
        std::vector<MaxMinSolver::Usage> compact; //!< usage less the pool twins' entries
        std::vector<int32_t> compactClientCall;   //!< clientCall of the compact entries
        std::vector<uint32_t> compactClients;     //!< clientEntries of the compact entries
        /// the Client() calls a compact pass makes, in order: those not on a pool node
        /// q > 0 (their clients are the twins of pool node 0's and left out of the solve)
        std::vector<uint32_t> compactCalls;
    };

    /** Fill c's compact usage when its pool-node entries are alike. \param c the entry */
    void CompactUsage(CachedUsage& c) const;
    /**
     * \param c an entry \param call one of its Client() calls
     * \return the pool node the call's client is on, -1 if not on the pool
     */
    int64_t PoolNodeOfCall(const CachedUsage& c, uint32_t call) const;
    /**
     * \param c an entry \param e one of its usage entries
     * \return a storage client's pool node; a static resource's 0 on pool node 0, 1 on some
     *         pool node q > 0 (a twin); -1 off the pool
     */
    int64_t PoolNodeOfEntry(const CachedUsage& c, size_t e) const;
    /**
     * \param c an entry \param poolOf per usage entry: PoolNodeOfEntry
     * \return whether each of its entries on a pool node q > 0 has its twin on pool node 0
     *         with the same weight, and each of those all P - 1 twins (CompactUsage)
     */
    bool TwinsMirrorPoolNodeZero(const CachedUsage& c, const std::vector<int64_t>& poolOf) const;
    /**
     * Fill c's compact lists: its entries off pool nodes q > 0.
     * \param c the entry \param poolOf per usage entry: PoolNodeOfEntry
     */
    void KeepOffTwinEntries(CachedUsage& c, const std::vector<int64_t>& poolOf) const;
    /**
     * Build the usage of a (job, node) flow for a compact pass from pool node 0's part
     * (AddOverPool), when the loader's usage goes through it and every path is alike.
     * \param job the job \param plan its cache plan \param node the node
     * \param firstGpu index of its first GPU on the node \param count its GPUs there
     * \param c set to the entry (compact lists only), if built
     * \return false if it was not built (then nothing was changed)
     */
    bool BuildFromPoolNodeZero(const ProvisioningJob& job,
                               const CachePlan& plan,
                               uint32_t node,
                               uint32_t firstGpu,
                               uint32_t count,
                               CachedUsage& c);
    /**
     * The usage of a (job, node) flow as the loader adds it, one GPU after the other.
     * \param job the job \param plan its cache plan \param node the node
     * \param firstGpu index of its first GPU on the node \param count its GPUs there
     * \param calls if not null, Client()'s calls are recorded there (m_recording)
     * \return the weights added, not yet merged (Take)
     */
    UsageBuilder FlowUsage(const ProvisioningJob& job,
                           const CachePlan& plan,
                           uint32_t node,
                           uint32_t firstGpu,
                           uint32_t count,
                           std::vector<std::pair<ClientCall, uint32_t>>* calls);
    /** \param r a resource \return true if it belongs to pool node 0 (twins, or its client) */
    bool OnPoolNodeZero(uint32_t r) const;
    /**
     * \param usage a usage built with its Client() calls recorded \param calls those calls
     * \param clientCall per entry, its first call (set; -1: not a client)
     * \param clientEntries the entries that are storage clients (set)
     */
    void ClientCallsOf(const std::vector<MaxMinSolver::Usage>& usage,
                       const std::vector<std::pair<ClientCall, uint32_t>>& calls,
                       std::vector<int32_t>& clientCall,
                       std::vector<uint32_t>& clientEntries);
    /**
     * Compute c.staticShare with the current capacities.
     * \param c the entry \param count its GPUs on the node
     */
    void StaticShare(CachedUsage& c, uint32_t count) const;
    /** Start a pass's look-ups in m_usages; drop entries long unused when it grew large. */
    void SweepUsages();
    /** Drop every entry of m_usages (the cluster, loader or capacities changed). */
    void ForgetUsages();
    /** \param c an entry of m_usages \return the bytes it holds, its lists' capacities */
    static size_t UsageBytes(const CachedUsage& c);
    /// bumped when the static capacities change but the kept usages stay (rail reserve)
    uint64_t m_capsEpoch{0};
    uint64_t m_usageStamp{0}; //!< passes (Solve or DescribeJob) so far
    uint64_t m_sweepStamp{0}; //!< m_usageStamp at the last sweep
    size_t m_usagesSwept{0};  //!< entries kept by the last sweep
    /// UsageBytes of every entry of m_usages, counted at insertion and erasure (an entry's
    /// lists do not change while it is kept)
    uint64_t m_usageBytes{0};
    uint64_t m_usageBytesSwept{0}; //!< m_usageBytes after the last sweep
    uint64_t m_sweepBytes;         //!< UsageCacheSweepBytes [bytes]
    /// SweepUsages sweeps no table below this many entries (and UsageCacheSweepBytes)
    static constexpr size_t kSweepEntries = 4096;
    /// CompactUsage's scratch, per static resource: the stamp of the call that set its entry
    mutable std::vector<uint32_t> m_compactStampOf;
    mutable std::vector<uint32_t> m_compactEntryOf;   //!< per static resource: its entry
    mutable uint32_t m_compactStamp{0};               //!< CompactUsage's current call
    mutable std::vector<uint32_t> m_compactTwinsSeen; //!< per entry: its twins in the list
    mutable std::vector<int64_t> m_compactPoolOf;     //!< per entry: its pool node (CompactUsage)
    std::vector<uint32_t> m_callIds; //!< ReusedUsage's scratch: per Client() call, its id
    /// ReusedUsage's scratch: (client resource, Client() call) of a usage being built
    std::vector<std::pair<uint32_t, int32_t>> m_callsByRes;

    /// per flow of the current Solve: its entry in m_usages (ReuseUsages), else nullptr
    std::vector<const CachedUsage*> m_flowCached;
    /// per resource: load / capacity of the last fast or reduced Solve, for the bottleneck
    /// attribution (valid for m_fastTouched while m_utilFresh)
    std::vector<double> m_utilOf;
    bool m_utilFresh{false};         //!< m_utilOf holds the last Solve's utilisations
    std::vector<uint32_t> m_utilSet; //!< resources with a value in m_utilOf
    /// per resource: its index in m_railLinks (uplinks), else kUnused; and of the reverse
    mutable std::vector<uint32_t> m_railPosOut;
    mutable std::vector<uint32_t> m_railPosIn;
    mutable std::vector<uint32_t> m_railNodeOf; //!< per index in m_railLinks: its node
    /// per index in m_railLinks: the load of the uplink (2 i) and of its reverse (2 i + 1),
    /// 0 unless loaded (scratch of RailLoads)
    mutable std::vector<double> m_railVal;
    mutable std::vector<uint32_t> m_railNodes;   //!< nodes with a loaded rail link
    mutable std::vector<uint8_t> m_railNodeMark; //!< per node: listed in m_railNodes

    /// Usages of (job, node) flows by what they depend on (ReuseUsages)
    std::unordered_map<UsageKey, CachedUsage, UsageKeyHash> m_usages;
    /// Client() calls of the usage being built, with the resource each returned
    mutable std::vector<std::pair<ClientCall, uint32_t>>* m_recording{nullptr};
    mutable ProvisioningUtilization m_util; //!< computed when asked for (GetUtilization)
    mutable bool m_utilValid{false};
    std::vector<ProvisioningFlow> m_flows;
    std::vector<double> m_railReserve; //!< per training node, kept for other traffic [bytes/s]
    std::vector<ProvisioningJob> m_describedJob; //!< DescribeJob's job (its m_jobs), kept
    std::vector<double> m_describedClientLoad;   //!< DescribeJob's client loads, kept
    /// DescribeJob's per-node usages, kept (their storage reused by the next job's)
    std::vector<std::vector<MaxMinSolver::Usage>> m_describedUsages;
};

} // namespace ns3

#endif // AICLUSTER_PROVISIONING_MODEL_H
