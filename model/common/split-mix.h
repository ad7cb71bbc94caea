/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_SPLIT_MIX_H
#define AICLUSTER_SPLIT_MIX_H

#include <cstdint>

namespace ns3
{

/**
 * \file
 * \ingroup aicluster
 * splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA
 * 2014): the one 64-bit mix of the module, for seeded draws that must not depend on the
 * platform's generators (the annotator, INA's hashes and shuffles) and for hash-table slots
 * and ECMP choices.
 */

/**
 * \param x any 64 bits
 * \return splitmix64's finaliser of x: a bijection in which every input bit reaches every
 *         output bit
 */
inline uint64_t
SplitMixFinal(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/**
 * \param x a state
 * \return splitmix64's output for state x: SplitMixFinal(x + the golden gamma)
 */
inline uint64_t
SplitMix64(uint64_t x)
{
    return SplitMixFinal(x + 0x9e3779b97f4a7c15ULL);
}

} // namespace ns3

#endif // AICLUSTER_SPLIT_MIX_H
