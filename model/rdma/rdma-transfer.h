/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_TRANSFER_H
#define AICLUSTER_RDMA_TRANSFER_H

#include "rail-topology.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Outcome of one bulk transfer, the same for the packet and the rate level.
 */
struct RdmaTransferResult
{
    uint32_t id{0};     //!< transfer (queue pair) id
    uint32_t src{0};    //!< endpoint the data left (vertex)
    uint32_t dst{0};    //!< endpoint the data went to (vertex)
    uint32_t srcNic{0}; //!< NIC on the source side (vertex; unused within a node)
    uint32_t dstNic{0}; //!< NIC on the destination side
    uint64_t bytes{0};  //!< payload bytes
    bool read{false};   //!< true for RDMA READ (data flowed from the remote endpoint)
    Time start;         //!< when it was posted
    Time delivered;     //!< when the last byte reached the destination memory
    Time completed;     //!< when the requester saw completion (WRITE: last ACK)

    /** \return payload goodput from post to delivery, bytes/s */
    double Goodput() const
    {
        double s = (delivered - start).GetSeconds();
        return s > 0 ? static_cast<double>(bytes) / s : 0.0;
    }
};

/** Completion callback of a transfer. */
using RdmaCompletion = std::function<void(const RdmaTransferResult&)>;

/**
 * \ingroup aicluster
 * \brief Optional choices of a transfer.
 */
struct RdmaTransferOptions
{
    int32_t srcNic{-1}; //!< NIC index (rail) on the source node, -1: by the fabric's policy
    int32_t dstNic{-1}; //!< NIC index on the destination node, -1: by the fabric's policy
};

} // namespace ns3

#endif // AICLUSTER_RDMA_TRANSFER_H
