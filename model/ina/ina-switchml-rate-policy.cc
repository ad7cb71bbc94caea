/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-switchml-rate-policy.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMlRatePolicy");
NS_OBJECT_ENSURE_REGISTERED(SwitchMlRatePolicy);

TypeId
SwitchMlRatePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchMlRatePolicy")
                            .SetParent<InaRatePolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<SwitchMlRatePolicy>();
    return tid;
}

SwitchMlRatePolicy::SwitchMlRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

SwitchMlRatePolicy::~SwitchMlRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

std::string
SwitchMlRatePolicy::GetName() const
{
    return "switchml";
}

uint32_t
SwitchMlRatePolicy::DefaultValuesPerPacket() const
{
    return 64;
}

uint32_t
SwitchMlRatePolicy::DefaultPipelinePasses() const
{
    return 1;
}

double
SwitchMlRatePolicy::RoundTrip(double hop, double pass, double extraHops) const
{
    const double e = extraHops;
    return 2 * (1 + e) * hop + (1 + 2 * e) * pass;
}

double
SwitchMlRatePolicy::Hold(double hop, double pass, double extraHops) const
{
    return RoundTrip(hop, pass, extraHops);
}

double
SwitchMlRatePolicy::CrossRackRoundTrip(double tx, double txUp, double delay, double pass) const
{
    return 2 * tx + 2 * txUp + 4 * delay + 3 * pass;
}

bool
SwitchMlRatePolicy::SharesPool() const
{
    return false;
}

double
SwitchMlRatePolicy::Window(uint32_t window,
                           uint32_t poolSize,
                           uint32_t partitions,
                           size_t jobsAtSwitch) const
{
    const uint32_t parts = partitions > 0 ? partitions : static_cast<uint32_t>(jobsAtSwitch);
    const uint32_t partition = poolSize / parts;
    if (partition < 2)
    {
        throw std::invalid_argument(
            "InaGradientSync: SwitchML PoolSize " + std::to_string(poolSize) + " split into " +
            std::to_string(parts) +
            " static partitions leaves fewer than 2 aggregators (one slot) per job; "
            "expected PoolSize >= 2 x jobs at a switch (or SwitchMlPartitions)");
    }
    return std::min<double>(window, partition / 2);
}

double
SwitchMlRatePolicy::PartitionHeld(double window, double chunks) const
{
    return 2 * std::min(window, chunks);
}

} // namespace ns3
