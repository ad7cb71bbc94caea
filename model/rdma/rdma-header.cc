/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rdma-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHeader");
NS_OBJECT_ENSURE_REGISTERED(RdmaHeader);

namespace
{
constexpr uint32_t kFieldBytes = 3 + 8 * 4 + 8; // fields actually serialised
} // namespace

TypeId
RdmaHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaHeader")
                            .SetParent<Header>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<RdmaHeader>();
    return tid;
}

TypeId
RdmaHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RdmaHeader::Print(std::ostream& os) const
{
    NS_LOG_FUNCTION(this);
    static const char* names[] = {"DATA", "ACK", "NACK", "READ_REQ", "PFC"};
    os << (type <= PFC ? names[type] : "?") << " qp=" << qp << " psn=" << psn << " " << src << "->"
       << dst << " nic " << srcNic << "->" << dstNic << " prio=" << +priority << " flags=" << +flags
       << " payload=" << payload << " len=" << length;
}

uint32_t
RdmaHeader::GetSerializedSize() const
{
    NS_LOG_FUNCTION(this);
    return kWireSize;
}

void
RdmaHeader::Serialize(Buffer::Iterator it) const
{
    NS_LOG_FUNCTION(this);
    it.WriteU8(type);
    it.WriteU8(flags);
    it.WriteU8(priority);
    it.WriteU32(src);
    it.WriteU32(dst);
    it.WriteU32(srcNic);
    it.WriteU32(dstNic);
    it.WriteU32(qp);
    it.WriteU32(psn);
    it.WriteU32(payload);
    it.WriteU32(0);
    it.WriteU64(length);
    it.WriteU8(0, kWireSize - kFieldBytes);
}

uint32_t
RdmaHeader::Deserialize(Buffer::Iterator start)
{
    NS_LOG_FUNCTION(this);
    Buffer::Iterator it = start;
    type = it.ReadU8();
    flags = it.ReadU8();
    priority = it.ReadU8();
    src = it.ReadU32();
    dst = it.ReadU32();
    srcNic = it.ReadU32();
    dstNic = it.ReadU32();
    qp = it.ReadU32();
    psn = it.ReadU32();
    payload = it.ReadU32();
    it.ReadU32();
    length = it.ReadU64();
    return kWireSize;
}

} // namespace ns3
