/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The components' time series (components.csv): aggregator-pool occupancy per switch under INA,
// beside the storage and provisioning columns (doc/cluster.md "From a trace line to a result
// file").

#include "running-job.h"
#include "temp-dir.h"

#include "ns3/cluster-builder.h"
#include "ns3/cluster-scenario.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-reader.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ns3;

namespace
{

void
Count(uint32_t* n)
{
    ++*n;
}

std::vector<std::vector<std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line))
    {
        std::vector<std::string> cells;
        std::stringstream fields(line);
        std::string cell;
        while (std::getline(fields, cell, ','))
        {
            cells.push_back(cell);
        }
        rows.push_back(cells);
    }
    return rows;
}

} // namespace

TEST_CASE("component series: SwitchML pool occupancy per switch, by hand", "[components]")
{
    // 3 racks of 4 nodes, one GPU each. SwitchML with 40 aggregators per switch and a window of
    // at most 12 slots; a slot keeps two aggregators (its shadow copy). Jobs a and b share
    // rack 0's ToR: partitions of 40 / 2 = 20, windows of 20 / 2 = 10 slots, 20 aggregators each.
    // Job d spans racks 1 and 2 (two-level): alone at ToR 1, ToR 2 and the spine, partition 40,
    // window min(12, 20) = 12, so 24 aggregators at each of its three pools.
    ClusterTopology topology;
    topology.numNodes = 12;
    topology.gpusPerNode = 1;
    topology.nodesPerRack = 4;
    WorkloadProfile p;
    p.name = "sync-heavy";
    p.localBatch = 1;
    p.gradientBytes = 1e8; // 390625 chunks of 64 values: far more than a window
    Ptr<ClusterJob> a = JobOn(1, p, {0, 1});
    Ptr<ClusterJob> b = JobOn(2, p, {2, 3});
    Ptr<ClusterJob> d = JobOn(4, p, {5, 8});
    Ptr<ClusterJob> solo = JobOn(5, p, {6}); // one node: NVLink only, no pool
    auto ina = CreateObject<InaGradientSync>();
    ina->SetAttribute("Policy", StringValue("switchml"));
    ina->SetAttribute("PoolSize", UintegerValue(40));
    ina->SetAttribute("Window", UintegerValue(12));
    uint32_t notified = 0;
    ina->TraceConnectWithoutContext("PoolOccupancy", MakeBoundCallback(&Count, &notified));
    std::vector<double> s;
    ina->Evaluate(topology, {a, b, d, solo}, s);
    CHECK(notified == 1);
    CHECK(ina->PoolOccupancy(3) == std::vector<double>{40, 24, 24, 24});

    // a stops: its 20 aggregators free at once, before any re-evaluation.
    ina->JobStopped(*a);
    CHECK(notified == 2);
    CHECK(ina->PoolOccupancy(3) == std::vector<double>{20, 24, 24, 24});
    ina->JobStopped(*solo); // held nothing: no change, no notice
    CHECK(notified == 2);
    // b re-evaluated alone at ToR 0: partition 40, window 12, 24 aggregators.
    ina->Evaluate(topology, {b, d}, s);
    CHECK(ina->PoolOccupancy(3) == std::vector<double>{24, 24, 24, 24});
    ina->JobStopped(*b);
    ina->JobStopped(*d);
    CHECK(ina->PoolOccupancy(3) == std::vector<double>{0, 0, 0, 0});
    Simulator::Destroy();
}

