/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The incremental solves behind AutoCBA's sizing of an arrival: CbaSolver::Trials against
// CbaSolver::MaxScale, and AutoCbaJobSizer against evaluating every count, bit for bit.

#include "uniform-random.h"

#include "ns3/auto-cba-job-sizer.h"
#include "ns3/auto-cba-solver.h"
#include "ns3/storage-problem.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace ns3;

namespace
{

/**
 * A random instance with shared datasets, a cache that holds part of them, sometimes a
 * per-job cap, a binding bandwidth capacity or a zero-size dataset: every branch of CBA.
 */
StorageProblem
RandomProblem(std::mt19937_64& rng)
{
    StorageProblem p;
    size_t nd = 1 + rng() % 6;
    for (size_t k = 0; k < nd; ++k)
    {
        p.datasetBytes.push_back(rng() % 8 == 0 ? 0.0 : 1e10 * (1 + 9 * U01(rng)));
    }
    size_t n = 1 + rng() % 12;
    for (size_t j = 0; j < n; ++j)
    {
        StorageDemand d;
        d.id = j;
        d.dataset = uint32_t(rng() % nd);
        d.demand = 1e8 * (0.1 + 3 * U01(rng));
        d.gpus = 1 + rng() % 8;
        p.jobs.push_back(d);
    }
    p.cacheCapacity = 3e10 * U01(rng);
    p.bandwidthCapacity = 1e8 * (1 + 20 * U01(rng));
    p.clientBandwidth = (rng() % 3) ? 0.0 : 1e8 * (0.5 + 2 * U01(rng));
    p.bandwidthPrice = 1e-9;
    p.cachePrice = 1e-12 * std::pow(10.0, 3 * U01(rng));
    return p;
}

/** \return whether two allocations are equal in every bit that compares */
bool
Same(const StorageAllocation& a, const StorageAllocation& b)
{
    return a.scale == b.scale && a.cache == b.cache && a.bandwidth == b.bandwidth && a.hit == b.hit;
}

} // namespace

TEST_CASE("CBA trials of one job's demand equal MaxScale bit for bit", "[storage][autocba]")
{
    std::mt19937_64 rng(11);
    int scaled = 0;
    for (int trial = 0; trial < 300; ++trial)
    {
        StorageProblem p = RandomProblem(rng);
        double budget = (rng() % 3) ? 0.0 : 0.5 * U01(rng);
        size_t job = rng() % p.jobs.size(); // anywhere, not only last
        CbaSolver::Trials trials;
        trials.Reset(p, job, budget);
        double original = p.jobs[job].demand;
        // 0: its dataset may leave the density order.
        for (double factor : {1.0, 0.25, 4.0, 0.0, 2.0, 1.0})
        {
            p.jobs[job].demand = original * factor;
            trials.Solve();
            StorageAllocation expected = CbaSolver::MaxScale(p, budget);
            StorageAllocation got;
            trials.Fill(got);
            INFO("instance " << trial << ", factor " << factor);
            REQUIRE(Same(got, expected));
            CHECK(trials.Scale() == expected.scale);
            for (size_t j = 0; j < p.jobs.size(); ++j)
            {
                REQUIRE(trials.Rate(j) == expected.Rate(p, j));
            }
            scaled += expected.scale < 1;
        }
    }
    CHECK(scaled > 100); // the bisection (alpha < 1) is exercised, not only alpha = 1
}

