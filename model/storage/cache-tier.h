/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CACHE_TIER_H
#define AICLUSTER_CACHE_TIER_H

#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The compute-side cache tier (memory or local SSD): capacity and price per byte-time.
 *
 * Hits are served at compute speed (the tier's own read bandwidth is not a
 * bottleneck in this model; doc/storage.md lists the assumption).
 */
class CacheTier : public Object
{
  public:
    /** Storage medium of the cache, which sets its default price. */
    enum Medium
    {
        MEMORY, //!< DRAM of the training nodes
        SSD,    //!< local NVMe SSDs of the training nodes
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    CacheTier();

    /** \return capacity [bytes] */
    double Capacity() const;
    /** \return the medium */
    Medium GetMedium() const;
    /** \return price [$ per byte per s] (the attribute, or the medium's default) */
    double PricePerByteSecond() const;
    /** \return price [$ per GB per hour] */
    double PricePerGbHour() const;

    /**
     * \param medium a medium
     * \return its default price [$ per GB per hour] (derivation in doc/storage.md)
     */
    static double DefaultPricePerGbHour(Medium medium);

  private:
    double m_capacity;
    Medium m_medium;
    double m_price; //!< [$ per GB-hour]; < 0 = the medium's default
};

} // namespace ns3

#endif // AICLUSTER_CACHE_TIER_H
