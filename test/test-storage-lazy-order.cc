/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// LazyDatasetOrder, the order SiloD-like's and CBA's greedy prefixes read only as far as the
// cache lasts, against StorageAllocationPolicy::ReadDatasetsBy's full stable sort: the same
// datasets in the same positions, with many equal keys, datasets nobody reads and empty ones.

#include "uniform-random.h"

#include "ns3/storage-policy.h"
#include "ns3/storage-problem.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace ns3;

namespace
{

/** Reaches the protected ReadDatasetsBy. */
class OrderProbe : public StorageAllocationPolicy
{
  public:
    StorageAllocation Allocate(const StorageProblem& /* problem */) override
    {
        return StorageAllocation();
    }

    std::string Name() const override
    {
        return "probe";
    }

    /** \return ReadDatasetsBy's order */
    static std::vector<size_t> Full(const StorageProblem& problem,
                                    const std::vector<double>& demand,
                                    const std::vector<double>& key)
    {
        return ReadDatasetsBy(problem, demand, key);
    }
};

/** \return a problem without datasets or jobs, with NextPass's prices and bandwidth */
StorageProblem
PassPrices()
{
    StorageProblem p;
    p.bandwidthPrice = 1e-9;
    p.cachePrice = 1e-12;
    p.bandwidthCapacity = 4e10;
    return p;
}

/**
 * \brief The next pass's problem, one dataset per job, as CbaPolicy's passes see it: a job and
 *        its dataset may leave (later datasets move down one index), a few arrive, the cache
 *        size moves.
 * \param rng the random source
 * \param step the pass (ids of the arrivals)
 * \param p the problem, changed in place
 */
void
NextPass(std::mt19937_64& rng, int step, StorageProblem& p)
{
    if (!p.jobs.empty() && rng() % 2)
    {
        size_t j = rng() % p.jobs.size();
        uint32_t k = p.jobs[j].dataset;
        p.jobs.erase(p.jobs.begin() + j);
        p.datasetBytes.erase(p.datasetBytes.begin() + k);
        for (StorageDemand& d : p.jobs)
        {
            d.dataset -= d.dataset > k ? 1 : 0;
        }
    }
    for (size_t a = rng() % 3 + (p.jobs.size() < 40 ? 3 : 0); a > 0; --a)
    {
        StorageDemand d;
        d.id = step * 8 + a;
        d.dataset = uint32_t(p.datasetBytes.size());
        d.demand = 1e7 * std::pow(10.0, 3 * U01(rng));
        p.datasetBytes.push_back(1e9 * std::pow(10.0, 3 * U01(rng)));
        p.jobs.push_back(d);
    }
    p.cacheCapacity = 1e12 * std::pow(10.0, -2 + 3 * U01(rng));
}

} // namespace

TEST_CASE("LazyDatasetOrder reads ReadDatasetsBy's order position by position", "[storage][cba]")
{
    std::mt19937_64 rng(42);
    LazyDatasetOrder lazy; // reused, as the policies keep theirs
    size_t deep = 0;
    for (int trial = 0; trial < 2000; ++trial)
    {
        StorageProblem p;
        size_t nd = 1 + rng() % 600;
        std::vector<double> demand(nd);
        std::vector<double> key(nd);
        size_t distinct = 1 + rng() % 8; // few distinct keys: ties everywhere
        for (size_t k = 0; k < nd; ++k)
        {
            p.datasetBytes.push_back(rng() % 10 == 0 ? 0.0 : 1e9 * (1 + U01(rng)));
            demand[k] = rng() % 10 == 0 ? 0.0 : 1e8 * U01(rng);
            key[k] = (rng() % 3 == 0) ? double(rng() % distinct) : U01(rng);
        }
        std::vector<size_t> full = OrderProbe::Full(p, demand, key);
        lazy.Reset(p, demand, key);
        // Read as a greedy prefix does: to a random depth, sometimes past the end.
        size_t depth = rng() % 4 == 0 ? nd + 1 : rng() % (1 + nd / 8);
        INFO("instance " << trial << ", depth " << depth);
        for (size_t i = 0; i < depth; ++i)
        {
            REQUIRE(lazy.Has(i) == (i < full.size()));
            if (i >= full.size())
            {
                break;
            }
            REQUIRE(lazy.At(i) == full[i]);
        }
        deep += depth > full.size();
    }
    CHECK(deep > 300); // whole orders are read too, not only prefixes
}

