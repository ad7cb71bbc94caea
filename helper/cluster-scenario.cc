/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "cluster-scenario.h"

#include "cluster-engine-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/provisioning-model.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterScenario");

namespace
{

using nlohmann::json;

std::string
JoinWith(const std::vector<std::string>& items, const std::string& separator)
{
    std::string text;
    for (const auto& item : items)
    {
        text += (text.empty() ? "" : separator) + item;
    }
    return text;
}

std::string
JoinList(const std::vector<std::string>& items)
{
    return JoinWith(items, ",");
}

/// Reads typed fields of one JSON object, naming the file and the dotted field on error.
class FieldReader
{
  public:
    FieldReader(const std::string& file, const json& object, const std::string& prefix)
        : m_file(file),
          m_object(object),
          m_prefix(prefix)
    {
        if (!object.is_object())
        {
            Fail("", "a JSON object");
        }
    }

    void CheckKnown(const std::vector<std::string>& known) const
    {
        for (const auto& [key, value] : m_object.items())
        {
            if (std::find(known.begin(), known.end(), key) == known.end())
            {
                Fail(key, "one of the documented fields (" + JoinList(known) + ")");
            }
        }
    }

    bool Has(const std::string& key) const
    {
        return m_object.contains(key) && !m_object.at(key).is_null();
    }

    void Positive(const std::string& key,
                  uint32_t& out,
                  uint32_t max = std::numeric_limits<uint32_t>::max()) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_number_integer() || v.get<int64_t>() <= 0 || v.get<uint64_t>() > max)
            {
                Fail(key,
                     "a positive integer of at most " + std::to_string(max) + ", got " +
                         strict::JsonPreview(v));
            }
            out = v.get<uint32_t>();
        }
    }

    void Unsigned(const std::string& key, uint64_t& out) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_number_unsigned())
            {
                Fail(key, "a non-negative integer, got " + strict::JsonPreview(v));
            }
            out = v.get<uint64_t>();
        }
    }

    void NonNegative(const std::string& key, double& out) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_number() || !(v.get<double>() >= 0))
            {
                Fail(key, "a non-negative number, got " + strict::JsonPreview(v));
            }
            out = v.get<double>();
        }
    }

    void Text(const std::string& key, std::string& out) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_string())
            {
                Fail(key, "a string, got " + strict::JsonPreview(v));
            }
            out = v.get<std::string>();
        }
    }

    void Flag(const std::string& key, bool& out) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_boolean())
            {
                Fail(key, "true or false, got " + strict::JsonPreview(v));
            }
            out = v.get<bool>();
        }
    }

    void TextList(const std::string& key, std::vector<std::string>& out) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_array())
            {
                Fail(key, "an array of strings, got " + strict::JsonPreview(v));
            }
            out.clear();
            for (const auto& item : v)
            {
                if (!item.is_string())
                {
                    Fail(key, "an array of strings, got " + strict::JsonPreview(v));
                }
                out.push_back(item.get<std::string>());
            }
        }
    }

    const json& Object(const std::string& key) const
    {
        static const json empty = json::object();
        return Has(key) ? m_object.at(key) : empty;
    }

    [[noreturn]] void Fail(const std::string& key, const std::string& expected) const
    {
        throw TraceError(m_file, 0, m_prefix + key, "expected " + expected);
    }

  private:
    const std::string& m_file;
    const json& m_object;
    std::string m_prefix;
};

/// A count given on the command line: positive and small enough for 32 bits.
uint32_t
CheckedCount(const std::string& option, int64_t value)
{
    if (value <= 0 || value > 1000000)
    {
        throw std::invalid_argument(option + ": expected a positive count (at most 1000000), got " +
                                    std::to_string(value));
    }
    return static_cast<uint32_t>(value);
}

/// Whether a field is written into the result files' settings, and when.
enum class Written
{
    ALWAYS,       //!< always, under the field's key
    NEVER,        //!< not (recorded elsewhere in the result files, or only shapes other fields)
    WITH_STORAGE, //!< only when a storage policy other than ideal is chosen
};

/// The section of a dotted key ("" for a top-level key).
std::string
SectionOf(const std::string& key)
{
    size_t dot = key.find('.');
    return dot == std::string::npos ? "" : key.substr(0, dot);
}

