/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_AGGREGATOR_POOL_H
#define AICLUSTER_INA_AGGREGATOR_POOL_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One switch aggregator (a register slot of the P4 pipeline).
 */
struct InaAggregator
{
    bool inUse{false};         //!< allocated to a key
    uint16_t job{0};           //!< key: job
    uint32_t seq{0};           //!< key: chunk sequence number
    uint32_t bitmap{0};        //!< contributors in sums (workers; racks at a second level)
    uint32_t members{0};       //!< workers whose values are in sums (= bitmap at one level)
    uint8_t count{0};          //!< fan-in counter (popcount of bitmap)
    uint8_t fanIn{0};          //!< contributions that complete the key
    uint32_t priority{0};      //!< priority of the job that allocated it (ESA)
    uint16_t psAddr{0};        //!< address of the owner job's parameter server
    bool complete{false};      //!< all fanIn contributions in; the result has been emitted
    bool delegated{false};     //!< key handed over to the PS: later packets of it go there
    bool result{false};        //!< sums hold the job's final result (SwitchML shadow copy)
    bool ecn{false};           //!< a contribution carried ECN (ATP's ECN register)
    Time allocatedAt;          //!< allocation time (occupancy accounting)
    Time completedAt;          //!< completion time (useful-occupancy accounting)
    std::vector<int32_t> sums; //!< partial sums, real 32-bit integers

    /** \param job j \param seq s \return true if it holds key (j, s) */
    bool Holds(uint16_t j, uint32_t s) const
    {
        return inUse && job == j && seq == s;
    }
};

/**
 * \ingroup aicluster
 * \brief A bounded pool of aggregators with occupancy accounting.
 *
 * Occupancy is integrated per allocation (at release), never per event:
 * busy aggregator-seconds from allocation to release, and useful
 * aggregator-seconds from allocation to in-switch completion for
 * allocations that completed in the switch.
 */
class InaAggregatorPool
{
  public:
    /**
     * \param size number of aggregators
     * \param valuesPerAggregator int32 values each holds
     */
    InaAggregatorPool(uint32_t size, uint32_t valuesPerAggregator);

    /** \return number of aggregators */
    uint32_t Size() const
    {
        return static_cast<uint32_t>(m_aggs.size());
    }

    /** \param i index (taken modulo Size()) \return the aggregator */
    InaAggregator& At(uint32_t i)
    {
        return m_aggs[i % m_aggs.size()];
    }

    /**
     * \brief Allocate aggregator i to a key, releasing whatever it held.
     * \param i index
     * \param job key job \param seq key sequence \param fanIn contributions to complete
     * \param priority owner priority \param psAddr owner PS address \param now time
     * \return the aggregator
     */
    InaAggregator& Allocate(uint32_t i,
                            uint16_t job,
                            uint32_t seq,
                            uint8_t fanIn,
                            uint32_t priority,
                            uint16_t psAddr,
                            Time now);

    /** \brief Mark aggregator i complete at now. \param i index \param now time */
    void MarkComplete(uint32_t i, Time now);

    /** \brief Release aggregator i (no-op if free). \param i index \param now time */
    void Release(uint32_t i, Time now);

    /** \return aggregators in use now */
    uint32_t InUse() const
    {
        return m_inUse;
    }

    /** \param now time \return busy aggregator-seconds so far */
    double BusySeconds(Time now) const;
    /** \return useful aggregator-seconds so far (completed allocations) */
    double UsefulSeconds() const;

  private:
    std::vector<InaAggregator> m_aggs;
    uint32_t m_inUse{0};
    double m_busySeconds{0};
    double m_usefulSeconds{0};
};

} // namespace ns3

#endif // AICLUSTER_INA_AGGREGATOR_POOL_H
