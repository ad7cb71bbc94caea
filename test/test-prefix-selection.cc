/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// A preemptive pass under contention looks only past the longest prefix of the queue order
// that fits (ClusterEngine::SetPrefixSelection, OrderedDemands; issue #13): it must choose what
// the plain walk over every job chooses, in the same order.

#include "ns3/boolean.h"
#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ordered-demands.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tiresias-policy.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"

#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The plain answer: a walk over every key in order.
OrderedDemands::Split
WalkedSplit(const std::set<std::pair<PriorityKey, uint32_t>>& kept, uint64_t budget)
{
    OrderedDemands::Split split;
    for (const auto& [key, demand] : kept)
    {
        if (split.before + demand > budget)
        {
            split.found = true;
            split.first = key;
            return split;
        }
        split.before += demand;
    }
    return split;
}

/// Every start and preemption of a replay, in order: time, job, its placement.
std::vector<std::string>
Events(const std::vector<JobRecord>& jobs, bool prefix, bool backfill, bool levelEntry)
{
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 8;
    topology.gpusPerNode = 8;
    topology.nodesPerRack = 4;
    helper.SetTopology(topology); // small: heavy queueing and preemption
    helper.SetScheduler(
        "ns3::TiresiasPolicy",
        "Backfill",
        BooleanValue(backfill),
        "Thresholds",
        StringValue("3250,7200"),
        "LevelOrder",
        EnumValue(levelEntry ? TiresiasPolicy::LEVEL_ENTRY : TiresiasPolicy::SUBMIT_TIME));
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->SetPrefixSelection(prefix);
    std::vector<std::string> events;
    for (std::string source : {"JobStarted", "JobPreempted"})
    {
        engine->TraceConnectWithoutContext(
            source,
            MakeCallback(+[](std::vector<std::string>* out,
                             std::string what,
                             Ptr<const ClusterJob> job) {
                std::ostringstream line;
                line.precision(17);
                line << Simulator::Now().GetSeconds() << " " << what << " " << job->record.id << " "
                     << job->placement.ToString();
                out->push_back(line.str());
            }).Bind(&events, source == "JobStarted" ? std::string("start") : "preempt"));
    }
    engine->Run();
    std::ostringstream end;
    end << "passes " << engine->Passes() << " finished " << engine->FinishedJobs();
    events.push_back(end.str());
    Simulator::Destroy();
    return events;
}

} // namespace

TEST_CASE("OrderedDemands finds the key a walk over every key finds", "[engine][prefix]")
{
    std::mt19937_64 rng(13);
    OrderedDemands order;
    std::set<std::pair<PriorityKey, uint32_t>> kept;
    std::vector<PriorityKey> keys;
    auto check = [&]() {
        REQUIRE(order.Size() == kept.size());
        uint64_t all = 0;
        for (const auto& k : kept)
        {
            all += k.second;
        }
        for (uint64_t budget : {uint64_t(0),
                                uint64_t(1),
                                uint64_t(7),
                                all / 3,
                                all / 2,
                                all,
                                all + 1,
                                uint64_t(rng() % (all + 2))})
        {
            OrderedDemands::Split fast = order.FirstBeyond(budget);
            OrderedDemands::Split plain = WalkedSplit(kept, budget);
            REQUIRE(fast.found == plain.found);
            REQUIRE(fast.before == plain.before);
            if (plain.found)
            {
                REQUIRE(fast.first.id == plain.first.id);
            }
        }
    };
    // grow past many blocks (ties on the first two fields, as queue levels and submit times
    // give them), then shrink to nothing, checking after every change
    for (uint64_t id = 0; id < 20 * OrderedDemands::MaxBlock(); ++id)
    {
        PriorityKey key{double(rng() % 3), double(rng() % 50), id};
        uint32_t demand = uint32_t(1 + rng() % 16);
        order.Insert(key, demand);
        kept.insert({key, demand});
        keys.push_back(key);
        if (rng() % 4 == 0)
        {
            size_t k = rng() % keys.size();
            auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& e) {
                return e.first.id == keys[k].id;
            });
            order.Erase(keys[k]);
            kept.erase(it);
            keys.erase(keys.begin() + k);
        }
        check();
    }
    std::shuffle(keys.begin(), keys.end(), rng);
    for (const PriorityKey& key : keys)
    {
        order.Erase(key);
        kept.erase(std::find_if(kept.begin(), kept.end(), [&](const auto& e) {
            return e.first.id == key.id;
        }));
        check();
    }
}

TEST_CASE("a Tiresias replay chooses the same with the prefix as with the plain walk",
          "[engine][prefix]")
{
    TraceReadOptions options;
    std::vector<JobRecord> jobs =
        ReadTrace(std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv", options);
    AnnotatorOptions annotatorOptions;
    TraceAnnotator(WorkloadCatalog::Default(), annotatorOptions).Annotate(jobs);
    for (bool backfill : {true, false})
    {
        for (bool levelEntry : {false, true})
        {
            DYNAMIC_SECTION("backfill " << backfill << " level entry " << levelEntry)
            {
                std::vector<std::string> plain = Events(jobs, false, backfill, levelEntry);
                std::vector<std::string> fast = Events(jobs, true, backfill, levelEntry);
                size_t preemptions = std::count_if(plain.begin(), plain.end(), [](const auto& e) {
                    return e.find(" preempt ") != std::string::npos;
                });
                CHECK(preemptions > 100); // the contended pass ran, and often
                REQUIRE(fast.size() == plain.size());
                for (size_t i = 0; i < plain.size(); ++i)
                {
                    INFO("event " << i);
                    REQUIRE(fast[i] == plain[i]);
                }
            }
        }
    }
}
