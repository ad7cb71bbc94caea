/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "trace-reader.h"

#include "strict-parse.h"
#include "trace-parse.h"

#include "ns3/huge-pages.h"
#include "ns3/log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TraceReader");

namespace
{

std::string
ComposeMessage(const std::string& file,
               uint64_t line,
               const std::string& field,
               const std::string& expected)
{
    std::string message = file;
    if (line > 0)
    {
        message += ":" + std::to_string(line);
    }
    message += ": ";
    if (!field.empty())
    {
        message += "field '" + field + "': ";
    }
    message += expected;
    // One line whatever the input held: a quoted field may carry line breaks.
    std::string oneLine;
    oneLine.reserve(message.size());
    for (char c : message)
    {
        oneLine += c == '\n'   ? std::string("\\n")
                   : c == '\r' ? std::string("\\r")
                               : std::string(1, c);
    }
    return oneLine;
}

struct Format
{
    const char* name;
    tracefmt::FormatReader read;
};

const std::vector<Format>&
Formats()
{
    static const std::vector<Format> formats = {
        {"aicluster", tracefmt::ReadNative},
        {"philly-csv", tracefmt::ReadPhillyCsv},
        {"philly-json", tracefmt::ReadPhillyJson},
        {"alibaba-gpu-2023", tracefmt::ReadAlibabaGpu2023},
        {"helios-csv", tracefmt::ReadHeliosCsv},
        {"acme-csv", tracefmt::ReadAcmeCsv},
        {"alibaba-spot-gpu-2026", tracefmt::ReadAlibabaSpotGpu2026},
        {"alibaba-pai-2020-task", tracefmt::ReadAlibabaPai2020Task},
        {"sia-workload", tracefmt::ReadSiaWorkload},
        {"gavel", tracefmt::ReadGavel},
        {"tiresias-csv", tracefmt::ReadTiresiasCsv},
    };
    return formats;
}

std::string
FormatList()
{
    std::string list;
    for (const auto& f : Formats())
    {
        list += (list.empty() ? "" : ", ") + std::string(f.name);
    }
    return list;
}

/** \return true if every name is a column of the header */
bool
HasColumns(const std::vector<std::string>& header, std::initializer_list<const char*> names)
{
    return std::all_of(names.begin(), names.end(), [&header](const char* name) {
        return std::find(header.begin(), header.end(), name) != header.end();
    });
}

/** Detects the format from the start of a file's text (see DetectTraceFormat). */
std::string
DetectFromText(const std::string& path, const std::string& text)
{
    size_t pos = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    pos = text.find_first_not_of(" \t\r\n", pos);
    if (pos == std::string::npos)
    {
        throw TraceError(path, 0, "", "expected a trace, but the file is empty");
    }
    if (text[pos] == '[' || text[pos] == '{')
    {
        return "philly-json";
    }
    uint64_t line = 1 + std::count(text.begin(), text.begin() + pos, '\n');
    size_t eol = text.find('\n', pos);
    std::string raw = text.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
    std::string first = tracefmt::Trim(raw);
    if (first.rfind("# aicluster-trace", 0) == 0)
    {
        return "aicluster";
    }
    // Tabs are counted before trimming: a Gavel row may end with an empty field (a tab).
    if (std::count(raw.begin(), raw.end(), '\t') == 6)
    {
        return "gavel";
    }
    std::vector<std::string> header;
    tracefmt::CsvCursor cursor(path, first, ',', true);
    cursor.Next(header);
    for (auto& h : header)
    {
        h = tracefmt::Trim(h);
        std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
    }
    if (HasColumns(header, {"timestamp", "duration", "num_gpus", "cluster"}))
    {
        return "philly-csv";
    }
    if (HasColumns(header, {"name", "cpu_milli", "num_gpu", "gpu_milli"}))
    {
        return "alibaba-gpu-2023";
    }
    if (HasColumns(header, {"job_name", "gpu_request", "worker_num", "submit_time", "job_type"}))
    {
        return "alibaba-spot-gpu-2026";
    }
    if (HasColumns(header, {"job_name", "task_name", "inst_num", "plan_gpu", "gpu_type"}))
    {
        return "alibaba-pai-2020-task"; // pai_task_table.header prepended to the CSV
    }
    if (HasColumns(header, {"job_id", "node_num", "gpu_num", "type", "state", "submit_time"}))
    {
        return "acme-csv"; // Acme has Helios' columns plus the job type
    }
    if (HasColumns(header, {"job_id", "gpu_num", "submit_time"}))
    {
        return "helios-csv";
    }
    if (HasColumns(header, {"name", "time", "application", "num_replicas", "batch_size"}))
    {
        return "sia-workload";
    }
    if (HasColumns(header, {"job_id", "num_gpu", "submit_time", "model_name"}))
    {
        return "tiresias-csv";
    }
    // pai_task_table.csv is headerless as published: a first record with its 10 fields and a
    // PAI task status is named rather than guessed (traces/README.md).
    static const std::set<std::string> paiStatus = {"terminated", "failed", "running", "waiting"};
    if (header.size() == tracefmt::PAI_TASK_COLUMNS.size() && paiStatus.count(header[3]) == 1)
    {
        throw TraceError(path,
                         line,
                         "format",
                         "expected a header; this looks like Alibaba PAI's headerless "
                         "pai_task_table.csv: name --format=alibaba-pai-2020-task (or prepend "
                         "pai_task_table.header), got '" +
                             first.substr(0, 120) + "'");
    }
    throw TraceError(path,
                     line,
                     "",
                     "expected the header of a known trace format (" + FormatList() + "), got '" +
                         first.substr(0, 120) + "'");
}

void
CheckOptions(const std::string& path, const TraceReadOptions& options)
{
    if (!(options.loadScale > 0) || !std::isfinite(options.loadScale))
    {
        throw TraceError(path,
                         0,
                         "loadScale",
                         "expected a positive finite number, got " +
                             std::to_string(options.loadScale));
    }
    if (std::isnan(options.windowStart) || std::isnan(options.windowEnd) ||
        options.windowEnd < options.windowStart)
    {
        throw TraceError(path,
                         0,
                         "window",
                         "expected windowStart <= windowEnd, got [" +
                             std::to_string(options.windowStart) + ", " +
                             std::to_string(options.windowEnd) + ")");
    }
}

/**
 * Applies the documented selection to jobs in file order: sort by submit time, shift the
 * first job to 0 (if shift: every format but the native one), then VC filter, window,
 * load scale, job limit; number the kept jobs 0..n-1.
 */
std::vector<JobRecord>
Select(std::vector<JobRecord>&& jobs,
       const TraceReadOptions& options,
       bool shift,
       TraceReadReport& report)
{
    // Sort (time, file position) pairs rather than the records themselves: records are
    // large, and the position makes the order stable (ties keep file order).
    std::vector<std::pair<double, size_t>> order(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        order[i] = {jobs[i].submitTime, i};
    }
    std::sort(order.begin(), order.end());
    const double origin = (shift && !order.empty()) ? order.front().first : 0.0;
    // The records are put in that order in place, one cycle of the permutation at a time:
    // each record is moved once (plus one move per cycle), and no second copy of a large
    // trace is held in memory.
    std::vector<bool> placed(jobs.size(), false);
    for (size_t start = 0; start < order.size(); ++start)
    {
        if (placed[start] || order[start].second == start)
        {
            continue;
        }
        JobRecord held = std::move(jobs[start]);
        size_t slot = start;
        while (true)
        {
            placed[slot] = true;
            size_t wanted = order[slot].second; // the record (file position) this slot takes
            if (wanted == start)
            {
                jobs[slot] = std::move(held);
                break;
            }
            jobs[slot] = std::move(jobs[wanted]);
            slot = wanted;
        }
    }
    std::vector<bool>().swap(placed);
    std::vector<JobRecord>& kept = jobs;
    size_t n = 0;
    for (size_t i = 0; i < kept.size(); ++i)
    {
        JobRecord& job = kept[i];
        job.submitTime -= origin;
        if (!options.vcs.empty() && options.vcs.count(job.vc) == 0)
        {
            ++report.otherVc;
        }
        else if (job.submitTime < options.windowStart || job.submitTime >= options.windowEnd)
        {
            ++report.outsideWindow;
        }
        else
        {
            if (n != i)
            {
                kept[n] = std::move(job);
            }
            ++n;
        }
    }
    kept.resize(n);
    if (options.loadScale != 1.0 && !kept.empty())
    {
        // Dividing every inter-arrival gap by s = compressing time around the first job.
        const double t0 = kept.front().submitTime;
        for (auto& job : kept)
        {
            job.submitTime = t0 + (job.submitTime - t0) / options.loadScale;
        }
    }
    // ns-3's clock ends at 9.2e9 s: every submit time must stay well inside it.
    n = 0;
    for (size_t i = 0; i < kept.size(); ++i)
    {
        JobRecord& job = kept[i];
        if (job.submitTime > strict::TRACE_TIME_LIMIT_SECONDS)
        {
            TraceError error(report.file,
                             job.source.Line(),
                             "submit time",
                             "expected a submit time of at most 1e9 s after the trace's start "
                             "(after --load-scale; ns-3's clock ends at 9.2e9 s), got " +
                                 strict::NumberText(job.submitTime) + " s");
            if (options.onError == TraceErrorPolicy::STOP)
            {
                throw error;
            }
            ++report.malformed;
            if (report.problems.size() < 100)
            {
                report.problems.emplace_back(error.what());
            }
            continue;
        }
        if (n != i)
        {
            kept[n] = std::move(job);
        }
        ++n;
    }
    kept.resize(n);
    if (options.maxJobs > 0 && kept.size() > options.maxJobs)
    {
        report.overMaxJobs += kept.size() - options.maxJobs;
        kept.resize(options.maxJobs);
    }
    for (size_t i = 0; i < kept.size(); ++i)
    {
        kept[i].id = i;
    }
    report.kept = kept.size();
    return std::move(kept);
}

/** Writes a number in the shortest form that reads back to the same double. */
std::string
NumberText(double value)
{
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
}

/** Quotes a CSV field when it would otherwise be read differently. */
std::string
CsvField(const std::string& s)
{
    bool quote = s.find_first_of(",\"\r\n") != std::string::npos || (!s.empty() && s[0] == '#');
    if (!quote)
    {
        return s;
    }
    std::string out = "\"";
    for (char c : s)
    {
        out += c;
        if (c == '"')
        {
            out += '"';
        }
    }
    return out + "\"";
}

} // namespace

