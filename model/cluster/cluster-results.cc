/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-results.h"

#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gsl/gsl_statistics_double.h>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterResults");

namespace
{

/// Quantile of already sorted data (GSL's linear interpolation between order statistics).
double
Quantile(const std::vector<double>& sorted, double q)
{
    return sorted.empty() ? 0.0
                          : gsl_stats_quantile_from_sorted_data(sorted.data(), 1, sorted.size(), q);
}

double
Mean(const std::vector<double>& values)
{
    return values.empty() ? 0.0 : gsl_stats_mean(values.data(), 1, values.size());
}

/// Time integral of a piecewise-constant series over [from, to], divided by (to - from).
template <typename Value>
double
TimeAverage(const std::vector<UtilizationSample>& series, double from, double to, Value value)
{
    if (!(to > from))
    {
        return 0.0;
    }
    double area = 0;
    for (size_t i = 0; i < series.size(); ++i)
    {
        double begin = std::max(from, series[i].time);
        double end = std::min(to, i + 1 < series.size() ? series[i + 1].time : to);
        if (end > begin)
        {
            area += value(series[i]) * (end - begin);
        }
    }
    return area / (to - from);
}

/// Time averages of allocation and busy shares over consecutive buckets of [from, to):
/// utilization over time, compact enough for summary.json (at most ~1000 buckets).
nlohmann::json
BucketedUtilization(const std::vector<UtilizationSample>& series,
                    double from,
                    double to,
                    double total)
{
    nlohmann::json json;
    if (!(to > from) || series.empty())
    {
        return json;
    }
    double bucket = std::max(3600.0, std::ceil((to - from) / 1000.0 / 3600.0) * 3600.0);
    size_t n = static_cast<size_t>(std::ceil((to - from) / bucket));
    std::vector<double> allocated(n, 0.0);
    std::vector<double> busy(n, 0.0);
    for (size_t i = 0; i < series.size(); ++i)
    {
        double begin = std::max(from, series[i].time);
        double end = std::min(to, i + 1 < series.size() ? series[i + 1].time : to);
        // Spread this piece over the buckets it covers.
        while (end > begin)
        {
            size_t b = std::min(n - 1, static_cast<size_t>((begin - from) / bucket));
            double bucketEnd = std::min(end, from + (b + 1) * bucket);
            double width = std::max(0.0, bucketEnd - begin);
            allocated[b] += series[i].allocated / total * width;
            busy[b] += series[i].busy / total * width;
            if (width == 0)
            {
                break;
            }
            begin = bucketEnd;
        }
    }
    for (size_t b = 0; b < n; ++b)
    {
        double width = std::min(bucket, to - (from + b * bucket));
        allocated[b] /= width;
        busy[b] /= width;
    }
    json["start_s"] = from;
    json["bucket_s"] = bucket;
    json["allocated_share"] = allocated;
    json["busy_share"] = busy;
    return json;
}

std::ofstream
OpenForWriting(const std::string& path)
{
    std::ofstream out(path);
    if (!out)
    {
        throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
    }
    out << std::setprecision(12);
    return out;
}

/// Attribute values that are numbers or booleans become JSON numbers or booleans.
nlohmann::json
TypedValue(const std::string& text)
{
    if (text == "true" || text == "false")
    {
        return text == "true";
    }
    char* end = nullptr;
    double number = std::strtod(text.c_str(), &end);
    if (!text.empty() && end && *end == '\0')
    {
        return number;
    }
    return text;
}

nlohmann::json
AttributesJson(Ptr<const Object> object)
{
    nlohmann::json json = nlohmann::json::object();
    if (!object)
    {
        return nullptr;
    }
    for (const auto& [name, value] : ClusterResults::Attributes(object))
    {
        json[name] = TypedValue(value);
    }
    return json;
}

/**
 * \brief Writes value as std::to_chars(first, last, value) does (the shortest form that
 * reads back to the same double, fixed notation unless scientific is strictly shorter), with
 * short cuts for +0 and for whole numbers of magnitude below 2^53 (most fields of a job line;
 * a negative number is a minus before its magnitude's text, as std::to_chars writes it).
 * \param out at least 40 characters (a minus, then at most 32 for the magnitude)
 * \param value the number
 * \return one past the last character written
 */
char*
NumberChars(char* out, double value)
{
    if (value == 0 && !std::signbit(value))
    {
        *out = '0'; // std::to_chars' text of +0 (many fields of a job line: no stall, no wait)
        return out + 1;
    }
    if (value <= -1 && value > -9007199254740992.0)
    {
        // A negative number's text is a minus before its magnitude's (e.g. -1, not started).
        *out = '-';
        return NumberChars(out + 1, -value);
    }
    if (value >= 1 && value < 9007199254740992.0)
    {
        auto whole = static_cast<uint64_t>(value);
        if (static_cast<double>(whole) == value)
        {
            char* end = std::to_chars(out, out + 24, whole).ptr;
            // Scientific form: the significant digits, a point if more than one, "e+XX".
            int digits = static_cast<int>(end - out);
            int zeros = 0;
            while (zeros < digits - 1 && out[digits - 1 - zeros] == '0')
            {
                ++zeros;
            }
            int significant = digits - zeros;
            int scientific = significant + (significant > 1 ? 1 : 0) + 4;
            if (digits <= scientific)
            {
                return end;
            }
        }
    }
    return std::to_chars(out, out + 32, value).ptr;
}

/**
 * \brief The text of recent non-whole numbers, by their bits: a job line repeats a few of
 * them (a model's time per iteration on a given GPU count, written as compute_s_per_iter and
 * iteration_s alike), and std::to_chars' shortest form costs far more than a look-up.
 * Direct mapped; a miss formats and takes the slot.
 */
class NumberTextCache
{
  public:
    /**
     * \param out at least 40 characters
     * \param value the number
     * \return one past the last character written (NumberChars' text)
     */
    char* Write(char* out, double value)
    {
        uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        Slot& slot = m_slots[(bits * 0x9e3779b97f4a7c15ULL) >> (64 - kSlotBits)];
        if (slot.length == 0 || slot.bits != bits)
        {
            slot.bits = bits;
            slot.length = static_cast<uint8_t>(NumberChars(slot.text, value) - slot.text);
        }
        std::memcpy(out, slot.text, sizeof slot.text);
        return out + slot.length;
    }

