/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// CBA against an independent exact solver of its LP: every corner of the polytope enumerated,
// with grouped entries (count > 1) and IO budgets (CbaSolver::MaxScale's scale is the largest
// the LP can serve within the budget).

#include "uniform-random.h"

#include "ns3/storage-problem.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/**
 * The LP for given per-job targets r_j, over the cached fractions x_k of the read datasets:
 *   min  sum_k p_c d_k x_k + p_b R_k (1 - x_k)
 *   s.t. sum_k d_k x_k <= C,  sum_k R_k (1 - x_k) <= B,  lo_k <= x_k <= 1,
 * R_k = sum of its readers' targets (each entry's times its count), lo_k = 1 - u / (largest
 * target of a reader) (the per-client cap). Two coupling rows: every corner has at most two
 * fractions off their bounds, fixed by the rows held tight. All corners are enumerated.
 */
struct CornerLp
{
    std::vector<double> d;  //!< dataset sizes of the read datasets
    std::vector<double> R;  //!< their summed targets
    std::vector<double> lo; //!< their lower bounds
    double C{0};            //!< cache capacity
    double B{0};            //!< bandwidth capacity
    double pb{0};           //!< bandwidth price
    double pc{0};           //!< cache price

    CornerLp(const StorageProblem& p, const std::vector<double>& targets)
        : C(p.cacheCapacity),
          B(p.bandwidthCapacity),
          pb(p.bandwidthPrice),
          pc(p.cachePrice)
    {
        std::vector<int> index(p.datasetBytes.size(), -1);
        for (size_t j = 0; j < p.jobs.size(); ++j)
        {
            // Expand the entry into its count jobs: the LP sees jobs, not entries.
            for (uint32_t c = 0; c < p.jobs[j].count; ++c)
            {
                uint32_t k = p.jobs[j].dataset;
                double r = targets[j];
                if (p.datasetBytes[k] <= 0 || r <= 0)
                {
                    continue;
                }
                if (index[k] < 0)
                {
                    index[k] = int(d.size());
                    d.push_back(p.datasetBytes[k]);
                    R.push_back(0);
                    lo.push_back(0);
                }
                R[index[k]] += r;
                if (p.clientBandwidth > 0 && r > p.clientBandwidth)
                {
                    lo[index[k]] = std::max(lo[index[k]], 1 - p.clientBandwidth / r);
                }
            }
        }
    }

    double Cost(const std::vector<double>& x) const
    {
        double c = 0;
        for (size_t k = 0; k < x.size(); ++k)
        {
            c += pc * d[k] * x[k] + pb * R[k] * (1 - x[k]);
        }
        return c;
    }

    bool Feasible(const std::vector<double>& x) const
    {
        const double eps = 1e-9;
        double cache = 0;
        double bw = 0;
        for (size_t k = 0; k < x.size(); ++k)
        {
            if (x[k] < lo[k] - eps || x[k] > 1 + eps)
            {
                return false;
            }
            cache += d[k] * x[k];
            bw += R[k] * (1 - x[k]);
        }
        return cache <= C * (1 + eps) + 1 && bw <= B * (1 + eps) + 1;
    }

    /** \return the minimum cost over all corners; +inf if the LP is infeasible */
    double MinCost() const
    {
        size_t n = d.size();
        double best = std::numeric_limits<double>::infinity();
        std::vector<int> state(n, 0); // 0 = at lo, 1 = at 1, 2 = free
        std::vector<double> x(n);
        while (true)
        {
            std::vector<size_t> free;
            for (size_t k = 0; k < n; ++k)
            {
                x[k] = state[k] == 1 ? 1.0 : lo[k];
                if (state[k] == 2)
                {
                    free.push_back(k);
                }
            }
            auto consider = [&]() {
                if (Feasible(x))
                {
                    best = std::min(best, Cost(x));
                }
            };
            // Residual rows with the free fractions at 0: cache a.x = cacheRest, bandwidth
            // -R.x = B - sum R (1 - x_fixed) - sum_free R.
            double cacheRest = C;
            double bwRest = B;
            for (size_t k = 0; k < n; ++k)
            {
                if (state[k] != 2)
                {
                    cacheRest -= d[k] * x[k];
                    bwRest -= R[k] * (1 - x[k]);
                }
                else
                {
                    bwRest -= R[k];
                }
            }
            if (free.empty())
            {
                consider();
            }
            else if (free.size() == 1)
            {
                size_t f = free[0];
                x[f] = cacheRest / d[f]; // cache row tight
                consider();
                x[f] = -bwRest / R[f]; // bandwidth row tight: R_f (1 - x_f) = B - rest
                consider();
            }
            else if (free.size() == 2)
            {
                size_t a = free[0];
                size_t b = free[1];
                // d_a x_a + d_b x_b = cacheRest;  R_a x_a + R_b x_b = -bwRest
                double det = d[a] * R[b] - d[b] * R[a];
                if (std::abs(det) > 1e-12 * std::abs(d[a] * R[b]))
                {
                    x[a] = (cacheRest * R[b] - d[b] * (-bwRest)) / det;
                    x[b] = (d[a] * (-bwRest) - cacheRest * R[a]) / det;
                    consider();
                }
            }
            size_t k = 0;
            while (k < n && state[k] == 2)
            {
                state[k++] = 0;
            }
            if (k == n)
            {
                break;
            }
            ++state[k];
        }
        return best;
    }
};

