/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The rate-level cluster engine: hand-computed schedules, invariants, results.

#include "temp-dir.h"
#include "unit-workload.h"

#include "ns3/boolean.h"
#include "ns3/cluster-engine-helper.h"
#include "ns3/cluster-results.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <sstream>

using namespace ns3;

namespace
{

ClusterTopology
Topology(uint32_t nodes, uint32_t gpusPerNode, uint32_t nodesPerRack = 8)
{
    ClusterTopology t;
    t.numNodes = nodes;
    t.gpusPerNode = gpusPerNode;
    t.nodesPerRack = nodesPerRack;
    return t;
}

/// Runs the jobs and returns each job's (start, finish) by id.
struct Outcome
{
    std::map<uint64_t, double> start;
    std::map<uint64_t, double> finish;
    std::map<uint64_t, uint32_t> preemptions;
    Ptr<ClusterEngine> engine;
};

Outcome
Replay(ClusterEngineHelper& helper, const std::vector<JobRecord>& jobs)
{
    Outcome out;
    out.engine = helper.Create(jobs, UnitCatalog());
    out.engine->SetAttribute("ProgressInterval", DoubleValue(0));
    out.engine->Run();
    for (const auto& job : out.engine->Jobs())
    {
        out.start[job->record.id] = job->startTime;
        out.finish[job->record.id] = job->finishTime;
        out.preemptions[job->record.id] = job->preemptions;
    }
    Simulator::Destroy();
    return out;
}

} // namespace

TEST_CASE("strict FIFO reproduces a hand-computed schedule", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    helper.SetScheduler("ns3::FifoPolicy", "Backfill", BooleanValue(false));
    // A holds 3 of 4 GPUs; B needs all 4 and blocks C behind it (no backfilling).
    Outcome o = Replay(helper, {UnitJob(0, 0, 3, 100), UnitJob(1, 1, 4, 10), UnitJob(2, 2, 1, 50)});
    CHECK(o.start[0] == Approx(0));
    CHECK(o.finish[0] == Approx(100));
    CHECK(o.start[1] == Approx(100));
    CHECK(o.finish[1] == Approx(110));
    CHECK(o.start[2] == Approx(110));
    CHECK(o.finish[2] == Approx(160));
}

TEST_CASE("FIFO with backfilling lets a small job pass a blocked large one", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    helper.SetScheduler("ns3::FifoPolicy", "Backfill", BooleanValue(true));
    Outcome o = Replay(helper, {UnitJob(0, 0, 3, 100), UnitJob(1, 1, 4, 10), UnitJob(2, 2, 1, 50)});
    CHECK(o.start[2] == Approx(2));
    CHECK(o.finish[2] == Approx(52));
    CHECK(o.start[1] == Approx(100));
    CHECK(o.finish[1] == Approx(110));
}

TEST_CASE("FIFO frees GPUs to the queue in submit order", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    helper.SetScheduler("ns3::FifoPolicy", "Backfill", BooleanValue(false));
    Outcome o = Replay(helper,
                       {UnitJob(0, 0, 4, 100),
                        UnitJob(1, 10, 2, 50),
                        UnitJob(2, 20, 1, 30),
                        UnitJob(3, 30, 2, 10)});
    // B and C start when A ends; D needs 2 GPUs and gets them when C ends.
    CHECK(o.finish[0] - 0 == Approx(100));
    CHECK(o.finish[1] - 10 == Approx(140));
    CHECK(o.finish[2] - 20 == Approx(110));
    CHECK(o.start[3] == Approx(130));
    CHECK(o.finish[3] - 30 == Approx(110));
}

TEST_CASE("SJF runs the shortest waiting job first", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 1));
    helper.SetScheduler("ns3::SjfPolicy");
    Outcome o = Replay(helper, {UnitJob(0, 0, 1, 100), UnitJob(1, 1, 1, 50), UnitJob(2, 2, 1, 10)});
    CHECK(o.finish[0] == Approx(100));
    CHECK(o.start[2] == Approx(100));
    CHECK(o.finish[2] == Approx(110));
    CHECK(o.start[1] == Approx(110));
    CHECK(o.finish[1] == Approx(160));
}

