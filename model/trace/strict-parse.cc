/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "strict-parse.h"

#include "trace-reader.h"

#include "ns3/huge-pages.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StrictParse");

namespace strict
{

namespace
{

bool
AllDigits(const std::string& text, size_t from)
{
    return from < text.size() && std::all_of(text.begin() + from, text.end(), [](char c) {
               return c >= '0' && c <= '9';
           });
}

} // namespace

bool
ParseInt64(const std::string& text, int64_t& value)
{
    size_t from = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
    if (!AllDigits(text, from))
    {
        return false;
    }
    const char* begin = text.c_str() + (text[0] == '+' ? 1 : 0);
    auto result = std::from_chars(begin, text.c_str() + text.size(), value);
    return result.ec == std::errc() && result.ptr == text.c_str() + text.size();
}

bool
ParseUint64(const std::string& text, uint64_t& value)
{
    size_t from = (!text.empty() && text[0] == '+') ? 1 : 0;
    if (!AllDigits(text, from))
    {
        return false;
    }
    auto result = std::from_chars(text.c_str() + from, text.c_str() + text.size(), value);
    return result.ec == std::errc() && result.ptr == text.c_str() + text.size();
}

bool
ParseDouble(const std::string& text, double& value)
{
    // Decimal text only: strtod would also take "0x10", "inf", "nan" and "1e3abc" (prefix).
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos ||
        text.find_first_of("0123456789") == std::string::npos)
    {
        return false;
    }
    // Fast path: std::from_chars is correctly rounded like strtod and takes no locale. Text it
    // does not take whole (a leading '+', out-of-range values, anything malformed) goes the
    // strtod way below, so what is accepted and its value stay exactly strtod's.
    const char* first = text.c_str();
    const char* last = first + text.size();
    if (*first != '+')
    {
        double v = 0;
        auto result = std::from_chars(first, last, v);
        if (result.ec == std::errc() && result.ptr == last && std::isfinite(v))
        {
            value = v;
            return true;
        }
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

std::string
NumberText(double value)
{
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
}

std::string
ReadTextFile(const std::string& path, const std::string& what)
{
    NS_LOG_FUNCTION(path << what);
    if (path.empty())
    {
        throw TraceError("(empty path)", 0, "", "expected the path of a " + what);
    }
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
    {
        throw TraceError(
            path,
            0,
            "",
            "expected a readable " + what +
                (errno == ENOENT
                     ? std::string(", but it cannot be opened: it does not exist")
                     : ", but it cannot be opened (" + std::string(std::strerror(errno)) + ")"));
    }
    if (S_ISDIR(st.st_mode))
    {
        throw TraceError(path, 0, "", "expected a readable " + what + ", but it is a directory");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw TraceError(path,
                         0,
                         "",
                         "expected a readable " + what + ", but it cannot be opened (" +
                             std::strerror(errno) + ")");
    }
    // Straight into one string of the file's size: a string stream would grow its buffer
    // step by step and then be copied, touching three times the pages of a large trace
    // (issue #13). A file that grows meanwhile (or has no size, a pipe) reads on to its end.
    std::string text;
    text.reserve(static_cast<std::size_t>(st.st_size));
    AdviseHugePages(text.data(), text.capacity());
    char block[1 << 16];
    while (in.read(block, sizeof block) || in.gcount() > 0)
    {
        text.append(block, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
    {
        throw TraceError(path, 0, "", "expected a readable " + what + ", but reading it failed");
    }
    return text;
}

bool
NormalizeCrLineEnds(std::string& text)
{
    if (text.find('\n') != std::string::npos || text.find('\r') == std::string::npos)
    {
        return false;
    }
    std::replace(text.begin(), text.end(), '\r', '\n');
    return true;
}

uint64_t
LineOfByte(const std::string& text, size_t byte)
{
    byte = std::min(byte, text.size());
    return 1 + std::count(text.begin(), text.begin() + byte, '\n');
}

void
CheckJsonDepth(const std::string& path, const std::string& text, uint32_t maxDepth)
{
    uint32_t depth = 0;
    bool inString = false;
    const size_t n = text.size();
    for (size_t i = 0; i < n; ++i)
    {
        char c = text[i];
        if (inString)
        {
            if (c == '\\')
            {
                ++i; // the escaped character cannot end the string
            }
            else if (c == '"')
            {
                inString = false;
            }
            continue;
        }
        switch (c)
        {
        case '"':
            inString = true;
            break;
        case '[':
        case '{':
            if (++depth > maxDepth)
            {
                throw TraceError(path,
                                 LineOfByte(text, i),
                                 "",
                                 "expected JSON nested at most " + std::to_string(maxDepth) +
                                     " levels deep (arrays and objects), but it nests deeper");
            }
            break;
        case ']':
        case '}':
            depth = depth > 0 ? depth - 1 : 0; // unbalanced: the parser names it
            break;
        default:
            break;
        }
    }
}

nlohmann::json
ParseJson(const std::string& path, const std::string& text)
{
    CheckJsonDepth(path, text);
    try
    {
        return nlohmann::json::parse(text);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        throw TraceError(path,
                         LineOfByte(text, e.byte > 0 ? e.byte - 1 : 0),
                         "",
                         std::string("expected valid JSON: ") + e.what());
    }
    catch (const nlohmann::json::exception& e)
    {
        // e.g. out_of_range 406 "number overflow parsing '1e309'"
        throw TraceError(path, 0, "", std::string("expected valid JSON: ") + e.what());
    }
}

std::string
JsonPreview(const nlohmann::json& value)
{
    const size_t limit = 60;
    std::string text;
    if (value.is_array())
    {
        text = value.empty() ? "[]" : "an array of " + std::to_string(value.size()) + " items";
    }
    else if (value.is_object())
    {
        text = value.empty() ? "{}" : "an object with " + std::to_string(value.size()) + " keys";
    }
    else
    {
        text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (text.size() > limit)
    {
        text = text.substr(0, limit) + "...";
    }
    return text;
}

} // namespace strict
} // namespace ns3