TEST_CASE("component series: ATP occupancy is the model's own holdings, within the pool",
          "[components]")
{
    // Two jobs on one ToR: PoolOccupancy sums what SwitchSyncTimes reports each job holds; with a
    // pool of 8 aggregators the holdings cannot exceed it.
    ClusterTopology topology;
    topology.numNodes = 4;
    topology.gpusPerNode = 1;
    topology.nodesPerRack = 4;
    WorkloadProfile p;
    p.name = "sync-heavy";
    p.localBatch = 1;
    p.gradientBytes = 1e8;
    Ptr<ClusterJob> a = JobOn(1, p, {0, 1});
    Ptr<ClusterJob> b = JobOn(2, p, {2, 3});
    for (uint32_t pool : {8u, 20000u})
    {
        auto ina = CreateObject<InaGradientSync>();
        ina->SetAttribute("Policy", StringValue("atp"));
        ina->SetAttribute("PoolSize", UintegerValue(pool));
        std::vector<double> s;
        ina->Evaluate(topology, {a, b}, s);
        std::vector<double> occupancy = ina->PoolOccupancy(1);
        REQUIRE(occupancy.size() == 2);
        InaRateJob r;
        r.workers = 2;
        r.gradientBytes = p.gradientBytes;
        r.iterations = 100;
        r.racks = {{0, 2}};
        std::vector<InaRateJob> jobs{r, r};
        jobs[0].id = 1;
        jobs[1].id = 2;
        std::vector<double> held;
        ina->SwitchSyncTimes(jobs, 0, nullptr, &held);
        REQUIRE(held.size() == 2);
        CHECK(held[0] > 0);
        CHECK(occupancy[0] == Approx(held[0] + held[1]).epsilon(1e-12));
        CHECK(occupancy[0] <=
              pool * (1 + 1e-4)); // the fixed point meets the pool within its tolerance
        CHECK(occupancy[1] == 0); // no cross-rack job: the spine's pool is idle
    }
    Simulator::Destroy();
}

TEST_CASE("component series: components.csv gives every switch's pool, empty at the end",
          "[components]")
{
    std::string dir = TestTempDir("test-component-series");
    RngSeedManager::SetSeed(1);
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    Ptr<ClusterBuilder> cluster = CreateObject<ClusterBuilder>();
    cluster->SetAttribute("GradientSync", StringValue("esa"));
    cluster->SetAttribute("Provisioning", StringValue("ideal"));
    cluster->SetAttribute("StoragePolicy", StringValue("ideal"));
    cluster->SetAttribute("InaPoolSize", UintegerValue(64));
    TraceReadOptions options;
    std::vector<JobRecord> jobs = ReadTrace(ClusterScenario::DefaultTracePath(), options);
    cluster->Annotate(jobs, WorkloadCatalog::Default());
    Ptr<ClusterEngine> engine = cluster->Build(jobs, WorkloadCatalog::Default());
    engine->Run();
    cluster->WriteComponentSeries(dir);
    Simulator::Destroy();
    Config::Reset();

    auto rows = ReadCsv(dir + "/components.csv");
    const uint32_t racks = cluster->GetTopology().NumRacks();
    REQUIRE(rows.size() > 2);
    const size_t first = 9; // after time and the storage and provisioning columns
    REQUIRE(rows[0].size() == first + racks + 1);
    for (uint32_t r = 0; r < racks; ++r)
    {
        CHECK(rows[0][first + r] == "ina_tor" + std::to_string(r) + "_aggregators");
    }
    CHECK(rows[0].back() == "ina_spine_aggregators");
    double peak = 0;
    double spinePeak = 0;
    for (size_t i = 1; i < rows.size(); ++i)
    {
        REQUIRE(rows[i].size() == rows[0].size());
        for (size_t c = first; c < rows[i].size(); ++c)
        {
            double v = std::stod(rows[i][c]);
            CHECK(v >= 0);
            CHECK(v <= 64 * (1 + 1e-4)); // a pool holds no more than it has (fixed-point tolerance)
            peak = std::max(peak, v);
        }
        spinePeak = std::max(spinePeak, std::stod(rows[i].back()));
    }
    CHECK(peak > 0);      // multi-node jobs ran and held aggregators
    CHECK(spinePeak > 0); // cross-rack jobs at the spine
    // Every job stopped: every pool is empty in the last row.
    for (size_t c = first; c < rows.back().size(); ++c)
    {
        CHECK(std::stod(rows.back()[c]) == 0);
    }
    std::filesystem::remove_all(dir);
}