/** A random instance with grouped entries; every regime (capacity, bandwidth, cap) occurs. */
StorageProblem
GroupedProblem(std::mt19937_64& rng)
{
    StorageProblem p;
    size_t datasets = 1 + rng() % 5;
    size_t entries = 1 + rng() % 6;
    for (size_t k = 0; k < datasets; ++k)
    {
        p.datasetBytes.push_back(1e9 * (1 + 99 * U01(rng)));
    }
    double total = 0;
    for (size_t j = 0; j < entries; ++j)
    {
        StorageDemand e;
        e.id = j;
        e.dataset = uint32_t(rng() % datasets);
        e.demand = 1e8 * (1 + 29 * U01(rng));
        e.count = 1 + uint32_t(rng() % 4);
        total += e.count * e.demand;
        p.jobs.push_back(e);
    }
    double bytes = 0;
    for (double b : p.datasetBytes)
    {
        bytes += b;
    }
    p.cacheCapacity = bytes * U01(rng);
    p.bandwidthCapacity = total * (0.1 + 1.1 * U01(rng));
    p.clientBandwidth = (rng() % 2) ? 0.0 : 1e8 * (3 + 27 * U01(rng));
    p.bandwidthPrice = 1.0;
    p.cachePrice = std::pow(10.0, -4 + 4 * U01(rng));
    return p;
}

std::vector<double>
Scaled(const StorageProblem& p, double alpha)
{
    std::vector<double> t;
    for (const StorageDemand& e : p.jobs)
    {
        t.push_back(alpha * e.demand);
    }
    return t;
}

} // namespace

TEST_CASE("CBA's minimum cost equals the all-corners LP optimum, grouped entries", "[storage][lp]")
{
    std::mt19937_64 rng(1601);
    int feasible = 0;
    int infeasible = 0;
    for (int trial = 0; trial < 300; ++trial)
    {
        StorageProblem p = GroupedProblem(rng);
        std::vector<double> targets = Scaled(p, 1.0);
        double lp = CornerLp(p, targets).MinCost();
        StorageAllocation a;
        bool ok = CbaSolver::MinCost(p, targets, a);
        INFO("trial " << trial << " LP " << lp);
        CHECK(ok == std::isfinite(lp));
        if (ok && std::isfinite(lp))
        {
            ++feasible;
            CHECK(a.Violation(p).empty());
            CHECK(a.CostRate(p) == Approx(lp).epsilon(1e-9));
            for (size_t j = 0; j < p.jobs.size(); ++j)
            {
                CHECK(a.Rate(p, j) >= targets[j] * (1 - 1e-9));
            }
        }
        infeasible += !std::isfinite(lp);
    }
    INFO("feasible " << feasible << ", infeasible " << infeasible);
    CHECK(feasible > 100);
    CHECK(infeasible > 30);
}

TEST_CASE("CBA's scale under a budget is the largest the all-corners LP affords", "[storage][lp]")
{
    std::mt19937_64 rng(1602);
    int budgetBound = 0;
    for (int trial = 0; trial < 200; ++trial)
    {
        StorageProblem p = GroupedProblem(rng);
        p.bandwidthCapacity *= 3; // mostly feasible: the budget is what binds
        double full = CornerLp(p, Scaled(p, 1.0)).MinCost();
        double budget = std::isfinite(full) ? full * (0.1 + 1.0 * U01(rng)) : 0.0;
        StorageAllocation a = CbaSolver::MaxScale(p, budget);
        double alpha = a.scale;
        INFO("trial " << trial << " alpha " << alpha << " budget " << budget);
        // At alpha: the LP is feasible, within the budget, and CBA pays its minimum.
        double atAlpha = CornerLp(p, Scaled(p, alpha)).MinCost();
        REQUIRE(std::isfinite(atAlpha));
        CHECK(a.CostRate(p) == Approx(atAlpha).epsilon(1e-7));
        if (budget > 0)
        {
            CHECK(atAlpha <= budget * (1 + 1e-9));
        }
        // A little more is infeasible or over budget.
        if (alpha < 1)
        {
            double above = CornerLp(p, Scaled(p, alpha * (1 + 1e-6))).MinCost();
            CHECK((!std::isfinite(above) || (budget > 0 && above > budget)));
            budgetBound += budget > 0 && std::isfinite(above);
        }
    }
    INFO("budget-bound " << budgetBound);
    CHECK(budgetBound > 40);
}