  private:
    static constexpr unsigned kSlotBits = 6; //!< 64 slots, by a multiplicative hash

    /// One number's text.
    struct Slot
    {
        uint64_t bits{0};
        uint8_t length{0}; //!< 0: empty (no number's text is empty)
        char text[40];
    };

    Slot m_slots[1u << kSlotBits];
};

/**
 * \brief Writes a CSV file field by field straight into one buffer (no per-field string
 * appends), a megabyte at a time to the file; numbers in shortest round-trip form
 * (NumberChars: std::to_chars' text).
 */
class CsvWriter
{
  public:
    /** \param out the open file; the header is written by the caller before any line */
    explicit CsvWriter(std::ofstream& out)
        : m_out(out),
          m_buffer(kFlushAt + kSlack, '\0')
    {
        m_p = m_buffer.data();
        m_end = m_buffer.data() + m_buffer.size();
    }

    ~CsvWriter()
    {
        Flush();
    }

    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;

    /** A number (shortest round-trip text). \return this writer */
    CsvWriter& Number(double value)
    {
        Reserve(kNumberChars + 1);
        Separator();
        // Whole numbers (most fields) have NumberChars' own short cuts; the others repeat
        // often enough to be looked up.
        m_p = value == std::trunc(value) ? NumberChars(m_p, value) : m_cache.Write(m_p, value);
        return *this;
    }

