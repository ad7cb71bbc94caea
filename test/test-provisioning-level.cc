/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningLevel and ProvisioningDataLoading's PaceGroups: while the pool's cores alone
// bind, every flow gets min(its cap, one level L), which is a full Solve's max-min allocation;
// when another resource would be over capacity at that level, the level says so. In the
// engine, paced jobs finish when a solve at every pass says they do.

#include "provisioning-job.h"

#include "ns3/boolean.h"
#include "ns3/cluster-engine-helper.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/link-share.h"
#include "ns3/provisioning-data-loading.h"
#include "ns3/provisioning-level.h"
#include "ns3/provisioning-model.h"
#include "ns3/ring-all-reduce-sync.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-catalog.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** A model configuration of this test */
struct LevelCase
{
    std::string fairness; //!< ProvisioningModel::Fairness
    uint32_t poolNodes;   //!< PoolNodes
    double poolCores;     //!< PoolCores: few, the cores bind
    std::string storage;  //!< the backend's AggregateBandwidth (small: the storage binds too)
    double poolCache;     //!< PoolCacheBytes (small: reads miss, the storage is used)
    std::string loader{"kspeed"}; //!< the loader (local: no pool, the level is the storage's)
};

Ptr<ProvisioningModel>
Model(const LevelCase& c)
{
    RailClusterConfig cluster;
    cluster.nodes = 6;
    auto m = CreateObject<ProvisioningModel>();
    m->SetAttribute("AggregatePerNode", BooleanValue(true));
    m->SetAttribute("ReuseUsages", BooleanValue(true));
    m->SetAttribute("PoolNodes", UintegerValue(c.poolNodes));
    m->SetAttribute("PoolCores", DoubleValue(c.poolCores));
    m->SetAttribute("Fairness", StringValue(c.fairness));
    m->SetAttribute("PoolCacheBytes", DoubleValue(c.poolCache));
    auto storage = CreateObject<StorageBackend>();
    storage->SetAttribute("AggregateBandwidth", StringValue(c.storage));
    m->SetCluster(cluster, storage);
    m->SetLoader(ProvisioningLoader::Create(c.loader));
    return m;
}

/** Passes of a replay: jobs come (random nodes, GPUs, workloads) and go. */
std::vector<std::vector<ProvisioningJob>>
RandomPasses(uint32_t seed, uint32_t passes)
{
    std::mt19937 rng(seed);
    std::vector<std::string> names = WorkloadCatalog::Default().Names();
    std::vector<std::vector<ProvisioningJob>> out;
    std::vector<ProvisioningJob> running;
    for (uint32_t p = 0; p < passes; ++p)
    {
        if (!running.empty() && rng() % 3 == 0)
        {
            running.erase(running.begin() + rng() % running.size());
        }
        std::vector<uint32_t> free(6, 8);
        for (const auto& j : running)
        {
            for (const auto& [node, g] : j.gpusOnNode)
            {
                free[node] -= g;
            }
        }
        uint32_t node = rng() % 6;
        uint32_t gpus = 1 + rng() % 12;
        std::vector<std::pair<uint32_t, uint32_t>> placed;
        for (uint32_t i = 0; i < 6 && gpus > 0; ++i)
        {
            uint32_t n = (node + i) % 6;
            uint32_t g = std::min(gpus, free[n]);
            if (g > 0)
            {
                placed.emplace_back(n, g);
                gpus -= g;
            }
        }
        if (!placed.empty())
        {
            // kept in the order a Solve numbers the GPUs in: by arrival, as ids
            running.push_back(
                ProvisioningJobOn(std::to_string(p), names[rng() % names.size()], placed));
        }
        out.push_back(running);
    }
    return out;
}

/** What one LevelCase's passes gave */
struct LevelCount
{
    uint32_t level{0};   //!< passes where the level held
    uint32_t other{0};   //!< passes where another resource would be over capacity at it
    uint32_t cobound{0}; //!< passes where the level held, given by a resource but the cores
    uint32_t bound{0};   //!< passes where the level held and was finite (some flow below cap)
};

/**
 * Keep the jobs of every pass in a ProvisioningLevel (each job described alone, as it comes,
 * and again when its plan or its GPU indices move) and, where the level holds, check every
 * job's samples/s per GPU against a full Solve.
 */
LevelCount
CompareOverPasses(const LevelCase& c, uint32_t seeds)
{
    Ptr<ProvisioningModel> full = Model(c);
    Ptr<ProvisioningModel> describer = Model(c);
    LevelCount count;
    for (uint32_t seed = 1; seed <= seeds; ++seed)
    {
        uint32_t statics = describer->StaticCount();
        const auto& caps = describer->Capacities();
        ProvisioningLevel level;
        level.Reset(std::vector<double>(caps.begin(), caps.begin() + statics),
                    describer->LevelResource());
        auto passes = RandomPasses(seed, 14);
        std::vector<ProvisioningJob> kept;
        for (size_t p = 0; p < passes.size(); ++p)
        {
            INFO(c.fairness << " pool " << c.poolNodes << " cores " << c.poolCores << " storage "
                            << c.storage << ": seed " << seed << ", pass " << p);
            const auto& jobs = passes[p];
            // every job again: plans and GPU indices may move with the others
            for (const auto& j : kept)
            {
                level.Remove(std::stoull(j.name));
            }
            std::vector<CachePlan> plans = describer->PlanCaches(jobs);
            std::vector<uint32_t> used(6, 0);
            bool describable = true;
            for (size_t k = 0; k < jobs.size(); ++k)
            {
                ProvisioningJob described = WithFirstGpus(jobs[k], used);
                std::vector<ProvisioningLevel::Flow> flows;
                describable = describer->DescribeJob(described, plans[k], flows) && describable;
                level.Add(std::stoull(jobs[k].name), flows);
            }
            kept = jobs;
            REQUIRE(describable); // Spread: every flow alike on the pool nodes
            double l = level.Level();
            auto results = full->Solve(jobs);
            if (!level.OtherResourcesFit())
            {
                ++count.other;
                continue;
            }
            ++count.level;
            uint32_t binding = level.Binding();
            count.bound += binding != ProvisioningModel::kNoResource;
            if (binding != ProvisioningModel::kNoResource && binding != describer->LevelResource())
            {
                ++count.cobound;
            }
            for (size_t k = 0; k < jobs.size(); ++k)
            {
                double unit = level.SlowestUnit(std::stoull(jobs[k].name));
                double demand = results[k].gpuDemand;
                double rate = std::isfinite(unit) ? std::min(demand, l * unit) : demand;
                INFO("job " << jobs[k].name << " on " << jobs[k].gpusOnNode.size() << " nodes, L "
                            << l);
                CHECK(rate == Approx(results[k].perGpu).epsilon(1e-9));
                if (results[k].bottleneck != "gpu")
                {
                    CHECK(results[k].bottleneck == describer->ResourceKind(binding));
                }
            }
        }
    }
    return count;
}

