/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_LAZY_MT19937_64_H
#define AICLUSTER_LAZY_MT19937_64_H

#include <cstdint>
#include <limits>
#include <optional>
#include <random>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief std::mt19937_64, the same numbers from the same seed, for streams that draw only a
 * few numbers from each seed.
 *
 * std::mt19937_64 seeds all 312 state words and then regenerates all of them before its
 * first number; the annotator seeds one engine per job and draws five. Number i < 156 of
 * the first block depends only on the seeded words i, i + 1 and i + 156, so this engine
 * computes the seeding recurrence only as far as the numbers drawn need it (161 words for
 * five numbers) and tempers each number on its own. From number 156 on it hands over to a
 * std::mt19937_64 advanced to the same place, so every stream equals the standard one.
 */
class LazyMt19937_64
{
  public:
    using result_type = uint64_t; //!< as std::mt19937_64

    /** \param seed as std::mt19937_64's seed */
    explicit LazyMt19937_64(uint64_t seed)
        : m_seed(seed)
    {
        m_state[0] = seed;
    }

    /** \return the smallest number drawn */
    static constexpr result_type min()
    {
        return 0;
    }

    /** \return the largest number drawn */
    static constexpr result_type max()
    {
        return std::numeric_limits<uint64_t>::max();
    }

    /** \return the next number, equal to std::mt19937_64's */
    result_type operator()()
    {
        if (m_drawn >= kShift)
        {
            if (!m_full)
            {
                m_full.emplace(m_seed);
                m_full->discard(m_drawn);
            }
            ++m_drawn;
            return (*m_full)();
        }
        uint32_t i = m_drawn++;
        while (m_seeded <= i + kShift)
        {
            uint64_t prev = m_state[m_seeded - 1];
            m_state[m_seeded] = 6364136223846793005ULL * (prev ^ (prev >> 62)) + m_seeded;
            ++m_seeded;
        }
        constexpr uint64_t upper = ~uint64_t(0) << 31;
        uint64_t y = (m_state[i] & upper) | (m_state[i + 1] & ~upper);
        uint64_t z = m_state[i + kShift] ^ (y >> 1) ^ ((y & 1) ? 0xb5026f5aa96619e9ULL : 0);
        z ^= (z >> 29) & 0x5555555555555555ULL;
        z ^= (z << 17) & 0x71d67fffeda60000ULL;
        z ^= (z << 37) & 0xfff7eee000000000ULL;
        z ^= z >> 43;
        return z;
    }

  private:
    static constexpr uint32_t kShift = 156; //!< the engine's middle word offset (m)

    uint64_t m_seed;
    uint64_t m_state[2 * kShift + 1]; //!< seeded words, the first m_seeded of them set
    uint32_t m_seeded{1};
    uint32_t m_drawn{0};
    std::optional<std::mt19937_64> m_full; //!< past the first 156 numbers
};

} // namespace ns3

#endif // AICLUSTER_LAZY_MT19937_64_H
