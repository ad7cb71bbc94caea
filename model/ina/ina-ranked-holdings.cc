/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-ranked-holdings.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaRankedHoldings");

void
InaRankedHoldings::SetComponent(const std::vector<std::vector<size_t>>& poolsOf,
                                size_t pools,
                                size_t widePool,
                                const std::vector<size_t>& order)
{
    NS_LOG_FUNCTION(this << poolsOf.size() << pools << widePool);
    const size_t n = poolsOf.size();
    if (order.size() != n)
    {
        throw std::invalid_argument("InaRankedHoldings: the order must list every job once");
    }
    std::vector<bool> listed(n, false);
    for (size_t j : order)
    {
        if (j >= n || listed[j])
        {
            throw std::invalid_argument("InaRankedHoldings: the order must list every job once");
        }
        listed[j] = true;
    }
    m_offset.assign(n + 1, 0);
    for (size_t j = 0; j < n; ++j)
    {
        m_offset[j + 1] = m_offset[j] + poolsOf[j].size();
    }
    m_jobOf.assign(m_offset.back(), 0);
    m_wideLevel.assign(n, SIZE_MAX);
    m_ranked.assign(pools, {});
    std::vector<size_t> poolOfLevel(m_offset.back());
    for (size_t r = 0; r < n; ++r) // filled in rank order, so every pool's list is ranked
    {
        const size_t j = order[r];
        for (size_t a = 0; a < poolsOf[j].size(); ++a)
        {
            const size_t level = m_offset[j] + a;
            const size_t pool = poolsOf[j][a];
            if (pool >= pools)
            {
                throw std::invalid_argument("InaRankedHoldings: a pool id out of range");
            }
            m_jobOf[level] = j;
            poolOfLevel[level] = pool;
            m_ranked[pool].push_back(level);
            if (pool == widePool)
            {
                m_wideLevel[j] = level;
            }
        }
    }
    CollectTies(poolOfLevel, widePool, n);
    m_above.assign(m_offset.back(), 0.0);
    m_rateAbove.assign(m_offset.back(), 0.0);
    m_met.assign(n, 0.0);
}

void
InaRankedHoldings::CollectTies(const std::vector<size_t>& poolOfLevel, size_t widePool, size_t n)
{
    // Per job, the jobs ranked above it in any pool other than the wide one, once each (a
    // job's visits are consecutive, so one mark per other job tells a second meeting).
    std::vector<size_t> position(poolOfLevel.size()); // per level, its place in its pool
    for (const std::vector<size_t>& members : m_ranked)
    {
        for (size_t k = 0; k < members.size(); ++k)
        {
            position[members[k]] = k;
        }
    }
    m_tieBegin.assign(1, 0);
    m_tieWide.clear();
    m_tieLevelBegin.assign(1, 0);
    m_tieThere.clear();
    std::vector<size_t> seenFor(n, SIZE_MAX); // the job whose ties last took each job
    for (size_t j = 0; j < n; ++j)
    {
        for (size_t a = m_offset[j]; a < m_offset[j + 1]; ++a)
        {
            if (poolOfLevel[a] == widePool)
            {
                continue;
            }
            const std::vector<size_t>& members = m_ranked[poolOfLevel[a]];
            for (size_t i = 0; i < position[a]; ++i)
            {
                const size_t c = m_jobOf[members[i]];
                if (seenFor[c] != j)
                {
                    seenFor[c] = j;
                    AddTie(j, c, poolOfLevel, widePool);
                }
            }
        }
        m_tieBegin.push_back(m_tieWide.size());
    }
}

void
InaRankedHoldings::AddTie(size_t j,
                          size_t c,
                          const std::vector<size_t>& poolOfLevel,
                          size_t widePool)
{
    size_t wide = SIZE_MAX;
    for (size_t a = m_offset[j]; a < m_offset[j + 1]; ++a)
    {
        for (size_t b = m_offset[c]; b < m_offset[c + 1]; ++b)
        {
            if (poolOfLevel[a] == poolOfLevel[b])
            {
                m_tieThere.push_back(b);
                wide = poolOfLevel[b] == widePool ? b : wide;
            }
        }
    }
    m_tieWide.push_back(wide);
    m_tieLevelBegin.push_back(m_tieThere.size());
}

void
InaRankedHoldings::Sum(const std::vector<double>& held, const std::vector<double>& rate)
{
    NS_LOG_FUNCTION(this);
    if (held.size() != m_offset.back() || rate.size() + 1 != m_offset.size())
    {
        throw std::invalid_argument("InaRankedHoldings::Sum: one holding per level and one "
                                    "rate per job expected");
    }
    for (const std::vector<size_t>& members : m_ranked)
    {
        double sum = 0;
        double rates = 0;
        for (size_t level : members)
        {
            m_above[level] = sum;
            m_rateAbove[level] = rates;
            sum += held[level];
            rates += rate[m_jobOf[level]];
        }
    }
    for (size_t j = 0; j + 1 < m_offset.size(); ++j)
    {
        // The wide pool's sum counts each job above once at its wide holding; a tie is met
        // where it holds most among all the pools the two share (its wide holding, if both
        // use the wide pool, is then taken out again).
        double met = m_wideLevel[j] == SIZE_MAX ? 0.0 : m_above[m_wideLevel[j]];
        for (size_t t = m_tieBegin[j]; t < m_tieBegin[j + 1]; ++t)
        {
            double best = 0;
            for (size_t k = m_tieLevelBegin[t]; k < m_tieLevelBegin[t + 1]; ++k)
            {
                best = std::max(best, held[m_tieThere[k]]);
            }
            met += best - (m_tieWide[t] != SIZE_MAX ? held[m_tieWide[t]] : 0.0);
        }
        m_met[j] = met;
    }
}

size_t
InaRankedHoldings::LevelOffset(size_t j) const
{
    return m_offset.at(j);
}

double
InaRankedHoldings::AtLevel(size_t j, size_t a) const
{
    return m_above.at(m_offset.at(j) + a);
}

double
InaRankedHoldings::RateAtLevel(size_t j, size_t a) const
{
    return m_rateAbove.at(m_offset.at(j) + a);
}

double
InaRankedHoldings::Met(size_t j) const
{
    return m_met.at(j);
}

} // namespace ns3
