/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// The single-resource fill (WaterFill, model/common/water-fill.h) against the general
// max-min solver (MaxMinSolver) with one resource: the same shares up to rounding, and every
// bottlenecked want gets the level itself (the property storage's callers rely on).

#include "ns3/max-min-solver.h"
#include "ns3/water-fill.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace ns3;

TEST_CASE("water fill: one resource's max-min shares, the level exact", "[water-fill]")
{
    // Hand-computed: capacity 9 over wants {1, 5, 10}: 1 fits, the others get (9 - 1) / 2 = 4.
    std::vector<double> w{1, 5, 10};
    CHECK(WaterFill(w, 9) == 4);
    CHECK(w == std::vector<double>{1, 4, 4});
    std::vector<double> fits{1, 2};
    CHECK(std::isinf(WaterFill(fits, 3)));
    CHECK(fits == std::vector<double>{1, 2});
    // Weighted: want 0 stands for 3 consumers: 3 * 1 + L = 7 -> L = 4 for want 1.
    std::vector<double> counted{1, 10};
    CHECK(WeightedWaterFill(counted, 7, [](size_t i) { return i == 0 ? 3.0 : 1.0; }) == 4);

    std::mt19937_64 rng(21);
    double worst = 0;
    for (int trial = 0; trial < 2000; ++trial)
    {
        size_t n = 1 + rng() % 40;
        std::uniform_real_distribution<double> want(1e6, 1e9);
        std::vector<double> wants(n);
        double total = 0;
        for (double& x : wants)
        {
            x = want(rng);
            total += x;
        }
        double capacity = total * std::uniform_real_distribution<double>(0.05, 1.2)(rng);
        std::vector<double> shares = wants;
        double level = WaterFill(shares, capacity);
        MaxMinSolver solver({capacity});
        std::vector<uint32_t> flows;
        for (double x : wants)
        {
            flows.push_back(solver.AddFlow({{0, 1.0}}, x));
        }
        solver.Solve();
        double sum = 0;
        for (size_t i = 0; i < n; ++i)
        {
            INFO("trial " << trial << " want " << i);
            worst = std::max(worst, std::abs(shares[i] - solver.GetRate(flows[i])) / shares[i]);
            CHECK((shares[i] == wants[i] || shares[i] == level)); // its want, or the level itself
            CHECK(shares[i] <= wants[i]);
            sum += shares[i];
        }
        CHECK(sum <= capacity * (1 + 1e-12));
        CHECK((std::isinf(level) || sum >= capacity * (1 - 1e-12))); // a binding level uses it all
    }
    INFO("largest relative difference from MaxMinSolver " << worst);
    CHECK(worst < 1e-12);
}