JobRecord
Job(uint64_t id, double submit, uint32_t gpus, const std::string& model, double iterations)
{
    JobRecord r;
    r.id = id;
    r.name = "job" + std::to_string(id);
    r.submitTime = submit;
    r.numGpus = gpus;
    r.model = model;
    r.iterations = iterations;
    r.duration = 1;
    r.source = RecordSource("test", id);
    return r;
}

/** A replay's jobs and the loader's (level, full) pass counts */
struct Replayed
{
    std::vector<double> finish;           //!< per job
    std::pair<uint64_t, uint64_t> passes; //!< GetPassCounts()
    uint64_t slowedSyncs{0};              //!< LinkShare: sync evaluations the data slowed
    uint32_t utilChecks{0};               //!< Solved traces at which GetUtilization was asked
    uint32_t utilMismatches{0}; //!< of those, where two fields asked alone were not the full one's
    uint32_t cpuIdle{0};        //!< of those, where the busiest CPU share was 0
};

/**
 * At a Solved trace: GetUtilization asked for the CPU and rail shares alone, then for every
 * share, must give those two as the full call does, bit for bit, and 0 for the others.
 */
void
CheckSomeUtilization(Replayed* out, const ProvisioningDataLoading* dl)
{
    ProvisioningUtilization some =
        dl->GetUtilization({&ProvisioningUtilization::cpu, &ProvisioningUtilization::rail});
    ProvisioningUtilization all = dl->GetUtilization();
    out->cpuIdle += !(all.cpu > 0);
    ProvisioningUtilization expected;
    expected.cpu = all.cpu;
    expected.rail = all.rail;
    ++out->utilChecks;
    out->utilMismatches += std::memcmp(&some, &expected, sizeof(some)) != 0;
}

/**
 * A replay on 4 nodes x 8 GPUs (by default KSpeed with a small pool of 6 cores per node: the
 * cores bind; poolCores sets them): jobs come and go.
 */
Replayed
Replay(bool paced,
       uint32_t seed,
       const std::string& storageBandwidth,
       bool shareRails = false,
       double poolCache = 0,
       const std::string& loader = "kspeed",
       bool slowPcie = false,
       double poolCores = 6)
{
    Config::SetDefault("ns3::ProvisioningModel::PoolNodes", UintegerValue(2));
    Config::SetDefault("ns3::ProvisioningModel::PoolCores", DoubleValue(poolCores));
    Config::SetDefault("ns3::ProvisioningDataLoading::PaceGroups", BooleanValue(paced));
    // no cache (by default): every sample is read from the backend, whose bandwidth may bind
    Config::SetDefault("ns3::ProvisioningModel::PoolCacheBytes", DoubleValue(poolCache));
    std::mt19937 rng(seed);
    std::vector<std::string> models = {"resnet50-imagenet", "vgg16-imagenet", "bert-base-squad"};
    if (poolCache > 0)
    {
        models.push_back("resnet18-cifar10"); // its decoded dataset fits: no backend reads
    }
    std::vector<JobRecord> jobs;
    double t = 0;
    for (uint64_t id = 0; id < 40; ++id)
    {
        t += rng() % 120;
        jobs.push_back(
            Job(id, t, 1u << (rng() % 5), models[rng() % models.size()], 200 + rng() % 4000));
    }
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 4;
    topology.gpusPerNode = 8;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::FifoPolicy");
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    auto storage = CreateObject<StorageBackend>();
    storage->SetAttribute("AggregateBandwidth", StringValue(storageBandwidth));
    auto dl = CreateObject<ProvisioningDataLoading>();
    dl->Configure(loader, storage);
    engine->SetDataLoadingModel(dl);
    if (slowPcie)
    {
        // two PCIe switches of one gen-3 lane each: the four GPUs under a switch share its
        // ~1 GB/s uplink from host memory, so which GPUs a job holds sets its rate
        RailClusterConfig rail;
        rail.node.pcieSwitches = 2;
        rail.node.pcieGen = 3;
        rail.node.pcieLanes = 1;
        dl->SetNodeTemplate(rail);
    }
    Ptr<LinkShare> links;
    if (shareRails)
    {
        // ring all-reduce and the loader on the same rails: 8 x 10 Gb/s per node, so that
        // what sync keeps of them binds the loader at times
        RailClusterConfig rail;
        rail.railRateBps = 10e9;
        dl->SetNodeTemplate(rail);
        links = CreateObject<LinkShare>();
        links->SetLinks(topology, 10e9 / 8, 8);
        auto ring = CreateObject<RingAllReduceSync>();
        ring->SetAttribute("NicRate", DataRateValue(DataRate("10Gbps")));
        ring->SetLinkShare(links);
        links->SetSyncModel(PeekPointer(ring));
        dl->SetLinkShare(links);
        engine->SetGradientSyncModel(ring);
    }
    Replayed out;
    // a plain pointer: a Ptr bound into the model's own trace would keep it alive (a cycle);
    // the bound values of exactly the function's types, which ns-3's Bind casts to
    dl->TraceConnectWithoutContext(
        "Solved",
        MakeBoundCallback(
            +[](Replayed* out,
                const ProvisioningDataLoading* dl,
                const std::vector<ProvisioningJobResult>&) { CheckSomeUtilization(out, dl); },
            &out,
            static_cast<const ProvisioningDataLoading*>(PeekPointer(dl))));
    engine->Run();
    for (const auto& j : engine->Jobs())
    {
        out.finish.push_back(j->finishTime);
    }
    out.passes = dl->GetPassCounts();
    if (links)
    {
        out.slowedSyncs = links->GetFigures().slowedSyncs;
    }
    Simulator::Destroy();
    Config::Reset();
    return out;
}

} // namespace

TEST_CASE("provisioning level: while the pool's cores alone bind, the level is a full Solve's "
          "allocation",
          "[provisioning]")
{
    for (const std::string fairness : {"DominantShare", "DemandFraction", "Samples"})
    {
        for (uint32_t pool : {1u, 2u, 5u})
        {
            LevelCount n = CompareOverPasses({fairness, pool, 4.0 * pool, "8000Gbps", 512e9}, 4);
            INFO(fairness << ", pool " << pool);
            CHECK(n.level > 40); // the cores bound, and nothing else: the level held
        }
    }
}

