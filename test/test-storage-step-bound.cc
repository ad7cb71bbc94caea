/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// CBA's bisection with its steps decided by CbaSolver::StepBound where the rounding cannot
// change them, against the bisection that runs CacheFractions at every step: the same
// allocations, bit for bit, on instances of every size and shape the storage model builds
// (one dataset per job, shared datasets, per-job caps, tiny and large caches).

#include "uniform-random.h"

#include "ns3/storage-problem.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace ns3;

namespace
{

/**
 * A random instance: up to 400 datasets (one per job, or shared), sizes over four decades,
 * demands over three, a cache from none to most of the data, a binding bandwidth capacity,
 * sometimes a per-job cap.
 */
StorageProblem
RandomProblem(std::mt19937_64& rng)
{
    StorageProblem p;
    size_t n = 1 + rng() % 400;
    bool perJob = rng() % 2;
    size_t nd = perJob ? n : 1 + rng() % 40;
    double totalBytes = 0;
    for (size_t k = 0; k < nd; ++k)
    {
        double bytes = rng() % 16 == 0 ? 0.0 : 1e9 * std::pow(10.0, 4 * U01(rng));
        p.datasetBytes.push_back(bytes);
        totalBytes += bytes;
    }
    double totalDemand = 0;
    for (size_t j = 0; j < n; ++j)
    {
        StorageDemand d;
        d.id = j;
        d.dataset = uint32_t(perJob ? j : rng() % nd);
        d.demand = rng() % 32 == 0 ? 0.0 : 1e7 * std::pow(10.0, 3 * U01(rng));
        d.count = 1 + uint32_t(rng() % 3);
        d.gpus = 1 + rng() % 8;
        p.jobs.push_back(d);
        totalDemand += d.count * d.demand;
    }
    double cacheShare[] = {0.0, 1e-4, 1e-2, 0.2, 0.8};
    p.cacheCapacity = totalBytes * cacheShare[rng() % 5] * U01(rng);
    p.bandwidthCapacity = std::max(1e6, totalDemand * (0.05 + 1.2 * U01(rng)));
    p.clientBandwidth = (rng() % 3) ? 0.0 : 1e9 * (0.5 + 4 * U01(rng));
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

/** \return MaxScale's answer with every bisection step run (the reference) */
StorageAllocation
Reference(const StorageProblem& p, const std::vector<double>* targets)
{
    CbaSolver::UseStepBound(false);
    StorageAllocation a = targets ? CbaSolver::MaxScale(p, *targets, 0) : CbaSolver::MaxScale(p, 0);
    CbaSolver::UseStepBound(true);
    return a;
}

} // namespace

TEST_CASE("CBA's bisection with StepBound equals the full bisection bit for bit", "[storage][cba]")
{
    std::mt19937_64 rng(2026);
    int bisected = 0;
    for (int trial = 0; trial < 3000; ++trial)
    {
        StorageProblem p = RandomProblem(rng);
        INFO("instance " << trial);
        StorageAllocation got = CbaSolver::MaxScale(p, 0);
        REQUIRE(Same(got, Reference(p, nullptr)));
        bisected += got.scale < 1;
        // Per-job targets below the demands, as CbaPolicy's plans ask for them.
        std::vector<double> targets;
        for (const StorageDemand& d : p.jobs)
        {
            targets.push_back(d.demand * (rng() % 4 == 0 ? 1.0 : U01(rng)));
        }
        got = CbaSolver::MaxScale(p, targets, 0);
        REQUIRE(Same(got, Reference(p, &targets)));
        bisected += got.scale < 1;
    }
    CHECK(bisected > 2000); // most instances bisect: the steps StepBound decides are exercised
}

TEST_CASE("CBA trials with StepBound equal the full bisection bit for bit", "[storage][cba]")
{
    // Trials::Solve bisects over a fully sorted order (ScaleOf), MaxScale over a lazy one.
    std::mt19937_64 rng(7);
    int bisected = 0;
    for (int trial = 0; trial < 500; ++trial)
    {
        StorageProblem p = RandomProblem(rng);
        size_t job = rng() % p.jobs.size();
        CbaSolver::Trials trials;
        trials.Reset(p, job, 0);
        double original = p.jobs[job].demand;
        for (double factor : {1.0, 0.5, 3.0})
        {
            p.jobs[job].demand = original * factor;
            trials.Solve();
            StorageAllocation got;
            trials.Fill(got);
            INFO("instance " << trial << ", factor " << factor);
            REQUIRE(Same(got, Reference(p, nullptr)));
            bisected += got.scale < 1;
        }
    }
    CHECK(bisected > 300);
}

TEST_CASE("CBA's bisection with StepBound near a per-job cap and at a boundary", "[storage][cba]")
{
    // Hand-made: one dataset per job, every job at the same demand, the client cap just
    // above, at and below the scaled demand (the line holds only below it), and a cache of
    // exactly a whole number of datasets (the greedy's last take is a whole room).
    for (double capShare : {0.0, 0.5, 0.999999999, 1.0, 1.000000001, 2.0})
    {
        for (double cacheDatasets : {0.0, 1.0, 2.5, 7.0})
        {
            StorageProblem p;
            for (size_t j = 0; j < 10; ++j)
            {
                p.datasetBytes.push_back(1e11 * (1 + 0.1 * double(j)));
                StorageDemand d;
                d.id = j;
                d.dataset = uint32_t(j);
                d.demand = 1e9;
                p.jobs.push_back(d);
            }
            p.cacheCapacity = 1e11 * cacheDatasets;
            p.bandwidthCapacity = 4e9;
            p.clientBandwidth = capShare * 0.4e9; // the fair share is 0.4e9 per job
            p.bandwidthPrice = 1e-9;
            p.cachePrice = 1e-12;
            INFO("cap share " << capShare << ", cached datasets " << cacheDatasets);
            StorageAllocation got = CbaSolver::MaxScale(p, 0);
            REQUIRE(Same(got, Reference(p, nullptr)));
        }
    }
}
