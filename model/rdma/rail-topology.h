/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RAIL_TOPOLOGY_H
#define AICLUSTER_RAIL_TOPOLOGY_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Kinds of vertices in a rail-optimized cluster graph.
 */
enum class RailVertexKind : uint8_t
{
    GPU,          //!< GPU memory endpoint
    HOST_MEMORY,  //!< host (CPU) memory endpoint
    NIC,          //!< RDMA NIC: forwards between its PCIe port and its rail port
    PCIE_SWITCH,  //!< PCIe switch pairing GPUs and NICs
    ROOT_COMPLEX, //!< CPU root complex in front of host memory
    LEAF,         //!< rail (leaf) switch
    SPINE         //!< spine switch between leaves
};

/** \return printable name of a vertex kind */
std::string RailVertexKindName(RailVertexKind kind);

/**
 * \ingroup aicluster
 * \brief What one training node is made of (the node template).
 *
 * Bandwidths are effective (after protocol overhead of the bus) in bytes per second.
 */
struct RailNodeTemplate
{
    uint32_t gpus{8};         //!< GPUs per node
    uint32_t nics{8};         //!< RDMA NICs per node (one per rail)
    uint32_t pcieSwitches{4}; //!< PCIe switches; GPUs and NICs are spread evenly over them
    uint32_t pcieGen{4};      //!< PCIe generation (3..6)
    uint32_t pcieLanes{16};   //!< lanes of every PCIe link (GPU, NIC and switch uplink)
    /**
     * bytes/s a NIC moves over PCIe; 0 (default): tied to the NIC's generation, i.e. its line
     * rate, as nicDmaEfficiency x rail rate / 8 (RailClusterConfig::NicDmaBandwidth)
     */
    double nicDmaBandwidth{0};
    /**
     * DMA bytes/s per byte/s of line rate when nicDmaBandwidth is 0: 0.94, a ConnectX-6's
     * ~23.5 GB/s at 200 Gb/s (DESIGN.md)
     */
    double nicDmaEfficiency{0.94};
    double memoryBandwidth{200e9}; //!< bytes/s host memory accepts from DMA (assumption)
    double pcieLatency{150e-9};    //!< s, one-way latency of each PCIe hop
    double memoryLatency{100e-9};  //!< s, root complex to host memory
    uint64_t pfcXoffInNode{32768}; //!< bytes, XOFF threshold of in-node ingress queues

    /** \return effective bytes/s of one PCIe link of this template */
    double PcieBandwidth() const;
    /** Check the template; throws std::invalid_argument naming the field on bad values. */
    void Validate() const;
};

/**
 * \ingroup aicluster
 * \brief Shape of a rail-optimized cluster: rail i of every node to leaf i, spines between
 * leaves.
 */
struct RailClusterConfig
{
    uint32_t nodes{8};         //!< training nodes
    RailNodeTemplate node;     //!< every node is built from this template
    double railRateBps{200e9}; //!< bits/s of every rail link (NIC to leaf)
    uint32_t nodesPerLeaf{0};  //!< nodes under one leaf per rail (0: all nodes, one leaf per rail)
    uint32_t spines{8};        //!< spine switches (0: no spines, cross-rail traffic impossible)
    double spineRateBps{0};    //!< bits/s of every leaf-spine link (0: same as the rail rate)
    double linkDelay{1e-6};    //!< s, propagation delay of fabric links (HPCC topologies: 1 us)
    uint64_t pfcXoffFabric{262144}; //!< bytes, XOFF threshold of fabric switch ingress queues

    /** Check the config; throws std::invalid_argument naming the field on bad values. */
    void Validate() const;
    /**
     * \return bytes/s one NIC moves over PCIe: node.nicDmaBandwidth if set, else
     * node.nicDmaEfficiency x railRateBps / 8 (the NIC generation that drives the rail)
     */
    double NicDmaBandwidth() const;
};

/**
 * \ingroup aicluster
 * \brief How a transfer picks the NIC of an endpoint.
 */
