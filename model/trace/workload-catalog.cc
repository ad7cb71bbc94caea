/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "workload-catalog.h"

#include "strict-parse.h"
#include "trace-reader.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadCatalog");

namespace
{

using Json = nlohmann::json;

/**
 * Log-linear interpolation in g between the measured points, held flat beyond them.
 * Between g1 < g < g2: t = t1 + (t2 - t1) * ln(g / g1) / ln(g2 / g1).
 */
double
Interpolate(const std::map<uint32_t, double>& points, uint32_t gpus, const char* what)
{
    if (gpus == 0)
    {
        throw std::invalid_argument(std::string(what) + ": expected gpus >= 1, got 0");
    }
    if (points.empty())
    {
        return 0.0;
    }
    auto hi = points.lower_bound(gpus);
    if (hi == points.end())
    {
        return std::prev(hi)->second;
    }
    if (hi->first == gpus || hi == points.begin())
    {
        return hi->second;
    }
    auto lo = std::prev(hi);
    double w = std::log(double(gpus) / lo->first) / std::log(double(hi->first) / lo->first);
    return lo->second + (hi->second - lo->second) * w;
}

/** Reads one catalog file, turning every problem into a TraceError naming file and field. */
class CatalogParser
{
  public:
    CatalogParser(const std::string& path, std::string text)
        : m_path(path),
          m_text(std::move(text))
    {
    }

    Json Parse() const
    {
        // Depth-limited, and every library error (1e309 included) names the file.
        return strict::ParseJson(m_path, m_text);
    }

    /**
     * \return the 1-based line of the field's key inside the workload's entry (the text
     * between its name and the next "name" key), else of the workload's name, else 0
     */
    uint64_t LineOf(const std::string& workload, const std::string& field) const
    {
        std::size_t start = m_text.find("\"" + workload + "\"");
        if (start == std::string::npos)
        {
            return 0;
        }
        std::size_t end = m_text.find("\"name\"", start + workload.size() + 2);
        std::size_t dot = field.find('.');
        std::size_t key = m_text.find("\"" + field.substr(0, dot) + "\"", start);
        if (key < end && dot != std::string::npos)
        {
            // a GPU-count entry of a time table: its own line if the table spans lines
            std::size_t sub = m_text.find("\"" + field.substr(dot + 1) + "\"", key);
            key = sub < end ? sub : key;
        }
        return LineOfOffset(1 + (key < end ? key : start));
    }

    [[noreturn]] void Fail(const std::string& workload,
                           const std::string& field,
                           const std::string& expected) const
    {
        uint64_t line = LineOf(workload, field);
        throw TraceError(m_path,
                         line,
                         workload + "." + field,
                         expected + " (workload '" + workload + "')");
    }

    const Json& Field(const Json& entry, const std::string& workload, const char* key) const
    {
        auto it = entry.find(key);
        if (it == entry.end())
        {
            Fail(workload, key, "expected the field to be present, it is missing");
        }
        return *it;
    }

    std::string String(const Json& entry, const std::string& workload, const char* key) const
    {
        const Json& v = Field(entry, workload, key);
        if (!v.is_string() || v.get<std::string>().empty())
        {
            Fail(workload, key, "expected a non-empty string, got " + strict::JsonPreview(v));
        }
        return v.get<std::string>();
    }

    /** A finite number, > 0 (or >= 0 when zeroAllowed). */
    double Value(const Json& v,
                 const std::string& workload,
                 const std::string& key,
                 bool zeroAllowed) const
    {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
        {
            Fail(workload, key, "expected a number, got " + strict::JsonPreview(v));
        }
        double x = v.get<double>();
        if (x < 0 || (x == 0 && !zeroAllowed))
        {
            Fail(workload,
                 key,
                 std::string("expected a ") + (zeroAllowed ? "non-negative" : "positive") +
                     " number, got " + strict::JsonPreview(v));
        }
        return x;
    }

    double Number(const Json& entry,
                  const std::string& workload,
                  const char* key,
                  bool zeroAllowed) const
    {
        return Value(Field(entry, workload, key), workload, key, zeroAllowed);
    }