TEST_CASE("Tiresias demotes at the threshold and the new job preempts", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 1));
    helper.SetScheduler("ns3::TiresiasPolicy",
                        "Thresholds",
                        StringValue("100"),
                        "StarvationFactor",
                        DoubleValue(0));
    // A reaches 100 GPU-s at t=100 and drops to level 1; B (level 0) takes the GPU.
    Outcome o = Replay(helper, {UnitJob(0, 0, 1, 300), UnitJob(1, 50, 1, 20)});
    CHECK(o.start[1] == Approx(100));
    CHECK(o.finish[1] == Approx(120));
    CHECK(o.finish[0] == Approx(320));
    CHECK(o.preemptions[0] == 1);
    CHECK(o.preemptions[1] == 0);
}

TEST_CASE("Tiresias keeps each job's queue level; the engine publishes it read-only", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 1));
    helper.SetScheduler("ns3::TiresiasPolicy",
                        "Thresholds",
                        StringValue("100"),
                        "StarvationFactor",
                        DoubleValue(0));
    // As above: A (job 0) drops to level 1 at t=100, B (job 1) runs at level 0 until t=120.
    Ptr<ClusterEngine> engine =
        helper.Create({UnitJob(0, 0, 1, 300), UnitJob(1, 50, 1, 20)}, UnitCatalog());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    std::map<uint64_t, uint32_t> levelAt110;
    Simulator::Schedule(Seconds(110), [&]() {
        for (const auto& job : engine->Jobs())
        {
            levelAt110[job->record.id] = job->priorityLevel;
        }
    });
    engine->Run();
    CHECK(levelAt110[0] == 1);
    CHECK(levelAt110[1] == 0);
    Simulator::Destroy();
}

TEST_CASE("Tiresias counts attained service in GPU-seconds", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    helper.SetScheduler("ns3::TiresiasPolicy",
                        "Thresholds",
                        StringValue("200"),
                        "StarvationFactor",
                        DoubleValue(0));
    // A on 4 GPUs crosses 200 GPU-s after 50 s; B (4 GPUs) then preempts it.
    Outcome o = Replay(helper, {UnitJob(0, 0, 4, 100), UnitJob(1, 10, 4, 30)});
    CHECK(o.start[1] == Approx(50));
    CHECK(o.finish[1] == Approx(80));
    CHECK(o.finish[0] == Approx(130));
}

TEST_CASE("Tiresias promotes a starving job back to level 0", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    helper.SetScheduler("ns3::TiresiasPolicy",
                        "Thresholds",
                        StringValue("40"),
                        "StarvationFactor",
                        DoubleValue(2));
    // A (4 GPUs) reaches 40 GPU-s at t=10, drops to level 1 and yields to B (1 GPU, level 0).
    // A has run 10 s, so after waiting 2 x 10 s (t=30) it is promoted to level 0 and takes
    // the GPUs back from B; it ends at t=40. (Without promotion it would wait until B drops
    // to level 1 at t=50 and end at t=60.) B resumes at t=40 and ends at t=120.
    Outcome o = Replay(helper, {UnitJob(0, 0, 4, 20), UnitJob(1, 5, 1, 100)});
    CHECK(o.start[1] == Approx(10));
    CHECK(o.finish[0] == Approx(40));
    CHECK(o.finish[1] == Approx(120));
    CHECK(o.preemptions[0] == 1);
    CHECK(o.preemptions[1] == 1);
}

