/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The loaders as the cluster engine's data-loading term, in a small replay.

#include "ns3/cluster-engine-helper.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/provisioning-data-loading.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>

using namespace ns3;

namespace
{

JobRecord
Resnet(uint64_t id, double submit, double iterations)
{
    JobRecord r;
    r.id = id;
    r.name = "job" + std::to_string(id);
    r.submitTime = submit;
    r.numGpus = 8;
    r.model = "resnet50-imagenet";
    r.iterations = iterations;
    r.duration = 1;
    r.source = RecordSource("test", id);
    return r;
}

/// The jobs after a replay under one loader on 2 nodes x 8 GPUs with 8 loading cores each.
std::vector<Ptr<ClusterJob>>
ReplayJobs(const std::string& loader, const std::vector<JobRecord>& jobs)
{
    Config::SetDefault("ns3::ProvisioningModel::CpuCores", DoubleValue(8));
    // KSpeed's pool: 2 nodes of 8 cores and 512 GB each (the loading cores the trainers have)
    Config::SetDefault("ns3::ProvisioningModel::PoolNodes", UintegerValue(2));
    Config::SetDefault("ns3::ProvisioningModel::PoolCores", DoubleValue(8));
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 2;
    topology.gpusPerNode = 8;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::FifoPolicy");
    Ptr<ClusterEngine> engine = helper.Create(jobs, WorkloadCatalog::Default());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    auto dl = CreateObject<ProvisioningDataLoading>();
    dl->Configure(loader, CreateObject<StorageBackend>());
    engine->SetDataLoadingModel(dl);
    engine->Run();
    std::vector<Ptr<ClusterJob>> out = engine->Jobs();
    Simulator::Destroy();
    Config::Reset();
    return out;
}

/// Finish times of the jobs under one loader (ReplayJobs).
std::vector<double>
Replay(const std::string& loader, const std::vector<JobRecord>& jobs)
{
    std::vector<double> finish;
    for (const auto& j : ReplayJobs(loader, jobs))
    {
        finish.push_back(j->finishTime);
    }
    return finish;
}

} // namespace

TEST_CASE("provisioning engine: CPU-bound local loading sets the iteration time", "[provisioning]")
{
    // 8 cores per node feed 8 GPUs: per GPU 1 core / (decode + staging copy) samples/s
    const WorkloadProfile& p = WorkloadCatalog::Default().Get("resnet50-imagenet");
    double perGpu = 1.0 / (p.cpuSecondsPerSample + 1e-10 * p.decodedBytesPerSample);
    REQUIRE(p.localBatch / perGpu > p.ComputeTime(8)); // loading, not compute, is the bound
    auto finish = Replay("local", {Resnet(0, 0, 100)});
    CHECK(finish.at(0) == Approx(100 * p.localBatch / perGpu).epsilon(1e-6));
}

TEST_CASE("provisioning engine: KSpeed's pool is shared, so a second job slows the first",
          "[provisioning]")
{
    // KSpeed spreads both jobs over its two pool nodes' 16 cores; the preprocessed ImageNet
    // fits the pool (2 x 512 GB), so a sample costs (1 - 0.5) of its decode. Alone, job 0 gets all
    // 16 cores: more than its GPUs consume, it runs at compute speed. Job 1 arrives at 10 s.
    const WorkloadProfile& p = WorkloadCatalog::Default().Get("resnet50-imagenet");
    double compute = p.ComputeTime(8);
    double shared = p.localBatch / (16.0 / 16 / (0.5 * p.cpuSecondsPerSample)); // s/iteration
    REQUIRE(shared > compute);
    REQUIRE(p.localBatch / (16.0 / 8 / (0.5 * p.cpuSecondsPerSample)) < compute);
    double iterations = 1000;
    auto finish = Replay("kspeed", {Resnet(0, 0, iterations), Resnet(1, 10, iterations)});
    double doneAlone = 10 / compute;
    double finish0 = 10 + (iterations - doneAlone) * shared;
    double finish1 = finish0 + (iterations - (finish0 - 10) / shared) * compute;
    CHECK(finish.at(0) == Approx(finish0).epsilon(1e-6));
    CHECK(finish.at(1) == Approx(finish1).epsilon(1e-6));
    // the local loader on the same cluster is slower for both
    auto local = Replay("local", {Resnet(0, 0, iterations), Resnet(1, 10, iterations)});
    CHECK(local.at(0) > finish.at(0));
    CHECK(local.at(1) > finish.at(1));
}

TEST_CASE("provisioning engine: a loader that keeps up costs no data stall, not even an ulp",
          "[provisioning]")
{
    // Alone, KSpeed's 16 pool cores feed the job faster than its GPUs consume (previous case):
    // the data term is the compute time itself, so no GPU time is lost to data. Computed as
    // batch / (batch / compute) it came out an ulp above compute and showed as ~1e-11 s of
    // data stall.
    const WorkloadProfile& p = WorkloadCatalog::Default().Get("resnet50-imagenet");
    REQUIRE(p.localBatch / (16.0 / 8 / (0.5 * p.cpuSecondsPerSample)) < p.ComputeTime(8));
    auto jobs = ReplayJobs("kspeed", {Resnet(0, 0, 1000)});
    REQUIRE(jobs.size() == 1);
    CHECK(jobs[0]->dataTime == jobs[0]->computeTime);
    CHECK(jobs[0]->stallData == 0.0);
}
