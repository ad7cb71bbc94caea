/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Disaggregated storage: the throughput/cost model, LRU on shuffled epochs, the allocation
// policies, CBA against an independent LP-vertex brute force, and the sharing trend.

#include "uniform-random.h"

#include "ns3/benefit-ranked-policy.h"
#include "ns3/cache-all-policy.h"
#include "ns3/cba-policy.h"
#include "ns3/fair-share-policy.h"
#include "ns3/no-cache-policy.h"
#include "ns3/shared-lru-policy.h"
#include "ns3/silod-like-policy.h"
#include "ns3/storage-policy.h"
#include "ns3/storage-problem.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <list>
#include <numeric>
#include <random>
#include <unordered_map>

using namespace ns3;

namespace
{

/** A random small instance: prices and capacities chosen so that every regime occurs. */
StorageProblem
RandomProblem(std::mt19937_64& rng, size_t datasets, size_t jobs)
{
    StorageProblem p;
    for (size_t k = 0; k < datasets; ++k)
    {
        p.datasetBytes.push_back(1e9 * (1 + 99 * U01(rng)));
    }
    for (size_t j = 0; j < jobs; ++j)
    {
        StorageDemand d;
        d.id = j;
        d.dataset = uint32_t(rng() % datasets);
        d.demand = 1e8 * (1 + 29 * U01(rng));
        p.jobs.push_back(d);
    }
    double totalBytes = std::accumulate(p.datasetBytes.begin(), p.datasetBytes.end(), 0.0);
    double totalDemand = 0;
    for (const auto& j : p.jobs)
    {
        totalDemand += j.demand;
    }
    p.cacheCapacity = totalBytes * U01(rng);
    p.bandwidthCapacity = totalDemand * (0.2 + 1.0 * U01(rng));
    p.clientBandwidth = (rng() % 2) ? 0.0 : 1e8 * (5 + 25 * U01(rng));
    p.bandwidthPrice = 1.0;
    p.cachePrice = std::pow(10.0, -4 + 4 * U01(rng)); // threshold density 1e-4 .. 1 per s
    return p;
}

/**
 * Brute force over the LP's vertices, independent of CBA's ordering argument: every dataset's
 * cached fraction at its lower bound, at 1, or free, with at most two free ones fixed by the
 * cache and bandwidth constraints held tight. Returns +inf if infeasible.
 */
double
BruteForceMinCost(const StorageProblem& p, const std::vector<double>& r)
{
    size_t n = p.datasetBytes.size();
    std::vector<double> R(n, 0.0);
    std::vector<double> lo(n, 0.0);
    for (size_t j = 0; j < p.jobs.size(); ++j)
    {
        R[p.jobs[j].dataset] += r[j];
        if (p.clientBandwidth > 0 && r[j] > p.clientBandwidth)
        {
            lo[p.jobs[j].dataset] = std::max(lo[p.jobs[j].dataset], 1 - p.clientBandwidth / r[j]);
        }
    }
    double totalR = std::accumulate(R.begin(), R.end(), 0.0);
    auto cost = [&](const std::vector<double>& x) {
        double c = 0;
        for (size_t k = 0; k < n; ++k)
        {
            c += p.bandwidthPrice * R[k] * (1 - x[k]) + p.cachePrice * p.datasetBytes[k] * x[k];
        }
        return c;
    };
    auto feasible = [&](const std::vector<double>& x) {
        double cache = 0;
        double bw = 0;
        for (size_t k = 0; k < n; ++k)
        {
            if (x[k] < lo[k] - 1e-9 || x[k] > 1 + 1e-9)
            {
                return false;
            }
            cache += x[k] * p.datasetBytes[k];
            bw += R[k] * (1 - x[k]);
        }
        return cache <= p.cacheCapacity * (1 + 1e-9) + 1 &&
               bw <= p.bandwidthCapacity * (1 + 1e-9) + 1;
    };
    double best = std::numeric_limits<double>::infinity();
    size_t combos = 1;
    for (size_t k = 0; k < n; ++k)
    {
        combos *= 3;
    }
    for (size_t code = 0; code < combos; ++code)
    {
        std::vector<int> kind(n);
        std::vector<size_t> free;
        size_t c = code;
        for (size_t k = 0; k < n; ++k, c /= 3)
        {
            kind[k] = int(c % 3);
            if (kind[k] == 2)
            {
                free.push_back(k);
            }
        }
        if (free.size() > 2)
        {
            continue;
        }
        std::vector<double> x(n);
        double fixedCache = 0;
        double fixedSaved = 0; // sum R_k x_k of the fixed ones
        for (size_t k = 0; k < n; ++k)
        {
            x[k] = kind[k] == 0 ? lo[k] : 1.0;
            if (kind[k] != 2)
            {
                fixedCache += x[k] * p.datasetBytes[k];
                fixedSaved += R[k] * x[k];
            }
        }
        double cacheRhs = p.cacheCapacity - fixedCache;           // sum d x over free = this
        double bwRhs = totalR - p.bandwidthCapacity - fixedSaved; // sum R x over free = this
        std::vector<std::vector<double>> candidates;
        if (free.empty())
        {
            candidates.push_back(x);
        }
        else if (free.size() == 1)
        {
            size_t i = free[0];
            for (double v : {cacheRhs / p.datasetBytes[i], R[i] > 0 ? bwRhs / R[i] : -1.0})
            {
                x[i] = v;
                candidates.push_back(x);
            }
        }
        else
        {
            size_t a = free[0];
            size_t b = free[1];
            double det = p.datasetBytes[a] * R[b] - p.datasetBytes[b] * R[a];
            if (std::abs(det) > 1e-12 * p.datasetBytes[a] * R[b] + 1e-300)
            {
                x[a] = (cacheRhs * R[b] - p.datasetBytes[b] * bwRhs) / det;
                x[b] = (p.datasetBytes[a] * bwRhs - cacheRhs * R[a]) / det;
                candidates.push_back(x);
            }
        }
        for (const auto& cand : candidates)
        {
            if (feasible(cand))
            {
                best = std::min(best, cost(cand));
            }
        }
    }
    return best;
}

std::vector<double>
Demands(const StorageProblem& p)
{
    std::vector<double> r;
    for (const auto& j : p.jobs)
    {
        r.push_back(j.demand);
    }
    return r;
}

/** Exact LRU over item ids read as a fresh random permutation every epoch. */
double
SimulatedLruHitRatio(size_t items, size_t capacity, int epochs, int warmup, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::list<size_t> lru; // front = most recent
    std::unordered_map<size_t, std::list<size_t>::iterator> where;
    std::vector<size_t> order(items);
    std::iota(order.begin(), order.end(), 0);
    uint64_t hits = 0;
    uint64_t reads = 0;
    for (int e = 0; e < epochs; ++e)
    {
        for (size_t i = items - 1; i > 0; --i)
        {
            std::swap(order[i], order[rng() % (i + 1)]);
        }
        for (size_t item : order)
        {
            auto it = where.find(item);
            bool hit = it != where.end();
            if (hit)
            {
                lru.erase(it->second);
            }
            else if (lru.size() == capacity)
            {
                where.erase(lru.back());
                lru.pop_back();
            }
            lru.push_front(item);
            where[item] = lru.begin();
            if (e >= warmup)
            {
                hits += hit;
                ++reads;
            }
        }
    }
    return double(hits) / reads;
}

std::vector<Ptr<StorageAllocationPolicy>>
Baselines()
{
    return {CreateObject<NoCachePolicy>(),
            CreateObject<CacheAllPolicy>(),
            CreateObject<FairSharePolicy>(),
            CreateObject<SharedLruPolicy>(),
            CreateObject<BenefitRankedPolicy>(),
            CreateObject<SiloDLikePolicy>()};
}

} // namespace