TEST_CASE("Tiresias without promotion leaves the demoted job waiting", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    helper.SetScheduler("ns3::TiresiasPolicy",
                        "Thresholds",
                        StringValue("40"),
                        "StarvationFactor",
                        DoubleValue(0));
    Outcome o = Replay(helper, {UnitJob(0, 0, 4, 20), UnitJob(1, 5, 1, 100)});
    CHECK(o.finish[0] == Approx(60));
    CHECK(o.finish[1] == Approx(120));
}

namespace
{
/// Runs every job on half the GPUs it asked for (at least one).
class HalfSizing : public JobSizingPolicy
{
  public:
    uint32_t GpusFor(const ClusterJob& job, const ClusterTopology&, double) override
    {
        return std::max(1U, job.gpus / 2);
    }
};
} // namespace

TEST_CASE("a sizing policy changes GPU counts and keeps the samples constant", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 4));
    Ptr<ClusterEngine> engine =
        helper.Create({UnitJob(0, 0, 4, 100), UnitJob(1, 0, 2, 50)}, UnitCatalog());
    engine->SetAttribute("JobSizingPolicy", PointerValue(CreateObject<HalfSizing>()));
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->Run();
    Simulator::Destroy();
    // Both fit at once on 2 + 1 GPUs; the unit model's iteration takes 1 s at any size,
    // so half the GPUs means twice the iterations and twice the run time.
    CHECK(engine->Jobs()[0]->gpus == 2);
    CHECK(engine->Jobs()[1]->gpus == 1);
    CHECK(engine->Jobs()[0]->finishTime == Approx(200));
    CHECK(engine->Jobs()[1]->finishTime == Approx(100));
}

TEST_CASE("jobs that can never run are listed with a reason, not dropped", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(2, 8));
    JobRecord unknown = UnitJob(2, 0, 1, 10);
    unknown.model = "no-such-model";
    Ptr<ClusterEngine> engine =
        helper.Create({UnitJob(0, 0, 1, 10), UnitJob(1, 0, 17, 10), unknown}, UnitCatalog());
    REQUIRE(engine->Jobs().size() == 1);
    REQUIRE(engine->Rejected().size() == 2);
    CHECK_THAT(engine->Rejected()[0].reason, Catch::Contains("asks for 17 GPUs"));
    CHECK_THAT(engine->Rejected()[1].reason, Catch::Contains("no-such-model"));
}

TEST_CASE("consolidated placement: best fit on one node, then fewest nodes in one rack",
          "[engine][placement]")
{
    Ptr<GpuAllocator> allocator = CreateObject<GpuAllocator>();
    allocator->Reset(Topology(4, 8, 2)); // racks {0,1} and {2,3}
    JobPlacement a = allocator->Allocate(6);
    CHECK(a.ToString() == "n0:6");
    JobPlacement b = allocator->Allocate(2); // best fit: node 0 has exactly 2 left
    CHECK(b.ToString() == "n0:2");
    JobPlacement c = allocator->Allocate(3);
    CHECK(c.ToString() == "n1:3");
    // 12 GPUs: rack 0 has 5 free, rack 1 has 16: two whole nodes there.
    JobPlacement d = allocator->Allocate(12);
    CHECK(d.NumNodes() == 2);
    CHECK(d.NumRacks(allocator->Topology()) == 1);
    CHECK(d.ToString() == "n2:8 n3:4");
    CHECK(allocator->FreeGpus() == 32 - 23);
    allocator->Release(d);
    allocator->Release(a);
    CHECK(allocator->FreeGpus() == 32 - 5);
    CHECK(allocator->FreeGpusOn(0) == 6); // b still holds 2 of node 0
}