    /** An object {"<gpus>": seconds, ...} with gpus a positive integer. */
    std::map<uint32_t, double> TimeTable(const Json& entry,
                                         const std::string& workload,
                                         const char* key,
                                         bool zeroAllowed,
                                         bool emptyAllowed) const
    {
        const Json& table = Field(entry, workload, key);
        if (!table.is_object() || (table.empty() && !emptyAllowed))
        {
            Fail(workload,
                 key,
                 "expected an object {\"<gpus>\": seconds, ...} with at least one entry, got " +
                     strict::JsonPreview(table));
        }
        std::map<uint32_t, double> result;
        for (auto it = table.begin(); it != table.end(); ++it)
        {
            std::string field = std::string(key) + "." + it.key();
            uint32_t gpus = ParseGpus(it.key());
            if (gpus == 0)
            {
                Fail(workload,
                     field,
                     "expected a GPU count (integer >= 1) as key, got '" + it.key() + "'");
            }
            result[gpus] = Value(it.value(), workload, field, zeroAllowed);
        }
        return result;
    }

  private:
    static uint32_t ParseGpus(const std::string& key)
    {
        if (key.empty() || key.size() > 9 ||
            !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }))
        {
            return 0;
        }
        return static_cast<uint32_t>(std::stoul(key));
    }

    uint64_t LineOfOffset(std::size_t offset) const
    {
        offset = std::min(offset, m_text.size());
        return 1 + std::count(m_text.begin(), m_text.begin() + offset, '\n');
    }

    std::string m_path;
    std::string m_text;
};

const std::set<std::string> kFields = {"name",
                                       "domain",
                                       "gpuType",
                                       "localBatch",
                                       "computeTimeByGpus",
                                       "syncTimeByGpus",
                                       "gradientBytes",
                                       "rawBytesPerSample",
                                       "decodedBytesPerSample",
                                       "cpuSecondsPerSample",
                                       "dataset",
                                       "datasetBytes",
                                       "samplesToTarget",
                                       "stepsCountedPerWorker",
                                       "aliases",
                                       "source",
                                       "parameters",
                                       "sequenceLength",
                                       "tensorParallel",
                                       "pipelineParallel",
                                       "minGpus",
                                       "checkpointBytes",
                                       "checkpointIntervalSeconds",
                                       "jobTypes",
                                       "inference",
                                       "loadsWeights"};

/** The dataset name of workloads that read no stored data (e.g. reinforcement learning). */
const std::string kNoDataset = "none";

/** A positive integer field that may be absent (then `fallback`). */
uint32_t
OptionalCount(const CatalogParser& p,
              const Json& entry,
              const std::string& name,
              const char* key,
              uint32_t fallback)
{
    if (!entry.contains(key))
    {
        return fallback;
    }
    const Json& v = entry.at(key);
    if (!v.is_number_integer() || v.get<int64_t>() < 1 ||
        v.get<int64_t>() > std::numeric_limits<uint32_t>::max())
    {
        p.Fail(name, key, "expected a positive integer, got " + v.dump());
    }
    return v.get<uint32_t>();
}

/** The optional LLM fields (doc/workload-catalog.md): absent = a non-LLM workload. */
void
ParseLlmFields(const CatalogParser& p, const Json& entry, WorkloadProfile& w)
{
    const std::string& name = w.name;
    w.parameters = entry.contains("parameters") ? p.Number(entry, name, "parameters", false) : 0;
    w.sequenceLength = OptionalCount(p, entry, name, "sequenceLength", 0);
    w.tensorParallel = OptionalCount(p, entry, name, "tensorParallel", 1);
    w.pipelineParallel = OptionalCount(p, entry, name, "pipelineParallel", 1);
    w.minGpus = OptionalCount(p, entry, name, "minGpus", 1);
    if (uint64_t(w.tensorParallel) * w.pipelineParallel != w.minGpus)
    {
        p.Fail(name,
               "minGpus",
               "expected tensorParallel x pipelineParallel = " +
                   std::to_string(uint64_t(w.tensorParallel) * w.pipelineParallel) + ", got " +
                   std::to_string(w.minGpus));
    }
    w.checkpointBytes =
        entry.contains("checkpointBytes") ? p.Number(entry, name, "checkpointBytes", true) : 0;
    w.checkpointInterval = entry.contains("checkpointIntervalSeconds")
                               ? p.Number(entry, name, "checkpointIntervalSeconds", true)
                               : 0;
    if ((w.checkpointBytes > 0) != (w.checkpointInterval > 0))
    {
        p.Fail(name,
               "checkpointIntervalSeconds",
               "expected checkpointBytes and checkpointIntervalSeconds both > 0 or both 0");
    }
    if (entry.contains("loadsWeights"))
    {
        const Json& v = entry.at("loadsWeights");
        if (!v.is_boolean())
        {
            p.Fail(name, "loadsWeights", "expected true or false, got " + v.dump());
        }
        w.loadsWeights = v.get<bool>();
        if (w.loadsWeights && !(w.parameters > 0))
        {
            p.Fail(name,
                   "loadsWeights",
                   "expected parameters > 0 for a workload that loads weights");
        }
    }
    if (entry.contains("jobTypes"))
    {
        const Json& types = entry.at("jobTypes");
        if (!types.is_array())
        {
            p.Fail(name, "jobTypes", "expected an array of strings, got " + types.dump());
        }
        for (const Json& t : types)
        {
            if (!t.is_string() || t.get<std::string>().empty())
            {
                p.Fail(name, "jobTypes", "expected non-empty strings, got " + t.dump());
            }
            w.jobTypes.push_back(t.get<std::string>());
        }
    }
}

