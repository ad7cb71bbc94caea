/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Reader of Philly's raw cluster_job_log (msr-fiddle/philly-traces, ATC'19): a JSON
// array of jobs {status, vc, jobid, user, submitted_time, attempts: [{start_time,
// end_time, detail: [{ip, gpus: [...]}]}]}, times "YYYY-MM-DD HH:MM:SS" or "None".
//
// The array is parsed one job at a time (nlohmann's parser callback discards each
// job once it is read), so memory stays bounded by one job, not the whole log.

#include "strict-parse.h"
#include "trace-parse.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>

namespace ns3
{
namespace tracefmt
{
namespace
{

using Json = nlohmann::json;

/**
 * An input iterator over the text that publishes how far the parser has read, so the
 * parser callback can name the line a job starts on (nlohmann reports no positions).
 */
class TrackingIterator
{
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* p, const char** shared)
        : m_p(p),
          m_shared(shared)
    {
    }

    reference operator*() const
    {
        return *m_p;
    }

    TrackingIterator& operator++()
    {
        *m_shared = ++m_p;
        return *this;
    }

    TrackingIterator operator++(int)
    {
        TrackingIterator old = *this;
        ++*this;
        return old;
    }

    bool operator==(const TrackingIterator& o) const
    {
        return m_p == o.m_p;
    }

    bool operator!=(const TrackingIterator& o) const
    {
        return m_p != o.m_p;
    }

  private:
    const char* m_p;
    const char** m_shared;
};

/** Turns parser positions into 1-based lines, counting newlines incrementally. */
class LineCounter
{
  public:
    explicit LineCounter(const std::string& text)
        : m_counted(text.data())
    {
    }

    uint64_t LineAt(const char* pos)
    {
        if (pos > m_counted)
        {
            m_line += std::count(m_counted, pos, '\n');
            m_counted = pos;
        }
        return m_line;
    }

  private:
    const char* m_counted;
    uint64_t m_line{1};
};

/** \return the string value of key, "" if absent or null; \throws if not a string */
std::string
StringField(const Json& job, const char* key, const Site& site)
{
    auto it = job.find(key);
    if (it == job.end() || it->is_null())
    {
        return "";
    }
    if (!it->is_string())
    {
        site.Fail(key, "a string", strict::JsonPreview(*it));
    }
    return it->get<std::string>();
}

/** \return true and the time in seconds, or false if the value is absent, null or "None" */
bool
TimeField(const Json& object,
          const char* key,
          const std::string& field,
          const Site& site,
          double& t)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
    {
        return false;
    }
    if (!it->is_string())
    {
        site.Fail(field, "a date-time string or \"None\"", strict::JsonPreview(*it));
    }
    const std::string& s = it->get_ref<const std::string&>();
    if (IsMissing(s))
    {
        return false;
    }
    t = ParseTime(site, field, s);
    return true;
}

/** \return the GPUs an attempt held: the sum of len(gpus) over its detail entries */
uint32_t
AttemptGpus(const Json& attempt, const std::string& prefix, const Site& site)
{
    auto detail = attempt.find("detail");
    if (detail == attempt.end() || detail->is_null())
    {
        return 0;
    }
    if (!detail->is_array())
    {
        site.Fail(prefix + ".detail", "an array of {ip, gpus}", strict::JsonPreview(*detail));
    }
    uint32_t gpus = 0;
    for (size_t m = 0; m < detail->size(); ++m)
    {
        const Json& machine = (*detail)[m];
        auto list = machine.is_object() ? machine.find("gpus") : machine.end();
        if (!machine.is_object() || list == machine.end() || !list->is_array())
        {
            site.Fail(prefix + ".detail[" + std::to_string(m) + "].gpus",
                      "an array of GPU names",
                      strict::JsonPreview(machine));
        }
        gpus += static_cast<uint32_t>(list->size());
    }
    return gpus;
}

/**
 * One job. Duration = sum over attempts of (end_time - start_time), over attempts
 * that have both: the time the job held its GPUs; the gaps between attempts are
 * re-queueing, not run time. No attempt, no complete attempt, or a last attempt
 * without end_time (still running when the log was cut) = unfinished.
 * GPUs = GPUs of the first attempt's detail.
 */
Outcome
ParseJob(const Json& job, const Site& site, JobRecord& record)
{
    if (!job.is_object())
    {
        site.Fail("(job)", "a JSON object", strict::JsonPreview(job));
    }
    record.name = StringField(job, "jobid", site);
    record.user = StringField(job, "user", site);
    record.vc = StringField(job, "vc", site);
    record.status = StringField(job, "status", site);
    if (!TimeField(job, "submitted_time", "submitted_time", site, record.submitTime))
    {
        site.Fail("submitted_time", "a date-time 'YYYY-MM-DD HH:MM:SS'", "None");
    }
    auto attempts = job.find("attempts");
    if (attempts == job.end() || !attempts->is_array())
    {
        site.Fail("attempts",
                  "an array of attempts",
                  attempts == job.end() ? "nothing" : strict::JsonPreview(*attempts));
    }
    if (attempts->empty())
    {
        return Outcome::UNFINISHED; // never scheduled
    }
    double runTime = 0;
    bool complete = false;
    bool lastEnded = false;
    for (size_t i = 0; i < attempts->size(); ++i)
    {
        const Json& attempt = (*attempts)[i];
        std::string prefix = "attempts[" + std::to_string(i) + "]";
        if (!attempt.is_object())
        {
            site.Fail(prefix,
                      "an object {start_time, end_time, detail}",
                      strict::JsonPreview(attempt));
        }
        double t0 = 0;
        double t1 = 0;
        bool hasStart = TimeField(attempt, "start_time", prefix + ".start_time", site, t0);
        bool hasEnd = TimeField(attempt, "end_time", prefix + ".end_time", site, t1);
        lastEnded = hasEnd;
        if (hasStart && hasEnd)
        {
            if (t1 < t0)
            {
                site.Fail(prefix + ".end_time",
                          "a time >= start_time",
                          attempt["end_time"].get<std::string>());
            }
            runTime += t1 - t0;
            complete = true;
        }
    }
    record.numGpus = AttemptGpus((*attempts)[0], "attempts[0]", site);
    if (record.numGpus == 0)
    {
        return Outcome::NOT_GPU;
    }
    if (!complete || !lastEnded)
    {
        return Outcome::UNFINISHED;
    }
    record.duration = runTime;
    return Outcome::JOB;
}

} // namespace

