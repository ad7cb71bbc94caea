/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Checkpoint writes of the storage data-loading model inside the cluster engine: hand-computed
// replays. The fixture's ckpt-model computes 1 s per iteration and writes a 100 MB checkpoint
// after every 100 s of running time; a job stops while its checkpoint is written.

#include "unit-workload.h"

#include "ns3/boolean.h"
#include "ns3/cache-all-policy.h"
#include "ns3/cluster-engine.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/no-cache-policy.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/storage-data-loading.h"

#include <catch2/catch.hpp>
#include <functional>

using namespace ns3;

namespace
{

const WorkloadCatalog&
CheckpointCatalog()
{
    static const WorkloadCatalog catalog =
        WorkloadCatalog::Load(std::string(AICLUSTER_TEST_DATA) + "/engine/checkpoint-catalog.json");
    return catalog;
}

/// A job of the fixture: model "ckpt-model" or "unit-model", dataset "zero" (reads nothing)
/// or "ds" (300 MB, 30 MB per sample: a 1-GPU job reads 30 MB/s).
JobRecord
Job(uint64_t id, uint32_t gpus, double seconds, const std::string& model, const std::string& ds)
{
    JobRecord r = UnitJob(id, 0, gpus, seconds, ds);
    r.model = model;
    return r;
}

struct Run
{
    Ptr<ClusterEngine> engine;
    Ptr<StorageDataLoading> storage;
};

/// aggregate and per-client remote bandwidth as DataRate strings.
Run
Replay(const std::vector<JobRecord>& jobs,
       Ptr<StorageAllocationPolicy> policy,
       const std::string& aggregate,
       const std::string& client,
       const std::function<void(StorageDataLoading&)>& configure = {})
{
    Run run;
    run.engine = UnitEngine(jobs, CheckpointCatalog());
    run.storage = CreateObject<StorageDataLoading>();
    run.storage->AddDataset({"zero", 0, 0});
    run.storage->AddDataset({"ds", 300e6, 30e6});
    run.storage->SetPolicy(policy);
    run.storage->GetBackend()->SetAttribute("AggregateBandwidth",
                                            DataRateValue(DataRate(aggregate)));
    run.storage->GetBackend()->SetAttribute("ClientBandwidth", DataRateValue(DataRate(client)));
    if (configure)
    {
        configure(*run.storage);
    }
    run.engine->SetDataLoadingModel(run.storage);
    run.engine->Run();
    run.storage->Settle();
    Simulator::Destroy();
    return run;
}

} // namespace

TEST_CASE("a checkpoint stops its job for checkpoint bytes / write bandwidth", "[checkpoint]")
{
    // 950 iterations of 1 s on 2 GPUs; a 100 MB checkpoint after every 100 s of running:
    // 9 of them (at progress 100, ..., 900), each 100 MB / 100 MB/s (the client cap) = 1 s.
    Run run = Replay({Job(0, 2, 950, "ckpt-model", "zero")},
                     CreateObject<NoCachePolicy>(),
                     "8Gbps",
                     "800Mbps");
    Ptr<ClusterJob> job = run.engine->Jobs()[0];
    CHECK(job->finishTime == Approx(959));
    CHECK(job->stallData == Approx(18).epsilon(1e-6)); // 9 s stopped on 2 GPUs
    CHECK(job->bound == "data:storage-checkpoint");
    const StorageTotals& t = run.storage->Totals();
    CHECK(t.checkpoints == 9);
    CHECK(t.checkpointBytes == Approx(900e6));
    CHECK(t.checkpointStallGpuSeconds == Approx(18));
    double pb = run.storage->GetBackend()->BandwidthPricePerByte();
    CHECK(t.bandwidthCost == Approx(pb * 900e6)); // the writes are charged; nothing is read
}

