/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CSV_COLUMN_TEXT_H
#define AICLUSTER_CSV_COLUMN_TEXT_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The text of one CSV column's numbers as "%.12g" writes them (a stream with precision
 *        12; std::to_chars in general form with precision 12), the last value's text kept.
 *
 * A time series repeats most of its values from one row to the next (components.csv under
 * Tiresias with KSpeed: the rail share in 99% of rows), and formatting a double is most of
 * the writing: a value with the bits of the one before reuses its text. Whole numbers below
 * 1e12 (the series' times) are written as integers, which is the same text.
 */
class CsvColumnText
{
  public:
    /**
     * \brief Append the value's text.
     * \param buffer where the row is gathered
     * \param value the number
     */
    void Append(std::string& buffer, double value);

  private:
    uint64_t m_bits{0}; //!< the last value's bits (0.0 and -0.0 print differently)
    char m_text[40];    //!< its text
    size_t m_length{0}; //!< its length (0: none yet; no number's text is empty)
};

} // namespace ns3

#endif // AICLUSTER_CSV_COLUMN_TEXT_H
