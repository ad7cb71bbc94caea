/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// InaRankedHoldings (ESA's blocking at the rate level, summed over the rank order) against
// the pair-by-pair sums it replaces, on random two-level components.

#include "ns3/ina-ranked-holdings.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace ns3;

namespace
{

/// A random component: each job at 1-4 ToRs of `racks` (and the spine, pool `racks`, when
/// it spans more than one), in a random rank order, with random holdings and rates.
struct Component
{
    std::vector<std::vector<size_t>> poolsOf;
    std::vector<size_t> order;
    std::vector<size_t> rank;
    std::vector<double> held; // flattened, job then level
    std::vector<size_t> offset;
    std::vector<double> rate;
};

Component
RandomComponent(std::mt19937_64& rng, size_t jobs, size_t racks)
{
    Component c;
    std::uniform_int_distribution<size_t> rack(0, racks - 1);
    std::uniform_int_distribution<size_t> span(1, 4);
    std::uniform_real_distribution<double> amount(0.0, 50.0);
    c.offset.push_back(0);
    for (size_t j = 0; j < jobs; ++j)
    {
        std::vector<size_t> pools;
        for (size_t k = std::min(span(rng), racks); pools.size() < k;)
        {
            size_t r = rack(rng);
            if (std::find(pools.begin(), pools.end(), r) == pools.end())
            {
                pools.push_back(r);
            }
        }
        if (pools.size() > 1)
        {
            pools.push_back(racks); // the spine, last as in InaGradientSync
        }
        for (size_t k = 0; k < pools.size(); ++k)
        {
            c.held.push_back(amount(rng));
        }
        c.offset.push_back(c.held.size());
        c.poolsOf.push_back(pools);
        c.rate.push_back(amount(rng));
    }
    c.order.resize(jobs);
    for (size_t j = 0; j < jobs; ++j)
    {
        c.order[j] = j;
    }
    std::shuffle(c.order.begin(), c.order.end(), rng);
    c.rank.resize(jobs);
    for (size_t r = 0; r < jobs; ++r)
    {
        c.rank[c.order[r]] = r;
    }
    return c;
}

/// Pair by pair, as InaGradientSync::PairwiseBlocking sums for a preemptive policy.
struct Pairwise
{
    std::vector<double> atLevel;
    std::vector<double> rateAtLevel;
    std::vector<double> met;
};

Pairwise
SumPairs(const Component& c)
{
    const size_t n = c.poolsOf.size();
    Pairwise p{std::vector<double>(c.held.size(), 0.0),
               std::vector<double>(c.held.size(), 0.0),
               std::vector<double>(n, 0.0)};
    for (size_t j = 0; j < n; ++j)
    {
        for (size_t o = 0; o < n; ++o)
        {
            if (c.rank[o] >= c.rank[j])
            {
                continue; // only the jobs ranked above block
            }
            double best = 0;
            for (size_t a = 0; a < c.poolsOf[j].size(); ++a)
            {
                for (size_t b = 0; b < c.poolsOf[o].size(); ++b)
                {
                    if (c.poolsOf[j][a] == c.poolsOf[o][b])
                    {
                        const double h = c.held[c.offset[o] + b];
                        p.atLevel[c.offset[j] + a] += h;
                        p.rateAtLevel[c.offset[j] + a] += c.rate[o];
                        best = std::max(best, h);
                    }
                }
            }
            p.met[j] += best;
        }
    }
    return p;
}

} // namespace

TEST_CASE("ranked holdings equal the pair-by-pair sums over the jobs ranked above",
          "[ina][ina-ranked-holdings]")
{
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 200; ++trial)
    {
        const size_t jobs = 1 + trial % 40;
        const size_t racks = 2 + trial % 7;
        Component c = RandomComponent(rng, jobs, racks);
        InaRankedHoldings above;
        above.SetComponent(c.poolsOf, racks + 1, racks, c.order);
        above.Sum(c.held, c.rate);
        Pairwise p = SumPairs(c);
        for (size_t j = 0; j < jobs; ++j)
        {
            REQUIRE(above.LevelOffset(j) == c.offset[j]);
            CHECK(above.Met(j) == Approx(p.met[j]).margin(1e-9));
            for (size_t a = 0; a < c.poolsOf[j].size(); ++a)
            {
                CHECK(above.AtLevel(j, a) == Approx(p.atLevel[c.offset[j] + a]).margin(1e-9));
                CHECK(above.RateAtLevel(j, a) ==
                      Approx(p.rateAtLevel[c.offset[j] + a]).margin(1e-9));
            }
        }
    }
}

TEST_CASE("ranked holdings: the first-ranked job meets nobody, the last meets every sharer",
          "[ina][ina-ranked-holdings]")
{
    // Jobs 0 and 1 share ToR 0 and the spine (pool 2); job 2 is local to ToR 1. Rank: 2, 1, 0.
    std::vector<std::vector<size_t>> poolsOf = {{0, 1, 2}, {0, 2}, {1}};
    std::vector<double> held = {5, 7, 3, /* job 1 */ 4, 9, /* job 2 */ 6};
    InaRankedHoldings above;
    above.SetComponent(poolsOf, 3, 2, {2, 1, 0});
    above.Sum(held, {1.0, 2.0, 4.0});
    CHECK(above.Met(2) == 0.0);
    CHECK(above.Met(1) == 0.0);      // job 2 shares nothing with job 1
    CHECK(above.Met(0) == 9 + 6);    // job 1 where it holds most (spine 9), job 2 at ToR 1
    CHECK(above.AtLevel(0, 0) == 4); // ToR 0: job 1
    CHECK(above.AtLevel(0, 1) == 6); // ToR 1: job 2
    CHECK(above.AtLevel(0, 2) == 9); // spine: job 1
    CHECK(above.RateAtLevel(0, 1) == 4.0);
    CHECK(above.RateAtLevel(0, 2) == 2.0);
}

TEST_CASE("ranked holdings reject an order that is not a permutation", "[ina][ina-ranked-holdings]")
{
    InaRankedHoldings above;
    CHECK_THROWS_AS(above.SetComponent({{0}, {0}}, 1, 0, {0, 0}), std::invalid_argument);
    CHECK_THROWS_AS(above.SetComponent({{0}, {3}}, 1, 0, {0, 1}), std::invalid_argument);
}