TEST_CASE("LazyDatasetOrder with a DatasetOrderHint kept across changing problems is "
          "ReadDatasetsBy's order",
          "[storage][cba]")
{
    // A problem changed as the storage model changes it between passes: datasets erased
    // anywhere and appended, keys moved a little or a lot, now and then everything reshuffled
    // (a hint that is no help); sizes repeat so that the hint's alignment by size goes wrong.
    std::mt19937_64 rng(7);
    DatasetOrderHint hint; // kept across the whole sequence, as a policy keeps it
    LazyDatasetOrder lazy;
    StorageProblem p;
    std::vector<double> demand;
    std::vector<double> key;
    auto append = [&]() {
        p.datasetBytes.push_back(rng() % 10 == 0 ? 0.0 : 1e9 * double(1 + rng() % 50));
        demand.push_back(rng() % 10 == 0 ? 0.0 : 1e8 * U01(rng));
        key.push_back(rng() % 4 == 0 ? double(rng() % 5) : U01(rng));
    };
    for (int step = 0; step < 3000; ++step)
    {
        size_t erase = p.datasetBytes.empty() ? 0 : rng() % 4;
        for (size_t e = 0; e < erase && !p.datasetBytes.empty(); ++e)
        {
            size_t k = rng() % p.datasetBytes.size();
            p.datasetBytes.erase(p.datasetBytes.begin() + k);
            demand.erase(demand.begin() + k);
            key.erase(key.begin() + k);
        }
        size_t add = rng() % 4 + (p.datasetBytes.size() < 50 ? 5 : 0);
        for (size_t a = 0; a < add && p.datasetBytes.size() < 700; ++a)
        {
            append();
        }
        size_t moves = rng() % 8 == 0 ? key.size() : rng() % 6;
        for (size_t m = 0; m < moves; ++m)
        {
            size_t k = rng() % key.size();
            key[k] = rng() % 2 ? key[k] * (1 + 0.01 * U01(rng)) : U01(rng);
        }
        std::vector<size_t> full = OrderProbe::Full(p, demand, key);
        lazy.Reset(p, demand, key, &hint);
        INFO("step " << step << ", " << p.datasetBytes.size() << " datasets");
        for (size_t i = 0; i <= full.size(); ++i)
        {
            REQUIRE(lazy.Has(i) == (i < full.size()));
            if (i < full.size())
            {
                REQUIRE(lazy.At(i) == full[i]);
            }
        }
    }
}

TEST_CASE("CbaSolver::MaxScale with a DatasetOrderHint equals it without, bit for bit",
          "[storage][cba]")
{
    // One dataset per job, jobs leaving and arriving between solves and the targets moving,
    // as CbaPolicy's passes solve; each solve is held to the solve without a hint.
    std::mt19937_64 rng(11);
    DatasetOrderHint demandHint;
    DatasetOrderHint targetHint;
    StorageProblem p = PassPrices();
    for (int step = 0; step < 600; ++step)
    {
        NextPass(rng, step, p);
        INFO("step " << step);
        StorageAllocation plain = CbaSolver::MaxScale(p, 0);
        StorageAllocation hinted = CbaSolver::MaxScale(p, 0, &demandHint);
        REQUIRE(hinted.scale == plain.scale);
        REQUIRE(hinted.cache == plain.cache);
        REQUIRE(hinted.bandwidth == plain.bandwidth);
        std::vector<double> targets;
        double level = 1e8 * std::pow(10.0, U01(rng));
        for (const StorageDemand& d : p.jobs)
        {
            targets.push_back(std::min(d.demand, level));
        }
        plain = CbaSolver::MaxScale(p, targets, 0);
        hinted = CbaSolver::MaxScale(p, targets, 0, &targetHint);
        REQUIRE(hinted.scale == plain.scale);
        REQUIRE(hinted.cache == plain.cache);
        REQUIRE(hinted.bandwidth == plain.bandwidth);
        REQUIRE(hinted.hit == plain.hit);
    }
}

