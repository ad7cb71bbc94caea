/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The storage data-loading model inside the cluster engine: hand-computed replays with lazy
// fill, prefetch, a bandwidth bottleneck and a shared dataset.

#include "unit-workload.h"

#include "ns3/boolean.h"
#include "ns3/cache-all-policy.h"
#include "ns3/cba-policy.h"
#include "ns3/cluster-engine.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/no-cache-policy.h"
#include "ns3/object-factory.h"
#include "ns3/silod-like-policy.h"
#include "ns3/simulator.h"
#include "ns3/storage-data-loading.h"
#include "ns3/tiresias-policy.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace ns3;

namespace
{

/// unit-model: 1 iteration per second at any GPU count, 1 sample per GPU per iteration.
JobRecord
Job(uint64_t id, double submit, uint32_t gpus, double seconds, const std::string& dataset)
{
    return UnitJob(id, submit, gpus, seconds, dataset);
}

struct Run
{
    Ptr<ClusterEngine> engine;
    Ptr<StorageDataLoading> storage;
};

/// 1 MB per sample, a 100 MB dataset: a 1-GPU job reads 1 MB/s, one epoch is 100 s.
/// configure, if set, adjusts the engine and the model (scheduler, datasets, attributes)
/// before the run.
Run
Replay(const std::vector<JobRecord>& jobs,
       Ptr<StorageAllocationPolicy> policy,
       const std::string& aggregate,
       bool prefetch = false,
       bool sharedPace = true,
       const std::function<void(ClusterEngine&, StorageDataLoading&)>& configure = {})
{
    Run run;
    run.engine = UnitEngine(jobs);
    run.storage = CreateObject<StorageDataLoading>();
    run.storage->AddDataset({"ds", 100e6, 1e6});
    run.storage->SetPolicy(policy);
    run.storage->GetBackend()->SetAttribute("AggregateBandwidth",
                                            DataRateValue(DataRate(aggregate)));
    run.storage->SetAttribute("Prefetch", BooleanValue(prefetch));
    run.storage->SetAttribute("SharedPace", BooleanValue(sharedPace));
    run.storage->SetAttribute("PrefetchBandwidth", DataRateValue(DataRate("8Mbps")));
    if (configure)
    {
        configure(*run.engine, *run.storage);
    }
    run.engine->SetDataLoadingModel(run.storage);
    run.engine->Run();
    run.storage->Settle();
    Simulator::Destroy();
    return run;
}

/// Every job finished, at the reference's time to the bit, with the same storage totals.
void
CheckSameRun(const Run& run, const Run& reference)
{
    for (size_t i = 0; i < run.engine->Jobs().size(); ++i)
    {
        INFO("job " << i);
        CHECK(run.engine->Jobs()[i]->state == ClusterJob::FINISHED);
        CHECK(run.engine->Jobs()[i]->finishTime == reference.engine->Jobs()[i]->finishTime);
    }
    const StorageTotals& a = run.storage->Totals();
    const StorageTotals& b = reference.storage->Totals();
    CHECK(a.IoCost() == b.IoCost());
    CHECK(a.bytesRead == b.bytesRead);
    CHECK(a.bytesHit == b.bytesHit);
    CHECK(a.bandwidthSeconds == b.bandwidthSeconds);
    CHECK(a.fills == b.fills);
}

} // namespace

TEST_CASE("CBA caches a dense dataset; lazy fill keeps the job at compute speed", "[storage]")
{
    // Density 1e6 / 100e6 = 0.01 per s: p_b * 0.01 > p_c for the default SSD tier, so CBA
    // caches all of it. The first epoch (100 s) is read remotely at 1 MB/s, then all hits.
    Run run = Replay({Job(0, 0, 1, 1000, "ds")}, CreateObject<CbaPolicy>(), "1Gbps");
    Ptr<ClusterJob> job = run.engine->Jobs()[0];
    CHECK(job->finishTime == Approx(1000));
    const StorageTotals& t = run.storage->Totals();
    double pb = run.storage->GetBackend()->BandwidthPricePerByte();
    double pc = run.storage->GetCacheTier()->PricePerByteSecond();
    CHECK(t.bytesRead == Approx(1000e6));
    CHECK(t.bytesRemote == Approx(100e6));
    CHECK(t.HitRatio() == Approx(0.9));
    CHECK(t.bandwidthCost == Approx(pb * 100e6));
    CHECK(t.cacheCost == Approx(pc * 100e6 * 1000));
    CHECK(t.fills == 1);
    CHECK(run.storage->EffectiveCache("ds") == 0); // released when its last reader finished
}

