/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-backend.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StorageBackend");
NS_OBJECT_ENSURE_REGISTERED(StorageBackend);

TypeId
StorageBackend::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StorageBackend")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<StorageBackend>()
            .AddAttribute("AggregateBandwidth",
                          "Remote read bandwidth of the whole storage cluster, shared by all "
                          "clients [bit/s].",
                          DataRateValue(DataRate("200Gbps")),
                          MakeDataRateAccessor(&StorageBackend::m_aggregate),
                          MakeDataRateChecker())
            .AddAttribute("ClientBandwidth",
                          "Most remote bandwidth one client (one job's data loader) can get "
                          "[bit/s]; 0 = no cap.",
                          DataRateValue(DataRate("25Gbps")),
                          MakeDataRateAccessor(&StorageBackend::m_client),
                          MakeDataRateChecker())
            .AddAttribute("RequestLatency",
                          "Time to the first byte of one read request [s].",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&StorageBackend::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BandwidthPrice",
                          "Price of provisioned remote bandwidth [$ per (GB/s) per hour]. "
                          "Default: AWS EBS gp3 provisioned throughput, $0.040 per MB/s-month "
                          "= $40 per GB/s over 730 h.",
                          DoubleValue(40.0 / 730.0),
                          MakeDoubleAccessor(&StorageBackend::m_pricePerGbpsHour),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

StorageBackend::StorageBackend()
{
    NS_LOG_FUNCTION(this);
}

double
StorageBackend::AggregateBandwidth() const
{
    NS_LOG_FUNCTION(this);
    return m_aggregate.GetBitRate() / 8.0;
}

double
StorageBackend::ClientBandwidth() const
{
    NS_LOG_FUNCTION(this);
    return m_client.GetBitRate() / 8.0;
}

double
StorageBackend::RequestLatency() const
{
    NS_LOG_FUNCTION(this);
    return m_latency.GetSeconds();
}

double
StorageBackend::BandwidthPricePerByte() const
{
    NS_LOG_FUNCTION(this);
    return m_pricePerGbpsHour / 1e9 / 3600.0;
}

double
StorageBackend::ClientThroughput(double requestBytes, uint32_t outstanding) const
{
    NS_LOG_FUNCTION(this << requestBytes << outstanding);
    double cap = ClientBandwidth() > 0 ? ClientBandwidth() : AggregateBandwidth();
    double perRequest = RequestLatency() + requestBytes / cap;
    return std::min(cap, std::max<uint32_t>(1, outstanding) * requestBytes / perRequest);
}

double
StorageBackend::BandwidthCost(double bandwidth, double seconds) const
{
    NS_LOG_FUNCTION(this << bandwidth << seconds);
    return BandwidthPricePerByte() * bandwidth * seconds;
}

} // namespace ns3