TEST_CASE("provisioning level: another resource over capacity at the level is seen",
          "[provisioning]")
{
    // The backend's aggregate bandwidth is short too, and a cache keeps some datasets off it
    // (their flows do not read it): some passes need the full solver (and in the others the
    // level still has to agree with it).
    LevelCount n = CompareOverPasses({"DominantShare", 2, 16, "2Gbps", 2e10}, 4);
    CHECK(n.other > 0);
    CHECK(n.level > 0);
}

TEST_CASE("provisioning level: a resource that exactly the pool's flows use gives the level when "
          "it binds first",
          "[provisioning]")
{
    // No cache: every flow on the pool's cores reads the backend, whose bandwidth is short.
    // It fills first and freezes every flow at once: the level is its own, and a full Solve
    // agrees, rate and bottleneck.
    for (const std::string fairness : {"DominantShare", "DemandFraction", "Samples"})
    {
        LevelCount n = CompareOverPasses({fairness, 2, 16, "2Gbps", 0}, 4);
        INFO(fairness);
        CHECK(n.cobound > 10);
        CHECK(n.other == 0);
    }
}

TEST_CASE("provisioning level: without a pool the storage backend gives the level when it binds",
          "[provisioning]")
{
    // The local loader reads every sample from the backend on the training node: no pool
    // cores, so the level is the backend's own, and while it alone binds a full Solve agrees.
    for (const std::string fairness : {"DominantShare", "DemandFraction", "Samples"})
    {
        LevelCount n = CompareOverPasses({fairness, 2, 16, "2Gbps", 0, "local"}, 4);
        INFO(fairness);
        CHECK(n.bound > 10);   // the backend bound, and nothing else: the level held
        CHECK(n.cobound == 0); // the backend is the level's own resource
    }
}

TEST_CASE("provisioning engine: jobs on the level's pace finish when a solve at every pass says",
          "[provisioning]")
{
    for (uint32_t seed : {1u, 2u})
    {
        // the storage ample; short for every flow (it gives the level); short, and a cache
        // keeps some flows off it (the solver then takes some passes)
        for (const auto& [storage, cache] :
             std::vector<std::pair<std::string, double>>{{"8000Gbps", 0},
                                                         {"2Gbps", 0},
                                                         {"2Gbps", 2e10}})
        {
            INFO("seed " << seed << ", storage " << storage << ", cache " << cache);
            Replayed full = Replay(false, seed, storage, false, cache);
            Replayed paced = Replay(true, seed, storage, false, cache);
            REQUIRE(full.finish.size() == paced.finish.size());
            for (size_t k = 0; k < full.finish.size(); ++k)
            {
                INFO("job " << k);
                CHECK(paced.finish[k] == Approx(full.finish[k]).epsilon(1e-9));
            }
            CHECK(full.passes.first == 0);
            CHECK(paced.passes.first > 0); // the level carried passes
            if (cache > 0)
            {
                CHECK(paced.passes.second > 0); // and the storage sent some to the solver
            }
        }
    }
}

TEST_CASE("provisioning engine: local-loader jobs on the backend's level finish when a solve at "
          "every pass says",
          "[provisioning]")
{
    for (uint32_t seed : {1u, 2u})
    {
        INFO("seed " << seed);
        Replayed full = Replay(false, seed, "2Gbps", false, 0, "local");
        Replayed paced = Replay(true, seed, "2Gbps", false, 0, "local");
        REQUIRE(full.finish.size() == paced.finish.size());
        for (size_t k = 0; k < full.finish.size(); ++k)
        {
            INFO("job " << k);
            CHECK(paced.finish[k] == Approx(full.finish[k]).epsilon(1e-9));
        }
        CHECK(full.passes.first == 0);
        CHECK(paced.passes.first > paced.passes.second); // the level carried most passes
    }
}

TEST_CASE("provisioning engine: paced and solved alike when a job's GPUs pick its PCIe switch",
          "[provisioning]")
{
    // Jobs keep their GPUs while they run (GpuIndexAllocator), on the level and in a full
    // solve at every pass alike; with local loading over slow shared PCIe switch uplinks the
    // GPUs a job holds set its rate, so numbering them differently in either gives other times.
    uint32_t differ = 0;
    for (uint32_t seed = 1; seed <= 4; ++seed)
    {
        INFO("seed " << seed);
        Replayed full = Replay(false, seed, "2Gbps", false, 0, "local", true);
        Replayed paced = Replay(true, seed, "2Gbps", false, 0, "local", true);
        REQUIRE(full.finish.size() == paced.finish.size());
        for (size_t k = 0; k < full.finish.size(); ++k)
        {
            INFO("job " << k);
            CHECK(paced.finish[k] == Approx(full.finish[k]).epsilon(1e-9));
        }
        CHECK(paced.passes.first > 0);
        // the PCIe uplinks do bind: the same jobs on faster PCIe finish otherwise
        Replayed fast = Replay(true, seed, "2Gbps", false, 0, "local", false);
        for (size_t k = 0; k < fast.finish.size(); ++k)
        {
            differ += fast.finish[k] != paced.finish[k];
        }
    }
    CHECK(differ > 0);
}

TEST_CASE("provisioning engine: paced jobs share the rails with ring all-reduce as a solve at "
          "every pass does",
          "[provisioning]")
{
    // 16- and 32-GPU jobs span nodes: their sync keeps part of the rails from the loader, and
    // the loader's load at the level slows their sync (LinkShare, both ways).
    for (uint32_t seed : {3u, 4u})
    {
        INFO("seed " << seed);
        Replayed full = Replay(false, seed, "8000Gbps", true);
        Replayed paced = Replay(true, seed, "8000Gbps", true);
        REQUIRE(full.finish.size() == paced.finish.size());
        for (size_t k = 0; k < full.finish.size(); ++k)
        {
            INFO("job " << k);
            CHECK(paced.finish[k] == Approx(full.finish[k]).epsilon(1e-9));
        }
        CHECK(paced.passes.first > 0);
        // the data load slowed sync in both (evaluations are counted per pass, so not equal)
        CHECK(full.slowedSyncs > 0);
        CHECK(paced.slowedSyncs > 0);
    }
}

TEST_CASE("provisioning engine: a job on a rail whose reserve moved keeps its flows only while "
          "their units stand, as a solve at every pass has it",
          "[provisioning]")
{
    // DPP's flows cross the trainer's rails, which ring all-reduce keeps a share of: a job that
    // starts or stops moves the reserve on its nodes, and the jobs there keep their flows only
    // if each flow's dominant share comes out the same (ProvisioningModel::KeptFlowUnit). With
    // 24 cores per pool node a rail is the dominant resource of some flows, and with 64 the
    // storage binds at 20 Gb/s: taking every kept flow as standing fails both.
    for (uint32_t seed : {3u, 4u})
    {
        for (double cores : {24.0, 64.0})
        {
            for (const char* storage : {"8000Gbps", "20Gbps"})
            {
                INFO("seed " << seed << ", pool cores " << cores << ", storage " << storage);
                Replayed full = Replay(false, seed, storage, true, 0, "dpp", false, cores);
                Replayed paced = Replay(true, seed, storage, true, 0, "dpp", false, cores);
                REQUIRE(full.finish.size() == paced.finish.size());
                for (size_t k = 0; k < full.finish.size(); ++k)
                {
                    INFO("job " << k);
                    CHECK(paced.finish[k] == Approx(full.finish[k]).epsilon(1e-9));
                }
                CHECK(paced.passes.first > 0);
            }
        }
    }
}