namespace
{
/**
 * The consolidated rule as it reads, from the free GPUs per node alone: best fit on one node;
 * else, of the racks that can hold the job, the first that needs the fewest nodes, taking its
 * nodes most free first (ties by index); else the emptiest nodes cluster-wide.
 */
std::string
ReferencePlacement(const std::vector<uint32_t>& free, uint32_t nodesPerRack, uint32_t gpus)
{
    int64_t fit = -1;
    for (uint32_t n = 0; n < free.size(); ++n)
    {
        if (free[n] >= gpus && (fit < 0 || free[n] < free[fit]))
        {
            fit = n;
        }
    }
    auto mostFreeFirst = [&](uint32_t a, uint32_t b) {
        return free[a] != free[b] ? free[a] > free[b] : a < b;
    };
    std::vector<uint32_t> best;
    for (uint32_t first = 0; fit < 0 && first < free.size(); first += nodesPerRack)
    {
        std::vector<uint32_t> nodes;
        for (uint32_t n = first; n < std::min<size_t>(first + nodesPerRack, free.size()); ++n)
        {
            nodes.push_back(n);
        }
        std::sort(nodes.begin(), nodes.end(), mostFreeFirst);
        uint32_t sum = 0;
        size_t used = 0;
        while (used < nodes.size() && sum < gpus)
        {
            sum += free[nodes[used++]];
        }
        if (sum >= gpus && (best.empty() || used < best.size()))
        {
            best.assign(nodes.begin(), nodes.begin() + used);
        }
    }
    if (fit >= 0)
    {
        return "n" + std::to_string(fit) + ":" + std::to_string(gpus);
    }
    if (best.empty())
    {
        std::vector<uint32_t> nodes(free.size());
        std::iota(nodes.begin(), nodes.end(), 0);
        std::sort(nodes.begin(), nodes.end(), [&](uint32_t a, uint32_t b) {
            return free[a] != free[b] ? free[a] > free[b] : a > b; // as the set's reverse order
        });
        uint32_t sum = 0;
        for (size_t i = 0; sum < gpus; ++i)
        {
            best.push_back(nodes[i]);
            sum += free[nodes[i]];
        }
    }
    std::map<uint32_t, uint32_t> taken; // by node, as JobPlacement::ToString lists them
    for (uint32_t n : best)
    {
        taken[n] = std::min(gpus, free[n]);
        gpus -= taken[n];
    }
    std::string text;
    for (const auto& [n, take] : taken)
    {
        text += (text.empty() ? "n" : " n") + std::to_string(n) + ":" + std::to_string(take);
    }
    return text;
}
} // namespace

TEST_CASE("consolidated placement: the rule as it reads, over random arrivals and departures",
          "[engine][placement]")
{
    // 40 nodes of 8 GPUs in racks of 6 (the last rack short); jobs of 1 to 40 GPUs come and go
    // at random. Every placement must be the reference's, computed from the free GPUs alone.
    const uint32_t nodesPerRack = 6;
    Ptr<GpuAllocator> allocator = CreateObject<GpuAllocator>();
    allocator->Reset(Topology(40, 8, nodesPerRack));
    std::mt19937 rng(5);
    std::vector<JobPlacement> held;
    uint32_t multiNode = 0;
    for (uint32_t step = 0; step < 3000; ++step)
    {
        uint32_t gpus = rng() % 3 == 0 ? 1 + rng() % 40 : 1 + rng() % 8;
        if (gpus <= allocator->FreeGpus() && rng() % 5 != 0)
        {
            std::vector<uint32_t> free;
            for (uint32_t n = 0; n < 40; ++n)
            {
                free.push_back(allocator->FreeGpusOn(n));
            }
            JobPlacement p = allocator->Allocate(gpus);
            INFO("step " << step << ", " << gpus << " GPUs");
            REQUIRE(p.ToString() == ReferencePlacement(free, nodesPerRack, gpus));
            multiNode += p.NumNodes() > 1 ? 1 : 0;
            held.push_back(p);
        }
        else if (!held.empty())
        {
            size_t k = rng() % held.size();
            allocator->Release(held[k]);
            held.erase(held.begin() + k);
        }
    }
    CHECK(multiNode > 300); // the racks' path ran, not only best fit
}

