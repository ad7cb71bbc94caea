/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-scenario.h"

#include "cluster-engine-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

using nlohmann::json;

std::string
JoinList(const std::vector<std::string>& items)
{
    std::string text;
    for (const auto& item : items)
    {
        text += (text.empty() ? "" : ",") + item;
    }
    return text;
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

    void Positive(const std::string& key, uint32_t& out) const
    {
        if (Has(key))
        {
            const json& v = m_object.at(key);
            if (!v.is_number_integer() || v.get<int64_t>() <= 0 ||
                v.get<uint64_t>() > std::numeric_limits<uint32_t>::max())
            {
                Fail(key,
                     "a positive integer of at most 4294967295, got " + strict::JsonPreview(v));
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

} // namespace

ClusterScenario::ClusterScenario()
    : tracePath(DefaultTracePath())
{
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
    return std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv";
}

ClusterScenario
ClusterScenario::Load(const std::string& path)
{
    json root = strict::ParseJson(path, strict::ReadTextFile(path, "scenario file"));
    ClusterScenario s;
    FieldReader top(path, root, "");
    top.CheckKnown({"cluster",
                    "trace",
                    "annotator",
                    "policies",
                    "placement",
                    "ina",
                    "ina_pool_size",
                    "provisioning",
                    "provisioning_pool_nodes",
                    "storage",
                    "seed",
                    "run",
                    "output",
                    "attributes",
                    "sweep"}); // "sweep" is the sweep runner's (helper/sweep-runner.h)

    FieldReader cluster(path, top.Object("cluster"), "cluster.");
    cluster.CheckKnown({"nodes", "gpus_per_node", "nodes_per_rack"});
    cluster.Positive("nodes", s.topology.numNodes);
    cluster.Positive("gpus_per_node", s.topology.gpusPerNode);
    cluster.Positive("nodes_per_rack", s.topology.nodesPerRack);

    FieldReader trace(path, top.Object("trace"), "trace.");
    trace.CheckKnown({"path",
                      "format",
                      "window_start_s",
                      "window_end_s",
                      "max_jobs",
                      "vcs",
                      "load_scale",
                      "on_error"});
    trace.Text("path", s.tracePath);
    trace.Text("format", s.traceOptions.format);
    trace.NonNegative("window_start_s", s.traceOptions.windowStart);
    trace.NonNegative("window_end_s", s.traceOptions.windowEnd);
    trace.Unsigned("max_jobs", s.traceOptions.maxJobs);
    std::vector<std::string> vcs;
    trace.TextList("vcs", vcs);
    s.traceOptions.vcs = std::set<std::string>(vcs.begin(), vcs.end());
    trace.NonNegative("load_scale", s.traceOptions.loadScale);
    trace.Text("on_error", s.m_onErrorText);

    FieldReader annotator(path, top.Object("annotator"), "annotator.");
    annotator.CheckKnown({"catalog",
                          "model_rule",
                          "model_weights",
                          "dataset_rule",
                          "dataset_share_probability",
                          "dataset_pool_size",
                          "job_type_rule",
                          "llm_min_replicas"});
    annotator.Text("job_type_rule", s.annotator.jobTypeRule);
    annotator.Positive("llm_min_replicas", s.annotator.llmMinReplicas);
    annotator.Text("dataset_rule", s.annotator.datasetRule);
    annotator.NonNegative("dataset_share_probability", s.annotator.datasetShareProbability);
    annotator.Positive("dataset_pool_size", s.annotator.datasetPoolSize);
    annotator.Text("catalog", s.catalogPath);
    annotator.Text("model_rule", s.annotator.modelRule);
    for (const auto& [model, weight] : annotator.Object("model_weights").items())
    {
        if (!weight.is_number() || !(weight.get<double>() >= 0))
        {
            annotator.Fail("model_weights." + model, "a non-negative number");
        }
        s.annotator.modelWeights[model] = weight.get<double>();
    }

    top.TextList("policies", s.policies);
    top.Text("placement", s.placement);
    top.Text("ina", s.ina);
    top.Positive("ina_pool_size", s.inaPoolSize);
    top.Text("provisioning", s.provisioning);
    top.Positive("provisioning_pool_nodes", s.provisioningPoolNodes);

    FieldReader storage(path, top.Object("storage"), "storage.");
    storage.CheckKnown({"policy",
                        "cache_bytes",
                        "medium",
                        "bandwidth_Bps",
                        "client_bandwidth_Bps",
                        "io_budget_per_hour",
                        "prefetch"});
    storage.Text("policy", s.m_storagePolicyText);
    storage.NonNegative("cache_bytes", s.storage.cacheBytes);
    storage.Text("medium", s.storage.medium);
    storage.NonNegative("bandwidth_Bps", s.storage.bandwidth);
    storage.NonNegative("client_bandwidth_Bps", s.storage.clientBandwidth);
    storage.NonNegative("io_budget_per_hour", s.storage.ioBudgetPerHour);
    storage.Flag("prefetch", s.storage.prefetch);
    top.Unsigned("seed", s.seed);
    top.Unsigned("run", s.run);
    top.Text("output", s.outputDir);
    for (const auto& [name, value] : top.Object("attributes").items())
    {
        if (!value.is_string() && !value.is_number() && !value.is_boolean())
        {
            top.Fail("attributes." + name, "a string, number or boolean value");
        }
        s.attributes[name] = value.is_string() ? value.get<std::string>() : value.dump();
        std::string problem = strictopt::AttributeProblem(name, s.attributes[name]);
        if (!problem.empty())
        {
            const std::string lead = "expected ";
            top.Fail("attributes." + name,
                     problem.rfind(lead, 0) == 0 ? problem.substr(lead.size())
                                                 : "a settable attribute and value: " + problem);
        }
    }
    s.m_policiesText = JoinList(s.policies);
    s.m_vcsText = JoinList(vcs);
    if (std::isfinite(s.traceOptions.windowEnd))
    {
        s.m_windowEndText = std::to_string(s.traceOptions.windowEnd);
    }
    return s;
}

void
ClusterScenario::AddCommandLineOptions(StrictCommandLine& cmd)
{
    cmd.AddValue("trace", "Trace file to replay", tracePath);
    cmd.AddValue("trace-format",
                 "Trace format: auto, or one of the names in traces/README.md",
                 traceOptions.format);
    cmd.AddValue("window-start",
                 "Keep jobs submitted at or after this time [s]",
                 traceOptions.windowStart,
                 0,
                 std::numeric_limits<double>::max(),
                 "s");
    cmd.AddValue("window-end",
                 "Keep jobs submitted before this time [s] (empty = no end)",
                 m_windowEndText);
    cmd.AddValue("max-jobs", "Keep at most this many jobs (0 = all)", traceOptions.maxJobs);
    cmd.AddValue("vc",
                 "Keep only these virtual clusters (comma separated; empty = all)",
                 m_vcsText);
    cmd.AddValue("load-scale",
                 "Divide inter-arrival times by this factor (>1 = more load)",
                 traceOptions.loadScale,
                 1e-6,
                 1e6);
    cmd.AddValue("on-error", "Malformed trace records: stop or skip", m_onErrorText);
    cmd.AddValue("catalog",
                 "Workload catalog JSON (empty = bundled data/workload-catalog.json)",
                 catalogPath);
    cmd.AddValue("model-rule",
                 "Annotator rule for jobs without a model: gpu-time or weighted",
                 annotator.modelRule);
    m_nodes = topology.numNodes;
    m_gpusPerNode = topology.gpusPerNode;
    m_nodesPerRack = topology.nodesPerRack;
    cmd.AddValue("job-type-rule",
                 "Annotator rule for jobs whose trace records a type (Acme): acme or ignore",
                 annotator.jobTypeRule);
    cmd.AddValue("dataset-rule",
                 "Which jobs share a dataset: model, vc, user, pool or job (doc/annotator.md)",
                 annotator.datasetRule);
    cmd.AddValue("nodes", "Training nodes in the cluster", m_nodes, 1, 1000000);
    cmd.AddValue("gpus-per-node", "GPUs per node", m_gpusPerNode, 1, 1000000);
    cmd.AddValue("nodes-per-rack",
                 "Nodes per rack (top-of-rack switch)",
                 m_nodesPerRack,
                 1,
                 1000000);
    cmd.AddValue("policy",
                 "Scheduling policies to run, comma separated: fifo,sjf,tiresias",
                 m_policiesText);
    cmd.AddValue("placement", "GPU placement: consolidated or spread", placement);
    cmd.AddValue("ina",
                 "Gradient sync: ideal (free), none or ring (ring all-reduce), or in-network "
                 "aggregation with switchml, atp or esa (a switch per rack)",
                 ina);
    cmd.AddValue("ina-pool-size",
                 "Aggregators per switch for --ina=switchml|atp|esa (0 = the attribute's default)",
                 inaPoolSize);
    cmd.AddValue("provisioning",
                 "Data provisioning over the rail fabric: ideal (never stalls), local, dpp, "
                 "alluxio or kspeed; with --storage-policy it reads from the storage tier",
                 provisioning);
    cmd.AddValue("provisioning-pool-nodes",
                 "CPU nodes of the provisioning (DPP) pool [nodes] (0 = the model's default)",
                 provisioningPoolNodes);
    cmd.AddValue("storage-policy",
                 "Disaggregated storage: ideal (no storage model), or " +
                     StorageAllocationPolicy::NameList(),
                 m_storagePolicyText);
    cmd.AddValue("cache-bytes",
                 "Compute-side cache capacity [bytes]",
                 storage.cacheBytes,
                 0,
                 std::numeric_limits<double>::max(),
                 "bytes");
    cmd.AddValue("storage-bandwidth",
                 "Aggregate remote storage bandwidth [bytes/s]",
                 storage.bandwidth,
                 0,
                 std::numeric_limits<double>::max(),
                 "bytes/s");
    cmd.AddValue("io-budget",
                 "IO budget of cba/autocba [$ per hour]; 0 = none",
                 storage.ioBudgetPerHour,
                 0,
                 std::numeric_limits<double>::max(),
                 "$/h");
    cmd.AddValue("seed",
                 "Random seed (ns-3 RngSeed and annotator seed)",
                 seed,
                 1,
                 std::numeric_limits<uint32_t>::max());
    cmd.AddValue("run", "ns-3 RngRun (independent replications)", run);
    cmd.AddValue("output", "Result directory (one sub-directory per policy)", outputDir);
}

void
ClusterScenario::Finalize()
{
    policies = strictopt::List("--policy", m_policiesText);
    if (policies.empty())
    {
        throw std::invalid_argument("--policy: expected at least one of fifo, sjf, tiresias");
    }
    for (const auto& p : policies)
    {
        ClusterEngineHelper::SchedulerTypeName(p); // throws on an unknown name
    }
    std::vector<std::string> vcs = strictopt::List("--vc", m_vcsText, true);
    traceOptions.vcs = std::set<std::string>(vcs.begin(), vcs.end());
    if (m_onErrorText == "stop" || m_onErrorText == "skip")
    {
        traceOptions.onError =
            m_onErrorText == "stop" ? TraceErrorPolicy::STOP : TraceErrorPolicy::SKIP;
    }
    else
    {
        throw std::invalid_argument("--on-error: expected stop or skip, got '" + m_onErrorText +
                                    "'");
    }
    if (!m_windowEndText.empty())
    {
        double value = -1;
        if (!strict::ParseDouble(m_windowEndText, value) || !(value >= 0))
        {
            throw std::invalid_argument(
                "--window-end: expected a non-negative time in seconds, got '" + m_windowEndText +
                "'");
        }
        traceOptions.windowEnd = value;
    }
    if (!(traceOptions.loadScale > 0))
    {
        throw std::invalid_argument("--load-scale: expected a positive factor");
    }
    // Every component name is checked against the one alias table (ClusterBuilder::Aliases()).
    auto check = [](const std::string& option, const std::string& kind, const std::string& name) {
        try
        {
            ClusterBuilder::Alias(kind, name);
        }
        catch (const std::invalid_argument&)
        {
            std::string known;
            for (const auto& n : ClusterBuilder::Names(kind))
            {
                known += (known.empty() ? "" : ", ") + n;
            }
            throw std::invalid_argument(option + ": expected one of " + known + ", got '" + name +
                                        "'");
        }
    };
    check("--ina", "sync", ina);
    check("--provisioning", "provisioning", provisioning);
    check("--storage-policy", "storage", m_storagePolicyText);
    storageEnabled = m_storagePolicyText != "ideal";
    storage.policy = m_storagePolicyText;
    if (storageEnabled)
    {
        storage.Validate(); // names a bad budget or medium
    }
    check("--placement", "placement", placement);
    topology.numNodes = CheckedCount("--nodes", m_nodes);
    topology.gpusPerNode = CheckedCount("--gpus-per-node", m_gpusPerNode);
    topology.nodesPerRack = CheckedCount("--nodes-per-rack", m_nodesPerRack);
    if (seed == 0 || seed > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument("--seed: expected an integer in [1, 4294967295] (ns-3's "
                                    "RngSeed), got " +
                                    std::to_string(seed));
    }
    annotator.seed = seed;
}

void
ClusterScenario::ApplyAttributes() const
{
    for (const auto& [name, value] : attributes)
    {
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
    std::map<std::string, std::string> s;
    s["trace.path"] = tracePath;
    s["trace.format"] = traceOptions.format;
    s["trace.window_start_s"] = std::to_string(traceOptions.windowStart);
    s["trace.window_end_s"] =
        std::isfinite(traceOptions.windowEnd) ? std::to_string(traceOptions.windowEnd) : "none";
    s["trace.max_jobs"] = std::to_string(traceOptions.maxJobs);
    s["trace.vcs"] = m_vcsText;
    s["trace.load_scale"] = std::to_string(traceOptions.loadScale);
    s["trace.on_error"] = m_onErrorText;
    s["annotator.catalog"] = catalogPath.empty() ? WorkloadCatalog::DefaultPath() : catalogPath;
    s["annotator.model_rule"] = annotator.modelRule;
    s["annotator.dataset_rule"] = annotator.datasetRule;
    s["annotator.job_type_rule"] = annotator.jobTypeRule;
    s["annotator.dataset_share_probability"] = std::to_string(annotator.datasetShareProbability);
    s["annotator.dataset_pool_size"] = std::to_string(annotator.datasetPoolSize);
    for (const auto& [model, weight] : annotator.modelWeights)
    {
        s["annotator.model_weights." + model] = std::to_string(weight);
    }
    s["placement"] = placement;
    s["ina"] = ina;
    s["ina_pool_size"] = std::to_string(inaPoolSize);
    s["provisioning"] = provisioning;
    if (provisioningPoolNodes > 0)
    {
        s["provisioning_pool_nodes"] = std::to_string(provisioningPoolNodes);
    }
    s["storage.policy"] = m_storagePolicyText;
    if (storageEnabled)
    {
        s["storage.cache_bytes"] = std::to_string(storage.cacheBytes);
        s["storage.medium"] = storage.medium;
        s["storage.bandwidth_Bps"] = std::to_string(storage.bandwidth);
        s["storage.client_bandwidth_Bps"] = std::to_string(storage.clientBandwidth);
        s["storage.io_budget_per_hour"] = std::to_string(storage.ioBudgetPerHour);
    }
    s["policies"] = JoinList(policies);
    for (const auto& [name, value] : attributes)
    {
        s["attributes." + name] = value;
    }
    return s;
}

Ptr<ClusterBuilder>
ClusterScenario::Builder(const std::string& scheduler) const
{
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
    return catalogPath.empty() ? WorkloadCatalog::Default() : WorkloadCatalog::Load(catalogPath);
}

} // namespace ns3