TEST_CASE("provisioning engine: the busiest shares asked for alone are the full utilisation's, "
          "and the others 0",
          "[provisioning]")
{
    // At every Solved trace (CheckSomeUtilization): on the level (paced) and solved in full,
    // with the KSpeed pool, the local loader on a short backend, and the rails shared.
    for (bool paced : {true, false})
    {
        for (uint32_t seed : {1u, 3u})
        {
            INFO("paced " << paced << ", seed " << seed);
            for (const Replayed& r : {Replay(paced, seed, "2Gbps", false, 2e10),
                                      Replay(paced, seed, "2Gbps", false, 0, "local"),
                                      Replay(paced, seed, "8000Gbps", true)})
            {
                CHECK(r.utilChecks > 10);
                CHECK(r.utilMismatches == 0);
                CHECK(r.cpuIdle == 0); // every trace has a job loading: computed, not left 0
            }
        }
    }
}

namespace
{

/**
 * The busiest share per class as BusiestShares must give it, from the test's own capacities:
 * the largest LoadOf(r) / capacity over the used resources, 0 if none is above 0.
 */
std::vector<double>
ScannedShares(const ProvisioningLevel& level,
              const std::vector<double>& caps,
              const std::vector<uint8_t>& classOf,
              uint32_t classes)
{
    std::vector<double> out(classes, 0.0);
    for (uint32_t r : level.Used())
    {
        out[classOf[r]] = std::max(out[classOf[r]], level.LoadOf(r) / caps[r]);
    }
    return out;
}

} // namespace

TEST_CASE("provisioning level: the busiest shares kept incrementally are those of a pass over "
          "every used resource, bit for bit",
          "[provisioning]")
{
    // Random flows on 300 resources in 5 classes (resource 0, the level's, in class 0); jobs
    // come and go, capacities move (the level binds, or not: L infinite), and enough updates
    // are made for the sums to be refreshed several times. Many resources share a capacity
    // and many flows are copies, so that shares tie; some classes are never used.
    const uint32_t resources = 300;
    const uint32_t classes = 7;
    uint32_t levelPasses = 0;
    uint32_t infinitePasses = 0;
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unif(0.0, 1.0);
        std::vector<uint8_t> classOf(resources);
        std::vector<double> caps(resources);
        for (uint32_t r = 0; r < resources; ++r)
        {
            classOf[r] = r == 0 ? 0 : uint8_t(rng() % 5);
            caps[r] = (rng() % 4 == 0) ? 1.0 + std::floor(unif(rng) * 5) : 0.5 + unif(rng) * 10;
        }
        ProvisioningLevel level;
        level.Reset(caps, 0);
        level.SetClasses(classOf, classes);
        std::vector<ProvisioningLevel::Flow> pattern; // flows to copy
        std::map<uint64_t, bool> jobs;
        uint64_t next = 0;
        std::mt19937 askRng(seed + 100); // which classes a pass asks for: a stream of its own
        for (uint32_t pass = 0; pass < 1000; ++pass)
        {
            INFO("seed " << seed << ", pass " << pass);
            // a third of the passes move the level's capacity alone: L moves, flows cross
            // the split, and no flow comes or goes
            bool levelOnly = rng() % 3 == 0;
            uint32_t changes = levelOnly ? 0 : 1 + rng() % 6;
            for (uint32_t c = 0; c < changes; ++c)
            {
                if (!jobs.empty() && rng() % 5 < 2)
                {
                    auto it = jobs.begin();
                    std::advance(it, rng() % jobs.size());
                    level.Remove(it->first);
                    jobs.erase(it);
                    continue;
                }
                std::vector<ProvisioningLevel::Flow> flows;
                for (uint32_t f = 1 + rng() % 3; f > 0; --f)
                {
                    if (!pattern.empty() && rng() % 3 == 0)
                    {
                        flows.push_back(pattern[rng() % pattern.size()]); // a copy: ties
                        continue;
                    }
                    ProvisioningLevel::Flow flow;
                    flow.unit = 0.5 + unif(rng);
                    flow.cap = 0.01 + unif(rng) * 2;
                    if (rng() % 5 != 0)
                    {
                        flow.usage.emplace_back(0, 0.1 + unif(rng)); // on the level
                    }
                    for (uint32_t u = 1 + rng() % 5; u > 0; --u)
                    {
                        flow.usage.emplace_back(1 + rng() % (resources - 1), 0.05 + unif(rng));
                    }
                    pattern.push_back(flow);
                    flows.push_back(flow);
                }
                level.Add(next, flows);
                jobs[next++] = true;
            }
            if (levelOnly)
            {
                caps[0] = 0.5 + unif(rng) * (rng() % 4 == 0 ? 200 : 10);
                level.SetCapacities(caps);
            }
            else if (rng() % 10 == 0)
            {
                // the level's capacity moves: sometimes every flow fits (L infinite), and
                // others move with it (as gradient sync's reserve moves the rails)
                caps[0] = 0.5 + unif(rng) * (rng() % 3 == 0 ? 200 : 10);
                for (uint32_t k = 0; k < 5; ++k)
                {
                    caps[1 + rng() % (resources - 1)] = 0.5 + unif(rng) * 10;
                }
                level.SetCapacities(caps);
            }
            double l = level.Level();
            std::isinf(l) ? ++infinitePasses : ++levelPasses;
            std::vector<double> busiest;
            // a third of the passes ask for some classes only (a series that records a few)
            uint64_t asked =
                askRng() % 3 == 0 ? askRng() % (1u << classes) : ProvisioningLevel::kAllClasses;
            level.BusiestShares(busiest, asked);
            std::vector<double> scanned = ScannedShares(level, caps, classOf, classes);
            REQUIRE(busiest.size() == classes);
            for (uint32_t c = 0; c < classes; ++c)
            {
                INFO("class " << c << ", L " << l << ", asked " << asked);
                // the same number, not close to it; 0 for a class not asked for
                REQUIRE(busiest[c] == ((asked >> c) & 1 ? scanned[c] : 0.0));
            }
        }
    }
    CHECK(levelPasses > 1000);
    CHECK(infinitePasses > 100);
}