    /**
     * \brief A placement as JobPlacement::ToString() writes it ("n3:8 n4:8").
     * \param placement the job's placement
     * \return this writer
     */
    CsvWriter& Placement(const JobPlacement& placement)
    {
        Reserve(1);
        Separator();
        for (size_t i = 0; i < placement.gpusOnNode.size(); ++i)
        {
            Reserve(2 * 11 + 3);
            if (i > 0)
            {
                *m_p++ = ' ';
            }
            *m_p++ = 'n';
            m_p = std::to_chars(m_p, m_end, placement.gpusOnNode[i].first).ptr;
            *m_p++ = ':';
            m_p = std::to_chars(m_p, m_end, placement.gpusOnNode[i].second).ptr;
        }
        return *this;
    }

    /** A text, quoted if it holds a comma, a quote or a line end. \return this writer */
    CsvWriter& Text(const std::string& value)
    {
        std::size_t n = value.size();
        if (std::find_if(value.begin(), value.end(), [](char c) {
                return c == ',' || c == '"' || c == '\n';
            }) == value.end())
        {
            Reserve(n + 1);
            Separator();
            std::memcpy(m_p, value.data(), n);
            m_p += n;
            return *this;
        }
        Reserve(2 * n + 3);
        Separator();
        *m_p++ = '"';
        for (char c : value)
        {
            if (c == '"')
            {
                *m_p++ = '"';
            }
            *m_p++ = c;
        }
        *m_p++ = '"';
        return *this;
    }

    /** Ends the line (and writes the buffer out once it holds a megabyte). */
    void End()
    {
        Reserve(1);
        *m_p++ = '\n';
        m_fields = 0;
        if (static_cast<std::size_t>(m_p - m_buffer.data()) >= kFlushAt)
        {
            Flush();
        }
    }

  private:
    static constexpr std::size_t kFlushAt = 1u << 20; //!< bytes gathered before a write
    static constexpr std::size_t kSlack = 4096;       //!< room for the line that crosses it
    static constexpr std::size_t kNumberChars = 40;   //!< NumberChars' most

    void Separator()
    {
        if (m_fields++ > 0)
        {
            *m_p++ = ',';
        }
    }

    /// Room for n more characters (a long text grows the buffer).
    void Reserve(std::size_t n)
    {
        if (static_cast<std::size_t>(m_end - m_p) < n)
        {
            std::size_t used = m_p - m_buffer.data();
            m_buffer.resize(2 * (used + n));
            m_p = m_buffer.data() + used;
            m_end = m_buffer.data() + m_buffer.size();
        }
    }

    void Flush()
    {
        m_out.write(m_buffer.data(), m_p - m_buffer.data());
        m_p = m_buffer.data();
    }

    std::ofstream& m_out;
    std::string m_buffer;
    char* m_p;   //!< next character
    char* m_end; //!< end of the buffer
    uint32_t m_fields{0};
    NumberTextCache m_cache;
};

void
WriteJobs(const std::string& path, const ClusterEngine& engine)
{
    std::ofstream out = OpenForWriting(path);
    out << "job_id,name,submit_s,start_s,finish_s,jct_s,queueing_s,requested_gpus,gpus,nodes,racks,"
           "model,"
           "dataset,user,vc,iterations,trace_duration_s,preemptions,compute_s_per_iter,"
           "data_s_per_iter,sync_s_per_iter,iteration_s,bound,data_stall_gpu_s,sync_stall_gpu_s,"
           "placement,source\n";
    const ClusterTopology& topology = engine.GetTopology();
    CsvWriter csv(out);
    for (const auto& job : engine.Jobs())
    {
        const JobRecord& r = job->record;
        bool done = job->state == ClusterJob::FINISHED;
        csv.Number(r.id)
            .Text(r.name)
            .Number(r.submitTime)
            .Number(job->startTime)
            .Number(job->finishTime)
            .Number(done ? job->finishTime - r.submitTime : -1)
            .Number(job->startTime >= 0 ? job->startTime - r.submitTime : -1)
            .Number(r.numGpus)
            .Number(job->gpus)
            .Number(job->placement.NumNodes())
            .Number(job->placement.NumRacks(topology))
            .Text(r.model)
            .Text(r.dataset)
            .Text(r.user)
            .Text(r.vc)
            .Number(r.iterations)
            .Number(r.duration)
            .Number(job->preemptions)
            .Number(job->computeTime)
            .Number(job->dataTime)
            .Number(job->syncTime)
            .Number(job->iterationTime)
            .Text(job->bound)
            .Number(job->stallData)
            .Number(job->stallSync)
            .Placement(job->placement)
            .Text(r.source.Text())
            .End();
    }
}

void
WriteUtilization(const std::string& path, const ClusterEngine& engine)
{
    std::ofstream out = OpenForWriting(path);
    out << "time_s,allocated_gpus,busy_gpus,total_gpus,running_jobs,waiting_jobs\n";
    uint32_t total = engine.GetTopology().TotalGpus();
    CsvWriter csv(out);
    for (const auto& s : engine.Utilization())
    {
        csv.Number(s.time)
            .Number(s.allocated)
            .Number(s.busy)
            .Number(total)
            .Number(s.running)
            .Number(s.waiting)
            .End();
    }
}

} // namespace