enum class NicPolicy : uint8_t
{
    RAIL_AFFINITY, //!< GPU i uses NIC i; host memory uses the rail of the peer GPU (else hash)
    HASH           //!< NIC = hash(flow) mod NICs, for every endpoint
};

/**
 * \ingroup aicluster
 * \brief Graph of a rail-optimized cluster and the routing both granularities share.
 *
 * Vertices are GPUs, host memories, NICs, PCIe switches, root complexes, leaves and spines;
 * an undirected link joins two vertices with one capacity per direction. A vertex id is also
 * the vertex's network address. Routing is shortest path with ECMP (hash of flow id), in two
 * domains: inside a node (PCIe and memory, no NIC is a transit) and in the fabric (NIC to
 * NIC). A packet leaving a node first travels to its source NIC, then to its destination
 * NIC, then to its destination endpoint. The packet-level switches and the rate-level solver
 * use the same functions, so both see the same paths.
 */
class RailTopology
{
  public:
    /** A vertex. */
    struct Vertex
    {
        RailVertexKind kind; //!< kind
        int32_t node;        //!< node index, -1 for fabric switches
        uint32_t index;      //!< index among vertices of this kind in its node (or fabric)
        uint32_t nodeLocal;  //!< position in its node's vertex list (in-node routing)
        int32_t fabricLocal; //!< position in the fabric vertex list, -1 if not in the fabric
    };

    /** An undirected link; directed link ids are 2*id (a->b) and 2*id+1 (b->a). */
    struct Link
    {
        uint32_t a;         //!< one end
        uint32_t b;         //!< other end
        double bytesPerSec; //!< capacity per direction, bytes/s
        double delay;       //!< propagation delay, s
        bool inNode;        //!< true for PCIe and memory links
        uint64_t xoff;      //!< PFC XOFF threshold of ingress queues on this link, bytes
    };

    /** Build the graph of a cluster. \param config the cluster (validated here) */
    explicit RailTopology(const RailClusterConfig& config);

    /** \return the configuration */
    const RailClusterConfig& GetConfig() const
    {
        return m_config;
    }

    /** \return number of vertices */
    uint32_t GetNVertices() const
    {
        return static_cast<uint32_t>(m_vertices.size());
    }

    /** \param v vertex id \return the vertex */
    const Vertex& GetVertex(uint32_t v) const
    {
        return m_vertices.at(v);
    }

    /** \return all links */
    const std::vector<Link>& GetLinks() const
    {
        return m_links;
    }

    /** \param v vertex \return ids of links touching v */
    const std::vector<uint32_t>& GetAdjacentLinks(uint32_t v) const
    {
        return m_adj.at(v);
    }

    /** \param v vertex \param link a link touching v \return the other end */
    uint32_t OtherEnd(uint32_t v, uint32_t link) const;
    /** \param from start vertex \param link link touching it \return directed link id */
    uint32_t DirectedLink(uint32_t from, uint32_t link) const;
    /** \param directedLink directed link id \return readable name such as "n0.pcie1->n0.rc" */
    std::string DirectedLinkName(uint32_t directedLink) const;
    /** \param v vertex \return readable name such as "n3.gpu2" or "leaf0.5" */
    std::string VertexName(uint32_t v) const;

    /** \param node node index \param gpu GPU index \return vertex id (throws if out of range) */
    uint32_t Gpu(uint32_t node, uint32_t gpu) const;
    /** \param node node index \return vertex id of its host memory */
    uint32_t HostMemory(uint32_t node) const;
    /** \param node node index \param nic NIC (rail) index \return vertex id */
    uint32_t Nic(uint32_t node, uint32_t nic) const;
    /** \param node node index \param sw PCIe switch index \return vertex id */
    uint32_t PcieSwitch(uint32_t node, uint32_t sw) const;
    /** \param node node index \return vertex id of its root complex */
    uint32_t RootComplex(uint32_t node) const;
    /** \param group leaf group \param rail rail \return vertex id of that leaf */
    uint32_t Leaf(uint32_t group, uint32_t rail) const;
    /** \param s spine index \return vertex id */
    uint32_t Spine(uint32_t s) const;