TEST_CASE("spread placement puts one GPU per node first", "[engine][placement]")
{
    Ptr<GpuAllocator> allocator = CreateObject<GpuAllocator>();
    allocator->SetAttribute("Rule", EnumValue(GpuAllocator::SPREAD));
    allocator->Reset(Topology(4, 8, 2));
    JobPlacement a = allocator->Allocate(6);
    CHECK(a.ToString() == "n0:2 n1:2 n2:1 n3:1");
    CHECK(a.NumRacks(allocator->Topology()) == 2);
}

TEST_CASE("invariants hold on a contended replay of the sample trace", "[engine]")
{
    TraceReadOptions options;
    std::vector<JobRecord> jobs =
        ReadTrace(std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv", options);
    AnnotatorOptions annotatorOptions;
    TraceAnnotator(WorkloadCatalog::Default(), annotatorOptions).Annotate(jobs);
    REQUIRE(jobs.size() >= 1000);

    for (std::string policy : {"fifo", "sjf", "tiresias"})
    {
        DYNAMIC_SECTION(policy)
        {
            ClusterEngineHelper helper;
            helper.SetTopology(Topology(8, 8)); // small cluster: heavy queueing and preemption
            helper.SetScheduler(ClusterEngineHelper::SchedulerTypeName(policy),
                                "Backfill",
                                BooleanValue(policy != "fifo"));
            Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
            engine->SetAttribute("ProgressInterval", DoubleValue(0));
            uint32_t total = engine->GetTopology().TotalGpus();
            Ptr<GpuAllocator> allocator = engine->GetAllocator();
            bool overAllocated = false;
            engine->TraceConnectWithoutContext("JobStarted",
                                               MakeCallback(+[](bool* flag,
                                                                Ptr<GpuAllocator> a,
                                                                uint32_t t,
                                                                Ptr<const ClusterJob>) {
                                                   *flag = *flag || a->FreeGpus() > t;
                                               }).Bind(&overAllocated, allocator, total));
            engine->Run();
            Simulator::Destroy();

            CHECK_FALSE(overAllocated);
            for (const auto& s : engine->Utilization())
            {
                REQUIRE(s.allocated <= total);
            }
            REQUIRE(engine->FinishedJobs() == engine->Jobs().size() - 0);
            for (const auto& job : engine->Jobs())
            {
                REQUIRE(job->state == ClusterJob::FINISHED);
                REQUIRE(job->startTime >= job->record.submitTime);
                // Work conservation: with ideal loading and sync, a job holds its GPUs for
                // exactly its trace run time, however often it was preempted.
                REQUIRE(job->attainedService / job->record.numGpus ==
                        Approx(job->record.duration).epsilon(1e-9).margin(1e-6));
            }
            if (policy == "fifo")
            {
                // Strict FIFO: start times never decrease in submit order.
                double last = 0;
                for (const auto& job : engine->Jobs())
                {
                    REQUIRE(job->startTime >= last - 1e-9);
                    last = job->startTime;
                }
            }
            if (policy == "tiresias")
            {
                CHECK(ClusterResults::Summarize(engine).preemptions > 0);
            }
            else
            {
                CHECK(ClusterResults::Summarize(engine).preemptions == 0);
            }
        }
    }
}

TEST_CASE("result files carry the configuration and seed, and repeat exactly", "[engine][results]")
{
    auto runOnce = [](const std::string& dir) {
        ClusterEngineHelper helper;
        helper.SetTopology(Topology(2, 4));
        helper.SetScheduler("ns3::TiresiasPolicy", "Thresholds", StringValue("50"));
        Ptr<ClusterEngine> engine = helper.Create({UnitJob(0, 0, 4, 100),
                                                   UnitJob(1, 5, 4, 100),
                                                   UnitJob(2, 6, 2, 30),
                                                   UnitJob(3, 7, 8, 10)},
                                                  UnitCatalog());
        engine->SetAttribute("ProgressInterval", DoubleValue(0));
        engine->Run();
        RunInfo info;
        info.experiment = "unit";
        info.seed = 42;
        info.settings["trace.path"] = "none";
        ClusterResults::Write(dir, engine, info);
        Simulator::Destroy();
        return engine;
    };
    std::string base = TestTempDir("test-results");
    Ptr<ClusterEngine> engine = runOnce(base + "/a");
    runOnce(base + "/b");

    auto slurp = [](const std::string& path) {
        std::ifstream in(path);
        INFO("cannot read " << path);
        REQUIRE(in.good());
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    };
    std::string jobsA = slurp(base + "/a/jobs.csv");
    CHECK(jobsA == slurp(base + "/b/jobs.csv"));
    CHECK(std::count(jobsA.begin(), jobsA.end(), '\n') == 5);

    nlohmann::json summary = nlohmann::json::parse(slurp(base + "/a/summary.json"));
    CHECK(summary["seed"] == 42);
    CHECK(summary["experiment"] == "unit");
    CHECK(summary["scheduler"]["typeId"] == "ns3::TiresiasPolicy");
    CHECK(summary["scheduler"]["Thresholds"] == 50);
    CHECK(summary["cluster"]["total_gpus"] == 8);
    CHECK(summary["summary"]["finished"] == 4);
    RunSummary s = ClusterResults::Summarize(engine);
    CHECK(summary["summary"]["jct_mean_s"].get<double>() == Approx(s.meanJct));
    CHECK(summary["aicluster_version"] == AICLUSTER_VERSION);
    // Utilization over time: hourly buckets whose time average is the summary's.
    const auto& overTime = summary["utilization_over_time"];
    CHECK(overTime["bucket_s"] == 3600);
    REQUIRE(overTime["allocated_share"].size() == 1);
    CHECK(overTime["allocated_share"][0].get<double>() == Approx(s.gpuAllocation));
    std::filesystem::remove_all(base);
}

TEST_CASE("summary statistics match a hand computation", "[engine][results]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 1));
    helper.SetScheduler("ns3::FifoPolicy");
    Outcome o = Replay(helper, {UnitJob(0, 0, 1, 10), UnitJob(1, 0, 1, 20), UnitJob(2, 0, 1, 30)});
    // JCTs 10, 30, 60: mean 33.33, median 30; makespan 60; GPU always allocated.
    RunSummary s = ClusterResults::Summarize(o.engine);
    CHECK(s.meanJct == Approx(100.0 / 3));
    CHECK(s.medianJct == Approx(30));
    CHECK(s.makespan == Approx(60));
    CHECK(s.gpuAllocation == Approx(1.0));
    CHECK(s.meanQueueing == Approx(40.0 / 3));
}

TEST_CASE("gradient-sync models are chosen by name", "[engine]")
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 8));
    CHECK_THROWS_WITH(helper.SetGradientSyncByName("magic"), Catch::Contains("magic"));
    helper.SetGradientSyncByName("esa", 64);
    Ptr<ClusterEngine> engine = helper.Create({UnitJob(0, 0, 1, 10)}, UnitCatalog());
    Ptr<IterationTermModel> sync = engine->GetGradientSyncModel();
    CHECK(sync->GetInstanceTypeId().GetName() == "ns3::InaGradientSync");
    UintegerValue pool;
    sync->GetAttribute("PoolSize", pool);
    CHECK(pool.Get() == 64);
    helper.SetGradientSyncByName("none");
    CHECK(helper.Create({}, UnitCatalog())->GetGradientSyncModel()->GetInstanceTypeId().GetName() ==
          "ns3::RingAllReduceSync");
}