WorkloadProfile
ParseProfile(const CatalogParser& p, const Json& entry, const std::string& name)
{
    for (auto it = entry.begin(); it != entry.end(); ++it)
    {
        if (kFields.count(it.key()) == 0)
        {
            p.Fail(name, it.key(), "expected one of the documented fields, got an unknown one");
        }
    }
    WorkloadProfile w;
    w.name = name;
    w.domain = p.String(entry, name, "domain");
    w.source = p.String(entry, name, "source");
    w.gpuType = p.String(entry, name, "gpuType");
    w.dataset = p.String(entry, name, "dataset");
    const Json& batch = p.Field(entry, name, "localBatch");
    if (!batch.is_number_integer() || batch.get<int64_t>() < 1 ||
        batch.get<int64_t>() > std::numeric_limits<uint32_t>::max())
    {
        p.Fail(name,
               "localBatch",
               "expected a positive integer, got " + strict::JsonPreview(batch));
    }
    w.localBatch = batch.get<uint32_t>();
    w.computeTimeByGpus = p.TimeTable(entry, name, "computeTimeByGpus", false, false);
    w.syncTimeByGpus = p.TimeTable(entry, name, "syncTimeByGpus", true, true);
    if (entry.contains("inference"))
    {
        const Json& v = entry.at("inference");
        if (!v.is_boolean())
        {
            p.Fail(name, "inference", "expected true or false, got " + v.dump());
        }
        w.inference = v.get<bool>();
    }
    // An inference workload has no gradients; every training workload has some.
    w.gradientBytes = p.Number(entry, name, "gradientBytes", w.inference);
    if (w.inference && w.gradientBytes != 0)
    {
        p.Fail(name,
               "gradientBytes",
               "expected 0 for an inference workload, got " + entry.at("gradientBytes").dump());
    }
    // A workload without stored data has all data sizes zero; every other one all positive.
    bool noData = w.dataset == kNoDataset;
    for (const char* key :
         {"rawBytesPerSample", "decodedBytesPerSample", "cpuSecondsPerSample", "datasetBytes"})
    {
        double x = p.Number(entry, name, key, noData);
        if (noData && x != 0)
        {
            p.Fail(name,
                   key,
                   "expected 0 for dataset \"none\", got " + strict::JsonPreview(entry.at(key)));
        }
    }
    w.rawBytesPerSample = entry.at("rawBytesPerSample").get<double>();
    w.decodedBytesPerSample = entry.at("decodedBytesPerSample").get<double>();
    w.cpuSecondsPerSample = entry.at("cpuSecondsPerSample").get<double>();
    w.datasetBytes = entry.at("datasetBytes").get<double>();
    w.samplesToTarget = p.Number(entry, name, "samplesToTarget", true);
    const Json& perWorker = p.Field(entry, name, "stepsCountedPerWorker");
    if (!perWorker.is_boolean())
    {
        p.Fail(name,
               "stepsCountedPerWorker",
               "expected true or false, got " + strict::JsonPreview(perWorker));
    }
    w.stepsCountedPerWorker = perWorker.get<bool>();
    ParseLlmFields(p, entry, w);
    return w;
}

std::string
ReadFile(const std::string& path)
{
    return strict::ReadTextFile(path, "workload catalog (JSON) file");
}

} // namespace

double
WorkloadProfile::ComputeTime(uint32_t gpus) const
{
    return Interpolate(computeTimeByGpus, gpus, "WorkloadProfile::ComputeTime");
}

double
WorkloadProfile::MeasuredSyncTime(uint32_t gpus) const
{
    return Interpolate(syncTimeByGpus, gpus, "WorkloadProfile::MeasuredSyncTime");
}

double
WorkloadProfile::SamplesPerSecond(uint32_t gpus) const
{
    return double(localBatch) * gpus / ComputeTime(gpus);
}