TEST_CASE("checkpoints off, or a longer CheckpointInterval", "[checkpoint]")
{
    std::vector<JobRecord> jobs = {Job(0, 1, 950, "ckpt-model", "zero")};
    Run off = Replay(jobs, CreateObject<NoCachePolicy>(), "8Gbps", "800Mbps", [](auto& s) {
        s.SetAttribute("Checkpoints", BooleanValue(false));
    });
    CHECK(off.engine->Jobs()[0]->finishTime == Approx(950));
    CHECK(off.storage->Totals().checkpoints == 0);
    CHECK(off.engine->Jobs()[0]->bound == "compute");
    // Every 200 s: at progress 200, 400, 600, 800, 1 s each.
    Run every200 = Replay(jobs, CreateObject<NoCachePolicy>(), "8Gbps", "800Mbps", [](auto& s) {
        s.SetAttribute("CheckpointInterval", TimeValue(Seconds(200)));
    });
    CHECK(every200.engine->Jobs()[0]->finishTime == Approx(954));
    CHECK(every200.storage->Totals().checkpoints == 4);
}

TEST_CASE("simultaneous checkpoints share the aggregate remote bandwidth", "[checkpoint]")
{
    // Two writers against 100 MB/s aggregate: 50 MB/s each, 2 s per checkpoint, 9 each.
    std::vector<JobRecord> jobs = {Job(0, 1, 950, "ckpt-model", "zero"),
                                   Job(1, 1, 950, "ckpt-model", "zero")};
    Run run = Replay(jobs, CreateObject<NoCachePolicy>(), "800Mbps", "800Mbps");
    CHECK(run.engine->Jobs()[0]->finishTime == Approx(968));
    CHECK(run.engine->Jobs()[1]->finishTime == Approx(968));
    CHECK(run.storage->Totals().checkpointStallGpuSeconds == Approx(36));
}

TEST_CASE("reads leave less bandwidth to checkpoints; caching the reads leaves more",
          "[checkpoint]")
{
    // 100 MB/s aggregate. Two 1-GPU readers of "ds" (30 MB/s each, 1,500 s) and a writer.
    // No cache: the reads take 60 MB/s, the writer gets the 40 MB/s left (more than its
    // floor 100/3 MB/s): 2.5 s per checkpoint, 9 of them. Cache-all holds "ds" after one
    // pass of its readers over it (300 MB at 60 MB/s = 5 s, before the first checkpoint):
    // then nothing is read remotely and the writer gets its cap, 1 s per checkpoint.
    std::vector<JobRecord> jobs = {Job(0, 1, 950, "ckpt-model", "zero"),
                                   Job(1, 1, 1500, "unit-model", "ds"),
                                   Job(2, 1, 1500, "unit-model", "ds")};
    Run none = Replay(jobs, CreateObject<NoCachePolicy>(), "800Mbps", "800Mbps");
    CHECK(none.engine->Jobs()[0]->finishTime == Approx(972.5));
    CHECK(none.engine->Jobs()[1]->finishTime == Approx(1500)); // readers keep their plan
    Run cached = Replay(jobs, CreateObject<CacheAllPolicy>(), "800Mbps", "800Mbps");
    CHECK(cached.engine->Jobs()[0]->finishTime == Approx(959));
    CHECK(cached.engine->Jobs()[1]->finishTime == Approx(1500));
    // Readers that finish during a write give the writer their bandwidth at once: the 9th
    // write starts at 920 = 900 + 8 x 2.5 s; the readers leave at 921, when 40 MB are written;
    // the other 60 MB go at 100 MB/s: the write ends at 921.6, not 922.5.
    std::vector<JobRecord> early = {Job(0, 1, 950, "ckpt-model", "zero"),
                                    Job(1, 1, 921, "unit-model", "ds"),
                                    Job(2, 1, 921, "unit-model", "ds")};
    Run leaving = Replay(early, CreateObject<NoCachePolicy>(), "800Mbps", "800Mbps");
    CHECK(leaving.engine->Jobs()[0]->finishTime == Approx(921.6 + 50));
    CHECK(leaving.storage->Totals().checkpointBytes == Approx(900e6));
}
