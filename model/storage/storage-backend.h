/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_BACKEND_H
#define AICLUSTER_STORAGE_BACKEND_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The remote (disaggregated) storage cluster: bandwidth, latency and price.
 *
 * One model shared by every component that reads training data from remote
 * storage (the storage allocation policies here, data provisioning elsewhere):
 * an aggregate bandwidth all clients share, a per-client cap (one client = one
 * job's data loader), a per-request latency and a price per unit of
 * bandwidth-time (provisioned throughput, as cloud block and file storage bill it).
 */
class StorageBackend : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageBackend();

    /** \return aggregate remote bandwidth [bytes/s] */
    double AggregateBandwidth() const;
    /** \return per-client bandwidth cap [bytes/s]; 0 = no cap */
    double ClientBandwidth() const;
    /** \return latency of one read request, first byte [s] */
    double RequestLatency() const;
    /** \return price of bandwidth [$ per (byte/s) per s] (= $ per byte read at that rate) */
    double BandwidthPricePerByte() const;

    /**
     * \brief Throughput one client gets with a window of outstanding requests (latency-bound
     *        below the cap): min(cap, window * size / (latency + size / cap)).
     * \param requestBytes bytes per request (> 0)
     * \param outstanding requests in flight (>= 1)
     * \return [bytes/s]
     */
    double ClientThroughput(double requestBytes, uint32_t outstanding) const;

    /**
     * \param bandwidth provisioned bandwidth [bytes/s]
     * \param seconds for how long [s]
     * \return what it costs [$]
     */
    double BandwidthCost(double bandwidth, double seconds) const;

  private:
    DataRate m_aggregate;
    DataRate m_client;
    Time m_latency;
    double m_pricePerGbpsHour; //!< [$ per (GB/s) per hour]
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_BACKEND_H