std::map<std::string, std::string>
ClusterResults::Attributes(Ptr<const Object> object)
{
    NS_LOG_FUNCTION(object);
    std::map<std::string, std::string> values;
    TypeId tid = object->GetInstanceTypeId();
    values["typeId"] = tid.GetName();
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            TypeId::AttributeInformation info = t.GetAttribute(i);
            if ((info.flags & TypeId::ATTR_GET) == 0 ||
                dynamic_cast<const PointerChecker*>(PeekPointer(info.checker)))
            {
                continue; // sub-objects are written as sections of their own
            }
            Ptr<AttributeValue> value = info.checker->Create();
            if (info.accessor->Get(PeekPointer(object), *value))
            {
                values[info.name] = value->SerializeToString(info.checker);
            }
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
    return values;
}

std::string
ClusterResults::NumberText(double value)
{
    char buffer[40];
    return std::string(buffer, NumberChars(buffer, value));
}

RunSummary
ClusterResults::Summarize(Ptr<const ClusterEngine> engine)
{
    NS_LOG_FUNCTION(engine);
    RunSummary summary;
    std::vector<double> jct;
    std::vector<double> queueing;
    double firstSubmit = std::numeric_limits<double>::infinity();
    double lastFinish = 0;
    for (const auto& job : engine->Jobs())
    {
        ++summary.jobs;
        summary.preemptions += job->preemptions;
        firstSubmit = std::min(firstSubmit, job->record.submitTime);
        if (job->state == ClusterJob::FINISHED)
        {
            ++summary.finished;
            jct.push_back(job->finishTime - job->record.submitTime);
            queueing.push_back(job->startTime - job->record.submitTime);
            lastFinish = std::max(lastFinish, job->finishTime);
        }
    }
    summary.rejected = engine->Rejected().size();
    std::sort(jct.begin(), jct.end());
    std::sort(queueing.begin(), queueing.end());
    summary.meanJct = Mean(jct);
    summary.medianJct = Quantile(jct, 0.5);
    summary.p95Jct = Quantile(jct, 0.95);
    summary.p99Jct = Quantile(jct, 0.99);
    summary.meanQueueing = Mean(queueing);
    summary.medianQueueing = Quantile(queueing, 0.5);
    if (summary.finished > 0)
    {
        summary.makespan = lastFinish - firstSubmit;
        double total = engine->GetTopology().TotalGpus();
        const auto& series = engine->Utilization();
        summary.gpuAllocation =
            TimeAverage(series, firstSubmit, lastFinish, [total](const auto& s) {
                return s.allocated / total;
            });
        summary.gpuBusy = TimeAverage(series, firstSubmit, lastFinish, [total](const auto& s) {
            return s.busy / total;
        });
    }
    return summary;
}

