/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Scenario files and command-line options of whole-cluster experiments.

#include "temp-dir.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-scenario.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/tiresias-policy.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>

using namespace ns3;

namespace
{
std::string
Fixture(const std::string& name)
{
    return std::string(AICLUSTER_TEST_DATA) + "/scenario/" + name;
}

/// Parses argv-style options over a scenario, as trace-replay does.
void
ParseOptions(ClusterScenario& scenario, std::vector<std::string> args)
{
    args.insert(args.begin(), "test");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    StrictCommandLine cmd;
    scenario.AddCommandLineOptions(cmd);
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    scenario.Finalize();
}
} // namespace

TEST_CASE("a scenario file sets every documented field", "[scenario]")
{
    ClusterScenario s = ClusterScenario::Load(Fixture("good.json"));
    ParseOptions(s, {});
    CHECK(s.topology.numNodes == 4);
    CHECK(s.topology.gpusPerNode == 4);
    CHECK(s.topology.nodesPerRack == 2);
    CHECK(s.tracePath == "traces/sample/sample-trace.csv");
    CHECK(s.traceOptions.format == "aicluster");
    CHECK(s.traceOptions.maxJobs == 200);
    CHECK(s.traceOptions.vcs == std::set<std::string>{"vc-a", "vc-b"});
    CHECK(s.traceOptions.loadScale == 2.0);
    CHECK(s.traceOptions.onError == TraceErrorPolicy::SKIP);
    CHECK(s.traceOptions.windowEnd == 86400);
    CHECK(s.annotator.modelRule == "weighted");
    CHECK(s.annotator.modelWeights.at("bert-squad") == 3);
    CHECK(s.annotator.seed == 9);
    CHECK(s.policies == std::vector<std::string>{"tiresias", "fifo"});
    CHECK(s.placement == "spread");
    CHECK(s.seed == 9);
    CHECK(s.outputDir == "results/unit");
    CHECK(s.attributes.at("ns3::TiresiasPolicy::Thresholds") == "100,1000");
    CHECK(s.Settings().at("trace.vcs") == "vc-a,vc-b");
    CHECK(s.storageEnabled);
    CHECK(s.storage.policy == "cba");
    CHECK(s.storage.cacheBytes == 2e12);
    CHECK(s.storage.bandwidth == 5e9);
    CHECK(s.storage.prefetch);
    CHECK(s.provisioning == "kspeed"); // not in the file: the builder's default
}

TEST_CASE("command-line options override the scenario file", "[scenario]")
{
    ClusterScenario s = ClusterScenario::Load(Fixture("good.json"));
    ParseOptions(s, {"--nodes=12", "--policy=sjf", "--vc=vc-c", "--on-error=stop", "--seed=3"});
    CHECK(s.topology.numNodes == 12);
    CHECK(s.topology.gpusPerNode == 4); // from the file
    CHECK(s.policies == std::vector<std::string>{"sjf"});
    CHECK(s.traceOptions.vcs == std::set<std::string>{"vc-c"});
    CHECK(s.traceOptions.onError == TraceErrorPolicy::STOP);
    CHECK(s.seed == 3);
    CHECK(s.annotator.seed == 3);
}

TEST_CASE("scenario attributes become ns-3 defaults", "[scenario]")
{
    ClusterScenario s = ClusterScenario::Load(Fixture("good.json"));
    ParseOptions(s, {});
    s.ApplyAttributes();
    Ptr<Object> policy = CreateObject<TiresiasPolicy>();
    StringValue thresholds;
    policy->GetAttribute("Thresholds", thresholds);
    CHECK(thresholds.Get() == "100,1000");
    Config::Reset();
}