TraceError::TraceError(const std::string& file,
                       uint64_t line,
                       const std::string& field,
                       const std::string& expected)
    : std::runtime_error(ComposeMessage(file, line, field, expected)),
      m_file(file),
      m_line(line),
      m_field(field)
{
}

const std::string&
TraceError::File() const
{
    return m_file;
}

uint64_t
TraceError::Line() const
{
    return m_line;
}

const std::string&
TraceError::Field() const
{
    return m_field;
}

std::vector<std::string>
TraceFormats()
{
    std::vector<std::string> names;
    for (const auto& f : Formats())
    {
        names.emplace_back(f.name);
    }
    return names;
}

std::string
DetectTraceFormat(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw TraceError(path, 0, "", "expected a readable trace file, but it cannot be opened");
    }
    // The first line decides; 64 KiB holds the header of every format.
    std::string head(64 * 1024, '\0');
    try
    {
        in.read(&head[0], static_cast<std::streamsize>(head.size()));
    }
    catch (const std::ios_base::failure&)
    {
        throw TraceError(path, 0, "", "expected a readable trace file, but reading it failed");
    }
    if (in.bad())
    {
        throw TraceError(path, 0, "", "expected a readable trace file (not a directory)");
    }
    head.resize(static_cast<size_t>(in.gcount()));
    strict::NormalizeCrLineEnds(head);
    return DetectFromText(path, head);
}