TEST_CASE("LRU on shuffled epochs hits x + (1-x) ln(1-x), below the uniform cache's x", "[storage]")
{
    CHECK(LruShuffledHitRatio(0) == 0);
    CHECK(LruShuffledHitRatio(1) == 1);
    CHECK(LruShuffledHitRatio(0.5) == Approx(0.5 + 0.5 * std::log(0.5)));
    for (double x = 0.05; x < 1; x += 0.05)
    {
        CHECK(LruShuffledHitRatio(x) < x);
    }
    // Against an item-level LRU simulation (2000 items, 40 epochs after 4 warm-up epochs).
    for (double x : {0.3, 0.7})
    {
        double simulated = SimulatedLruHitRatio(2000, size_t(2000 * x), 44, 4, 7);
        INFO("x = " << x);
        CHECK(simulated == Approx(LruShuffledHitRatio(x)).margin(0.01));
        CHECK(simulated < x - 0.2); // far below what a never-evict cache of that size hits
    }
}

TEST_CASE("rate is min(T, b / (1 - c/d)) and cost is p_b b + p_c c", "[storage]")
{
    StorageProblem p;
    p.datasetBytes = {100e9};
    p.jobs = {{0, 0, 2e9, 8}};
    p.cacheCapacity = 1e12;
    p.bandwidthCapacity = 10e9;
    p.bandwidthPrice = 2;
    p.cachePrice = 3;
    StorageAllocation a;
    a.cache = {25e9};
    a.hit = {0.25};
    a.bandwidth = {1e9};
    CHECK(a.Rate(p, 0) == Approx(1e9 / 0.75));
    a.bandwidth = {1.8e9};
    CHECK(a.Rate(p, 0) == 2e9); // compute-bound
    CHECK(a.CostRate(p) == Approx(2 * 1.8e9 + 3 * 25e9));
}