void
ReadPhillyJson(const std::string& text, Collector& collector)
{
    const std::string& file = collector.File();
    const char* position = text.data();
    LineCounter lines(text);
    uint64_t jobLine = 0;
    bool topArray = false;
    // Nesting is bounded before the parser sees the text (a job nests 4 levels).
    strict::CheckJsonDepth(file, text);
    auto callback = [&](int depth, Json::parse_event_t event, Json& parsed) -> bool {
        if (depth == 0 && event == Json::parse_event_t::object_start)
        {
            throw TraceError(file,
                             lines.LineAt(position),
                             "",
                             "expected a JSON array of jobs (cluster_job_log), got an object");
        }
        if (depth == 0 && event == Json::parse_event_t::array_start)
        {
            topArray = true;
        }
        if (depth == 0 && event == Json::parse_event_t::value && !topArray)
        {
            throw TraceError(file,
                             lines.LineAt(position > text.data() ? position - 1 : position),
                             "",
                             "expected a JSON array of jobs (cluster_job_log), got " +
                                 strict::JsonPreview(parsed));
        }
        if (depth != 1)
        {
            return true;
        }
        if (event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start)
        {
            jobLine = lines.LineAt(position);
            return true;
        }
        if (event == Json::parse_event_t::object_end || event == Json::parse_event_t::array_end ||
            event == Json::parse_event_t::value)
        {
            // A scalar's token may end with one character of lookahead (a number is
            // ended by the next character), so its line is that of the character before.
            uint64_t line =
                event == Json::parse_event_t::value ? lines.LineAt(position - 1) : jobLine;
            Site site{file, line};
            JobRecord record;
            Outcome outcome;
            try
            {
                outcome = ParseJob(parsed, site, record);
            }
            catch (const TraceError& e)
            {
                collector.Malformed(e);
                return false;
            }
            collector.Add(line, outcome, std::move(record));
            return false; // done with this job: do not keep it in the DOM
        }
        return true;
    };
    try
    {
        // Every job is discarded by the callback, so what is returned is an empty array.
        Json rest = Json::parse(TrackingIterator(text.data(), &position),
                                TrackingIterator(text.data() + text.size(), &position),
                                callback);
        (void)rest;
    }
    catch (const Json::parse_error& e)
    {
        // The JSON itself is broken: nothing after this point can be trusted, so this
        // stops the read whatever the error policy.
        size_t byte = std::min<size_t>(e.byte, text.size());
        uint64_t line = 1 + std::count(text.begin(), text.begin() + byte, '\n');
        throw TraceError(file, line, "", std::string("expected valid JSON: ") + e.what());
    }
    catch (const Json::exception& e)
    {
        // e.g. a number out of range (1e309)
        throw TraceError(file,
                         lines.LineAt(position),
                         "",
                         std::string("expected valid JSON: ") + e.what());
    }
}

} // namespace tracefmt
} // namespace ns3