std::vector<JobRecord>
ReadTrace(const std::string& path, const TraceReadOptions& options, TraceReadReport* report)
{
    NS_LOG_FUNCTION(path << options.format);
    CheckOptions(path, options);
    const Format* format = nullptr;
    if (options.format != "auto")
    {
        for (const auto& f : Formats())
        {
            format = options.format == f.name ? &f : format;
        }
        if (!format)
        {
            throw TraceError(path,
                             0,
                             "format",
                             "expected auto or one of " + FormatList() + ", got '" +
                                 options.format + "'");
        }
    }
    std::string text = strict::ReadTextFile(path, "trace file");
    strict::NormalizeCrLineEnds(text); // classic-Mac CR-only line ends read as LF
    if (!format)
    {
        std::string name = DetectFromText(path, text);
        for (const auto& f : Formats())
        {
            format = name == f.name ? &f : format;
        }
    }
    TraceReadReport local;
    TraceReadReport& rep = report ? *report : local;
    rep = TraceReadReport();
    rep.file = path;
    rep.format = format->name;

    tracefmt::Collector collector(path, options.onError, rep);
    if (std::string(format->name) != "philly-json")
    {
        // One record per line in the line-oriented formats: no re-allocation while reading,
        // and the array is filled once in full, so huge pages spare most of its page faults.
        std::vector<JobRecord>& jobs = collector.Jobs();
        jobs.reserve(std::count(text.begin(), text.end(), '\n') + 1);
        AdviseHugePages(jobs.data(), jobs.capacity() * sizeof(JobRecord));
    }
    format->read(text, collector);
    if (rep.records == 0)
    {
        throw TraceError(path,
                         0,
                         "",
                         "expected at least one record (" + rep.format +
                             " format), but the file has none");
    }
    // Native traces already count seconds from their own start (and a window written
    // by trace-convert must stay where it was); every other format is shifted.
    const bool shift = std::string(format->name) != "aicluster";
    std::vector<JobRecord> jobs = Select(std::move(collector.Jobs()), options, shift, rep);
    NS_LOG_INFO(path << " (" << rep.format << "): " << rep.records << " records, " << rep.kept
                     << " kept, " << rep.malformed << " malformed, " << rep.notGpuJobs
                     << " without GPU, " << rep.unfinished << " unfinished");
    return jobs;
}

