/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// LazyMt19937_64 draws the numbers of std::mt19937_64 from the same seed: the first ones it
// computes itself, later ones through the standard engine it hands over to.

#include "ns3/lazy-mt19937-64.h"

#include <catch2/catch.hpp>
#include <random>

using namespace ns3;

TEST_CASE("annotator: the lazy Mersenne twister equals std::mt19937_64", "[annotator]")
{
    std::mt19937_64 seeds(42);
    for (int s = 0; s < 300; ++s)
    {
        uint64_t seed = s < 4 ? uint64_t(s) : seeds(); // 0..3, then arbitrary 64-bit seeds
        std::mt19937_64 reference(seed);
        LazyMt19937_64 lazy(seed);
        for (int i = 0; i < 700; ++i) // past the hand-over (156) and the first block (312)
        {
            INFO("seed " << seed << " number " << i);
            REQUIRE(lazy() == reference());
        }
    }
}