/// The name of a dotted key inside its section.
std::string
NameOf(const std::string& key)
{
    size_t dot = key.find('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

} // namespace

/**
 * One scenario field: its dotted JSON key, its command-line option, and how it is read from a
 * scenario file, bound to the command line, checked, and written into the result files'
 * settings. ScenarioFields::All() is the one place a field is named.
 */
struct ScenarioField
{
    using Settings = std::map<std::string, std::string>; //!< key -> value text

    /**
     * \param key dotted JSON key
     * \param option command-line option without "--" ("" = scenario file only)
     * \param help the option's help text
     */
    ScenarioField(std::string key, std::string option = "", std::string help = "")
        : key(std::move(key)),
          option(std::move(option)),
          help(std::move(help))
    {
    }

    std::string key;    //!< dotted JSON key, e.g. "cluster.nodes"
    std::string option; //!< command-line option without "--" ("" = scenario file only)
    std::string help;   //!< the option's help text
    /// Reads the field from its section of a scenario file (name: the key inside the section).
    std::function<void(const FieldReader&, const std::string&, ClusterScenario&)> load;
    /// Registers the option on a command line (used when option is not empty).
    std::function<void(StrictCommandLine&, const ScenarioField&, ClusterScenario&)> bind;
    /// Turns the command line's text into the typed field; throws naming the option. Optional.
    std::function<void(ClusterScenario&)> finalize;
    /// Adds the field's value to the settings. Optional.
    std::function<void(const ClusterScenario&, Settings&)> write;
};

/// The table of scenario fields (a friend of ClusterScenario: it binds the private text forms).
struct ScenarioFields
{
    /// A field's place inside a scenario (a capture-free lambda converts to it).
    template <typename T>
    using Access = T& (*)(ClusterScenario&);

    /// \return every field, in the order files are read and options are listed
    static const std::vector<ScenarioField>& All();

    /// The settings writer of a field whose value text is text(scenario).
    static std::function<void(const ClusterScenario&, ScenarioField::Settings&)> Write(
        const std::string& key,
        Written when,
        std::function<std::string(ClusterScenario&)> text)
    {
        if (when == Written::NEVER)
        {
            return {};
        }
        return [=](const ClusterScenario& s, ScenarioField::Settings& out) {
            if (when == Written::ALWAYS || s.storageEnabled)
            {
                // The writers only read: text() takes a non-const scenario so that one Access
                // serves loading, binding and writing.
                out[key] = text(const_cast<ClusterScenario&>(s));
            }
        };
    }

    /// A text field (a path, or a name checked by finalize or by the component).
    static ScenarioField Text(const std::string& key,
                              const std::string& option,
                              const std::string& help,
                              Access<std::string> at,
                              Written when = Written::ALWAYS)
    {
        ScenarioField f{key, option, help};
        f.load = [at](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.Text(name, at(s));
        };
        f.bind = [at](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, at(s));
        };
        f.write = Write(key, when, [at](ClusterScenario& s) { return at(s); });
        return f;
    }

    /// A non-negative number; on the command line in [min, max] with its unit.
    static ScenarioField Real(const std::string& key,
                              const std::string& option,
                              const std::string& help,
                              Access<double> at,
                              Written when = Written::ALWAYS,
                              double min = 0,
                              double max = std::numeric_limits<double>::max(),
                              const std::string& unit = "")
    {
        ScenarioField f{key, option, help};
        f.load = [at](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.NonNegative(name, at(s));
        };
        f.bind = [=](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, at(s), min, max, unit);
        };
        f.write = Write(key, when, [at](ClusterScenario& s) { return std::to_string(at(s)); });
        return f;
    }

    /// A positive count in 32 bits, at most \p max (a file's 0 is an error; the default may
    /// be 0 = "the model's", which the command line accepts).
    static ScenarioField Count(const std::string& key,
                               const std::string& option,
                               const std::string& help,
                               Access<uint32_t> at,
                               Written when = Written::ALWAYS,
                               uint32_t max = std::numeric_limits<uint32_t>::max())
    {
        ScenarioField f{key, option, help};
        f.load = [at, max](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.Positive(name, at(s), max);
        };
        f.bind = [at, max](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, at(s), 0, max);
        };
        f.write = Write(key, when, [at](ClusterScenario& s) { return std::to_string(at(s)); });
        return f;
    }

    /// A non-negative whole number in 64 bits; on the command line in [min, max].
    static ScenarioField Whole(const std::string& key,
                               const std::string& option,
                               const std::string& help,
                               Access<uint64_t> at,
                               Written when = Written::ALWAYS,
                               uint64_t min = 0,
                               uint64_t max = std::numeric_limits<uint64_t>::max())
    {
        ScenarioField f{key, option, help};
        f.load = [at](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.Unsigned(name, at(s));
        };
        f.bind = [=](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, at(s), min, max);
        };
        f.write = Write(key, when, [at](ClusterScenario& s) { return std::to_string(at(s)); });
        return f;
    }

    /// A node or GPU count of the cluster: read into the topology from a file, bound to a
    /// signed copy on the command line (so that "--nodes=-3" is an error rather than
    /// 4294967293), checked into the topology by finalize.
    static ScenarioField TopologyCount(const std::string& key,
                                       const std::string& option,
                                       const std::string& help,
                                       Access<uint32_t> at,
                                       Access<int64_t> text)
    {
        ScenarioField f{key, option, help};
        f.load = [at](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.Positive(name, at(s));
        };
        f.bind = [at, text](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            text(s) = at(s);
            cmd.AddValue(self.option, self.help, text(s), 1, 1000000);
        };
        f.finalize = [at, text, option](ClusterScenario& s) {
            at(s) = CheckedCount("--" + option, text(s));
        };
        return f;
    }

    /// A component's short name, checked against the one alias table (ComponentRegistry).
    static ScenarioField Component(const std::string& key,
                                   const std::string& option,
                                   const std::string& help,
                                   const std::string& kind,
                                   Access<std::string> at)
    {
        ScenarioField f = Text(key, option, help, at);
        f.finalize = [=](ClusterScenario& s) { CheckAlias("--" + option, kind, at(s)); };
        return f;
    }

    /// Throws naming the option and the known names when name is not a kind's alias.
    static void CheckAlias(const std::string& option,
                           const std::string& kind,
                           const std::string& name)
    {
        try
        {
            ComponentRegistry::Find(kind, name);
        }
        catch (const std::invalid_argument&)
        {
            throw std::invalid_argument(option + ": expected one of " +
                                        JoinWith(ComponentRegistry::Names(kind), ", ") + ", got '" +
                                        name + "'");
        }
    }

    /// trace.window_end_s: a number in a file, text on the command line (empty = no end).
    static ScenarioField WindowEnd()
    {
        ScenarioField f{"trace.window_end_s",
                        "window-end",
                        "Keep jobs submitted before this time [s] (empty = no end)"};
        f.load = [](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.NonNegative(name, s.traceOptions.windowEnd);
            if (std::isfinite(s.traceOptions.windowEnd))
            {
                s.m_windowEndText = std::to_string(s.traceOptions.windowEnd);
            }
        };
        f.bind = [](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, s.m_windowEndText);
        };
        f.finalize = [](ClusterScenario& s) {
            if (s.m_windowEndText.empty())
            {
                return;
            }
            double value = -1;
            if (!strict::ParseDouble(s.m_windowEndText, value) || !(value >= 0))
            {
                throw std::invalid_argument(
                    "--window-end: expected a non-negative time in seconds, got '" +
                    s.m_windowEndText + "'");
            }
            s.traceOptions.windowEnd = value;
        };
        f.write = [](const ClusterScenario& s, ScenarioField::Settings& out) {
            out["trace.window_end_s"] = std::isfinite(s.traceOptions.windowEnd)
                                            ? std::to_string(s.traceOptions.windowEnd)
                                            : "none";
        };
        return f;
    }

    /// trace.vcs: an array in a file, a comma-separated list on the command line.
    static ScenarioField Vcs()
    {
        ScenarioField f{"trace.vcs",
                        "vc",
                        "Keep only these virtual clusters (comma separated; empty = all)"};
        f.load = [](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            std::vector<std::string> vcs;
            r.TextList(name, vcs);
            s.traceOptions.vcs = std::set<std::string>(vcs.begin(), vcs.end());
            s.m_vcsText = JoinList(vcs);
        };
        f.bind = [](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, s.m_vcsText);
        };
        f.finalize = [](ClusterScenario& s) {
            std::vector<std::string> vcs = strictopt::List("--vc", s.m_vcsText, true);
            s.traceOptions.vcs = std::set<std::string>(vcs.begin(), vcs.end());
        };
        f.write =
            Write("trace.vcs", Written::ALWAYS, [](ClusterScenario& s) { return s.m_vcsText; });
        return f;
    }

    /// trace.on_error: stop or skip.
    static ScenarioField OnError()
    {
        ScenarioField f = Text("trace.on_error",
                               "on-error",
                               "Malformed trace records: stop or skip",
                               [](ClusterScenario& s) -> std::string& { return s.m_onErrorText; });
        f.finalize = [](ClusterScenario& s) {
            if (s.m_onErrorText != "stop" && s.m_onErrorText != "skip")
            {
                throw std::invalid_argument("--on-error: expected stop or skip, got '" +
                                            s.m_onErrorText + "'");
            }
            s.traceOptions.onError =
                s.m_onErrorText == "stop" ? TraceErrorPolicy::STOP : TraceErrorPolicy::SKIP;
        };
        return f;
    }

    /// annotator.model_weights: an object of model name -> non-negative weight (file only).
    static ScenarioField ModelWeights()
    {
        ScenarioField f{"annotator.model_weights", "", ""};
        f.load = [](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            for (const auto& [model, weight] : r.Object(name).items())
            {
                if (!weight.is_number() || !(weight.get<double>() >= 0))
                {
                    r.Fail(name + "." + model, "a non-negative number");
                }
                s.annotator.modelWeights[model] = weight.get<double>();
            }
        };
        f.write = [](const ClusterScenario& s, ScenarioField::Settings& out) {
            for (const auto& [model, weight] : s.annotator.modelWeights)
            {
                out["annotator.model_weights." + model] = std::to_string(weight);
            }
        };
        return f;
    }

    /// policies: an array in a file, a comma-separated list on the command line.
    static ScenarioField Policies()
    {
        ScenarioField f{"policies",
                        "policy",
                        "Scheduling policies to run, comma separated: fifo,sjf,tiresias"};
        f.load = [](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            r.TextList(name, s.policies);
            s.m_policiesText = JoinList(s.policies);
        };
        f.bind = [](StrictCommandLine& cmd, const ScenarioField& self, ClusterScenario& s) {
            cmd.AddValue(self.option, self.help, s.m_policiesText);
        };
        f.finalize = [](ClusterScenario& s) {
            s.policies = strictopt::List("--policy", s.m_policiesText);
            if (s.policies.empty())
            {
                throw std::invalid_argument(
                    "--policy: expected at least one of fifo, sjf, tiresias");
            }
            for (const auto& p : s.policies)
            {
                ClusterEngineHelper::SchedulerTypeName(p); // throws on an unknown name
            }
        };
        f.write = Write("policies", Written::ALWAYS, [](ClusterScenario& s) {
            return JoinList(s.policies);
        });
        return f;
    }

    /// storage.policy: ideal (no storage model) or a storage allocation policy's name.
    static ScenarioField StoragePolicy()
    {
        ScenarioField f =
            Text("storage.policy",
                 "storage-policy",
                 "Disaggregated storage: ideal (no storage model), or " +
                     StorageAllocationPolicy::NameList(),
                 [](ClusterScenario& s) -> std::string& { return s.m_storagePolicyText; });
        f.finalize = [](ClusterScenario& s) {
            CheckAlias("--storage-policy", "storage", s.m_storagePolicyText);
            s.storageEnabled = s.m_storagePolicyText != "ideal";
            s.storage.policy = s.m_storagePolicyText;
            if (s.storageEnabled)
            {
                s.storage.Validate(); // names a bad budget or medium
            }
        };
        return f;
    }

    /// seed: ns-3's RngSeed (1 to 2^32 - 1) and the annotator's seed.
    static ScenarioField Seed()
    {
        ScenarioField f = Whole(
            "seed",
            "seed",
            "Random seed (ns-3 RngSeed and annotator seed)",
            [](ClusterScenario& s) -> uint64_t& { return s.seed; },
            Written::NEVER,
            1,
            std::numeric_limits<uint32_t>::max());
        f.finalize = [](ClusterScenario& s) {
            if (s.seed == 0 || s.seed > std::numeric_limits<uint32_t>::max())
            {
                throw std::invalid_argument("--seed: expected an integer in [1, 4294967295] "
                                            "(ns-3's RngSeed), got " +
                                            std::to_string(s.seed));
            }
            s.annotator.seed = s.seed;
        };
        return f;
    }

    /// attributes: ns-3 attribute path -> value (a file's; the command line has --ns3::...).
    static ScenarioField Attributes()
    {
        ScenarioField f{"attributes", "", ""};
        f.load = [](const FieldReader& r, const std::string& name, ClusterScenario& s) {
            for (const auto& [path, value] : r.Object(name).items())
            {
                if (!value.is_string() && !value.is_number() && !value.is_boolean())
                {
                    r.Fail(name + "." + path, "a string, number or boolean value");
                }
                s.attributes[path] = value.is_string() ? value.get<std::string>() : value.dump();
                std::string problem = strictopt::AttributeProblem(path, s.attributes[path]);
                if (!problem.empty())
                {
                    const std::string lead = "expected ";
                    r.Fail(name + "." + path,
                           problem.rfind(lead, 0) == 0
                               ? problem.substr(lead.size())
                               : "a settable attribute and value: " + problem);
                }
            }
        };
        f.write = [](const ClusterScenario& s, ScenarioField::Settings& out) {
            for (const auto& [path, value] : s.attributes)
            {
                out["attributes." + path] = value;
            }
        };
        return f;
    }

    /**
     * \param section a section's name, or "" for the top level
     * \return the keys a scenario file may hold there, in the table's order
     */
    static std::vector<std::string> Known(const std::string& section)
    {
        std::vector<std::string> known;
        for (const ScenarioField& f : All())
        {
            std::string item = section.empty()
                                   ? (SectionOf(f.key).empty() ? f.key : SectionOf(f.key))
                                   : (SectionOf(f.key) == section ? NameOf(f.key) : "");
            if (!item.empty() && std::find(known.begin(), known.end(), item) == known.end())
            {
                known.push_back(item);
            }
        }
        if (section.empty())
        {
            known.push_back("sweep"); // the sweep runner's (helper/sweep-runner.h)
        }
        return known;
    }
};

