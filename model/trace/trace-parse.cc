/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "trace-parse.h"

#include "strict-parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace ns3
{
namespace tracefmt
{

// ---- CsvCursor ------------------------------------------------------------------------

CsvCursor::CsvCursor(const std::string& file,
                     const std::string& text,
                     char sep,
                     bool quoting,
                     bool comments)
    : m_file(file),
      m_text(text),
      m_sep(sep),
      m_quoting(quoting),
      m_comments(comments)
{
    // A UTF-8 byte-order mark (spreadsheet exports) is not part of the first field.
    if (m_text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    {
        m_pos = 3;
    }
}

void
CsvCursor::SkipBlankLines()
{
    const size_t n = m_text.size();
    while (m_pos < n)
    {
        if (m_text[m_pos] == '\n')
        {
            ++m_pos;
            ++m_line;
        }
        else if (m_text[m_pos] == '\r' && m_pos + 1 < n && m_text[m_pos + 1] == '\n')
        {
            m_pos += 2;
            ++m_line;
        }
        else if (m_comments && m_text[m_pos] == '#')
        {
            SkipLine();
        }
        else
        {
            break;
        }
    }
}

void
CsvCursor::SkipLine()
{
    size_t end = m_text.find('\n', m_pos);
    if (end == std::string::npos)
    {
        m_pos = m_text.size();
        return;
    }
    m_pos = end + 1;
    ++m_line;
}

uint64_t
CsvCursor::Line() const
{
    return m_recordLine;
}

bool
CsvCursor::Next(std::vector<std::string>& fields)
{
    SkipBlankLines();
    const size_t n = m_text.size();
    if (m_pos >= n)
    {
        return false;
    }
    m_recordLine = m_line;
    size_t count = 0;
    while (true)
    {
        if (count == fields.size())
        {
            fields.emplace_back();
        }
        std::string& field = fields[count++];
        field.clear();
        if (m_quoting && m_pos < n && m_text[m_pos] == '"')
        {
            ++m_pos;
            while (true)
            {
                size_t quote = m_text.find('"', m_pos);
                if (quote == std::string::npos)
                {
                    Site{m_file, m_recordLine}.Fail("field " + std::to_string(count),
                                                    "a closing double quote",
                                                    "end of file");
                }
                m_line += std::count(m_text.begin() + m_pos, m_text.begin() + quote, '\n');
                field.append(m_text, m_pos, quote - m_pos);
                m_pos = quote + 1;
                if (m_pos < n && m_text[m_pos] == '"')
                {
                    field.push_back('"'); // "" inside quotes is one literal quote
                    ++m_pos;
                    continue;
                }
                break;
            }
            if (m_pos < n && m_text[m_pos] == '\r' && m_pos + 1 < n && m_text[m_pos + 1] == '\n')
            {
                ++m_pos;
            }
            if (m_pos < n && m_text[m_pos] != m_sep && m_text[m_pos] != '\n')
            {
                Site{m_file, m_recordLine}.Fail("field " + std::to_string(count),
                                                "a separator or line end after a closing quote",
                                                std::string(1, m_text[m_pos]));
            }
        }
        else
        {
            size_t end = m_pos;
            while (end < n && m_text[end] != m_sep && m_text[end] != '\n')
            {
                ++end;
            }
            size_t stop = end;
            if (stop > m_pos && m_text[stop - 1] == '\r' && (end == n || m_text[end] == '\n'))
            {
                --stop; // CRLF line end
            }
            field.assign(m_text, m_pos, stop - m_pos);
            m_pos = end;
        }
        if (m_pos < n && m_text[m_pos] == m_sep)
        {
            ++m_pos;
            continue;
        }
        if (m_pos < n) // at '\n'
        {
            ++m_pos;
            ++m_line;
        }
        break;
    }
    fields.resize(count);
    return true;
}

// ---- Field parsing --------------------------------------------------------------------

void
Site::Fail(const std::string& field, const std::string& expected, const std::string& got) const
{
    throw TraceError(file, line, field, "expected " + expected + ", got '" + got + "'");
}

std::string
Trim(const std::string& s)
{
    size_t b = 0;
    size_t e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r'))
    {
        ++b;
    }
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
    {
        --e;
    }
    return s.substr(b, e - b);
}

namespace
{

std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/** Parses exactly `width` digits at s[pos]; false if any is not a digit. */
bool
Digits(const std::string& s, size_t pos, size_t width, int& value)
{
    if (pos + width > s.size())
    {
        return false;
    }
    value = 0;
    for (size_t i = pos; i < pos + width; ++i)
    {
        if (s[i] < '0' || s[i] > '9')
        {
            return false;
        }
        value = value * 10 + (s[i] - '0');
    }
    return true;
}

bool
IsLeap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int
DaysInMonth(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return (m == 2 && IsLeap(y)) ? 29 : days[m - 1];
}

/**
 * \brief Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
 * days_from_civil), exact for every year.
 * \param y the year
 * \param m the month, 1 to 12
 * \param d the day of the month, 1 to 31
 * \return the days, negative before 1970
 */
int64_t
DaysFromCivil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;                                  // [0, 399]
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1; // [0, 365]
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;          // [0, 146096]
    return era * 146097 + doe - 719468;
}

/** Parses a date-time (see ParseTime) into seconds since the epoch; false if malformed. */
bool
ParseDateTime(const std::string& s, double& seconds)
{
    int y;
    int mo;
    int d;
    int h;
    int mi;
    int sec;
    if (!Digits(s, 0, 4, y) || s[4] != '-' || !Digits(s, 5, 2, mo) || s.size() < 19 ||
        s[7] != '-' || !Digits(s, 8, 2, d) || (s[10] != ' ' && s[10] != 'T') ||
        !Digits(s, 11, 2, h) || s[13] != ':' || !Digits(s, 14, 2, mi) || s[16] != ':' ||
        !Digits(s, 17, 2, sec))
    {
        return false;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo) || h > 23 || mi > 59 || sec > 60)
    {
        return false;
    }
    size_t pos = 19;
    double fraction = 0;
    if (pos < s.size() && s[pos] == '.')
    {
        double scale = 0.1;
        ++pos;
        if (pos >= s.size() || !std::isdigit(static_cast<unsigned char>(s[pos])))
        {
            return false;
        }
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])))
        {
            fraction += scale * (s[pos] - '0');
            scale /= 10;
            ++pos;
        }
    }
    int offset = 0; // seconds east of UTC
    if (pos < s.size())
    {
        int oh;
        int om;
        if (s[pos] == 'Z' && pos + 1 == s.size())
        {
            offset = 0;
        }
        else if ((s[pos] == '+' || s[pos] == '-') && Digits(s, pos + 1, 2, oh))
        {
            size_t mpos = pos + 3 < s.size() && s[pos + 3] == ':' ? pos + 4 : pos + 3;
            if (!Digits(s, mpos, 2, om) || mpos + 2 != s.size() || oh > 23 || om > 59)
            {
                return false;
            }
            offset = (s[pos] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        }
        else
        {
            return false;
        }
    }
    // What timegm gives for these fields (a second 60 runs into the next minute, as there),
    // counted directly rather than through the C library's normalising loop.
    seconds = static_cast<double>(DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) +
              fraction - offset;
    return true;
}

