/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-aggregator-pool.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaAggregatorPool");

InaAggregatorPool::InaAggregatorPool(uint32_t size, uint32_t valuesPerAggregator)
{
    NS_LOG_FUNCTION(this << size << valuesPerAggregator);
    NS_ABORT_MSG_IF(size == 0, "InaAggregatorPool: PoolSize must be >= 1");
    m_aggs.resize(size);
    for (auto& a : m_aggs)
    {
        a.sums.assign(valuesPerAggregator, 0);
    }
}

InaAggregator&
InaAggregatorPool::Allocate(uint32_t i,
                            uint16_t job,
                            uint32_t seq,
                            uint8_t fanIn,
                            uint32_t priority,
                            uint16_t psAddr,
                            Time now)
{
    NS_LOG_FUNCTION(this << i << job << seq << +fanIn << priority << psAddr << now);
    Release(i, now);
    InaAggregator& a = At(i);
    a.inUse = true;
    a.job = job;
    a.seq = seq;
    a.bitmap = 0;
    a.members = 0;
    a.count = 0;
    a.fanIn = fanIn;
    a.priority = priority;
    a.psAddr = psAddr;
    a.complete = false;
    a.delegated = false;
    a.result = false;
    a.ecn = false;
    a.allocatedAt = now;
    std::fill(a.sums.begin(), a.sums.end(), 0);
    ++m_inUse;
    return a;
}

void
InaAggregatorPool::MarkComplete(uint32_t i, Time now)
{
    NS_LOG_FUNCTION(this << i << now);
    InaAggregator& a = At(i);
    a.complete = true;
    a.completedAt = now;
}

void
InaAggregatorPool::Release(uint32_t i, Time now)
{
    NS_LOG_FUNCTION(this << i << now);
    InaAggregator& a = At(i);
    if (!a.inUse)
    {
        return;
    }
    m_busySeconds += (now - a.allocatedAt).GetSeconds();
    if (a.complete && !a.delegated)
    {
        m_usefulSeconds += (a.completedAt - a.allocatedAt).GetSeconds();
    }
    NS_LOG_LOGIC("aggregator " << i << " freed from job " << a.job << " seq " << a.seq << " after "
                               << (now - a.allocatedAt).GetSeconds() << " s, "
                               << (a.complete ? "complete" : "incomplete"));
    a.inUse = false;
    --m_inUse;
}

double
InaAggregatorPool::BusySeconds(Time now) const
{
    NS_LOG_FUNCTION(this << now);
    double s = m_busySeconds;
    for (const auto& a : m_aggs)
    {
        if (a.inUse && now > a.allocatedAt)
        {
            s += (now - a.allocatedAt).GetSeconds();
        }
    }
    return s;
}

double
InaAggregatorPool::UsefulSeconds() const
{
    NS_LOG_FUNCTION(this);
    double s = m_usefulSeconds;
    for (const auto& a : m_aggs)
    {
        if (a.inUse && a.complete && !a.delegated)
        {
            s += (a.completedAt - a.allocatedAt).GetSeconds();
        }
    }
    return s;
}

} // namespace ns3
