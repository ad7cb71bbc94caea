/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "csv-column-text.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace ns3
{

void
CsvColumnText::Append(std::string& buffer, double value)
{
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    if (m_length == 0 || bits != m_bits)
    {
        m_bits = bits;
        // A whole number below 1e12 has at most 12 digits: "%.12g" writes them as an integer
        // would. -0.0 ("-0" there, "0" as an integer) takes the general path.
        const uint64_t minusZero = uint64_t(1) << 63;
        bool whole = std::abs(value) < 1e12 && value == std::trunc(value) && bits != minusZero;
        char* last = m_text + sizeof(m_text);
        char* end = whole ? std::to_chars(m_text, last, static_cast<int64_t>(value)).ptr
                          : std::to_chars(m_text, last, value, std::chars_format::general, 12).ptr;
        m_length = static_cast<size_t>(end - m_text);
    }
    buffer.append(m_text, m_length);
}

} // namespace ns3