const std::vector<ScenarioField>&
ScenarioFields::All()
{
    using S = ClusterScenario;
    static const std::vector<ScenarioField> fields = [] {
        std::vector<ScenarioField> t;
        // ---- cluster
        t.push_back(TopologyCount(
            "cluster.nodes",
            "nodes",
            "Training nodes in the cluster",
            [](S& s) -> uint32_t& { return s.topology.numNodes; },
            [](S& s) -> int64_t& { return s.m_nodes; }));
        t.push_back(TopologyCount(
            "cluster.gpus_per_node",
            "gpus-per-node",
            "GPUs per node",
            [](S& s) -> uint32_t& { return s.topology.gpusPerNode; },
            [](S& s) -> int64_t& { return s.m_gpusPerNode; }));
        t.push_back(TopologyCount(
            "cluster.nodes_per_rack",
            "nodes-per-rack",
            "Nodes per rack (top-of-rack switch)",
            [](S& s) -> uint32_t& { return s.topology.nodesPerRack; },
            [](S& s) -> int64_t& { return s.m_nodesPerRack; }));
        // ---- trace
        t.push_back(Text("trace.path", "trace", "Trace file to replay", [](S& s) -> std::string& {
            return s.tracePath;
        }));
        t.push_back(Text("trace.format",
                         "trace-format",
                         "Trace format: auto, or one of the names in traces/README.md",
                         [](S& s) -> std::string& { return s.traceOptions.format; }));
        t.push_back(Real(
            "trace.window_start_s",
            "window-start",
            "Keep jobs submitted at or after this time [s]",
            [](S& s) -> double& { return s.traceOptions.windowStart; },
            Written::ALWAYS,
            0,
            std::numeric_limits<double>::max(),
            "s"));
        t.push_back(WindowEnd());
        t.push_back(Whole("trace.max_jobs",
                          "max-jobs",
                          "Keep at most this many jobs (0 = all)",
                          [](S& s) -> uint64_t& { return s.traceOptions.maxJobs; }));
        t.push_back(Vcs());
        ScenarioField loadScale = Real(
            "trace.load_scale",
            "load-scale",
            "Divide inter-arrival times by this factor (>1 = more load)",
            [](S& s) -> double& { return s.traceOptions.loadScale; },
            Written::ALWAYS,
            1e-6,
            1e6);
        loadScale.finalize = [](S& s) {
            if (!(s.traceOptions.loadScale > 0))
            {
                throw std::invalid_argument("--load-scale: expected a positive factor");
            }
        };
        t.push_back(loadScale);
        t.push_back(OnError());
        // ---- annotator
        ScenarioField catalog = Text(
            "annotator.catalog",
            "catalog",
            "Workload catalog JSON (empty = bundled data/workload-catalog.json)",
            [](S& s) -> std::string& { return s.catalogPath; },
            Written::NEVER);
        catalog.write = [](const S& s, ScenarioField::Settings& out) {
            out["annotator.catalog"] =
                s.catalogPath.empty() ? WorkloadCatalog::DefaultPath() : s.catalogPath;
        };
        t.push_back(catalog);
        t.push_back(Text("annotator.model_rule",
                         "model-rule",
                         "Annotator rule for jobs without a model: gpu-time or weighted",
                         [](S& s) -> std::string& { return s.annotator.modelRule; }));
        t.push_back(ModelWeights());
        t.push_back(
            Text("annotator.dataset_rule",
                 "dataset-rule",
                 "Which jobs share a dataset: model, vc, user, pool or job (doc/annotator.md)",
                 [](S& s) -> std::string& { return s.annotator.datasetRule; }));
        t.push_back(Real("annotator.dataset_share_probability", "", "", [](S& s) -> double& {
            return s.annotator.datasetShareProbability;
        }));
        t.push_back(Count("annotator.dataset_pool_size", "", "", [](S& s) -> uint32_t& {
            return s.annotator.datasetPoolSize;
        }));
        t.push_back(
            Text("annotator.job_type_rule",
                 "job-type-rule",
                 "Annotator rule for jobs whose trace records a type (Acme): acme or ignore",
                 [](S& s) -> std::string& { return s.annotator.jobTypeRule; }));
        t.push_back(Count(
            "annotator.llm_min_replicas",
            "",
            "",
            [](S& s) -> uint32_t& { return s.annotator.llmMinReplicas; },
            Written::NEVER));
        // ---- what runs
        t.push_back(Policies());
        t.push_back(Component("placement",
                              "placement",
                              "GPU placement: consolidated or spread",
                              "placement",
                              [](S& s) -> std::string& { return s.placement; }));
        t.push_back(Component("ina",
                              "ina",
                              "Gradient sync: ideal (free), none or ring (ring all-reduce), or "
                              "in-network aggregation with switchml, atp or esa (a switch per "
                              "rack)",
                              "sync",
                              [](S& s) -> std::string& { return s.ina; }));
        t.push_back(
            Count("ina_pool_size",
                  "ina-pool-size",
                  "Aggregators per switch for --ina=switchml|atp|esa (0 = the attribute's default)",
                  [](S& s) -> uint32_t& { return s.inaPoolSize; }));
        t.push_back(Component("provisioning",
                              "provisioning",
                              "Data provisioning over the rail fabric: ideal (never stalls), "
                              "local, dpp, alluxio or kspeed; with --storage-policy it reads "
                              "from the storage tier",
                              "provisioning",
                              [](S& s) -> std::string& { return s.provisioning; }));
        ScenarioField poolNodes = Count(
            "provisioning_pool_nodes",
            "provisioning-pool-nodes",
            "CPU nodes of the provisioning (DPP, KSpeed) pool [nodes] (0 = the model's "
            "default: one per 4 training nodes, rounded up; at most " +
                std::to_string(ProvisioningModel::kMaxPoolNodes) + ")",
            [](S& s) -> uint32_t& { return s.provisioningPoolNodes; },
            Written::NEVER,
            ProvisioningModel::kMaxPoolNodes);
        poolNodes.write = [](const S& s, ScenarioField::Settings& out) {
            if (s.provisioningPoolNodes > 0)
            {
                out["provisioning_pool_nodes"] = std::to_string(s.provisioningPoolNodes);
            }
        };
        t.push_back(poolNodes);
        // ---- storage
        t.push_back(StoragePolicy());
        t.push_back(Real(
            "storage.cache_bytes",
            "cache-bytes",
            "Compute-side cache capacity [bytes]",
            [](S& s) -> double& { return s.storage.cacheBytes; },
            Written::WITH_STORAGE,
            0,
            std::numeric_limits<double>::max(),
            "bytes"));
        t.push_back(Text(
            "storage.medium",
            "",
            "",
            [](S& s) -> std::string& { return s.storage.medium; },
            Written::WITH_STORAGE));
        t.push_back(Real(
            "storage.bandwidth_Bps",
            "storage-bandwidth",
            "Aggregate remote storage bandwidth [bytes/s]",
            [](S& s) -> double& { return s.storage.bandwidth; },
            Written::WITH_STORAGE,
            0,
            std::numeric_limits<double>::max(),
            "bytes/s"));
        t.push_back(Real(
            "storage.client_bandwidth_Bps",
            "",
            "",
            [](S& s) -> double& { return s.storage.clientBandwidth; },
            Written::WITH_STORAGE));
        t.push_back(Real(
            "storage.io_budget_per_hour",
            "io-budget",
            "IO budget of cba/autocba [$ per hour]; 0 = none",
            [](S& s) -> double& { return s.storage.ioBudgetPerHour; },
            Written::WITH_STORAGE,
            0,
            std::numeric_limits<double>::max(),
            "$/h"));
        ScenarioField prefetch{"storage.prefetch", "", ""};
        prefetch.load = [](const FieldReader& r, const std::string& name, S& s) {
            r.Flag(name, s.storage.prefetch);
        };
        t.push_back(prefetch);
        // ---- run
        t.push_back(Seed());
        t.push_back(Whole(
            "run",
            "run",
            "ns-3 RngRun (independent replications)",
            [](S& s) -> uint64_t& { return s.run; },
            Written::NEVER));
        t.push_back(Text(
            "output",
            "output",
            "Result directory (one sub-directory per policy)",
            [](S& s) -> std::string& { return s.outputDir; },
            Written::NEVER));
        t.push_back(Attributes());
        return t;
    }();
    return fields;
}