TEST_CASE("max-min fair split respects needs, caps and capacity", "[storage]")
{
    auto s = MaxMinFair({1, 5, 10}, 9, 0);
    CHECK(s[0] == 1);
    CHECK(s[1] == 4);
    CHECK(s[2] == 4);
    s = MaxMinFair({1, 5, 10}, 100, 3);
    CHECK(s[0] == 1);
    CHECK(s[1] == 3);
    CHECK(s[2] == 3);
}

TEST_CASE("CBA caches a dataset iff its read density pays for the cache", "[storage]")
{
    // Threshold: cache when p_b * R / d > p_c, i.e. R / d > 0.01 per s here.
    StorageProblem p;
    p.datasetBytes = {100e9, 100e9};
    p.jobs = {{0, 0, 2e9, 1}, {1, 1, 0.5e9, 1}}; // densities 0.02 and 0.005 per s
    p.cacheCapacity = 1e12;
    p.bandwidthCapacity = 1e12;
    p.bandwidthPrice = 1;
    p.cachePrice = 0.01;
    StorageAllocation a;
    REQUIRE(CbaSolver::MinCost(p, Demands(p), a));
    CHECK(a.cache[0] == 100e9);
    CHECK(a.cache[1] == 0);
    CHECK(a.bandwidth[0] == 0);
    CHECK(a.bandwidth[1] == 0.5e9);
    CHECK(a.CostRate(p) == Approx(0.5e9 + 0.01 * 100e9));
    // A bandwidth capacity of 0.3e9 forces 0.2e9/0.005 = 40e9 bytes of the unprofitable one.
    p.bandwidthCapacity = 0.3e9;
    REQUIRE(CbaSolver::MinCost(p, Demands(p), a));
    CHECK(a.cache[1] == Approx(40e9));
    CHECK(a.TotalBandwidth(p) == Approx(0.3e9));
    // Not enough cache for that: infeasible, and MaxScale finds the largest common fraction.
    p.cacheCapacity = 120e9;
    CHECK_FALSE(CbaSolver::MinCost(p, Demands(p), a));
    StorageAllocation s = CbaSolver::MaxScale(p, 0);
    CHECK(s.scale < 1);
    CHECK(s.scale > 0);
    INFO(s.Violation(p));
    CHECK(s.Violation(p).empty());
    for (size_t j = 0; j < p.jobs.size(); ++j)
    {
        // A fully cached job runs at its compute rate whatever the scale.
        CHECK(s.Rate(p, j) >= s.scale * p.jobs[j].demand * (1 - 1e-9));
    }
}

TEST_CASE("CBA equals the brute-force LP optimum on 400 random small instances", "[storage]")
{
    std::mt19937_64 rng(11);
    int feasibleCount = 0;
    for (int trial = 0; trial < 400; ++trial)
    {
        StorageProblem p = RandomProblem(rng, 1 + rng() % 5, 1 + rng() % 7);
        std::vector<double> r = Demands(p);
        double brute = BruteForceMinCost(p, r);
        StorageAllocation a;
        bool ok = CbaSolver::MinCost(p, r, a);
        INFO("trial " << trial);
        REQUIRE(ok == std::isfinite(brute));
        if (ok)
        {
            ++feasibleCount;
            CHECK(a.Violation(p).empty());
            CHECK(a.CostRate(p) == Approx(brute).epsilon(1e-7));
            for (size_t j = 0; j < p.jobs.size(); ++j)
            {
                CHECK(a.Rate(p, j) == Approx(r[j]).epsilon(1e-9));
            }
        }
    }
    CHECK(feasibleCount > 100); // both regimes are exercised
    CHECK(feasibleCount < 400);
}