WorkloadCatalog
WorkloadCatalog::Load(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    CatalogParser parser(path, ReadFile(path));
    Json root = parser.Parse();
    if (!root.is_object() || !root.contains("workloads") || !root["workloads"].is_array())
    {
        throw TraceError(path, 0, "workloads", "expected a JSON object with a \"workloads\" array");
    }
    if (root.contains("schemaVersion") && root["schemaVersion"] != 1)
    {
        throw TraceError(path,
                         parser.LineOf("schemaVersion", "schemaVersion"),
                         "schemaVersion",
                         "expected 1 (the format doc/workload-catalog.md describes), got " +
                             strict::JsonPreview(root["schemaVersion"]));
    }
    WorkloadCatalog catalog;
    catalog.m_path = path;
    std::map<std::string, std::string> aliasOwner;
    const Json& list = root["workloads"];
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        const Json& entry = list[i];
        std::string index = "workloads[" + std::to_string(i) + "]";
        if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() ||
            entry["name"].get<std::string>().empty())
        {
            throw TraceError(path,
                             0,
                             index + ".name",
                             "expected an object with a non-empty string \"name\"");
        }
        std::string name = entry["name"].get<std::string>();
        if (catalog.m_profiles.count(name) || aliasOwner.count(name))
        {
            parser.Fail(name, "name", "expected a unique name, it is used twice");
        }
        catalog.m_profiles[name] = ParseProfile(parser, entry, name);
        const Json& aliases = parser.Field(entry, name, "aliases");
        if (!aliases.is_array())
        {
            parser.Fail(name,
                        "aliases",
                        "expected an array of strings, got " + strict::JsonPreview(aliases));
        }
        for (const Json& a : aliases)
        {
            if (!a.is_string() || a.get<std::string>().empty())
            {
                parser.Fail(name,
                            "aliases",
                            "expected non-empty strings, got " + strict::JsonPreview(a));
            }
            auto [it, fresh] = aliasOwner.emplace(a.get<std::string>(), name);
            if (!fresh && it->second != name)
            {
                parser.Fail(name,
                            "aliases",
                            "expected unique aliases, '" + it->first + "' is also an alias of '" +
                                it->second + "'");
            }
        }
    }
    for (const auto& [alias, owner] : aliasOwner)
    {
        if (catalog.m_profiles.count(alias) && alias != owner)
        {
            parser.Fail(owner,
                        "aliases",
                        "expected aliases distinct from workload names, '" + alias +
                            "' is a workload");
        }
        catalog.m_aliases[alias] = owner;
    }
    NS_LOG_INFO("loaded " << catalog.m_profiles.size() << " workloads and "
                          << catalog.m_aliases.size() << " aliases from " << path);
    return catalog;
}

std::string
WorkloadCatalog::DefaultPath()
{
    return AICLUSTER_SOURCE_DIR "/data/workload-catalog.json";
}

const WorkloadCatalog&
WorkloadCatalog::Default()
{
    // A function-local static is initialised once, thread-safely (C++11); a failed load
    // throws and is retried on the next call.
    static const WorkloadCatalog catalog = Load(DefaultPath());
    return catalog;
}

const WorkloadProfile&
WorkloadCatalog::Get(const std::string& name) const
{
    if (const WorkloadProfile* profile = Find(name))
    {
        return *profile;
    }
    std::ostringstream msg;
    msg << "unknown workload '" << name << "' in catalog " << m_path << "; known workloads:";
    for (const auto& [known, profile] : m_profiles)
    {
        msg << " " << known;
    }
    msg << "; aliases:";
    for (const auto& [known, owner] : m_aliases)
    {
        msg << " '" << known << "'";
    }
    throw std::invalid_argument(msg.str());
}

bool
WorkloadCatalog::Has(const std::string& name) const
{
    return Find(name) != nullptr;
}

const WorkloadProfile*
WorkloadCatalog::Find(const std::string& name) const
{
    auto it = m_profiles.find(name);
    if (it != m_profiles.end())
    {
        return &it->second;
    }
    auto alias = m_aliases.find(name);
    return alias != m_aliases.end() ? &m_profiles.at(alias->second) : nullptr;
}

std::vector<std::string>
WorkloadCatalog::Names() const
{
    std::vector<std::string> names;
    for (const auto& [name, profile] : m_profiles)
    {
        names.push_back(name);
    }
    return names;
}

const std::string&
WorkloadCatalog::Path() const
{
    return m_path;
}

} // namespace ns3