ClusterScenario::ClusterScenario()
    : tracePath(DefaultTracePath())
{
    NS_LOG_FUNCTION(this);
    // One set of defaults: a ClusterBuilder's (the cluster the bundled sample is generated
    // for, traces/README.md).
    Ptr<ClusterBuilder> defaults = CreateObject<ClusterBuilder>();
    topology = defaults->GetTopology();
    StringValue text;
    defaults->GetAttribute("Placement", text);
    placement = text.Get();
    defaults->GetAttribute("GradientSync", text);
    ina = text.Get();
    defaults->GetAttribute("Provisioning", text);
    provisioning = text.Get();
    UintegerValue count;
    defaults->GetAttribute("InaPoolSize", count);
    inaPoolSize = static_cast<uint32_t>(count.Get());
    defaults->GetAttribute("ProvisioningPoolNodes", count);
    provisioningPoolNodes = static_cast<uint32_t>(count.Get());
    storage = defaults->GetStorageOptions();
    m_storagePolicyText = storage.policy;
    storageEnabled = m_storagePolicyText != "ideal";
    AnnotatorOptions ann = defaults->GetAnnotatorOptions();
    annotator.datasetRule = ann.datasetRule;
    annotator.modelRule = ann.modelRule;
    m_policiesText = JoinList(policies);
    m_onErrorText = "stop";
}