    /** \return number of leaf groups */
    uint32_t GetNLeafGroups() const
    {
        return m_leafGroups;
    }

    /** \param v vertex \return true for GPU and host memory vertices */
    bool IsEndpoint(uint32_t v) const;

    /**
     * Pick the NIC an endpoint uses for a flow.
     * \param endpoint GPU or host-memory vertex
     * \param peer the other endpoint of the flow
     * \param flowId flow (queue pair) id, for hashing
     * \param policy NIC policy
     * \return NIC vertex id
     */
    uint32_t SelectNic(uint32_t endpoint, uint32_t peer, uint64_t flowId, NicPolicy policy) const;

    /**
     * Where a packet at vertex `at` heads next as a waypoint (see class doc).
     * \param at current vertex \param dst destination endpoint
     * \param srcNic source NIC \param dstNic destination NIC \return waypoint vertex
     */
    uint32_t Waypoint(uint32_t at, uint32_t dst, uint32_t srcNic, uint32_t dstNic) const;

    /**
     * Equal-cost next hops from `at` towards `target`.
     * \param at current vertex \param target waypoint \return ids of undirected links
     */
    const std::vector<uint32_t>& NextHopLinks(uint32_t at, uint32_t target) const;

    /**
     * ECMP choice, the same hash for both granularities.
     * \param flowId flow id \param at vertex choosing \param n number of choices \return index
     */
    static uint32_t EcmpIndex(uint64_t flowId, uint32_t at, uint32_t n);

    /**
     * Directed links of the path of a flow.
     * \param src source endpoint \param dst destination endpoint
     * \param srcNic source NIC (ignored when both are in one node)
     * \param dstNic destination NIC (ignored when both are in one node)
     * \param flowId flow id for ECMP
     * \return directed link ids in order
     */
    std::vector<uint32_t> Path(uint32_t src,
                               uint32_t dst,
                               uint32_t srcNic,
                               uint32_t dstNic,
                               uint64_t flowId) const;

    /**
     * Line rate of a queue pair (DCQCN's maximum): the rail rate of the source NIC, or the
     * source endpoint's own link for a transfer inside one node.
     * \param src source endpoint \param dst destination endpoint \param srcNic source NIC
     * \return bytes/s
     */
    double QpLineRate(uint32_t src, uint32_t dst, uint32_t srcNic) const;

  private:
    uint32_t AddVertex(RailVertexKind kind, int32_t node, uint32_t index);
    void AddLink(uint32_t a, uint32_t b, double bytesPerSec, double delay, uint64_t xoff);
    void BuildNode(uint32_t n);
    void BuildFabric();
    bool LinkInDomain(uint32_t link, bool fabric) const;
    const std::vector<uint16_t>& Distances(uint32_t target, bool fabric) const;

    RailClusterConfig m_config;
    uint32_t m_leafGroups{1};
    std::vector<Vertex> m_vertices;
    std::vector<Link> m_links;
    std::vector<std::vector<uint32_t>> m_adj;
    std::vector<std::vector<uint32_t>> m_nodeVertices; //!< per node, vertex ids (incl. NICs)
    std::vector<uint32_t> m_fabricVertices;            //!< leaves, spines and all NICs
    std::vector<uint32_t> m_nodeBase;                  //!< first vertex id of each node
    uint32_t m_leafBase{0};
    uint32_t m_spineBase{0};
    mutable std::vector<std::vector<uint16_t>> m_distNode; //!< per target, in-node distances
    /// per fabric target, fabric distances: kept for the switches NICs hang off (a NIC's are
    /// its switch's plus one, NextHopLinks), not per NIC
    mutable std::vector<std::vector<uint16_t>> m_distFabric;
    /** per vertex: target -> equal-cost next-hop links (filled lazily) */
    mutable std::vector<std::unordered_map<uint32_t, std::vector<uint32_t>>> m_nextHops;
};

} // namespace ns3

#endif // AICLUSTER_RAIL_TOPOLOGY_H
