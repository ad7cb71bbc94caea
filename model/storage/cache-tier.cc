/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cache-tier.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CacheTier");
NS_OBJECT_ENSURE_REGISTERED(CacheTier);

TypeId
CacheTier::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CacheTier")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<CacheTier>()
            .AddAttribute("Capacity",
                          "Cache capacity in the compute cluster [bytes].",
                          DoubleValue(10e12),
                          MakeDoubleAccessor(&CacheTier::m_capacity),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Medium",
                          "Medium of the cache (sets the default price): Memory or Ssd.",
                          EnumValue(CacheTier::SSD),
                          MakeAiclusterEnumAccessor(&CacheTier::m_medium),
                          MakeEnumChecker(CacheTier::MEMORY, "Memory", CacheTier::SSD, "Ssd"))
            .AddAttribute("Price",
                          "Price of cache space [$ per GB per hour]; negative = the medium's "
                          "default (Memory 0.0034, Ssd 0.00011; doc/storage.md).",
                          DoubleValue(-1.0),
                          MakeDoubleAccessor(&CacheTier::m_price),
                          MakeDoubleChecker<double>());
    return tid;
}

CacheTier::CacheTier()
{
    NS_LOG_FUNCTION(this);
}

double
CacheTier::Capacity() const
{
    NS_LOG_FUNCTION(this);
    return m_capacity;
}

CacheTier::Medium
CacheTier::GetMedium() const
{
    NS_LOG_FUNCTION(this);
    return m_medium;
}

double
CacheTier::DefaultPricePerGbHour(Medium medium)
{
    NS_LOG_FUNCTION(medium);
    // Memory: AWS r6i.large (16 GiB) vs c6i.large (4 GiB), same vCPUs, $0.126 - $0.085 per hour
    // for 12 GiB more. SSD: AWS EBS gp3 storage, $0.08 per GB-month over 730 h.
    return medium == MEMORY ? (0.126 - 0.085) / 12.0 : 0.08 / 730.0;
}

double
CacheTier::PricePerGbHour() const
{
    NS_LOG_FUNCTION(this);
    return m_price >= 0 ? m_price : DefaultPricePerGbHour(m_medium);
}

double
CacheTier::PricePerByteSecond() const
{
    NS_LOG_FUNCTION(this);
    return PricePerGbHour() / 1e9 / 3600.0;
}

} // namespace ns3
