/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// CsvColumnText (components.csv's numbers) writes what "%.12g" writes, value after value,
// whether the value repeats the one before or not.

#include "ns3/csv-column-text.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** \return value's text with precision 12 in general form, as the series wrote it before */
std::string
General12(double value)
{
    char text[40];
    char* end = std::to_chars(text, text + sizeof(text), value, std::chars_format::general, 12).ptr;
    return std::string(text, end);
}

/** \return a value of a kind the series holds or a bound of CsvColumnText's short cut */
double
Draw(std::mt19937_64& rng, const std::vector<double>& special)
{
    std::uniform_int_distribution<int> kind(0, 4);
    switch (kind(rng))
    {
    case 0:
        return special[std::uniform_int_distribution<size_t>(0, special.size() - 1)(rng)];
    case 1: // a share
        return std::uniform_real_distribution<double>(0, 1)(rng);
    case 2: // whole seconds, either sign
        return std::trunc(std::uniform_real_distribution<double>(-2e12, 2e12)(rng));
    case 3: // a whole number near the short cut's bound
        return 1e12 + double(std::uniform_int_distribution<int>(-3, 3)(rng));
    default: // bytes and rates over many magnitudes
        return std::ldexp(std::uniform_real_distribution<double>(0.5, 1)(rng),
                          std::uniform_int_distribution<int>(-1074, 1023)(rng));
    }
}

} // namespace

TEST_CASE("csv column text: every value as %.12g, repeated or not", "[components]")
{
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> special{0.0,
                                      -0.0,
                                      1.0,
                                      -1.0,
                                      1e12,
                                      -1e12,
                                      999999999999.0,
                                      -999999999999.0,
                                      1e15,
                                      123456789012345.0,
                                      0.1,
                                      1e-300,
                                      std::numeric_limits<double>::denorm_min(),
                                      inf,
                                      -inf,
                                      std::numeric_limits<double>::quiet_NaN()};
    std::mt19937_64 rng(20261205);
    CsvColumnText column;
    std::string buffer;
    std::string expected;
    double last = 0;
    for (int i = 0; i < 20000; ++i)
    {
        // a third of the values repeat the one before, as a series' columns do
        double value = i > 0 && rng() % 3 == 0 ? last : Draw(rng, special);
        buffer.clear();
        column.Append(buffer, value);
        expected = General12(value);
        INFO("value " << General12(value) << " (repeat " << (i > 0 && value == last) << ")");
        REQUIRE(buffer == expected);
        if (std::isfinite(value))
        {
            char printed[64];
            std::snprintf(printed, sizeof(printed), "%.12g", value);
            REQUIRE(buffer == printed);
        }
        last = value;
    }
    // Text is appended, not replaced.
    buffer = "x,";
    column.Append(buffer, 0.25);
    CHECK(buffer == "x,0.25");
}