namespace
{
/// Data term of a pool of 1 unit/s shared equally: every running job reads 1 unit per
/// iteration, so its term is n seconds with n jobs running. Keeps its own running set and
/// reports its changes (the storage model's way with the engine).
class EqualShareReporting : public ReportingTermModel
{
  public:
    void Evaluate(const ClusterTopology&,
                  const std::vector<Ptr<const ClusterJob>>& subjects,
                  std::vector<double>& seconds) override
    {
        for (const auto& job : subjects)
        {
            if (!m_term.count(job->record.id))
            {
                m_running.push_back(job);
                m_term[job->record.id] = -1;
            }
        }
        double n = double(m_running.size());
        for (const auto& job : m_running)
        {
            if (m_term[job->record.id] != n)
            {
                m_term[job->record.id] = n;
                m_changes.emplace_back(job, n);
            }
        }
        for (size_t i = 0; i < subjects.size(); ++i)
        {
            seconds[i] = m_term[subjects[i]->record.id];
        }
        ++evaluations;
    }

    bool ReportsChanges() const override
    {
        return true;
    }

    void TakeChanges(std::vector<TermChange>& changes) override
    {
        changes.insert(changes.end(), m_changes.begin(), m_changes.end());
        m_changes.clear();
    }

    void OnLeft(Ptr<const ClusterJob> job)
    {
        m_term.erase(job->record.id);
        m_running.erase(std::find_if(m_running.begin(), m_running.end(), [&](const auto& j) {
            return j->record.id == job->record.id;
        }));
    }