void
WriteNativeTrace(const std::string& path, const std::vector<JobRecord>& jobs)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
    {
        throw TraceError(path, 0, "", "expected a writable output file, but it cannot be created");
    }
    out << tracefmt::NATIVE_MAGIC << "\n";
    for (size_t i = 0; i < tracefmt::NATIVE_COLUMNS.size(); ++i)
    {
        out << (i ? "," : "") << tracefmt::NATIVE_COLUMNS[i];
    }
    out << "\n";
    for (const auto& job : jobs)
    {
        out << CsvField(job.name) << ',' << NumberText(job.submitTime) << ',' << job.numGpus << ','
            << (job.duration == JobRecord::UNKNOWN ? "" : NumberText(job.duration)) << ','
            << CsvField(job.user) << ',' << CsvField(job.vc) << ',' << CsvField(job.model) << ','
            << CsvField(job.dataset) << ','
            << (job.totalSteps == JobRecord::UNKNOWN ? "" : NumberText(job.totalSteps)) << ','
            << (job.globalBatch == 0 ? "" : std::to_string(job.globalBatch)) << ','
            << NumberText(job.gpuFraction) << ',' << CsvField(job.status) << ','
            << CsvField(job.jobType) << ','
            << (job.numNodes == 0 ? "" : std::to_string(job.numNodes)) << "\n";
    }
    out.close();
    if (!out)
    {
        throw TraceError(path, 0, "", "expected a writable output file, but writing it failed");
    }
}

} // namespace ns3
