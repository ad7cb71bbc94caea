/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TRACE_READER_H
#define AICLUSTER_TRACE_READER_H

#include "job-record.h"

#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief A problem with trace input: which file, which line, which field, what was expected.
 *
 * what() is a complete one-line message, e.g.
 * "philly.csv:17: field 'num_gpus': expected a positive integer, got 'abc'".
 */
class TraceError : public std::runtime_error
{
  public:
    /**
     * \param file the trace file
     * \param line 1-based line number (0 when the problem is the whole file)
     * \param field the column or JSON key at fault (may be empty)
     * \param expected what a valid value looks like, and what was found
     */
    TraceError(const std::string& file,
               uint64_t line,
               const std::string& field,
               const std::string& expected);

    const std::string& File() const;  //!< \return the trace file
    uint64_t Line() const;            //!< \return the 1-based line, 0 for the whole file
    const std::string& Field() const; //!< \return the field at fault

  private:
    std::string m_file;
    uint64_t m_line;
    std::string m_field;
};

/**
 * \ingroup aicluster
 * \brief What a reader does with a malformed record.
 */
enum class TraceErrorPolicy
{
    STOP, //!< throw a TraceError at the first malformed record
    SKIP  //!< skip it, count it and keep its message in the TraceReadReport
};

/**
 * \ingroup aicluster
 * \brief Selection and transformation applied while reading a trace.
 */
struct TraceReadOptions
{
    std::string format{"auto"}; //!< a name from TraceFormats(), or "auto" to detect it
    double windowStart{0};      //!< keep jobs submitted at or after this time [s from trace start]
    double windowEnd{std::numeric_limits<double>::infinity()}; //!< ... and before this time [s]
    uint64_t maxJobs{0};       //!< keep at most this many jobs (first by submit time); 0 = all
    std::set<std::string> vcs; //!< keep only these virtual clusters; empty = all
    double loadScale{1.0};     //!< divide inter-arrival times by this (>1 = more load)
    TraceErrorPolicy onError{TraceErrorPolicy::STOP}; //!< malformed records: stop or skip
};

/**
 * \ingroup aicluster
 * \brief What happened while reading: nothing is dropped without being counted here.
 */
struct TraceReadReport
{
    std::string file;                  //!< the trace file
    std::string format;                //!< the format used (detected or named)
    uint64_t records{0};               //!< records (lines / JSON objects) seen
    uint64_t kept{0};                  //!< jobs returned
    uint64_t malformed{0};             //!< records skipped as malformed (TraceErrorPolicy::SKIP)
    uint64_t notGpuJobs{0};            //!< records skipped because they ask for no GPU
    uint64_t unfinished{0};            //!< records skipped because they never ran (no duration)
    uint64_t outsideWindow{0};         //!< records dropped by the time window
    uint64_t otherVc{0};               //!< records dropped by the VC filter
    uint64_t overMaxJobs{0};           //!< records dropped by the job-count limit
    std::vector<std::string> problems; //!< messages of skipped malformed records (first 100)
};

/**
 * \ingroup aicluster
 * \return the names of the trace formats this module reads, e.g. "philly-csv".
 */
std::vector<std::string> TraceFormats();

/**
 * \ingroup aicluster
 * \brief Detect a trace's format from its header (first line or first JSON token).
 * \param path the trace file
 * \return a name from TraceFormats()
 * \throws TraceError if the file is missing or its header matches no known format
 */
std::string DetectTraceFormat(const std::string& path);

/**
 * \ingroup aicluster
 * \brief Read a trace into job records sorted by submit time, ids 0..n-1 in that order.
 *
 * Submit times are shifted so that the first job of the whole file is at 0
 * before the window, load scaling and job limit are applied (in that order).
 * The VC filter is applied before the window. Native ("aicluster") traces are
 * not shifted: their times already count from their trace's start, so a window
 * written by trace-convert keeps its times. Every record read lands in exactly
 * one of the report's counters (kept, malformed, notGpuJobs, unfinished,
 * otherVc, outsideWindow, overMaxJobs); see traces/README.md per format.
 *
 * \param path the trace file
 * \param options format, filters and error policy
 * \param report if not null, receives the counts of what was read, kept and dropped
 * \return the jobs
 * \throws TraceError on a missing file, an unknown format name, or (with STOP) a malformed record
 */
std::vector<JobRecord> ReadTrace(const std::string& path,
                                 const TraceReadOptions& options = TraceReadOptions(),
                                 TraceReadReport* report = nullptr);

/**
 * \ingroup aicluster
 * \brief Write jobs in aicluster's native trace format (see traces/README.md).
 * \param path the output file
 * \param jobs the jobs
 */
void WriteNativeTrace(const std::string& path, const std::vector<JobRecord>& jobs);

} // namespace ns3

#endif // AICLUSTER_TRACE_READER_H