    uint64_t evaluations{0};

  private:
    std::vector<Ptr<const ClusterJob>> m_running;
    std::map<uint64_t, double> m_term;
    std::vector<TermChange> m_changes;
};

/// The same term, left to the engine: coupled, re-evaluated with every running job.
class EqualShareCoupled : public IterationTermModel
{
  public:
    void Evaluate(const ClusterTopology&,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override
    {
        std::fill(seconds.begin(), seconds.end(), double(running.size()));
    }
};

std::map<uint64_t, double>
FinishesWith(Ptr<IterationTermModel> model, const std::vector<JobRecord>& jobs)
{
    ClusterEngineHelper helper;
    helper.SetTopology(Topology(1, 8));
    Ptr<ClusterEngine> engine = helper.Create(jobs, UnitCatalog());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    engine->SetDataLoadingModel(model);
    if (auto reporting = DynamicCast<EqualShareReporting>(model))
    {
        for (const char* source : {"JobFinished", "JobPreempted"})
        {
            engine->TraceConnectWithoutContext(
                source,
                MakeCallback(&EqualShareReporting::OnLeft, reporting));
        }
    }
    engine->Run();
    std::map<uint64_t, double> finish;
    for (const auto& job : engine->Jobs())
    {
        finish[job->record.id] = job->finishTime;
    }
    Simulator::Destroy();
    return finish;
}
} // namespace

TEST_CASE("a model that reports its changes re-times exactly the jobs it names", "[engine]")
{
    // Two jobs share the pool: 2 s per iteration each. Job 0 (10 iterations) ends at 20 s;
    // job 1 has 10 of its 20 left and then runs alone at 1 s each: done at 30 s (40 s if the
    // engine missed the change the model reports when job 0 leaves).
    auto reporting = CreateObject<EqualShareReporting>();
    auto finish = FinishesWith(reporting, {UnitJob(0, 0, 1, 10), UnitJob(1, 0, 1, 20)});
    CHECK(finish[0] == Approx(20));
    CHECK(finish[1] == Approx(30));

    // Staggered arrivals and finishes: the same schedule as the engine's own coupled
    // re-evaluation, job by job.
    std::vector<JobRecord> jobs;
    for (uint64_t i = 0; i < 12; ++i)
    {
        jobs.push_back(UnitJob(i, 3.0 * i, 1 + i % 3, 5.0 + 7.0 * ((i * 5) % 11)));
    }
    auto mine = FinishesWith(CreateObject<EqualShareReporting>(), jobs);
    auto reference = FinishesWith(CreateObject<EqualShareCoupled>(), jobs);
    for (const auto& [id, time] : reference)
    {
        INFO("job " << id);
        CHECK(mine[id] == Approx(time).epsilon(1e-12));
    }
}