/** \return true if s starts or ends with what Trim removes */
bool
NeedsTrim(const std::string& s)
{
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    return !s.empty() && (blank(s.front()) || blank(s.back()));
}

} // namespace

bool
IsMissing(const std::string& s)
{
    if (s.empty())
    {
        return true;
    }
    if (s[0] >= '0' && s[0] <= '9')
    {
        return false; // a number (the common case): none of the words below
    }
    std::string t = Lower(Trim(s));
    return t.empty() || t == "none" || t == "null" || t == "nat";
}

double
ParseNumber(const Site& site, const std::string& field, const std::string& s)
{
    double v = 0;
    // Fast path: digits with at most a point ("2951.0", most durations), nothing to trim.
    // strict::ParseDouble takes such text by std::from_chars as well, so the value is the same.
    if (!s.empty() && s.front() >= '0' && s.front() <= '9' &&
        std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; }))
    {
        auto result = std::from_chars(s.data(), s.data() + s.size(), v);
        if (result.ec == std::errc() && result.ptr == s.data() + s.size() && std::isfinite(v))
        {
            return v;
        }
    }
    if (!strict::ParseDouble(Trim(s), v)) // decimal only: no "0x10", "inf" or "nan"
    {
        site.Fail(field, "a finite number (decimal)", s);
    }
    return v;
}

double
ParseNonNegative(const Site& site, const std::string& field, const std::string& s)
{
    double v = ParseNumber(site, field, s);
    if (v < 0)
    {
        site.Fail(field, "a number >= 0", s);
    }
    return v;
}