TEST_CASE("provisioning level: a refresh that moves a sum's last bits moves its busiest share",
          "[provisioning]")
{
    // Resource 1's demand sum is kept in event order: 0.1 + 0.2 + 0.3 - 0.2 is not the 0.1 +
    // 0.3 of a refresh's fixed order. Filler updates on resource 2 (same class, less loaded)
    // bring the refresh, a query after each (few moves per query: the share trees answer, not
    // a scan); resource 1 itself is not touched by them, so only the refresh can tell the
    // trees that its sum moved (L is infinite: the busiest share is the demand tree's root).
    const uint32_t resources = 64;
    std::vector<double> caps(resources, 1.0);
    caps[0] = 1e9;
    std::vector<uint8_t> classOf(resources, 1);
    classOf[0] = 0;
    ProvisioningLevel level;
    level.Reset(caps, 0);
    level.SetClasses(classOf, 2);
    auto flowOn = [](uint32_t r, double demand) {
        ProvisioningLevel::Flow flow;
        flow.unit = 1.0;
        flow.cap = demand;
        flow.usage.emplace_back(r, 1.0);
        return std::vector<ProvisioningLevel::Flow>{flow};
    };
    level.Add(1, flowOn(1, 0.1));
    level.Add(2, flowOn(1, 0.2));
    level.Add(3, flowOn(1, 0.3));
    level.Remove(2);
    const double running = 0.1 + 0.2 + 0.3 - 0.2;
    const double fresh = 0.1 + 0.3;
    REQUIRE(running != fresh); // the case needs a sum whose bits a refresh moves
    std::vector<double> busiest;
    uint64_t filler = 100;
    uint32_t refreshedAt = 0;
    for (uint32_t k = 0; k < 2 * ProvisioningLevel::RefreshEvery(); ++k)
    {
        level.Add(filler, flowOn(2, 0.05));
        level.Remove(filler++);
        REQUIRE(std::isinf(level.Level()));
        level.BusiestShares(busiest);
        INFO("filler " << k);
        REQUIRE(busiest[1] == ScannedShares(level, caps, classOf, 2)[1]);
        refreshedAt = refreshedAt == 0 && level.LoadOf(1) == fresh ? k + 1 : refreshedAt;
    }
    CHECK(refreshedAt > 0);
}

TEST_CASE("provisioning level: busiest shares over resources whose sums tie bit for bit, or "
          "nearly, are those of a pass over every used resource",
          "[provisioning]")
{
    // Like identical nodes running identical jobs: every flow is one of a few patterns, each
    // on the level's resource and on one resource of a class, so many resources hold the very
    // same sums and a share tree's subtrees stand for one of them (ShareTree::top). Equal
    // sums come with unequal capacities (odd resources are larger), and flows are capped or
    // rising at the level, so equal capped sums may hide unequal rising ones. In the second
    // round the weights differ by an ulp or two: sums an ulp apart, whose bounds round alike,
    // move a subtree's top while its bounds stay.
    const uint32_t perClass = 96;
    const uint32_t classes = 3;
    const uint32_t resources = 1 + classes * perClass;
    std::vector<uint8_t> classOf(resources, 0);
    std::vector<double> caps(resources, 1.0);
    for (uint32_t r = 1; r < resources; ++r)
    {
        classOf[r] = uint8_t((r - 1) / perClass);
        caps[r] = r % 2 ? 3.0 : 2.0;
    }
    uint32_t levelPasses = 0;
    for (uint32_t seed = 1; seed <= 8; ++seed)
    {
        const bool nearTies = seed > 4;
        std::mt19937 rng(seed);
        std::mt19937 ulpRng(seed); // the weights' ulps: a stream of their own
        caps[0] = 0.5;
        ProvisioningLevel level;
        level.Reset(caps, 0);
        level.SetClasses(classOf, classes);
        std::map<uint64_t, bool> jobs;
        uint64_t next = 0;
        for (uint32_t pass = 0; pass < 600; ++pass)
        {
            INFO("seed " << seed << ", pass " << pass);
            for (uint32_t c = 1 + rng() % 4; c > 0; --c)
            {
                // few flows on few resources: many hold the same ones, and a departure
                // often leaves a twin's group (or its first member)
                if (!jobs.empty() && (jobs.size() > 30 || rng() % 2 == 0))
                {
                    auto it = jobs.begin();
                    std::advance(it, rng() % jobs.size());
                    level.Remove(it->first);
                    jobs.erase(it);
                    continue;
                }
                ProvisioningLevel::Flow flow;
                flow.unit = 1.0;
                flow.cap = (rng() % 3 == 0) ? 0.01 : 0.5; // capped or rising, as L goes
                flow.usage.emplace_back(0, 0.25);
                uint32_t cls = rng() % classes;
                double weight = 0.5;
                for (uint32_t u = nearTies ? ulpRng() % 3 : 0; u > 0; --u)
                {
                    weight = std::nextafter(weight, 1.0);
                }
                flow.usage.emplace_back(1 + cls * perClass + rng() % 8, weight);
                level.Add(next, {flow});
                jobs[next++] = true;
            }
            if (rng() % 4 == 0)
            {
                caps[0] = (rng() % 5 == 0) ? 1e6 : 0.2 + 0.3 * (rng() % 4); // L infinite at times
                level.SetCapacities(caps);
            }
            double l = level.Level();
            levelPasses += std::isfinite(l);
            std::vector<double> busiest;
            level.BusiestShares(busiest);
            std::vector<double> scanned = ScannedShares(level, caps, classOf, classes);
            for (uint32_t c = 0; c < classes; ++c)
            {
                INFO("class " << c << ", L " << l);
                REQUIRE(busiest[c] == scanned[c]); // the same number, not close to it
            }
        }
    }
    CHECK(levelPasses > 2000);
}