TEST_CASE("CBA's IO cost is never above a baseline's at the baseline's throughput", "[storage]")
{
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 300; ++trial)
    {
        StorageProblem p = RandomProblem(rng, 1 + rng() % 6, 1 + rng() % 10);
        for (auto& policy : Baselines())
        {
            StorageAllocation base = policy->Allocate(p);
            INFO("trial " << trial << " policy " << policy->Name());
            REQUIRE(base.Violation(p).empty());
            std::vector<double> r(p.jobs.size());
            for (size_t j = 0; j < r.size(); ++j)
            {
                r[j] = base.Rate(p, j);
            }
            StorageAllocation cba;
            REQUIRE(CbaSolver::MinCost(p, r, cba));
            CHECK(cba.CostRate(p) <= base.CostRate(p) * (1 + 1e-9) + 1e-6);
        }
    }
}

TEST_CASE("baseline policies behave as documented", "[storage]")
{
    StorageProblem p;
    p.datasetBytes = {60e9, 50e9, 10e9};
    p.jobs = {{0, 0, 1e9, 1}, {1, 1, 1e9, 1}, {2, 1, 1e9, 1}, {3, 2, 0.1e9, 1}};
    p.cacheCapacity = 70e9;
    p.bandwidthCapacity = 1.2e9;
    p.bandwidthPrice = 1;
    p.cachePrice = 0.001;
    // Cache-all: in first-reader order, whole datasets that fit: 60 GB (job 0), then 10 GB.
    StorageAllocation a = CreateObject<CacheAllPolicy>()->Allocate(p);
    CHECK(a.cache == std::vector<double>{60e9, 0, 10e9});
    // Quiver-like: by density: dataset 1 (2e9/50e9 = 0.04), then 2 (0.01), then 0 (too big).
    a = CreateObject<BenefitRankedPolicy>()->Allocate(p);
    CHECK(a.cache == std::vector<double>{0, 50e9, 10e9});
    // Fair: 17.5 GB per job; dataset 1 gets two shares.
    a = CreateObject<FairSharePolicy>()->Allocate(p);
    CHECK(a.cache[0] == Approx(17.5e9));
    CHECK(a.cache[1] == Approx(35e9));
    CHECK(a.cache[2] == Approx(10e9));
    // No cache: bandwidth max-min fair: 0.1 to job 3, the rest split equally.
    a = CreateObject<NoCachePolicy>()->Allocate(p);
    CHECK(a.bandwidth[3] == Approx(0.1e9));
    CHECK(a.bandwidth[0] == Approx(1.1e9 / 3));
    // Shared LRU: holds what was read in the last T s; no dataset is read whole within T, so
    // T = 70e9 / 3.1e9 and each holds R_k T.
    StorageAllocation lru = CreateObject<SharedLruPolicy>()->Allocate(p);
    double window = 70e9 / 3.1e9;
    CHECK(lru.cache[0] == Approx(1e9 * window));
    CHECK(lru.cache[1] == Approx(2e9 * window));
    CHECK(lru.cache[2] == Approx(0.1e9 * window));
    CHECK(lru.hit[1] == Approx(LruShuffledHitRatio(2e9 * window / 50e9)));
    // With one small dataset read fast, the LRU holds it whole.
    p.jobs[3].demand = 2e9;
    lru = CreateObject<SharedLruPolicy>()->Allocate(p);
    CHECK(lru.cache[2] == 10e9);
    CHECK(lru.cache[1] == Approx(60e9 * 2 / 3));
    p.jobs[3].demand = 0.1e9;
    // SiloD-like caches up to each dataset's saturation point (throughput first, cost-blind).
    StorageAllocation silod = CreateObject<SiloDLikePolicy>()->Allocate(p);
    CHECK(silod.TotalCache() > 69e9);
    CHECK(silod.TotalRate(p) > a.TotalRate(p));
}