uint32_t
ParseCount(const Site& site, const std::string& field, const std::string& s)
{
    // Fast path: plain digits (the common case in every trace).
    if (!s.empty() && s.size() < 10 &&
        std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return static_cast<uint32_t>(std::strtoul(s.c_str(), nullptr, 10));
    }
    double v = 0;
    if (!strict::ParseDouble(Trim(s), v) || v < 0 || v != std::floor(v) ||
        v > std::numeric_limits<uint32_t>::max())
    {
        site.Fail(field, "a non-negative integer (decimal, at most 4294967295)", s);
    }
    return static_cast<uint32_t>(v);
}

uint32_t
ParseNodeCount(const Site& site,
               const std::string& field,
               const std::string& s,
               uint32_t numGpus,
               const std::string& gpuField)
{
    uint32_t nodes = ParseCount(site, field, s);
    if (nodes == 0 || nodes > numGpus)
    {
        site.Fail(field, "an integer in 1.." + std::to_string(numGpus) + " (" + gpuField + ")", s);
    }
    return nodes;
}

double
ParseTime(const Site& site, const std::string& field, const std::string& s)
{
    std::string trimmed;
    if (NeedsTrim(s))
    {
        trimmed = Trim(s);
    }
    const std::string& t = NeedsTrim(s) ? trimmed : s; // no copy of an untrimmed field
    if (t.size() >= 10 && t[4] == '-')
    {
        double seconds;
        if (!ParseDateTime(t, seconds))
        {
            site.Fail(field, "a date-time 'YYYY-MM-DD HH:MM:SS[+HH:MM]' or seconds", s);
        }
        return seconds;
    }
    double v = 0;
    if (!strict::ParseDouble(t, v))
    {
        site.Fail(field, "a date-time 'YYYY-MM-DD HH:MM:SS[+HH:MM]' or seconds", s);
    }
    return v;
}

// ---- Columns --------------------------------------------------------------------------

Columns::Columns(const std::vector<std::string>& header, const Site& site)
    : m_file(site.file),
      m_line(site.line),
      m_size(header.size())
{
    for (size_t i = 0; i < header.size(); ++i)
    {
        m_index.emplace(Lower(Trim(header[i])), i);
    }
}

size_t
Columns::Require(const std::string& name) const
{
    int i = Find(name);
    if (i < 0)
    {
        throw TraceError(m_file,
                         m_line,
                         name,
                         "expected a column named '" + name + "' in the header");
    }
    return static_cast<size_t>(i);
}

int
Columns::Find(const std::string& name) const
{
    auto it = m_index.find(name);
    return it == m_index.end() ? -1 : static_cast<int>(it->second);
}

size_t
Columns::Size() const
{
    return m_size;
}

void
Columns::CheckRow(const std::vector<std::string>& row, const Site& site) const
{
    if (row.size() != m_size)
    {
        site.Fail("(record)",
                  std::to_string(m_size) + " fields as in the header",
                  std::to_string(row.size()) + " fields");
    }
}

// ---- Collector ------------------------------------------------------------------------

Collector::Collector(const std::string& file, TraceErrorPolicy policy, TraceReadReport& report)
    : m_file(std::make_shared<const std::string>(file)),
      m_policy(policy),
      m_report(report)
{
}

const std::string&
Collector::File() const
{
    return *m_file;
}

void
Collector::Add(uint64_t line, Outcome outcome, JobRecord&& job)
{
    ++m_report.records;
    switch (outcome)
    {
    case Outcome::NOT_GPU:
        ++m_report.notGpuJobs;
        return;
    case Outcome::UNFINISHED:
        ++m_report.unfinished;
        return;
    case Outcome::JOB:
        if (job.duration > strict::TRACE_TIME_LIMIT_SECONDS)
        {
            // ns-3's clock ends at 9.2e9 s: a run time near it would overflow the replay.
            --m_report.records; // Malformed counts the record
            Malformed(TraceError(*m_file,
                                 line,
                                 "duration",
                                 "expected a run time of at most 1e9 s (ns-3's clock ends at "
                                 "9.2e9 s), got " +
                                     strict::NumberText(job.duration) + " s"));
            return;
        }
        job.source = RecordSource(m_file, line);
        m_jobs.push_back(std::move(job));
        return;
    }
}

void
Collector::Malformed(const TraceError& error)
{
    if (m_policy == TraceErrorPolicy::STOP)
    {
        throw error;
    }
    ++m_report.records;
    ++m_report.malformed;
    if (m_report.problems.size() < 100)
    {
        m_report.problems.emplace_back(error.what());
    }
}

std::vector<JobRecord>&
Collector::Jobs()
{
    return m_jobs;
}

} // namespace tracefmt
} // namespace ns3