TEST_CASE("provisioning level: a subtree's top whose sums drop by an ulp, its bounds rounding "
          "alike, gives way to the leaf now above it",
          "[provisioning]")
{
    // Resources 1 and 1024 (of 1024 in one class, capacity 3) sit in the two halves of their
    // tree and carry one rising flow each, of the same weight y: the root's top is resource
    // 1 (few sums move per pass, so the tree is walked, not scanned or rebuilt). Then
    // resource 1's flow is replaced by one of weight y less an ulp. Its bound, y / 3 rounded,
    // is often the same number, so its half of the tree keeps its bounds and its top: the
    // walk up must still go on (resource 1 is dirty), or the root keeps naming resource 1
    // while resource 3's share is the larger. Whether the shares differ at L depends on L
    // and y: random ones, counted.
    const uint32_t last = 1024;
    std::vector<uint8_t> classOf(last + 1, 1);
    classOf[0] = 0;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    uint32_t sensitive = 0;
    for (uint32_t trial = 0; trial < 400; ++trial)
    {
        std::vector<double> caps(last + 1, 3.0);
        caps[0] = 0.3 + 2 * unif(rng);
        const double y = 0.75 + 0.25 * unif(rng);
        auto rising = [](uint32_t r, double weight) {
            ProvisioningLevel::Flow flow;
            flow.unit = 1.0;
            flow.cap = 1e9; // never capped: the flow rises with L
            flow.usage = {{0, 1.0}, {r, weight}};
            return std::vector<ProvisioningLevel::Flow>{flow};
        };
        ProvisioningLevel level;
        level.Reset(caps, 0);
        level.SetClasses(classOf, 2);
        level.Add(1, rising(1, y));
        level.Add(last, rising(last, y));
        std::vector<double> busiest;
        level.Level();
        level.BusiestShares(busiest);
        level.Remove(1);
        level.Add(1, rising(1, std::nextafter(y, 0.0)));
        double l = level.Level();
        level.BusiestShares(busiest);
        std::vector<double> scanned = ScannedShares(level, caps, classOf, 2);
        INFO("trial " << trial << ", y " << y << ", L " << l);
        REQUIRE(std::isfinite(l));
        REQUIRE(busiest[1] == scanned[1]); // the same number, not close to it
        sensitive += level.LoadOf(1) / caps[1] != level.LoadOf(last) / caps[last];
    }
    CHECK(sensitive > 50);
}

TEST_CASE("provisioning level: busiest shares over resources whose loads cross near the level "
          "are those of a pass over every used resource",
          "[provisioning]")
{
    // A share tree's subtree may stand for one resource from a level up (ShareTree::from): one
    // whose flows rise with L passes one whose flows are capped higher. Here pairs of
    // resources of one capacity have loads that cross at the level itself, give or take a
    // relative 1e-16 to 1e-10, among resources with random flows; then the level moves by as
    // little (its resource's capacity does, no other sum moves), and every query must give
    // the pass's number. The rising flows are on the level's resource (the others get their
    // cap whatever L), the capped ones are not, so that they do not move it.
    const uint32_t perClass = 64;
    std::vector<uint8_t> classOf(perClass + 1, 1);
    classOf[0] = 0;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    const double deltas[] = {0, 1e-16, -1e-16, 1e-15, -1e-15, 1e-13, -1e-13, 1e-10, -1e-10};
    uint32_t cappedWins = 0;
    uint32_t risingWins = 0;
    for (uint32_t trial = 0; trial < 60; ++trial)
    {
        INFO("trial " << trial);
        std::vector<double> caps(perClass + 1, 3.0);
        caps[0] = 0.3 + unif(rng);
        ProvisioningLevel level;
        level.Reset(caps, 0);
        level.SetClasses(classOf, 2);
        auto rising = [](uint32_t r, double weight) {
            ProvisioningLevel::Flow f;
            f.unit = 1.0;
            f.cap = 1e9;
            f.usage = {{0, 0.01}, {r, weight}};
            return f;
        };
        auto capped = [](uint32_t r, double load) {
            ProvisioningLevel::Flow f;
            f.unit = 1.0;
            f.cap = 1e-3;
            f.usage = {{r, load / 1e-3}};
            return f;
        };
        std::vector<uint32_t> slots(perClass);
        std::iota(slots.begin(), slots.end(), 1);
        std::shuffle(slots.begin(), slots.end(), rng);

        struct Pair
        {
            uint32_t p, q;            // p rises faster, q is capped higher
            double yp, yq, cp, delta; // their loads meet at about L
        };

        std::vector<Pair> pairs;
        uint64_t next = 0;
        for (uint32_t k = 0; k + 1 < perClass; k += 2)
        {
            uint32_t p = slots[k];
            uint32_t q = slots[k + 1];
            if (k < 32)
            {
                double yp = 0.5 + 0.5 * unif(rng);
                double yq = yp * (0.2 + 0.7 * unif(rng));
                pairs.push_back(
                    {p, q, yp, yq, 0.01 * unif(rng), deltas[rng() % std::size(deltas)]});
                level.Add(next++, {rising(p, yp)});
                level.Add(next++, {rising(q, yq)});
            }
            else
            {
                level.Add(next++, {rising(p, unif(rng)), capped(p, unif(rng))});
                level.Add(next++, {capped(q, unif(rng))});
            }
        }
        const double l = level.Level();
        REQUIRE(std::isfinite(l));
        for (const Pair& x : pairs)
        {
            level.Add(next++, {capped(x.p, x.cp)});
            level.Add(next++, {capped(x.q, x.cp + l * (x.yp - x.yq) * (1 + x.delta))});
        }
        REQUIRE(level.Level() == l);
        std::vector<double> busiest;
        for (uint32_t move = 0; move < 40; ++move)
        {
            double now = level.Level();
            REQUIRE(std::isfinite(now));
            level.BusiestShares(busiest);
            INFO("move " << move << ", L " << now);
            REQUIRE(busiest[1] == ScannedShares(level, caps, classOf, 2)[1]);
            for (const Pair& x : pairs)
            {
                double sp = level.LoadOf(x.p) / caps[x.p];
                double sq = level.LoadOf(x.q) / caps[x.q];
                cappedWins += sq > sp;

                risingWins += sp > sq;
            }
            // the level moves by a few ulps or a relative 1e-15 to 1e-9, either way
            double step = deltas[rng() % std::size(deltas)];
            caps[0] =
                step == 0 ? std::nextafter(caps[0], rng() % 2 ? 0.0 : 2.0) : caps[0] * (1 + step);
            level.SetCapacities(caps);
        }
    }
    CHECK(cappedWins > 1000);
    CHECK(risingWins > 1000);
}

