/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_FABRIC_H
#define AICLUSTER_RDMA_FABRIC_H

#include "rail-topology.h"
#include "rdma-transfer.h"

#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief What both granularities of the rail-optimized cluster offer: build a cluster,
 * move bulk data between memory endpoints, get a completion.
 *
 * RdmaPacketFabric (packets, PFC, DCQCN) and RdmaRateFabric (max-min fluid flows) implement
 * it with the same topology, routing, NIC choice and transfer ids, so a scenario written
 * against Ptr<RdmaFabric> runs at either level.
 */
class RdmaFabric : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ~RdmaFabric() override;

    /** \param config cluster to build (nodes, node template, rails, spines) */
    virtual void Build(const RailClusterConfig& config) = 0;
    /** \return the topology (valid after Build) */
    virtual const RailTopology& GetTopology() const = 0;
    /**
     * RDMA WRITE of `bytes` from endpoint `src` to endpoint `dst` (GPU or host-memory vertices
     * of the topology), starting now; `done` runs when the sender sees the last ACK.
     * \param src source endpoint \param dst destination endpoint \param bytes payload (> 0)
     * \param done completion callback (may be empty) \param options NIC choice
     * \return transfer id
     */
    virtual uint32_t Write(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           RdmaCompletion done,
                           RdmaTransferOptions options = {}) = 0;
    /**
     * RDMA READ: `local` fetches `bytes` from `remote`; `done` runs when the last byte reaches
     * `local`. In the result, src is `remote` and dst is `local`.
     * \param local requester \param remote responder \param bytes payload (> 0)
     * \param done completion callback \param options srcNic: NIC of remote, dstNic: of local
     * \return transfer id
     */
    virtual uint32_t Read(uint32_t local,
                          uint32_t remote,
                          uint64_t bytes,
                          RdmaCompletion done,
                          RdmaTransferOptions options = {}) = 0;
};

} // namespace ns3

#endif // AICLUSTER_RDMA_FABRIC_H
