/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaHeader");
NS_OBJECT_ENSURE_REGISTERED(InaHeader);

InaHeader::InaHeader()
{
    NS_LOG_FUNCTION(this);
}

TypeId
InaHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaHeader")
                            .SetParent<Header>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<InaHeader>();
    return tid;
}

TypeId
InaHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
InaHeader::Print(std::ostream& os) const
{
    NS_LOG_FUNCTION(this);
    os << "type=" << unsigned(type) << " src=" << src << " dst=" << dst << " job=" << job
       << " seq=" << seq << " worker=" << unsigned(worker) << " fanIn=" << unsigned(fanIn)
       << " bitmap=0x" << std::hex << bitmap << std::dec << " agg=" << aggIndex
       << " remap=" << remap << " prio=" << priority << " flags=0x" << std::hex << unsigned(flags)
       << std::dec << " values=" << values.size();
}

uint32_t
InaHeader::GetSerializedSize() const
{
    NS_LOG_FUNCTION(this);
    return FixedSize() + 4 * static_cast<uint32_t>(values.size());
}

void
InaHeader::Serialize(Buffer::Iterator it) const
{
    NS_LOG_FUNCTION(this);
    it.WriteU8(type);
    it.WriteHtonU16(src);
    it.WriteHtonU16(dst);
    it.WriteHtonU16(job);
    it.WriteHtonU32(seq);
    it.WriteU8(worker);
    it.WriteU8(fanIn);
    it.WriteHtonU32(bitmap);
    it.WriteHtonU32(aggIndex);
    it.WriteHtonU32(remap);
    it.WriteHtonU32(priority);
    it.WriteU8(flags);
    it.WriteHtonU16(static_cast<uint16_t>(values.size()));
    for (int32_t v : values)
    {
        it.WriteHtonU32(static_cast<uint32_t>(v));
    }
}

uint32_t
InaHeader::Deserialize(Buffer::Iterator it)
{
    NS_LOG_FUNCTION(this);
    type = it.ReadU8();
    src = it.ReadNtohU16();
    dst = it.ReadNtohU16();
    job = it.ReadNtohU16();
    seq = it.ReadNtohU32();
    worker = it.ReadU8();
    fanIn = it.ReadU8();
    bitmap = it.ReadNtohU32();
    aggIndex = it.ReadNtohU32();
    remap = it.ReadNtohU32();
    priority = it.ReadNtohU32();
    flags = it.ReadU8();
    uint16_t n = it.ReadNtohU16();
    values.resize(n);
    for (uint16_t i = 0; i < n; ++i)
    {
        values[i] = static_cast<int32_t>(it.ReadNtohU32());
    }
    return GetSerializedSize();
}

} // namespace ns3