TEST_CASE("provisioning level: where a class's resources share one capacity, its busiest share "
          "is the largest load's, bit for bit",
          "[provisioning]")
{
    // Class 1 keeps one capacity; class 2 has one, loses it when capacities move by name
    // and gets another back; class 3 has many. Jobs come and go (sums that return to 0 or
    // just below it), and the shares by load must be the scanned shares' bits (0, not -0).
    const uint32_t resources = 120;
    const uint32_t classes = 4;
    uint32_t uniformChecks = 0;
    for (uint32_t seed = 1; seed <= 4; ++seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unif(0.0, 1.0);
        std::vector<uint8_t> classOf(resources);
        std::vector<double> caps(resources);
        for (uint32_t r = 0; r < resources; ++r)
        {
            classOf[r] = r == 0 ? 0 : uint8_t(1 + r % 3);
            caps[r] = classOf[r] == 1 ? 3.7 : classOf[r] == 2 ? 0.3 : 0.5 + unif(rng) * 10;
        }
        ProvisioningLevel level;
        level.Reset(caps, 0);
        level.SetClasses(classOf, classes);
        std::map<uint64_t, bool> jobs;
        uint64_t next = 0;
        for (uint32_t pass = 0; pass < 600; ++pass)
        {
            INFO("seed " << seed << ", pass " << pass);
            if (!jobs.empty() && rng() % 5 < 2)
            {
                auto it = jobs.begin();
                std::advance(it, rng() % jobs.size());
                level.Remove(it->first);
                jobs.erase(it);
            }
            else
            {
                ProvisioningLevel::Flow flow;
                flow.unit = 0.5 + unif(rng);
                flow.cap = 0.01 + unif(rng) * 2;
                flow.usage.emplace_back(0, 0.1 + unif(rng));
                for (uint32_t u = 1 + rng() % 40; u > 0; --u)
                {
                    flow.usage.emplace_back(1 + rng() % (resources - 1), 0.05 + unif(rng));
                }
                level.Add(next, {flow});
                jobs[next++] = true;
            }
            if (rng() % 7 == 0)
            {
                // one class-2 resource moves (mixed), or all of them to one new capacity
                std::vector<uint32_t> moved;
                double common = 0.2 + unif(rng);
                bool one = rng() % 2 == 0;
                for (uint32_t r = 2; r < resources; r += 3)
                {
                    if (!one || moved.empty())
                    {
                        caps[r] = common;
                        moved.push_back(r);
                    }
                }
                caps[0] = 0.5 + unif(rng) * 10;
                moved.push_back(0);
                level.SetCapacities(caps, moved);
            }
            level.Level();
            std::vector<double> byLoad;
            std::vector<double> scanned;
            uint64_t asked = pass % 4 == 0 ? 0b0110 : ProvisioningLevel::kAllClasses;
            level.BusiestSharesByLoad(byLoad, asked);
            level.BusiestSharesScanned(scanned, asked);
            REQUIRE(byLoad.size() == classes);
            for (uint32_t c = 0; c < classes; ++c)
            {
                INFO("class " << c << ": " << byLoad[c] << " against " << scanned[c]);
                REQUIRE(std::memcmp(&byLoad[c], &scanned[c], sizeof(double)) == 0);
                uniformChecks += c == 1 && byLoad[c] > 0;
            }
        }
    }
    CHECK(uniformChecks > 1000);
}

TEST_CASE("provisioning level: a node's rail loads summed at once are LoadOf's sums, bit for bit",
          "[provisioning]")
{
    // Random flows on 64 resources, the level binding or not (L finite or infinite); each
    // "node" is a random list of uplinks, whose reverses (id ^ 1) are summed as well.
    const uint32_t resources = 64;
    uint32_t finite = 0;
    uint32_t infinite = 0;
    for (uint32_t seed = 1; seed <= 4; ++seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unif(0.0, 1.0);
        std::vector<double> caps(resources);
        for (double& cap : caps)
        {
            cap = 0.5 + unif(rng) * 10;
        }
        ProvisioningLevel level;
        level.Reset(caps, 0);
        for (uint64_t job = 0; job < 200; ++job)
        {
            ProvisioningLevel::Flow flow;
            flow.unit = 0.5 + unif(rng);
            flow.cap = 0.01 + unif(rng) * 2;
            flow.usage.emplace_back(0, 0.1 + unif(rng));
            for (uint32_t u = 1 + rng() % 6; u > 0; --u)
            {
                flow.usage.emplace_back(1 + rng() % (resources - 1), 0.05 + unif(rng));
            }
            level.Add(job, {flow});
            caps[0] = 0.5 + unif(rng) * (rng() % 3 == 0 ? 400 : 10);
            level.SetCapacities(caps);
            const double levelNow = level.Level();
            std::isinf(levelNow) ? ++infinite : ++finite;
            std::vector<uint32_t> uplinks(rng() % 9);
            for (uint32_t& l : uplinks)
            {
                l = static_cast<uint32_t>(rng() % resources);
            }
            double out = -1;
            double in = -1;
            level.UplinkLoads(uplinks.data(), uplinks.data() + uplinks.size(), out, in);
            double sumOut = 0.0;
            double sumIn = 0.0;
            for (uint32_t l : uplinks)
            {
                sumOut += level.LoadOf(l);
                sumIn += level.LoadOf(l ^ 1u);
            }
            INFO("seed " << seed << ", job " << job << ", L " << levelNow);
            REQUIRE(std::memcmp(&out, &sumOut, sizeof out) == 0);
            REQUIRE(std::memcmp(&in, &sumIn, sizeof in) == 0);
        }
    }
    CHECK(finite > 50);
    CHECK(infinite > 50);
}

