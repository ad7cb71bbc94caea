/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// strict::ParseDouble's std::from_chars fast path (issue #13) must accept exactly the texts
// the strtod-only version accepted, with the same values: compared here against that version
// on edge values and on many random numbers and random strings of the accepted characters.

#include "ns3/strict-parse.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The strtod-only ParseDouble as it was before the fast path.
bool
ReferenceParseDouble(const std::string& text, double& value)
{
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos ||
        text.find_first_of("0123456789") == std::string::npos)
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v))
    {
        return false;
    }
    value = v;
    return true;
}

/// Checks one text: same verdict, and the same bits when accepted.
void
Same(const std::string& text)
{
    INFO("text '" << text << "'");
    double got = 12345.0;
    double want = 12345.0;
    bool ok = strict::ParseDouble(text, got);
    bool wantOk = ReferenceParseDouble(text, want);
    REQUIRE(ok == wantOk);
    if (ok)
    {
        REQUIRE(std::memcmp(&got, &want, sizeof got) == 0); // -0 and 0 told apart
    }
}

std::string
Printed(const char* format, double v)
{
    char buffer[400]; // "%.3f" of 1.8e308 is 313 characters
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

} // namespace

TEST_CASE("strict ParseDouble: from_chars fast path agrees with strtod on edge values",
          "[strict-parse]")
{
    for (const char* text : {"0",
                             "-0",
                             "+0",
                             "0.0",
                             "-0.0",
                             ".5",
                             "5.",
                             "-.5e3",
                             "+.5",
                             "1e5",
                             "1E5",
                             "1e+5",
                             "1e-5",
                             "+1e5",
                             "+-5",
                             "-+5",
                             "--1",
                             "++1",
                             "1-2",
                             "1e",
                             "1e+",
                             "e5",
                             ".",
                             "-",
                             "+",
                             "1.5.",
                             "1..5",
                             "1e5e5",
                             "4.9e-324",
                             "2.4e-324",
                             "1e-310",
                             "1e-400",
                             "-1e-400",
                             "1e300",
                             "1e308",
                             "1.7976931348623157e308",
                             "1.8e308",
                             "1e309",
                             "-1e309",
                             "9007199254740993",
                             "123456789012345678901234567890",
                             "0.1",
                             "0.30000000000000004",
                             "2.5e3",
                             "66.0",
                             "00012",
                             "-00012.500",
                             "1e0000000000000000000001"})
    {
        Same(text);
    }
}

TEST_CASE("strict ParseDouble: from_chars fast path agrees with strtod on random input",
          "[strict-parse]")
{
    std::mt19937_64 rng(2026);
    std::uniform_int_distribution<uint64_t> bits;
    std::uniform_real_distribution<double> uniform(-1e6, 1e6);
    const char* formats[] = {"%.17g", "%.6g", "%.3f", "%.0f", "%g", "%.10e", "%.20g"};
    for (int i = 0; i < 20000; ++i)
    {
        uint64_t b = bits(rng);
        double any;
        std::memcpy(&any, &b, sizeof any); // any double, denormals, inf and NaN included
        for (double v : {any, uniform(rng), std::floor(uniform(rng)), std::ldexp(any, -1000)})
        {
            for (const char* format : formats)
            {
                Same(Printed(format, v));
            }
        }
    }
    const std::string alphabet = "0123456789+-.eE";
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    std::uniform_int_distribution<size_t> length(1, 10);
    for (int i = 0; i < 200000; ++i)
    {
        std::string text;
        for (size_t n = length(rng); n > 0; --n)
        {
            text += alphabet[pick(rng)];
        }
        Same(text);
    }
}
