/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_HEADER_H
#define AICLUSTER_RDMA_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The one header of every packet on a lossless fabric: RDMA data, acknowledgements,
 * read requests and PFC frames.
 *
 * Its wire size is that of a RoCEv2 packet's headers (Ethernet 14 + IPv4 20 + UDP 8 + BTH 12
 * + ICRC 4 + FCS 4 = 62 bytes), so link occupancy per packet is realistic; fields we do not
 * model are zero padding.
 */
class RdmaHeader : public Header
{
  public:
    /** Packet types */
    enum Type : uint8_t
    {
        DATA = 0,     //!< RDMA WRITE or READ-response payload
        ACK = 1,      //!< cumulative acknowledgement (psn = next expected)
        NACK = 2,     //!< out-of-sequence: go back to psn
        READ_REQ = 3, //!< RDMA READ request (length = bytes wanted)
        PFC = 4       //!< priority flow control frame (hop-by-hop, never forwarded)
    };

    /** Flag bits */
    enum Flag : uint8_t
    {
        CE = 1,       //!< congestion experienced (ECN mark set by a switch)
        ECE = 2,      //!< ACK/NACK echoes a CE mark: the DCQCN congestion notification
        PAUSE = 4,    //!< PFC: pause (set) or resume (clear) the priority
        READ_RESP = 8 //!< DATA belongs to a READ response
    };

    static constexpr uint32_t kWireSize = 62; //!< bytes on the wire per packet header

    RdmaHeader() = default;

    /** \return the TypeId */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint8_t type{DATA};  //!< Type
    uint8_t flags{0};    //!< Flag bits
    uint8_t priority{0}; //!< traffic class (PFC priority)
    uint32_t src{0};     //!< source endpoint vertex
    uint32_t dst{0};     //!< destination endpoint vertex
    uint32_t srcNic{0};  //!< source NIC vertex
    uint32_t dstNic{0};  //!< destination NIC vertex
    uint32_t qp{0};      //!< queue pair (flow) id
    uint32_t psn{0};     //!< packet sequence number
    uint32_t payload{0}; //!< payload bytes carried
    uint64_t length{0};  //!< message length in bytes (DATA, READ_REQ)
};

} // namespace ns3

#endif // AICLUSTER_RDMA_HEADER_H
