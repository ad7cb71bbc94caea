/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TRACE_PARSE_H
#define AICLUSTER_TRACE_PARSE_H

// Internal to model/trace: the tokenizer, field parsers and per-format readers
// shared by trace-reader.cc and the format files. Not installed as ns3/ header.

#include "job-record.h"
#include "trace-reader.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace tracefmt
{

/**
 * \brief A small RFC-4180 style tokenizer over an in-memory text.
 *
 * Fields are separated by `sep`; with quoting on, a field may be enclosed in
 * double quotes, inside which separators and newlines are literal and `""` is
 * one quote. Handles LF and CRLF line ends and a leading UTF-8 byte-order mark.
 * Blank lines are skipped. Records are numbered by the 1-based line they start on.
 */
class CsvCursor
{
  public:
    /**
     * \param file the file name, for error messages
     * \param text the file's content (must outlive the cursor)
     * \param sep the field separator
     * \param quoting whether double quotes delimit fields (off for Gavel's TSV)
     * \param comments whether lines starting with '#' are comments to skip
     */
    CsvCursor(const std::string& file,
              const std::string& text,
              char sep,
              bool quoting,
              bool comments = false);

    /**
     * \param fields receives the record's fields (its storage is reused)
     * \return false at the end of the text
     * \throws TraceError on an unterminated quoted field or text after a closing quote
     */
    bool Next(std::vector<std::string>& fields);

    /** \return the 1-based line on which the last record returned by Next() starts */
    uint64_t Line() const;

    /** \brief Skip the rest of the current line. */
    void SkipLine();

  private:
    void SkipBlankLines(); //!< and comment lines, if they are enabled

    const std::string& m_file;
    const std::string& m_text;
    char m_sep;
    bool m_quoting;
    bool m_comments;
    size_t m_pos{0};
    uint64_t m_line{1};       //!< line of m_pos
    uint64_t m_recordLine{0}; //!< line the last record started on
};

/**
 * \brief Where a value came from, to build TraceErrors: file and 1-based line.
 */
struct Site
{
    const std::string& file; //!< trace file
    uint64_t line;           //!< 1-based line

    /** \throws TraceError naming this site, the field and what was expected and found */
    [[noreturn]] void Fail(const std::string& field,
                           const std::string& expected,
                           const std::string& got) const;
};

/** \return s without leading and trailing blanks (space, tab, CR) */
std::string Trim(const std::string& s);

/**
 * \return true for a value that means "not recorded": empty, None, null or NaT (case-insensitive).
 * NaN is not among them: a NaN duration or count is malformed, not missing.
 */
bool IsMissing(const std::string& s);

/** \return a finite number; \throws TraceError otherwise */
double ParseNumber(const Site& site, const std::string& field, const std::string& s);

/** \return a finite number >= 0; \throws TraceError otherwise */
double ParseNonNegative(const Site& site, const std::string& field, const std::string& s);

/**
 * \return a non-negative integer (an integral decimal such as "8.0" is accepted)
 * \throws TraceError on anything else, including values above 2^32 - 1
 */
uint32_t ParseCount(const Site& site, const std::string& field, const std::string& s);

/**
 * \return the nodes a job of \p numGpus GPUs asked for: an integer in 1..numGpus
 * \param gpuField the GPU count's column, named in the error
 * \throws TraceError on anything else
 */
uint32_t ParseNodeCount(const Site& site,
                        const std::string& field,
                        const std::string& s,
                        uint32_t numGpus,
                        const std::string& gpuField);

/**
 * \brief Parse a time: a number of seconds, or a date-time "YYYY-MM-DD HH:MM:SS"
 * (also with 'T', fractional seconds, and a 'Z' or +HH:MM / -HH:MM offset; no
 * offset means UTC).
 * \return seconds (since the Unix epoch for a date-time)
 */
double ParseTime(const Site& site, const std::string& field, const std::string& s);

/** \brief The columns of a CSV header, by name. */
class Columns
{
  public:
    /**
     * \param header the header's fields (trimmed, compared case-insensitively)
     * \param site file and line of the header
     */
    Columns(const std::vector<std::string>& header, const Site& site);

    /** \return the index of a column; \throws TraceError if the header lacks it */
    size_t Require(const std::string& name) const;

    /** \return the index of a column, or -1 if the header lacks it */
    int Find(const std::string& name) const;

    /** \return the number of columns */
    size_t Size() const;

    /** \throws TraceError if a row has another number of fields than the header */
    void CheckRow(const std::vector<std::string>& row, const Site& site) const;

  private:
    std::string m_file;
    uint64_t m_line; //!< line of the header
    std::map<std::string, size_t> m_index;
    size_t m_size;
};

/** \brief What a reader made of one record. */
enum class Outcome
{
    JOB,       //!< a job (in JobRecord)
    NOT_GPU,   //!< asks for no GPU: counted in notGpuJobs
    UNFINISHED //!< never ran or has no end: counted in unfinished
};

/**
 * \brief Collects the records of one file: jobs, counts and skipped problems.
 */
class Collector
{
  public:
    /**
     * \param file the trace file
     * \param policy stop or skip on malformed records
     * \param report receives the counts
     */
    Collector(const std::string& file, TraceErrorPolicy policy, TraceReadReport& report);

    /** \return the trace file */
    const std::string& File() const;

    /**
     * \brief Count one record and file its outcome.
     * \param line 1-based line the record starts on
     * \param outcome what the record is
     * \param job the job (used only for Outcome::JOB)
     */
    void Add(uint64_t line, Outcome outcome, JobRecord&& job);

    /**
     * \brief Count one malformed record: rethrow (STOP) or count and remember (SKIP).
     * \param error what is wrong
     */
    void Malformed(const TraceError& error);

    /** \return the jobs collected so far, in file order */
    std::vector<JobRecord>& Jobs();

  private:
    std::shared_ptr<const std::string> m_file; //!< the file's name, shared by the records' sources
    TraceErrorPolicy m_policy;
    TraceReadReport& m_report;
    std::vector<JobRecord> m_jobs;
};

/** \brief A format reader: parses `text` of `collector.File()` into the collector. */
using FormatReader = void (*)(const std::string& text, Collector& collector);

void ReadPhillyCsv(const std::string& text, Collector& collector);      //!< philly-csv
void ReadPhillyJson(const std::string& text, Collector& collector);     //!< philly-json
void ReadAlibabaGpu2023(const std::string& text, Collector& collector); //!< alibaba-gpu-2023
void ReadHeliosCsv(const std::string& text, Collector& collector);      //!< helios-csv
void ReadAcmeCsv(const std::string& text, Collector& collector);        //!< acme-csv
void ReadAlibabaSpotGpu2026(const std::string& text,
                            Collector& collector); //!< alibaba-spot-gpu-2026
void ReadAlibabaPai2020Task(const std::string& text,
                            Collector& collector);                   //!< alibaba-pai-2020-task
void ReadSiaWorkload(const std::string& text, Collector& collector); //!< sia-workload
void ReadGavel(const std::string& text, Collector& collector);       //!< gavel
void ReadTiresiasCsv(const std::string& text, Collector& collector); //!< tiresias-csv
void ReadNative(const std::string& text, Collector& collector);      //!< aicluster

/** \brief The native format's first line. */
extern const char* const NATIVE_MAGIC;
/** \brief The native format's columns, in order. */
extern const std::vector<std::string> NATIVE_COLUMNS;
/** \brief The columns of Alibaba PAI v2020's headerless pai_task_table.csv, in order. */
extern const std::vector<std::string> PAI_TASK_COLUMNS;

} // namespace tracefmt
} // namespace ns3

#endif // AICLUSTER_TRACE_PARSE_H
