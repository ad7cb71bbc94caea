/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STRICT_PARSE_H
#define AICLUSTER_STRICT_PARSE_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Strict reading of numbers, text files and JSON, shared by the trace readers, the
 *        workload catalog, scenario files and the examples' options.
 *
 * "Strict" means: the whole token must be the value (no trailing text, no blanks), decimal
 * only (no hexadecimal, no "inf" or "nan"), finite, and in range (no wrap of a negative
 * number into a large unsigned one). Files that cannot be read and JSON that cannot be
 * parsed, is nested too deeply or holds a number out of range give a TraceError naming the
 * file.
 */
namespace strict
{

/**
 * \brief The largest time ns-3's clock can represent: Time counts int64 nanoseconds, so
 *        about 9.22e9 s (292 years) [s].
 */
constexpr double NS3_TIME_LIMIT_SECONDS = 9223372036.0;

/**
 * \brief The largest submit time or run time a trace record may hold [s]: 1e9 s (31.7
 *        years), a tenth of ns-3's clock, so that a replay (submit + queueing + run time)
 *        stays inside what Time can represent.
 */
constexpr double TRACE_TIME_LIMIT_SECONDS = 1e9;

/** \brief The deepest nesting of arrays and objects accepted in a JSON file. */
constexpr uint32_t JSON_MAX_DEPTH = 64;

/**
 * \param text the token
 * \param value receives the value
 * \return true if text is a decimal integer ([+-]digits) that fits in int64_t
 */
bool ParseInt64(const std::string& text, int64_t& value);

/**
 * \param text the token
 * \param value receives the value
 * \return true if text is a decimal integer (digits, optional '+') that fits in uint64_t;
 *         a minus sign is never accepted
 */
bool ParseUint64(const std::string& text, uint64_t& value);

/**
 * \param text the token
 * \param value receives the value
 * \return true if text is a finite decimal number (digits, sign, '.', exponent); no
 *         hexadecimal, inf, nan or trailing text
 */
bool ParseDouble(const std::string& text, double& value);

/**
 * \brief Format a number the way messages show it (shortest text that reads back).
 * \param value the number
 * \return its text
 */
std::string NumberText(double value);

/**
 * \brief Read a whole text file.
 * \param path the file
 * \param what what the file is, for the message ("trace file", "scenario file", ...)
 * \return its content
 * \throws TraceError naming the path if it does not exist, is a directory or cannot be read
 */
std::string ReadTextFile(const std::string& path, const std::string& what);

/**
 * \brief Turn classic-Mac line ends (CR only, no LF anywhere) into LF.
 * \param text the file's content, changed in place
 * \return true if the text had CR-only line ends
 */
bool NormalizeCrLineEnds(std::string& text);

/**
 * \brief Check that JSON text nests arrays and objects at most maxDepth deep.
 *
 * A linear scan that skips strings: it runs before the JSON library sees the text, so a
 * hostile file (100,000 nested brackets) is rejected before anything recursive touches it.
 * \param path the file, for the message
 * \param text the JSON text
 * \param maxDepth the deepest nesting accepted
 * \throws TraceError naming the file and the line where the nesting gets too deep
 */
void CheckJsonDepth(const std::string& path,
                    const std::string& text,
                    uint32_t maxDepth = JSON_MAX_DEPTH);

/**
 * \brief Parse JSON text with the depth check above; every library error (syntax, a number
 *        out of range such as 1e309) becomes a TraceError naming the file (and line).
 * \param path the file, for messages
 * \param text the JSON text
 * \return the parsed document
 */
nlohmann::json ParseJson(const std::string& path, const std::string& text);

/**
 * \brief A short rendering of a JSON value for messages: never longer than about 60
 *        characters, and never recursive over a deep value.
 * \param value the value
 * \return its text
 */
std::string JsonPreview(const nlohmann::json& value);

/**
 * \param byte an offset into text
 * \param text the text
 * \return the 1-based line holding that byte
 */
uint64_t LineOfByte(const std::string& text, size_t byte);

} // namespace strict
} // namespace ns3

#endif // AICLUSTER_STRICT_PARSE_H