TEST_CASE("CbaSolver::MinCost with a hint is MaxScale with the same targets at full scale, and "
          "fails exactly where MaxScale's scale is below 1",
          "[storage][cba]")
{
    // CbaPolicy::ThroughputFirst asks MinCost for each plan's rates and falls back to the plan
    // when it fails, where it asked MaxScale and fell back when its scale was below 1: both
    // verdicts and allocations must agree, with hints kept across changing problems.
    std::mt19937_64 rng(13);
    DatasetOrderHint minHint;
    DatasetOrderHint maxHint;
    StorageProblem p = PassPrices();
    p.clientBandwidth = 2e9;
    size_t feasible = 0;
    size_t infeasible = 0;
    for (int step = 0; step < 600; ++step)
    {
        NextPass(rng, step, p);
        // Half the steps: the rates of the common fraction's plan (feasible, at or near the
        // capacities, as ThroughputFirst's candidates are); else rates capped at a level.
        std::vector<double> targets;
        if (step % 2 == 0)
        {
            StorageAllocation common = CbaSolver::MaxScale(p, 0);
            for (size_t j = 0; j < p.jobs.size(); ++j)
            {
                targets.push_back(common.Rate(p, j));
            }
        }
        else
        {
            double level = 1e8 * std::pow(10.0, U01(rng));
            for (const StorageDemand& d : p.jobs)
            {
                targets.push_back(std::min(d.demand, level));
            }
        }
        INFO("step " << step);
        StorageAllocation least;
        bool ok = CbaSolver::MinCost(p, targets, least, &minHint);
        StorageAllocation scaled = CbaSolver::MaxScale(p, targets, 0, &maxHint);
        REQUIRE(ok == (scaled.scale >= 1));
        (ok ? feasible : infeasible) += 1;
        if (ok)
        {
            REQUIRE(least.cache == scaled.cache);
            REQUIRE(least.bandwidth == scaled.bandwidth);
            REQUIRE(least.hit == scaled.hit);
        }
    }
    CHECK(feasible > 50);
    CHECK(infeasible > 50);
}

TEST_CASE("CbaSolver::MinCostTotals are the totals of MinCost's allocation, bit for bit",
          "[storage][cba]")
{
    // CbaPolicy::ThroughputFirst judges each candidate plan by MinCostTotals and builds only
    // the winner's allocation: the totals must be those of the allocation MinCost builds, to
    // the bit, or a tie between plans could go the other way. Empty datasets, grouped
    // entries, per-job caps and fully cached datasets all occur.
    std::mt19937_64 rng(17);
    StorageProblem p = PassPrices();
    p.clientBandwidth = 2e9;
    size_t checked = 0;
    for (int step = 0; step < 600; ++step)
    {
        NextPass(rng, step, p);
        if (step % 7 == 0)
        {
            p.datasetBytes.push_back(0.0); // an empty dataset with a reader
            StorageDemand d;
            d.id = step * 8;
            d.dataset = uint32_t(p.datasetBytes.size() - 1);
            d.demand = 1e8;
            p.jobs.push_back(d);
        }
        for (StorageDemand& d : p.jobs)
        {
            d.count = 1 + uint32_t(rng() % 3);
        }
        std::vector<double> targets;
        double level = 1e8 * std::pow(10.0, U01(rng));
        for (const StorageDemand& d : p.jobs)
        {
            targets.push_back(std::min(d.demand, level));
        }
        INFO("step " << step);
        std::vector<double> x;
        if (!CbaSolver::MinCostFractions(p, targets, x))
        {
            continue;
        }
        StorageAllocation built;
        REQUIRE(CbaSolver::MinCost(p, targets, built));
        CbaSolver::Totals totals = CbaSolver::MinCostTotals(p, targets, x);
        double served = 0;
        for (size_t j = 0; j < p.jobs.size(); ++j)
        {
            const StorageDemand& d = p.jobs[j];
            served += d.count * (d.demand > 0 ? built.Rate(p, j) / d.demand : 1.0);
        }
        REQUIRE(totals.rate == built.TotalRate(p));
        REQUIRE(totals.served == served);
        REQUIRE(totals.cost == built.CostRate(p));
        ++checked;
    }
    CHECK(checked > 200);
}
