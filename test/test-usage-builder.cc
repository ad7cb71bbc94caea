/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// UsageBuilder::Take sums a flow's weights per resource in a dense array kept from one call to
// the next (only the distinct resources are sorted): its list must be, to the bit, what a
// std::map<resource, weight> with += in the order of the Add calls gives, call after call.

#include "ns3/provisioning-loader.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

using namespace ns3;

TEST_CASE("provisioning: UsageBuilder::Take equals a map summed in the order of Add",
          "[provisioning]")
{
    std::mt19937 rng(7);
    uint64_t lists = 0;
    uint64_t wrong = 0;
    UsageBuilder kept; // one builder over many flows, as a loader's caller may use it
    for (int round = 0; round < 400; ++round)
    {
        // Few resources repeated often (sums of many weights), or many resources; now and then
        // an id far beyond the others (the dense array grows between calls).
        uint32_t span = round % 3 == 0 ? 8 : (round % 3 == 1 ? 500 : 5000);
        uint32_t adds = 1 + rng() % 3000;
        std::map<uint32_t, double> reference;
        UsageBuilder fresh;
        for (uint32_t i = 0; i < adds; ++i)
        {
            uint32_t r = rng() % span;
            if (rng() % 200 == 0)
            {
                r = 100000 + rng() % 200000;
            }
            // whole, fractional and tiny weights; zero and negative ones are dropped by Add
            double w = std::ldexp(static_cast<double>(rng() % 1000) - 50, -(int)(rng() % 60));
            if (w > 0)
            {
                reference[r] += w;
            }
            fresh.Add(r, w);
            kept.Add(r, w);
        }
        std::vector<MaxMinSolver::Usage> expected(reference.begin(), reference.end());
        for (UsageBuilder* b : {&fresh, &kept})
        {
            std::vector<MaxMinSolver::Usage> got = b->Take();
            ++lists;
            if (got != expected) // same ids, same order, same bits
            {
                ++wrong;
            }
        }
    }
    INFO(wrong << " of " << lists << " lists differ from the map's");
    CHECK(wrong == 0);
    CHECK(kept.Take().empty()); // Take clears
}