TEST_CASE("more readers of a dataset raise the value of caching it", "[storage]")
{
    // Each reader adds 0.5 GB/s to a 100 GB dataset; caching pays from density 0.012 per s.
    double previous = -1;
    for (uint32_t readers = 1; readers <= 6; ++readers)
    {
        StorageProblem p;
        p.datasetBytes = {100e9};
        for (uint32_t j = 0; j < readers; ++j)
        {
            p.jobs.push_back({j, 0, 0.5e9, 1});
        }
        p.cacheCapacity = 1e12;
        p.bandwidthCapacity = 1e12;
        p.bandwidthPrice = 1;
        p.cachePrice = 0.012;
        StorageAllocation cba;
        REQUIRE(CbaSolver::MinCost(p, Demands(p), cba));
        double noCacheCost = CreateObject<NoCachePolicy>()->Allocate(p).CostRate(p);
        double value = noCacheCost - cba.CostRate(p);
        INFO(readers << " readers");
        CHECK(value == Approx(std::max(0.0, readers * 0.5e9 - 0.012 * 100e9)).margin(1e-3));
        CHECK(cba.cache[0] == (readers >= 3 ? 100e9 : 0.0));
        CHECK(value >= previous);
        if (previous > 0)
        {
            CHECK(value > previous);
        }
        previous = value;
    }
}

TEST_CASE("an entry of count n is answered as n identical jobs, by every policy", "[storage]")
{
    // The storage model groups identical jobs (same dataset, demand and GPUs) into one entry.
    // Every policy must answer the grouped problem as it answers the jobs one by one: same
    // cache per dataset, same bandwidth and hit for each job, same level and totals (to
    // rounding: a count multiplies where the expanded problem adds).
    std::mt19937_64 rng(4242);
    std::vector<Ptr<StorageAllocationPolicy>> policies = Baselines();
    policies.push_back(CreateObject<CbaPolicy>());
    size_t grouped = 0;
    for (int trial = 0; trial < 300; ++trial)
    {
        StorageProblem entries = RandomProblem(rng, 1 + rng() % 5, 1 + rng() % 6);
        StorageProblem jobs = entries; // the same, one entry per job
        jobs.jobs.clear();
        std::vector<size_t> entryOf;
        for (size_t e = 0; e < entries.jobs.size(); ++e)
        {
            StorageDemand& entry = entries.jobs[e];
            entry.count = 1 + uint32_t(rng() % 4);
            grouped += entry.count > 1;
            for (uint32_t c = 0; c < entry.count; ++c)
            {
                StorageDemand one = entry;
                one.count = 1;
                one.id = entry.id * 10 + c; // entry.id * 10: the lowest of its jobs' ids
                jobs.jobs.push_back(one);
                entryOf.push_back(e);
            }
            entry.id *= 10;
        }
        // Capacities relative to the expanded demand, so that every regime occurs.
        double total = 0;
        for (const StorageDemand& j : jobs.jobs)
        {
            total += j.demand;
        }
        entries.bandwidthCapacity = jobs.bandwidthCapacity = total * (0.2 + U01(rng));
        REQUIRE(entries.JobCount() == jobs.jobs.size());
        for (const auto& policy : policies)
        {
            INFO("trial " << trial << ", policy " << policy->Name());
            StorageAllocation a = policy->Allocate(entries);
            StorageAllocation b = policy->Allocate(jobs);
            CHECK(a.Violation(entries) == "");
            for (size_t k = 0; k < a.cache.size(); ++k)
            {
                CHECK(a.cache[k] == Approx(b.cache[k]).epsilon(1e-12).margin(1e-3));
            }
            for (size_t j = 0; j < jobs.jobs.size(); ++j)
            {
                size_t e = entryOf[j];
                CHECK(a.bandwidth[e] == Approx(b.bandwidth[j]).epsilon(1e-12).margin(1e-3));
                CHECK(a.hit[e] == Approx(b.hit[j]).epsilon(1e-12).margin(1e-15));
            }
            if (std::isinf(a.level) != std::isinf(b.level))
            {
                // The wants sum to the capacity, up to rounding: a level binds in one order
                // of additions and not in the other, and then it is at the largest want.
                double finite = std::min(a.level, b.level);
                double most = *std::max_element(b.bandwidth.begin(), b.bandwidth.end());
                CHECK(finite == Approx(most).epsilon(1e-12));
            }
            else if (!std::isinf(b.level))
            {
                CHECK(a.level == Approx(b.level).epsilon(1e-12));
            }
            CHECK(a.scale == Approx(b.scale).epsilon(1e-9));
            CHECK(a.TotalRate(entries) == Approx(b.TotalRate(jobs)).epsilon(1e-12));
            CHECK(a.CostRate(entries) == Approx(b.CostRate(jobs)).epsilon(1e-12));
        }
    }
    CHECK(grouped > 300); // entries of count > 1 were tried
}