TEST_CASE("bad scenario files name the file and the field", "[scenario]")
{
    auto message = [](const std::string& name) {
        try
        {
            ClusterScenario::Load(Fixture(name));
        }
        catch (const TraceError& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("negative-nodes.json"),
               Catch::Contains("negative-nodes.json") && Catch::Contains("cluster.nodes") &&
                   Catch::Contains("positive integer"));
    CHECK_THAT(message("unknown-field.json"),
               Catch::Contains("trace.paht") && Catch::Contains("documented fields"));
    CHECK_THAT(message("policies-not-list.json"),
               Catch::Contains("policies") && Catch::Contains("array of strings"));
    CHECK_THAT(message("bad-json.json"),
               Catch::Contains("bad-json.json") && Catch::Contains("JSON"));
    CHECK_THAT(message("missing.json"),
               Catch::Contains("missing.json") && Catch::Contains("does not exist"));
}

TEST_CASE("bad command-line values are errors, not defaults", "[scenario]")
{
    auto error = [](std::vector<std::string> args) {
        ClusterScenario s;
        try
        {
            ParseOptions(s, args);
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error({"--nodes=-3"}), Catch::Contains("--nodes") && Catch::Contains("-3"));
    CHECK_THAT(error({"--policy=lifo"}), Catch::Contains("lifo") && Catch::Contains("tiresias"));
    CHECK_THAT(error({"--on-error=ignore"}), Catch::Contains("--on-error"));
    CHECK_THAT(error({"--placement=random"}), Catch::Contains("--placement"));
    CHECK_THAT(error({"--window-end=yesterday"}), Catch::Contains("--window-end"));
    CHECK_THAT(error({"--load-scale=0"}), Catch::Contains("--load-scale"));
    CHECK_THAT(error({"--seed=0"}), Catch::Contains("--seed"));
    CHECK_THAT(error({"--provisioning=fast"}), Catch::Contains("--provisioning"));
    CHECK_THAT(error({"--ina=magic"}), Catch::Contains("--ina"));
    CHECK_THAT(error({"--storage-policy=random"}), Catch::Contains("random"));
    // The storage tier feeds the loader: both together are one data path, not an error.
    CHECK(error({"--provisioning=kspeed", "--storage-policy=cba"}) == "no error");
    CHECK(error({"--nodes=3", "--policy=fifo,sjf"}) == "no error");
    // The pool's bound (ProvisioningModel::kMaxPoolNodes) is checked where the option is read,
    // so the error names the option rather than the model's attribute.
    CHECK_THAT(error({"--provisioning-pool-nodes=5000"}),
               Catch::Contains("--provisioning-pool-nodes") && Catch::Contains("4096") &&
                   Catch::Contains("5000"));
    CHECK(error({"--provisioning-pool-nodes=4096"}) == "no error");
    CHECK(error({"--provisioning-pool-nodes=0"}) == "no error");
}

TEST_CASE("a scenario's provisioning pool above 4096 nodes names the field", "[scenario]")
{
    const std::string path = TestTempDir("test-scenario-pool") + "/pool.json";
    std::ofstream(path) << "{\"provisioning_pool_nodes\": 5000}";
    CHECK_THROWS_WITH(ClusterScenario::Load(path),
                      Catch::Contains("pool.json") && Catch::Contains("provisioning_pool_nodes") &&
                          Catch::Contains("at most 4096"));
    std::ofstream(path) << "{\"provisioning_pool_nodes\": 4096}";
    CHECK(ClusterScenario::Load(path).provisioningPoolNodes == 4096);
}

TEST_CASE("an unknown attribute in a scenario is an error", "[scenario]")
{
    ClusterScenario s;
    s.attributes["ns3::TiresiasPolicy::NoSuchThing"] = "1";
    CHECK_THROWS_WITH(s.ApplyAttributes(), Catch::Contains("NoSuchThing"));
}

TEST_CASE("doc/scenario.md lists every scenario field with its option, and no other", "[scenario]")
{
    // The field table (ClusterScenario::FieldNames) is the one place a field is named; the
    // doc's table rows start "| `key` |" and name the option as "`--option".
    std::ifstream in(std::string(AICLUSTER_SOURCE_DIR) + "/doc/scenario.md");
    REQUIRE(in);
    std::map<std::string, std::string> rows; // key -> its doc row
    std::string line;
    bool inTable = false; // the field table: from its "| field |" header to its last row
    while (std::getline(in, line))
    {
        if (line.rfind("| field |", 0) == 0)
        {
            inTable = true;
        }
        else if (inTable && line.rfind("|", 0) != 0)
        {
            break;
        }
        else if (inTable && line.rfind("| `", 0) == 0)
        {
            size_t end = line.find('`', 3);
            rows[line.substr(3, end - 3)] = line;
        }
    }
    std::set<std::string> keys;
    for (const auto& [key, option] : ClusterScenario::FieldNames())
    {
        INFO(key);
        keys.insert(key);
        REQUIRE(rows.count(key) == 1);
        if (!option.empty())
        {
            CHECK(rows[key].find("`--" + option) != std::string::npos);
        }
    }
    for (const auto& [key, row] : rows)
    {
        INFO("documented but not a field: " << key);
        CHECK(keys.count(key) == 1);
    }
}
