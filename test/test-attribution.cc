/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Attribution: what bound a job's sync (pool or link), GPU time lost by cause in summary.json,
// the components' time series (doc/cluster.md "From a trace line to a result file").

#include "running-job.h"
#include "temp-dir.h"

#include "ns3/cluster-builder.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/link-share.h"
#include "ns3/ring-all-reduce-sync.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-reader.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{

WorkloadProfile
Gradient(double bytes)
{
    WorkloadProfile p;
    p.name = "sync-heavy";
    p.localBatch = 1;
    p.gradientBytes = bytes;
    return p;
}

} // namespace

TEST_CASE("attribution: INA names the pool its chunks fell back at, or its link", "[attribution]")
{
    ClusterTopology topology;
    topology.numNodes = 8;
    topology.gpusPerNode = 1;
    topology.nodesPerRack = 4;
    WorkloadProfile p = Gradient(1e8);
    Ptr<ClusterJob> a = JobOn(1, p, {0, 1});
    Ptr<ClusterJob> b = JobOn(2, p, {2, 3});
    Ptr<ClusterJob> c = JobOn(3, p, {4, 5});
    Ptr<ClusterJob> solo = JobOn(4, p, {6});
    auto ina = CreateObject<InaGradientSync>();
    // Rack 0 holds jobs 1 and 2 on a pool of 8 aggregators: their windows of 256 collide.
    ina->SetAttribute("PoolSize", UintegerValue(8));
    ina->SetAttribute("Policy", StringValue("atp"));
    std::vector<double> s(3, 0.0);
    ina->Evaluate(topology, {a, b, solo}, s);
    CHECK(ina->Bottleneck(*a) == "pool:tor0");
    CHECK(ina->Bottleneck(*b) == "pool:tor0");
    CHECK(ina->Bottleneck(*solo) == "nvlink");
    // Job 3 alone in rack 1 on a pool that holds its window: its worker's link.
    auto roomy = CreateObject<InaGradientSync>();
    s.assign(1, 0.0);
    roomy->Evaluate(topology, {c}, s);
    CHECK(roomy->Bottleneck(*c) == "link:nic");
    // With data traffic filling node 5's rails into it, that link.
    Ptr<LinkShare> links = CreateObject<LinkShare>();
    links->SetLinks(topology, 12.5e9, 1);
    links->SetSyncModel(PeekPointer(roomy));
    roomy->SetLinkShare(links);
    std::vector<double> out(8, 0.0);
    std::vector<double> in(8, 0.0);
    in[5] = 12.5e9;
    links->SetDataLoad(out, in);
    roomy->Evaluate(topology, {c}, s);
    CHECK(roomy->Bottleneck(*c) == "link:rails-n5");
    roomy->SetLinkShare(nullptr);
    Simulator::Destroy();
}

TEST_CASE("attribution: a ring names the node whose rails data traffic fills", "[attribution]")
{
    ClusterTopology topology;
    topology.numNodes = 4;
    topology.gpusPerNode = 1;
    WorkloadProfile p = Gradient(1e8);
    Ptr<ClusterJob> job = JobOn(1, p, {1, 2});
    auto ring = CreateObject<RingAllReduceSync>();
    std::vector<double> s(1, 0.0);
    ring->Evaluate(topology, {job}, s);
    CHECK(ring->Bottleneck(*job) == "link:nic");
    Ptr<LinkShare> links = CreateObject<LinkShare>();
    links->SetLinks(topology, 12.5e9, 1);
    links->SetSyncModel(PeekPointer(ring));
    ring->SetLinkShare(links);
    links->SetDataLoad({0, 0, 12.5e9, 0}, {0, 0, 0, 0});
    ring->Evaluate(topology, {job}, s);
    CHECK(ring->Bottleneck(*job) == "link:rails-n2");
    ring->SetLinkShare(nullptr);
    Simulator::Destroy();
}

TEST_CASE("attribution: summary.json's GPU time lost by cause adds up to the total",
          "[attribution]")
{
    RngSeedManager::SetSeed(1);
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
    b->SetAttribute("GradientSync", StringValue("esa"));
    b->SetAttribute("InaPoolSize", UintegerValue(2000));
    // The storage tier alone on the data path: a loader's own cache would hide its stalls.
    b->SetAttribute("Provisioning", StringValue("ideal"));
    b->SetAttribute("StoragePolicy", StringValue("fair"));
    b->SetAttribute("StorageBandwidth", DoubleValue(3e8));
    b->SetAttribute("CacheBytes", DoubleValue(0));
    TraceReadOptions options;
    options.maxJobs = 150;
    std::vector<JobRecord> jobs = ReadTrace(ClusterScenario::DefaultTracePath(), options);
    b->Annotate(jobs, WorkloadCatalog::Default());
    Ptr<ClusterEngine> engine = b->Build(jobs, WorkloadCatalog::Default());
    engine->Run();
    std::string dir = TestTempDir("test-attribution");
    std::filesystem::create_directories(dir);
    RunInfo info;
    info.components = b->Figures(engine);
    ClusterResults::Write(dir, engine, info);
    std::ifstream in(dir + "/summary.json");
    REQUIRE(in.good());
    nlohmann::json summary = nlohmann::json::parse(in);
    const nlohmann::json& lost = summary.at("gpu_time_lost");
    double data = 0;
    double sync = 0;
    for (const auto& [cause, gpuSeconds] : lost.at("gpu_s_by_cause").items())
    {
        INFO(cause);
        bool isData = cause.rfind("data:", 0) == 0;
        bool isSync = cause.rfind("sync:pool:", 0) == 0 || cause.rfind("sync:link:", 0) == 0 ||
                      cause == "sync:nvlink";
        CHECK((isData || isSync));
        (isData ? data : sync) += gpuSeconds.get<double>();
    }
    CHECK(data > 0);
    CHECK(sync > 0);
    CHECK(data == Approx(lost.at("data_gpu_s").get<double>()).epsilon(1e-9));
    CHECK(sync == Approx(lost.at("sync_gpu_s").get<double>()).epsilon(1e-9));
    Simulator::Destroy();
    Config::Reset();
    std::filesystem::remove_all(dir);
}
