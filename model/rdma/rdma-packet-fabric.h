/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_PACKET_FABRIC_H
#define AICLUSTER_RDMA_PACKET_FABRIC_H

#include "lossless-net-device.h"
#include "rail-topology.h"
#include "rdma-endpoint.h"
#include "rdma-fabric.h"
#include "rdma-switch.h"
#include "rdma-transfer.h"

#include "ns3/error-model.h"
#include "ns3/node.h"
#include "ns3/object.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Packet-level rail-optimized cluster: builds one ns-3 Node per vertex of a
 * RailTopology (GPU and host memories with RdmaEndpoints; NICs, PCIe switches, root
 * complexes, leaves and spines with RdmaSwitches), joined by LosslessNetDevices, and moves
 * bulk data between memory endpoints with RDMA WRITE or READ.
 *
 * Usage: Build(config); Write(topology.Gpu(0, 3), topology.HostMemory(5), bytes, callback);
 * Simulator::Run().
 */
class RdmaPacketFabric : public RdmaFabric
{
  public:
    /** Fabric-wide counters */
    struct Stats
    {
        uint64_t transfersPosted{0};      //!< Write/Read calls
        uint64_t transfersCompleted{0};   //!< completions delivered to callbacks
        uint64_t bytesPosted{0};          //!< payload bytes requested
        uint64_t bytesDelivered{0};       //!< payload bytes delivered in order to endpoints
        uint64_t retransmittedPackets{0}; //!< data packets sent again (go-back-N)
        uint64_t pauseFrames{0};          //!< PFC PAUSE frames sent
        uint64_t headroomViolations{0};   //!< ingress beyond XOFF + headroom (must be 0)
        uint64_t ecnMarks{0};             //!< packets marked CE
        uint64_t cnps{0};                 //!< congestion notifications seen by senders
        uint64_t rateDecreases{0};        //!< DCQCN rate cuts
        uint64_t errorDrops{0};           //!< packets dropped by error models
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    RdmaPacketFabric();
    ~RdmaPacketFabric() override;

    /** \param config cluster to build (nodes, template, rails, spines) */
    void Build(const RailClusterConfig& config) override;
    /** \return the topology (valid after Build) */
    const RailTopology& GetTopology() const override;

    /**
     * RDMA WRITE of `bytes` from endpoint `src` to endpoint `dst` (GPU or host memory vertices
     * of the topology), starting now. The callback runs when the sender sees the last ACK.
     * \param src source endpoint \param dst destination endpoint \param bytes payload (> 0)
     * \param done completion callback (may be empty) \param options NIC choice
     * \return transfer id
     */
    uint32_t Write(uint32_t src,
                   uint32_t dst,
                   uint64_t bytes,
                   RdmaCompletion done,
                   RdmaTransferOptions options = {}) override;
    /**
     * RDMA READ: `local` fetches `bytes` from `remote`. The callback runs when the last byte
     * reaches `local`. In the result, src is `remote` and dst is `local`.
     * \param local requester endpoint \param remote responder endpoint \param bytes payload
     * \param done completion callback \param options srcNic: NIC of remote, dstNic: of local
     * \return transfer id
     */
    uint32_t Read(uint32_t local,
                  uint32_t remote,
                  uint64_t bytes,
                  RdmaCompletion done,
                  RdmaTransferOptions options = {}) override;

    /** \param directedLink directed link id \return the device transmitting on it */
    Ptr<LosslessNetDevice> GetLinkDevice(uint32_t directedLink) const;
    /** \param vertex endpoint vertex \return its RdmaEndpoint */
    Ptr<RdmaEndpoint> GetEndpoint(uint32_t vertex) const;
    /** \param vertex a vertex \return its ns-3 node */
    Ptr<Node> GetNode(uint32_t vertex) const;
    /** \param directedLink link \param em error model for packets received over it */
    void SetLinkErrorModel(uint32_t directedLink, Ptr<ErrorModel> em);
    /** \return counters summed over the fabric */
    Stats GetStats() const;
    /** \param directedLink link \return transmitted bytes / (capacity x now), in [0, 1] */
    double GetLinkUtilization(uint32_t directedLink) const;
    /** \param stream first stream \return streams used (one per ECN-marking device) */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /** A transfer in flight */
    struct Record
    {
        RdmaTransferResult result;
        RdmaCompletion done;
    };

    uint32_t PickNic(uint32_t endpoint, uint32_t peer, uint32_t id, int32_t forced) const;
    void CheckEndpoints(uint32_t a, uint32_t b, uint64_t bytes, const char* op) const;
    /**
     * Track a transfer just posted (its start is now) until it completes: src/dst and their
     * NICs are where the data leaves and arrives (for a READ, the remote side is src).
     */
    void Post(uint32_t id,
              uint32_t src,
              uint32_t dst,
              uint32_t srcNic,
              uint32_t dstNic,
              uint64_t bytes,
              bool read,
              RdmaCompletion done);
    void OnDelivered(uint32_t qp);
    void OnAcked(uint32_t qp);
    void Complete(uint32_t qp);

    std::unique_ptr<RailTopology> m_topology;
    std::vector<Ptr<Node>> m_nodes;                //!< per vertex
    std::vector<Ptr<LosslessNetDevice>> m_linkDev; //!< per directed link, transmitting end
    std::vector<Ptr<RdmaEndpoint>> m_endpoints;    //!< per vertex (null for switches)
    std::vector<Ptr<RdmaSwitch>> m_switches;       //!< per vertex (null for endpoints)
    std::unordered_map<uint32_t, Record> m_records;
    uint32_t m_nextId{1};
    uint64_t m_bytesPosted{0};
    uint64_t m_posted{0};
    uint64_t m_completed{0};

    // attributes
    int m_nicPolicy{static_cast<int>(NicPolicy::RAIL_AFFINITY)}; //!< a NicPolicy
    bool m_ecnFabric{true};
    bool m_ecnInNode{false};
    double m_kminPer25G{100e3};
    double m_kmaxPer25G{400e3};
    double m_pmax{0.2};
};

} // namespace ns3

#endif // AICLUSTER_RDMA_PACKET_FABRIC_H
