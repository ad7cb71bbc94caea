/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-atp-rate-policy.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtpRatePolicy");
NS_OBJECT_ENSURE_REGISTERED(AtpRatePolicy);

TypeId
AtpRatePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtpRatePolicy")
                            .SetParent<InaRatePolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<AtpRatePolicy>();
    return tid;
}

AtpRatePolicy::AtpRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

AtpRatePolicy::~AtpRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

std::string
AtpRatePolicy::GetName() const
{
    return "atp";
}

uint32_t
AtpRatePolicy::DefaultValuesPerPacket() const
{
    return 62;
}

uint32_t
AtpRatePolicy::DefaultPipelinePasses() const
{
    return 2;
}

double
AtpRatePolicy::RoundTrip(double hop, double pass, double extraHops) const
{
    const double e = extraHops;
    return (4 + 2 * e) * hop + (2 + 2 * e) * pass;
}

double
AtpRatePolicy::Hold(double hop, double pass, double /*extraHops*/) const
{
    return 2 * hop + 2 * pass;
}

double
AtpRatePolicy::CrossRackRoundTrip(double tx, double txUp, double delay, double pass) const
{
    return 4 * tx + 2 * txUp + 6 * delay + 4 * pass;
}

bool
AtpRatePolicy::SharesPool() const
{
    return true;
}

} // namespace ns3