TEST_CASE("prefetch fills at PrefetchBandwidth and charges the prefetched bytes", "[storage]")
{
    Run run = Replay({Job(0, 0, 1, 1000, "ds")}, CreateObject<CbaPolicy>(), "1Gbps", true);
    CHECK(run.engine->Jobs()[0]->finishTime == Approx(1000));
    const StorageTotals& t = run.storage->Totals();
    double pb = run.storage->GetBackend()->BandwidthPricePerByte();
    CHECK(t.prefetchBytes == Approx(100e6));
    CHECK(t.prefetchCost == Approx(pb * 100e6));
    // While the prefetch runs (100 s at 1 MB/s) the job still reads remotely.
    CHECK(t.bandwidthCost == Approx(pb * 100e6));
}

TEST_CASE("without a cache, a bandwidth bottleneck sets the rate b / (1 - 0)", "[storage]")
{
    // 4 Mbit/s = 0.5 MB/s for a job that reads 1 MB/s: half speed, twice the run time.
    Run run = Replay({Job(0, 0, 1, 1000, "ds")}, CreateObject<NoCachePolicy>(), "4Mbps");
    CHECK(run.engine->Jobs()[0]->finishTime == Approx(2000));
    const StorageTotals& t = run.storage->Totals();
    double pb = run.storage->GetBackend()->BandwidthPricePerByte();
    CHECK(t.bandwidthCost == Approx(pb * 0.5e6 * 2000));
    CHECK(t.cacheCost == 0);
    CHECK(t.HitRatio() == 0);
}

TEST_CASE("jobs sharing a dataset share its cache", "[storage]")
{
    // Two 2-GPU jobs (2 MB/s each) on one dataset, 3 MB/s of bandwidth. Without cache each
    // gets 1.5 MB/s (0.75 speed). Cache-all holds the dataset: while it fills, both read
    // remotely on the 3 MB/s the plan leaves free (0.75 speed) and the fill takes one pass of
    // the two readers over it, 100 MB / 3 MB/s; then both run at full speed. Finish:
    // 600 + (100 / 3) * 0.25 s.
    std::vector<JobRecord> jobs = {Job(0, 0, 2, 600, "ds"), Job(1, 0, 2, 600, "ds")};
    Run none = Replay(jobs, CreateObject<NoCachePolicy>(), "24Mbps");
    CHECK(none.engine->Jobs()[0]->finishTime == Approx(800));
    CHECK(none.engine->Jobs()[1]->finishTime == Approx(800));
    Run all = Replay(jobs, CreateObject<CacheAllPolicy>(), "24Mbps");
    CHECK(all.engine->Jobs()[0]->finishTime == Approx(600 + 100.0 / 3 * 0.25));
    CHECK(all.engine->Jobs()[1]->finishTime == Approx(600 + 100.0 / 3 * 0.25));
    CHECK(all.storage->Totals().bytesRemote == Approx(100e6));
    CHECK(all.storage->Totals().peakCache == 100e6);
    CHECK(all.storage->Totals().peakBandwidth == Approx(3e6)); // fill traffic stays within B
}

TEST_CASE("jobs at the common bandwidth level on one pace: the same run as one by one",
          "[storage][paced]")
{
    // 8 GPUs, jobs of 1 to 4 GPUs reading 1 MB/s per GPU against 3 MB/s of remote bandwidth:
    // the bigger readers share the max-min level, the smaller get their demand, and every
    // arrival and finish moves the level (and who is at it). SiloD-like adds cache fills.
    std::vector<JobRecord> jobs;
    for (uint64_t i = 0; i < 16; ++i)
    {
        jobs.push_back(Job(i, 40.0 * i, 1 + uint32_t(i * 5 % 4), 200 + 37 * (i * 3 % 7), "ds"));
    }
    for (bool silod : {false, true})
    {
        INFO((silod ? "silod" : "none"));
        auto policy = [silod]() -> Ptr<StorageAllocationPolicy> {
            if (silod)
            {
                return CreateObject<SiloDLikePolicy>();
            }
            return CreateObject<NoCachePolicy>();
        };
        Run paced = Replay(jobs, policy(), "24Mbps", false, true);
        Run alone = Replay(jobs, policy(), "24Mbps", false, false);
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            INFO("job " << i);
            CHECK(paced.engine->Jobs()[i]->finishTime ==
                  Approx(alone.engine->Jobs()[i]->finishTime).epsilon(1e-12));
        }
        CHECK(paced.storage->Totals().IoCost() ==
              Approx(alone.storage->Totals().IoCost()).epsilon(1e-12));
        CHECK(paced.storage->Totals().bytesRead ==
              Approx(alone.storage->Totals().bytesRead).epsilon(1e-12));
        // The level binds: the run is slower than compute alone would make it.
        double last = 0;
        for (const auto& job : alone.engine->Jobs())
        {
            last = std::max(last, job->finishTime);
        }
        CHECK(last > 40.0 * 15 + 200);
    }
}

