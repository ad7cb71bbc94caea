/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-allocation-policy.h"

#include "ina-atp-policy.h"
#include "ina-esa-policy.h"
#include "ina-switchml-policy.h"

#include "ns3/crc32.h"
#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaAllocationPolicy");
NS_OBJECT_ENSURE_REGISTERED(InaAllocationPolicy);

TypeId
InaAllocationPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaAllocationPolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

uint32_t
InaAllocationPolicy::Priority(const InaJobProgress& p) const
{
    return p.staticPriority;
}

uint32_t
InaAllocationPolicy::LevelIndex(uint16_t /*job*/,
                                uint32_t /*seq*/,
                                uint32_t carried,
                                const InaJobSlots& /*slots*/) const
{
    return carried;
}

uint32_t
InaAllocationPolicy::HashIndex(uint16_t job,
                               uint32_t slot,
                               uint32_t attempt,
                               uint32_t poolSize,
                               uint32_t salt)
{
    uint8_t buf[10];
    buf[0] = job >> 8;
    buf[1] = job & 0xff;
    for (int i = 0; i < 4; ++i)
    {
        buf[2 + i] = (slot >> (24 - 8 * i)) & 0xff;
        buf[6 + i] = (attempt >> (24 - 8 * i)) & 0xff;
    }
    // CRC32 as ATP's host library, then the murmur3 finaliser: CRC32 is linear, and on
    // these short keys its low bits barely change, so a power-of-two pool would see only a
    // handful of indices.
    // A salt stands for other job ids: the golden-ratio multiple spreads small salts over
    // all bits, and salt 0 leaves ATP's CRC as it is.
    uint32_t h = CRC32Calculate(buf, sizeof(buf)) ^ (salt * 0x9e3779b9u);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h % poolSize;
}

Ptr<InaAllocationPolicy>
InaAllocationPolicy::Create(const std::string& name)
{
    if (name == "switchml")
    {
        return CreateObject<SwitchMlPolicy>();
    }
    if (name == "atp")
    {
        return CreateObject<AtpPolicy>();
    }
    if (name == "esa")
    {
        return CreateObject<EsaPolicy>();
    }
    throw std::invalid_argument("INA policy '" + name + "' unknown: expected switchml, atp or esa");
}

} // namespace ns3
