/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ideal-gradient-sync.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IdealGradientSync");
NS_OBJECT_ENSURE_REGISTERED(IdealGradientSync);

bool
IdealGradientSync::DependsOnOtherJobs() const
{
    return false;
}

TypeId
IdealGradientSync::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IdealGradientSync")
                            .SetParent<IterationTermModel>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<IdealGradientSync>();
    return tid;
}

void
IdealGradientSync::Evaluate(const ClusterTopology& /* topology */,
                            const std::vector<Ptr<const ClusterJob>>& /* running */,
                            std::vector<double>& seconds)
{
    NS_LOG_FUNCTION(this << seconds.size());
    std::fill(seconds.begin(), seconds.end(), 0.0);
}

} // namespace ns3