TEST_CASE("identical jobs grouped into one problem entry: the same run as one entry per job",
          "[storage]")
{
    // Three datasets, jobs of 1, 2 and 4 GPUs arriving and leaving in a staggered pattern:
    // many running jobs share an entry (same dataset and GPUs), entries grow, shrink, vanish
    // and come back, and their lowest id changes. Each policy must run exactly as with one
    // entry per job (GroupIdenticalJobs false), fills and the shared pace included; under
    // FIFO and under Tiresias with a low threshold, whose preemptions take jobs out of their
    // entries and put them back.
    std::vector<JobRecord> jobs;
    const char* datasets[] = {"a", "b", "c"};
    for (uint64_t i = 0; i < 30; ++i)
    {
        uint32_t gpus = 1u << (i * 7 % 3);
        jobs.push_back(Job(i, 25.0 * i, gpus, 150 + 41 * (i * 5 % 9), datasets[i * 2 % 3]));
    }
    bool tiresias = GENERATE(false, true);
    INFO((tiresias ? "tiresias" : "fifo"));
    auto replay = [&jobs, tiresias](const std::string& policy, bool grouped) {
        ObjectFactory factory(StorageAllocationPolicy::TypeNameOf(policy));
        return Replay(jobs,
                      factory.Create<StorageAllocationPolicy>(),
                      "24Mbps",
                      false,
                      true,
                      [grouped, tiresias](ClusterEngine& engine, StorageDataLoading& storage) {
                          if (tiresias)
                          {
                              Ptr<TiresiasPolicy> scheduler = CreateObject<TiresiasPolicy>();
                              scheduler->SetThresholds("200");
                              engine.SetScheduler(scheduler);
                          }
                          storage.AddDataset({"a", 100e6, 1e6});
                          storage.AddDataset({"b", 300e6, 1e6});
                          storage.AddDataset({"c", 50e6, 1e6});
                          storage.GetCacheTier()->SetAttribute("Capacity", DoubleValue(200e6));
                          storage.SetAttribute("GroupIdenticalJobs", BooleanValue(grouped));
                      });
    };
    for (const std::string& policy : StorageAllocationPolicy::Names())
    {
        if (policy == "autocba")
        {
            continue; // its allocation is cba's; its sizing is per job (test-storage-autocba)
        }
        INFO("policy " << policy);
        Run grouped = replay(policy, true);
        Run perJob = replay(policy, false);
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            INFO("job " << i);
            CHECK(grouped.engine->Jobs()[i]->finishTime ==
                  Approx(perJob.engine->Jobs()[i]->finishTime).epsilon(1e-12));
        }
        const StorageTotals& g = grouped.storage->Totals();
        const StorageTotals& p = perJob.storage->Totals();
        CHECK(g.IoCost() == Approx(p.IoCost()).epsilon(1e-12));
        CHECK(g.bytesRead == Approx(p.bytesRead).epsilon(1e-12));
        CHECK(g.bytesHit == Approx(p.bytesHit).epsilon(1e-12).margin(1));
        CHECK(g.fills == p.fills);
        CHECK(g.solves == p.solves);
        CHECK(p.entriesSolved == p.jobsSolved);
        CHECK(g.entriesSolved < g.jobsSolved); // jobs did share entries
        uint32_t preemptions = 0;
        for (const auto& job : grouped.engine->Jobs())
        {
            CHECK(job->state == ClusterJob::FINISHED);
            preemptions += job->preemptions;
        }
        CHECK((preemptions > 0) == tiresias);
    }
}