RunSummary
ClusterResults::Write(const std::string& dir, Ptr<const ClusterEngine> engine, const RunInfo& info)
{
    NS_LOG_FUNCTION(dir << engine);
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
    {
        throw std::runtime_error(dir + ": cannot create the result directory: " + error.message());
    }
    WriteJobs(dir + "/jobs.csv", *engine);
    WriteUtilization(dir + "/utilization.csv", *engine);

    RunSummary s = Summarize(engine);
    const ClusterTopology& topology = engine->GetTopology();
    nlohmann::json json;
    json["aicluster_version"] = AICLUSTER_VERSION;
    json["experiment"] = info.experiment;
    json["seed"] = info.seed;
    json["run"] = info.run;
    json["command_line"] = info.commandLine;
    nlohmann::json settings = nlohmann::json::object();
    for (const auto& [key, value] : info.settings)
    {
        settings[key] = TypedValue(value);
    }
    json["settings"] = settings;
    json["cluster"] = {{"nodes", topology.numNodes},
                       {"gpus_per_node", topology.gpusPerNode},
                       {"nodes_per_rack", topology.nodesPerRack},
                       {"total_gpus", topology.TotalGpus()}};
    json["engine"] = AttributesJson(engine);
    json["scheduler"] = AttributesJson(engine->GetScheduler());
    json["allocator"] = AttributesJson(engine->GetAllocator());
    json["data_loading_model"] = AttributesJson(engine->GetDataLoadingModel());
    json["gradient_sync_model"] = AttributesJson(engine->GetGradientSyncModel());
    json["summary"] = {{"jobs", s.jobs},
                       {"finished", s.finished},
                       {"rejected", s.rejected},
                       {"jct_mean_s", s.meanJct},
                       {"jct_median_s", s.medianJct},
                       {"jct_p95_s", s.p95Jct},
                       {"jct_p99_s", s.p99Jct},
                       {"queueing_mean_s", s.meanQueueing},
                       {"queueing_median_s", s.medianQueueing},
                       {"makespan_s", s.makespan},
                       {"gpu_allocation", s.gpuAllocation},
                       {"gpu_busy", s.gpuBusy},
                       {"preemptions", s.preemptions}};
    // GPU time held but not computing, by cause, and the jobs by what bound them.
    double lostData = 0;
    double lostSync = 0;
    std::map<std::string, uint64_t> bounds;
    std::map<std::string, double> byCause; // GPU-s per data resource, sync pool or link
    for (const auto& job : engine->Jobs())
    {
        lostData += job->stallData;
        lostSync += job->stallSync;
        if (job->state == ClusterJob::FINISHED)
        {
            ++bounds[job->bound];
            if (job->stallData > 0)
            {
                byCause[job->dataCause] += job->stallData;
            }
            if (job->stallSync > 0)
            {
                byCause[job->syncCause] += job->stallSync;
            }
        }
    }
    json["gpu_time_lost"] = {{"data_gpu_s", lostData},
                             {"sync_gpu_s", lostSync},
                             {"total_gpu_s", lostData + lostSync},
                             {"jobs_by_bound", bounds},
                             {"gpu_s_by_cause", byCause}};
    nlohmann::json components = nlohmann::json::object();
    for (const auto& [component, figures] : info.components)
    {
        components[component] = figures;
    }
    json["components"] = components;
    double firstSubmit = engine->Jobs().empty() ? 0.0 : engine->Jobs().front()->record.submitTime;
    json["utilization_over_time"] = BucketedUtilization(engine->Utilization(),
                                                        firstSubmit,
                                                        firstSubmit + s.makespan,
                                                        topology.TotalGpus());
    json["performance"] = {{"wall_s", engine->WallSeconds()},
                           {"events", engine->EventsProcessed()},
                           {"scheduling_passes", engine->Passes()}};
    nlohmann::json rejected = nlohmann::json::array();
    for (const auto& r : engine->Rejected())
    {
        rejected.push_back({{"job_id", r.record.id},
                            {"name", r.record.name},
                            {"source", r.record.source.Text()},
                            {"reason", r.reason}});
    }
    json["rejected_jobs"] = rejected;
    json["files"] = {"jobs.csv", "utilization.csv"};

    std::ofstream out = OpenForWriting(dir + "/summary.json");
    out << json.dump(2) << '\n';
    return s;
}

} // namespace ns3
