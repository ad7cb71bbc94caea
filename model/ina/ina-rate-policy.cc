/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-rate-policy.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaRatePolicy");
NS_OBJECT_ENSURE_REGISTERED(InaRatePolicy);

TypeId
InaRatePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaRatePolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

InaRatePolicy::InaRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

InaRatePolicy::~InaRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

double
InaRatePolicy::Window(uint32_t window,
                      uint32_t /*poolSize*/,
                      uint32_t /*partitions*/,
                      size_t /*jobsAtSwitch*/) const
{
    return window; // hashed sharing: the whole window, over the whole pool
}

double
InaRatePolicy::PartitionHeld(double /*window*/, double /*chunks*/) const
{
    return 0.0;
}

bool
InaRatePolicy::Preempts() const
{
    return false;
}

bool
InaRatePolicy::Outranks(const InaRateJob& /*a*/,
                        size_t /*ia*/,
                        const InaRateJob& /*b*/,
                        size_t /*ib*/) const
{
    return false;
}

double
InaRatePolicy::PriorityKey(const ClusterJob& /*job*/) const
{
    return 0.0;
}

double
InaRatePolicy::BlockingWeight(const InaRateJob& /*holder*/,
                              size_t /*ih*/,
                              const InaRateJob& /*job*/,
                              size_t /*ij*/) const
{
    return 1.0; // every holder: one hashed index, first come first served
}

double
InaRatePolicy::Room(double pool, double /*blocking*/, double demand, double poolDemand) const
{
    return pool * demand / poolDemand; // a short pool shared by demand
}

double
InaRatePolicy::SplitKeyStall(double episodesFirst,
                             double episodesRest,
                             double timeout,
                             double rtt,
                             double /*waitFirst*/,
                             double /*waitRest*/) const
{
    // A split key never completes: the worker resends its window after the timeout.
    return (episodesFirst + episodesRest) * (timeout + rtt);
}

} // namespace ns3