TEST_CASE("kept hit ratios: the same run as computing every dataset's ratio afresh", "[storage]")
{
    // One dataset per job (as --dataset-rule=job), sizes 40 to 400 MB, a 250 MB cache: every
    // start and finish moves the plan, caches grow (lazy fills complete one at a time) and
    // shrink. The model keeps each dataset's hit ratio while its effective bytes stay
    // (StorageDataLoading's KeepHitRatios); every policy must run bit for bit as when each pass
    // computes every ratio from the effective bytes.
    std::vector<JobRecord> jobs;
    for (uint64_t i = 0; i < 36; ++i)
    {
        uint32_t gpus = 1u << (i * 5 % 3);
        jobs.push_back(Job(i, 17.0 * i, gpus, 120 + 37 * (i * 7 % 11), "d" + std::to_string(i)));
    }
    auto replay = [&jobs](const std::string& policy, bool keep) {
        ObjectFactory factory(StorageAllocationPolicy::TypeNameOf(policy));
        Run run = Replay(jobs,
                         factory.Create<StorageAllocationPolicy>(),
                         "12Mbps",
                         false,
                         true,
                         [&jobs, keep](ClusterEngine&, StorageDataLoading& storage) {
                             storage.SetAttribute("KeepHitRatios", BooleanValue(keep));
                             for (size_t i = 0; i < jobs.size(); ++i)
                             {
                                 storage.AddDataset(
                                     {"d" + std::to_string(i), 40e6 * double(1 + i * 3 % 10), 1e6});
                             }
                             storage.GetCacheTier()->SetAttribute("Capacity", DoubleValue(250e6));
                         });
        return run;
    };
    for (const std::string& policy : StorageAllocationPolicy::Names())
    {
        INFO("policy " << policy);
        Run kept = replay(policy, true);
        Run afresh = replay(policy, false);
        CheckSameRun(kept, afresh);
        if (policy != "none")
        {
            CHECK(kept.storage->Totals().fills > 0); // caches did fill: ratios moved between passes
        }
    }
}

TEST_CASE("incremental fills: the same run as re-rating every entry at each fill", "[storage]")
{
    // A completed fill re-rates only the entries it can move (StorageDataLoading's
    // IncrementalFills): its dataset's readers, and every reader behind its plan when the share
    // of the leftover bandwidth moved. Every policy must run bit for bit as when each fill
    // re-rates every entry. Two mixes: a dataset per job (sizes 40 to 400 MB, a 250 MB cache),
    // and three datasets read by jobs of three GPU counts (several entries per dataset); at
    // three aggregate bandwidths, from a plan that takes all of it to one that leaves most; under
    // FIFO and under Tiresias (preempted jobs leave while fills are under way); filled lazily
    // and by prefetch.
    bool perJob = GENERATE(true, false);
    std::string aggregate = GENERATE(std::string("12Mbps"), "40Mbps", "160Mbps");
    bool tiresias = GENERATE(false, true);
    bool prefetch = GENERATE(false, true);
    INFO((perJob ? "a dataset per job" : "three datasets")
         << ", " << aggregate << ", " << (tiresias ? "tiresias" : "fifo")
         << (prefetch ? ", prefetch" : ""));
    std::vector<JobRecord> jobs;
    for (uint64_t i = 0; i < 36; ++i)
    {
        uint32_t gpus = 1u << (i * 5 % 3);
        std::string dataset = perJob ? "d" + std::to_string(i) : "d" + std::to_string(i * 2 % 3);
        jobs.push_back(Job(i, 17.0 * i, gpus, 120 + 37 * (i * 7 % 11), dataset));
    }
    auto replay = [&](const std::string& policy, bool incremental) {
        ObjectFactory factory(StorageAllocationPolicy::TypeNameOf(policy));
        auto configure = [&](ClusterEngine& engine, StorageDataLoading& storage) {
            if (tiresias)
            {
                Ptr<TiresiasPolicy> scheduler = CreateObject<TiresiasPolicy>();
                scheduler->SetThresholds("200");
                engine.SetScheduler(scheduler);
            }
            storage.SetAttribute("IncrementalFills", BooleanValue(incremental));
            for (size_t i = 0; i < jobs.size(); ++i)
            {
                storage.AddDataset({"d" + std::to_string(i), 40e6 * double(1 + i * 3 % 10), 1e6});
            }
            storage.GetCacheTier()->SetAttribute("Capacity", DoubleValue(250e6));
        };
        return Replay(jobs,
                      factory.Create<StorageAllocationPolicy>(),
                      aggregate,
                      prefetch,
                      true,
                      configure);
    };
    for (const std::string& policy : StorageAllocationPolicy::Names())
    {
        INFO("policy " << policy);
        Run incremental = replay(policy, true);
        Run reference = replay(policy, false);
        CheckSameRun(incremental, reference);
    }
}
