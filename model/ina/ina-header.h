/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_HEADER_H
#define AICLUSTER_INA_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The in-network-aggregation header: addressing, the aggregation key and the values.
 *
 * On the wire ATP and SwitchML put their header inside IPv4+UDP; here the few
 * routing fields the switch needs (source and destination address) travel in
 * this header, and a zero-filled padding payload keeps the frame as long as
 * the real Ethernet+IPv4+UDP+INA frame (see InaWorker::HeaderOverheadBytes).
 * The values are real 32-bit integers (or, with FLAG_OVERFLOW, float32 bits).
 */
class InaHeader : public Header
{
  public:
    /** Flags (bitwise or). */
    enum Flag : uint8_t
    {
        FLAG_COLLISION = 0x01, //!< forwarded to the PS because the aggregator was taken; on a
                               //!< result: the chunk completed at the PS (fallback)
        FLAG_RESEND = 0x02,    //!< a retransmission after a timeout
        FLAG_RESULT = 0x04,    //!< result / acknowledgement travelling back to workers
        FLAG_EVICTED = 0x08,   //!< a partial aggregate evicted by preemption (ESA)
        FLAG_OVERFLOW = 0x10,  //!< values are float32 bits (int32 would overflow)
        FLAG_AGGREGATE = 0x20, //!< carries a switch aggregate of the workers in bitmap
        FLAG_PARTIAL = 0x40,   //!< with FLAG_AGGREGATE: a ToR's aggregate of all its local
                               //!< workers, a contribution (bit = worker field, the rack) to the
                               //!< spine's second aggregation level
        FLAG_ECN = 0x80,       //!< congestion experienced: marked by a switch whose egress queue
                               //!< held EcnThreshold bytes or more (ATP's ECN bit); a switch
                               //!< aggregate, and the PS result, carry it if any part had it
    };

    /** Packet type: INA packets run the aggregation pipeline, DATA is forwarded by address. */
    enum Type : uint8_t
    {
        TYPE_DATA = 0, //!< ordinary traffic
        TYPE_INA = 1,  //!< aggregation traffic
    };

    static constexpr uint16_t MULTICAST_JOB = 0xffff; //!< destination: every worker of the job

    InaHeader();

    /** \return the TypeId */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /** \return bytes of the header without the values */
    static constexpr uint32_t FixedSize()
    {
        return 32;
    }

    /** \param f flag \return true if set */
    bool Has(Flag f) const
    {
        return (flags & f) != 0;
    }

    /** \return the aggregation key job<<32 | seq (ATP keys job<<16 | seq on 16-bit sequences) */
    uint64_t Key() const
    {
        return (static_cast<uint64_t>(job) << 32) | seq;
    }

    uint8_t type{TYPE_INA};      //!< TYPE_DATA or TYPE_INA
    uint16_t src{0};             //!< source address
    uint16_t dst{0};             //!< destination address (MULTICAST_JOB: all workers of job)
    uint16_t job{0};             //!< job id
    uint32_t seq{0};             //!< chunk sequence number within the job (all iterations)
    uint8_t worker{0};           //!< sending worker (bit in the bitmap)
    uint8_t fanIn{0};            //!< workers of the job (aggregation is complete at fanIn)
    uint32_t bitmap{0};          //!< workers whose values are carried (one bit each, at most 32)
    uint32_t aggIndex{0};        //!< aggregator index the packet addresses
    uint32_t remap{0};           //!< on a result: index the PS re-hashed this slot to
    uint32_t priority{0};        //!< job priority (larger = more important), for ESA
    uint8_t flags{0};            //!< Flag bits
    std::vector<int32_t> values; //!< the values (int32, or float32 bits with FLAG_OVERFLOW)
};

} // namespace ns3

#endif // AICLUSTER_INA_HEADER_H