TEST_CASE("AutoCBA's one-job sizer finds what evaluating every count finds, bit for bit",
          "[storage][autocba]")
{
    std::mt19937_64 rng(5);
    int moved = 0;
    AutoCbaJobSizer sizer; // reused, as the engine's sizing hook does
    for (int trial = 0; trial < 200; ++trial)
    {
        StorageProblem base = RandomProblem(rng);
        double budget = (rng() % 3) ? 0.0 : 0.5 * U01(rng);
        std::vector<AutoCbaJob> jobs;
        std::vector<JobUtility> utility;
        uint64_t used = 0;
        for (const StorageDemand& d : base.jobs)
        {
            AutoCbaJob j;
            j.id = d.id;
            j.dataset = d.dataset;
            j.gpus = {d.gpus};
            j.demand = {d.demand};
            j.utility.kind = (rng() % 2) ? JobUtility::LINEAR : JobUtility::DEADLINE;
            j.utility.reference = d.demand;
            j.utility.needed = d.demand / 2;
            jobs.push_back(j);
            utility.push_back(j.utility);
            used += d.gpus;
        }
        // One job, anywhere, gets counts 1/2, 1, 2, 4 times its own (sub-linear demand).
        size_t free = rng() % jobs.size();
        AutoCbaJob& mine = jobs[free];
        uint32_t g = mine.gpus[0];
        double rate = mine.demand[0];
        mine.gpus.clear();
        mine.demand.clear();
        for (double f : {0.5, 1.0, 2.0, 4.0})
        {
            if (g * f >= 1)
            {
                if (f == 1.0)
                {
                    mine.requested = mine.gpus.size();
                }
                mine.gpus.push_back(uint32_t(g * f));
                mine.demand.push_back(rate * std::pow(f, 0.8));
            }
        }
        uint32_t total = uint32_t(used + rng() % (3 * g + 1));
        // Expected: every count evaluated from scratch, the same improvement rule.
        std::vector<size_t> choice(jobs.size(), 0);
        choice[free] = mine.requested;
        double bestWelfare = AutoCbaSolver::Evaluate(base, jobs, choice, budget).welfare;
        size_t bestCount = mine.requested;
        for (size_t o = 0; o < mine.gpus.size(); ++o)
        {
            if (o == mine.requested || used - g + mine.gpus[o] > total)
            {
                continue;
            }
            choice[free] = o;
            double w = AutoCbaSolver::Evaluate(base, jobs, choice, budget).welfare;
            if (w > bestWelfare * (1 + 1e-12) + 1e-15)
            {
                bestWelfare = w;
                bestCount = o;
            }
        }
        StorageProblem problem = base;
        size_t got = sizer.Best(problem, utility, free, mine, used, total, budget);
        INFO("instance " << trial);
        REQUIRE(got == bestCount);
        REQUIRE(sizer.BestWelfare() == bestWelfare);
        CHECK(problem.jobs[free].gpus == mine.gpus[got]);
        // The solver's one-job path is the sizer: the same answer and a matching allocation.
        AutoCbaSolver::Result r = AutoCbaSolver::Solve(base, jobs, total, budget, true);
        REQUIRE(r.choice[free] == bestCount);
        CHECK(r.welfare == bestWelfare);
        CHECK(AutoCbaSolver::Welfare(jobs, r.problem, r.allocation) == bestWelfare);
        moved += got != mine.requested;
    }
    CHECK(moved > 20); // the search does move counts
}

TEST_CASE("CBA's lazily sorted density order solves as the fully sorted one, bit for bit",
          "[storage][cba]")
{
    // MaxScale sorts the datasets by density only as far as its cache fill reads them (a
    // heap; the rest sorted at once past a quarter); Trials sorts them all (DensityOrder).
    // Hundreds to thousands of datasets, caches from one dataset's size to nearly all of
    // them: both the partial order and the sort of the rest are read.
    std::mt19937_64 rng(23);
    int scaled = 0;
    int partial = 0;
    for (int trial = 0; trial < 60; ++trial)
    {
        StorageProblem p;
        size_t nd = std::vector<size_t>{40, 300, 2000}[trial % 3];
        double totalBytes = 0;
        for (size_t k = 0; k < nd; ++k)
        {
            // Equal sizes and demands now and then: density ties, broken by index.
            double bytes =
                (rng() % 50 == 0) ? 0.0 : (rng() % 4 == 0 ? 2e10 : 1e10 * (1 + 9 * U01(rng)));
            p.datasetBytes.push_back(bytes);
            totalBytes += bytes;
        }
        for (size_t k = 0; k < nd; ++k)
        {
            for (size_t r = 1 + rng() % 3; r > 0; --r)
            {
                StorageDemand d;
                d.id = p.jobs.size();
                d.dataset = uint32_t(k);
                d.demand = (rng() % 4 == 0) ? 1e8 : 1e8 * (0.1 + 3 * U01(rng));
                d.gpus = 1 + rng() % 8;
                p.jobs.push_back(d);
            }
        }
        double cacheShare = std::vector<double>{1e-4, 0.01, 0.3, 0.9}[(trial / 3) % 4];
        partial += cacheShare < 0.1;
        p.cacheCapacity = cacheShare * totalBytes;
        p.bandwidthCapacity = 1e8 * double(nd) * (0.2 + 2 * U01(rng));
        p.clientBandwidth = (rng() % 3) ? 0.0 : 1e8 * (0.5 + 2 * U01(rng));
        p.bandwidthPrice = 1e-9;
        p.cachePrice = 1e-12 * std::pow(10.0, 3 * U01(rng));
        double budget = (rng() % 4) ? 0.0 : 1e-9 * p.bandwidthCapacity * U01(rng);
        CbaSolver::Trials fullySorted;
        fullySorted.Reset(p, rng() % p.jobs.size(), budget);
        fullySorted.Solve();
        StorageAllocation expected;
        fullySorted.Fill(expected);
        StorageAllocation got = CbaSolver::MaxScale(p, budget);
        INFO("instance " << trial << ", " << nd << " datasets, cache share " << cacheShare);
        REQUIRE(Same(got, expected));
        scaled += got.scale < 1;
    }
    CHECK(scaled > 10);  // the bisection is exercised
    CHECK(partial > 20); // and caches that fill after a few datasets
}