TEST_CASE("provisioning model: usages kept across a move of the rail reserve describe jobs as "
          "a fresh model does",
          "[provisioning]")
{
    // A kept usage's dominant share is taken again when the rails' capacities move (gradient
    // sync keeps another share of them): the flows must be a fresh model's, to the bit, even
    // when a rail is the dominant resource. With slow storage clients (no pool cache, every
    // sample read through the job's client) a client is the dominant resource of some flows.
    for (bool slowClients : {false, true})
    {
        INFO("slow clients " << slowClients);
        if (slowClients)
        {
            Config::SetDefault("ns3::StorageBackend::ClientBandwidth", StringValue("4Gbps"));
        }
        LevelCase c{"DominantShare", 5, 20.0, "8000Gbps", slowClients ? 0.0 : 512e9};
        Ptr<ProvisioningModel> kept = Model(c);
        auto passes = RandomPasses(3, 14);
        const auto& jobs = passes.back();
        REQUIRE(jobs.size() > 2);
        std::vector<CachePlan> plans = kept->PlanCaches(jobs);
        auto describe = [&](Ptr<ProvisioningModel> m,
                            std::vector<std::vector<ProvisioningLevel::Flow>>& out) {
            out.assign(jobs.size(), {});
            std::vector<uint32_t> used(6, 0);
            for (size_t k = 0; k < jobs.size(); ++k)
            {
                REQUIRE(m->DescribeJob(WithFirstGpus(jobs[k], used), plans[k], out[k]));
            }
        };
        std::vector<std::vector<ProvisioningLevel::Flow>> before;
        describe(kept, before); // the usages cached with the full rails
        uint32_t moved = 0;
        // A job's flows kept from the last move: KeptFlowUnit must give each the unit a
        // description now gives it, to the bit, whether that moved or stood.
        std::vector<std::vector<ProvisioningLevel::Flow>> prior = before;
        uint32_t unitsMoved = 0;
        uint32_t unitsStood = 0;
        uint32_t clientBound = 0; // flows whose dominant resource is a storage client
        // A rail of every node left with a small share (the data's dominant resource), then
        // moves of a few nodes' reserves only, which the kept model applies to their rails alone.
        const std::vector<std::vector<double>> reserves = {
            std::vector<double>(6, 0.0),
            std::vector<double>(6, 200e9),
            {200e9, 200e9, 390e9, 200e9, 200e9, 200e9},
            {390e9, 200e9, 390e9, 200e9, 0.0, 200e9},
            std::vector<double>(6, 390e9),
            std::vector<double>(6, 100e9)};
        for (const std::vector<double>& r : reserves)
        {
            const double reserve = r[0];
            kept->SetRailReserve(r);
            Ptr<ProvisioningModel> fresh = Model(c);
            fresh->SetRailReserve(r);
            uint32_t statics = kept->StaticCount();
            REQUIRE(fresh->StaticCount() == statics);
            for (uint32_t k = 0; k < statics; ++k)
            {
                INFO("reserve " << r[0] << " " << r[2] << " " << r[4] << ", resource " << k);
                REQUIRE(kept->Capacities()[k] == fresh->Capacities()[k]);
            }
            std::vector<std::vector<ProvisioningLevel::Flow>> a;
            std::vector<std::vector<ProvisioningLevel::Flow>> b;
            describe(kept, a);
            describe(fresh, b);
            for (size_t k = 0; k < jobs.size(); ++k)
            {
                REQUIRE(a[k].size() == b[k].size());
                for (size_t i = 0; i < a[k].size(); ++i)
                {
                    INFO("reserve " << reserve << ", job " << k << ", flow " << i);
                    CHECK(a[k][i].unit == b[k][i].unit);
                    CHECK(a[k][i].cap == b[k][i].cap);
                    CHECK(a[k][i].usage == b[k][i].usage);
                    moved += a[k][i].unit != before[k][i].unit ? 1 : 0;
                    double unit = kept->KeptFlowUnit(prior[k][i],
                                                     jobs[k].gpusOnNode[i].second,
                                                     jobs[k].GpuDemand(),
                                                     jobs[k]);
                    CHECK(std::memcmp(&unit, &b[k][i].unit, sizeof unit) == 0);
                    CHECK(prior[k][i].usage == b[k][i].usage);
                    b[k][i].unit == prior[k][i].unit ? ++unitsStood : ++unitsMoved;
                    clientBound += 1.0 / b[k][i].clientShare == b[k][i].unit ? 1 : 0;
                }
            }
            prior = a;
        }
        CHECK(moved > 0); // the rails did bind some flow's share
        CHECK(unitsMoved > 0);
        CHECK(unitsStood > 0);
        CHECK((clientBound > 0) == slowClients);
        Config::Reset();
    }
}

TEST_CASE("provisioning level: capacities moved by name are the full updates', bit for bit",
          "[provisioning]")
{
    // Two levels get the same flows and jobs described again (Remove then Add): one every
    // capacity, the other the capacities a replay's pass names when a rail reserve moves. Their
    // levels, bindings, loads and the per-class counts of used resources must agree to the
    // bit, capacities crossing the flows' demand often.
    const uint32_t resources = 64;
    const uint32_t classes = 3;
    uint32_t notFit = 0;
    for (uint32_t seed = 1; seed <= 4; ++seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unif(0.0, 1.0);
        std::vector<double> caps(resources);
        for (double& cap : caps)
        {
            cap = 0.5 + unif(rng) * 10;
        }
        std::vector<uint8_t> classOf(resources);
        for (uint8_t& c : classOf)
        {
            c = static_cast<uint8_t>(rng() % classes);
        }
        ProvisioningLevel full;
        ProvisioningLevel named;
        for (ProvisioningLevel* l : {&full, &named})
        {
            l->Reset(caps, 0);
            l->SetClasses(classOf, classes);
        }
        std::map<uint64_t, std::vector<ProvisioningLevel::Flow>> kept;
        for (uint32_t step = 0; step < 600; ++step)
        {
            uint32_t what = rng() % 4;
            if (what == 0 || kept.size() < 5)
            {
                std::vector<ProvisioningLevel::Flow> flows(1 + rng() % 2);
                for (auto& flow : flows)
                {
                    flow.unit = 0.5 + unif(rng);
                    flow.cap = 0.01 + unif(rng) * 2;
                    flow.usage.emplace_back(0, 0.1 + unif(rng));
                    for (uint32_t u = 1 + rng() % 6; u > 0; --u)
                    {
                        flow.usage.emplace_back(1 + rng() % (resources - 1), 0.05 + unif(rng));
                    }
                }
                uint64_t job = step;
                kept[job] = flows;
                full.Add(job, flows);
                named.Add(job, flows);
            }
            else if (what == 1)
            {
                auto it = std::next(kept.begin(), rng() % kept.size());
                full.Remove(it->first);
                named.Remove(it->first);
                kept.erase(it);
            }
            else if (what == 2)
            {
                auto it = std::next(kept.begin(), rng() % kept.size());
                for (ProvisioningLevel* l : {&full, &named})
                {
                    l->Remove(it->first);
                    l->Add(it->first, it->second);
                }
            }
            else
            {
                std::vector<uint32_t> moved;
                for (uint32_t n = rng() % 4; n > 0; --n)
                {
                    uint32_t r = rng() % resources;
                    caps[r] = unif(rng) * (rng() % 3 == 0 ? 0.5 : 10);
                    moved.push_back(r);
                }
                moved.push_back(rng() % resources); // named, though it did not move
                full.SetCapacities(caps);
                named.SetCapacities(caps, moved);
            }
            const double a = full.Level();
            const double b = named.Level();
            INFO("seed " << seed << ", step " << step << ", L " << a << " and " << b);
            REQUIRE(std::memcmp(&a, &b, sizeof a) == 0);
            REQUIRE(full.Binding() == named.Binding());
            REQUIRE(full.OtherResourcesFit() == named.OtherResourcesFit());
            notFit += full.OtherResourcesFit() ? 0 : 1;
            std::vector<uint32_t> used(classes, 0);
            for (uint32_t r : named.Used())
            {
                ++used[classOf[r]];
            }
            for (uint32_t c = 0; c < classes; ++c)
            {
                REQUIRE(named.UsedInClass(c) == used[c]);
            }
            for (uint32_t r = 0; r < resources; ++r)
            {
                double x = full.LoadOf(r);
                double y = named.LoadOf(r);
                INFO("resource " << r);
                REQUIRE(std::memcmp(&x, &y, sizeof x) == 0);
            }
        }
    }
    CHECK(notFit > 100); // other resources over capacity at the level, at times
}