std::string
ClusterScenario::DefaultTracePath()
{
    NS_LOG_FUNCTION_NOARGS();
    return std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv";
}

ClusterScenario
ClusterScenario::Load(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    json root = strict::ParseJson(path, strict::ReadTextFile(path, "scenario file"));
    ClusterScenario s;
    FieldReader top(path, root, "");
    top.CheckKnown(ScenarioFields::Known(""));
    std::map<std::string, FieldReader> sections; // made (and checked) at their first field
    for (const ScenarioField& f : ScenarioFields::All())
    {
        const std::string section = SectionOf(f.key);
        const FieldReader* reader = &top;
        if (!section.empty())
        {
            auto it = sections.find(section);
            if (it == sections.end())
            {
                it =
                    sections.emplace(section, FieldReader(path, top.Object(section), section + "."))
                        .first;
                it->second.CheckKnown(ScenarioFields::Known(section));
            }
            reader = &it->second;
        }
        f.load(*reader, NameOf(f.key), s);
    }
    return s;
}

void
ClusterScenario::AddCommandLineOptions(StrictCommandLine& cmd)
{
    NS_LOG_FUNCTION(this << &cmd);
    for (const ScenarioField& f : ScenarioFields::All())
    {
        if (!f.option.empty())
        {
            f.bind(cmd, f, *this);
        }
    }
}

