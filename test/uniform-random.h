/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_UNIFORM_RANDOM_H
#define AICLUSTER_TEST_UNIFORM_RANDOM_H

// The random instances of the storage tests draw from one seeded mt19937_64: this maps a draw
// to [0, 1) the same way on every platform (std::uniform_real_distribution does not).

#include <random>

namespace ns3
{

/** \return a uniform number in [0, 1) from the top 53 bits of one draw */
inline double
U01(std::mt19937_64& rng)
{
    return double(rng() >> 11) / 9007199254740992.0;
}

} // namespace ns3

#endif // AICLUSTER_TEST_UNIFORM_RANDOM_H