void
ClusterScenario::Finalize()
{
    NS_LOG_FUNCTION(this);
    for (const ScenarioField& f : ScenarioFields::All())
    {
        if (f.finalize)
        {
            f.finalize(*this);
        }
    }
}

std::vector<std::pair<std::string, std::string>>
ClusterScenario::FieldNames()
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<std::pair<std::string, std::string>> names;
    for (const ScenarioField& f : ScenarioFields::All())
    {
        names.emplace_back(f.key, f.option);
    }
    return names;
}

void
ClusterScenario::ApplyAttributes() const
{
    NS_LOG_FUNCTION(this << attributes.size());
    for (const auto& [name, value] : attributes)
    {
        NS_LOG_LOGIC("attribute default " << name << " = " << value);
        if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw std::invalid_argument("attribute '" + name + "' = '" + value +
                                        "': no such attribute, or the value does not fit it");
        }
    }
}

std::map<std::string, std::string>
ClusterScenario::Settings() const
{
    NS_LOG_FUNCTION(this);
    ScenarioField::Settings settings;
    for (const ScenarioField& f : ScenarioFields::All())
    {
        if (f.write)
        {
            f.write(*this, settings);
        }
    }
    return settings;
}

Ptr<ClusterBuilder>
ClusterScenario::Builder(const std::string& scheduler) const
{
    NS_LOG_FUNCTION(this << scheduler);
    Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
    b->SetAttribute("Nodes", UintegerValue(topology.numNodes));
    b->SetAttribute("GpusPerNode", UintegerValue(topology.gpusPerNode));
    b->SetAttribute("NodesPerRack", UintegerValue(topology.nodesPerRack));
    b->SetAttribute("Scheduler", StringValue(scheduler));
    b->SetAttribute("Placement", StringValue(placement));
    b->SetAttribute("GradientSync", StringValue(ina));
    b->SetAttribute("InaPoolSize", UintegerValue(inaPoolSize));
    b->SetAttribute("Provisioning", StringValue(provisioning));
    b->SetAttribute("ProvisioningPoolNodes", UintegerValue(provisioningPoolNodes));
    b->SetAttribute("StoragePolicy", StringValue(m_storagePolicyText));
    b->SetAttribute("CacheBytes", DoubleValue(storage.cacheBytes));
    b->SetAttribute("CacheMedium", StringValue(storage.medium));
    b->SetAttribute("CachePrice", DoubleValue(storage.cachePrice));
    b->SetAttribute("StorageBandwidth", DoubleValue(storage.bandwidth));
    b->SetAttribute("ClientBandwidth", DoubleValue(storage.clientBandwidth));
    b->SetAttribute("BandwidthPrice", DoubleValue(storage.bandwidthPrice));
    b->SetAttribute("IoBudget", DoubleValue(storage.ioBudgetPerHour));
    b->SetAttribute("Prefetch", BooleanValue(storage.prefetch));
    b->SetAttribute("Utility", StringValue(storage.utility));
    b->SetAttribute("DeadlineSlack", DoubleValue(storage.deadlineSlack));
    b->SetAnnotatorOptions(annotator);
    return b;
}

std::vector<std::string>
SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

std::string
CommandLineText(int argc, char* argv[])
{
    std::string text;
    for (int i = 0; i < argc; ++i)
    {
        text += (i ? " " : "") + std::string(argv[i]);
    }
    return text;
}

std::vector<JobRecord>
ClusterScenario::ReadJobs(std::ostream& out, TraceReadReport* report) const
{
    NS_LOG_FUNCTION(this << tracePath);
    TraceReadReport local;
    TraceReadReport& r = report ? *report : local;
    std::vector<JobRecord> jobs = ReadTrace(tracePath, traceOptions, &r);
    out << "trace " << r.file << " (" << r.format << "): " << r.records << " records, " << r.kept
        << " jobs kept";
    out << " | dropped: " << r.malformed << " malformed, " << r.notGpuJobs << " without GPUs, "
        << r.unfinished << " never ran, " << r.outsideWindow << " outside the window, " << r.otherVc
        << " other VCs, " << r.overMaxJobs << " over --max-jobs" << std::endl;
    for (const auto& problem : r.problems)
    {
        out << "  skipped: " << problem << std::endl;
    }
    if (jobs.empty())
    {
        throw TraceError(tracePath,
                         0,
                         "",
                         "expected at least one job left after the filters (window, VC, "
                         "max-jobs, error policy), got none");
    }
    return jobs;
}

WorkloadCatalog
ClusterScenario::Catalog() const
{
    NS_LOG_FUNCTION(this << catalogPath);
    return catalogPath.empty() ? WorkloadCatalog::Default() : WorkloadCatalog::Load(catalogPath);
}

} // namespace ns3
