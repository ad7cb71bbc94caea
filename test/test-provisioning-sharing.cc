/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// How unlike jobs share storage clients, CPUs and NICs in the data-provisioning model:
// storage clients per job and node (sized by the job's own samples and batch), fairness as
// dominant share or fraction of demand (never samples/s across unlike jobs), and a NIC DMA
// rate that follows the NIC generation (its rail rate).

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/provisioning-model.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace ns3;

namespace
{

const double kInf = std::numeric_limits<double>::infinity();

RailClusterConfig
Cluster(uint32_t nodes)
{
    RailClusterConfig c;
    c.nodes = nodes;
    return c;
}

/// A job of `workload` on nodes [first, first + count), all GPUs of each.
ProvisioningJob
OnNodes(const std::string& workload, uint32_t first, uint32_t count, double gpuRate = -1)
{
    ProvisioningJob j;
    j.name = workload;
    j.profile = &WorkloadCatalog::Default().Get(workload);
    for (uint32_t n = first; n < first + count; ++n)
    {
        j.gpusOnNode.emplace_back(n, 8);
    }
    j.gpuRate = gpuRate;
    return j;
}

std::vector<ProvisioningJobResult>
Solve(const RailClusterConfig& c,
      const std::string& loader,
      const std::vector<ProvisioningJob>& jobs)
{
    auto m = CreateObject<ProvisioningModel>();
    m->SetCluster(c, CreateObject<StorageBackend>());
    m->SetLoader(ProvisioningLoader::Create(loader));
    return m->Solve(jobs);
}

} // namespace

TEST_CASE("provisioning: a job's storage client is sized by its own samples and batch",
          "[provisioning]")
{
    // bert-squad's small samples make its client latency bound. Alone on six nodes or next
    // to resnet50 (large samples, other batch) on six other nodes it must load as fast: the
    // other job's sample size must not size its client.
    RailClusterConfig c = Cluster(12);
    // DPP's pool CPU is shared by both jobs: make it ample so that only the clients differ
    Config::SetDefault("ns3::ProvisioningModel::DppCores", DoubleValue(1e9));
    for (const char* loader : {"local", "dpp"})
    {
        auto alone = Solve(c, loader, {OnNodes("bert-squad", 0, 6, kInf)});
        auto mixed =
            Solve(c,
                  loader,
                  {OnNodes("bert-squad", 0, 6, kInf), OnNodes("resnet50-imagenet", 6, 6, kInf)});
        INFO(loader << ": alone " << alone[0].perGpu << " (" << alone[0].bottleneck << "), mixed "
                    << mixed[0].perGpu << " (" << mixed[0].bottleneck << ")");
        CHECK(alone[0].bottleneck == "storage-client");
        CHECK(mixed[0].perGpu == Approx(alone[0].perGpu).epsilon(0.01));
    }
    Config::Reset();
}

TEST_CASE("provisioning: a cheap job next to an expensive one is not starved", "[provisioning]")
{
    // One DPP node (64 cores) for resnet50 (decode-heavy) and neumf (2.9 cores at full
    // demand). Max-min in samples/s gives both the same samples/s, far below neumf's demand;
    // dominant-resource fairness gives neumf all it asks and resnet50 the rest.
    RailClusterConfig c = Cluster(12);
    std::vector<ProvisioningJob> jobs = {OnNodes("resnet50-imagenet", 0, 6),
                                         OnNodes("neumf-movielens", 6, 6)};
    Config::SetDefault("ns3::ProvisioningModel::DppNodes", UintegerValue(1));
    auto drf = Solve(c, "dpp", jobs);
    Config::SetDefault("ns3::ProvisioningModel::Fairness", StringValue("DemandFraction"));
    auto fraction = Solve(c, "dpp", jobs);
    Config::SetDefault("ns3::ProvisioningModel::Fairness", StringValue("Samples"));
    auto samples = Solve(c, "dpp", jobs);
    Config::Reset();
    INFO("stall resnet/neumf: DRF " << drf[0].stallFraction << "/" << drf[1].stallFraction
                                    << ", fraction " << fraction[0].stallFraction << "/"
                                    << fraction[1].stallFraction << ", samples "
                                    << samples[0].stallFraction << "/" << samples[1].stallFraction);
    CHECK(drf[0].stallFraction > 0.3);  // the pool is far too small for resnet50
    CHECK(drf[1].stallFraction < 1e-6); // neumf fits in its dominant share
    CHECK(fraction[1].stallFraction == Approx(fraction[0].stallFraction).epsilon(1e-6));
    CHECK(samples[1].stallFraction > 0.9); // the starvation the default avoids
}

TEST_CASE("rdma: a NIC's DMA rate follows its generation (rail rate)", "[rdma]")
{
    RailClusterConfig c = Cluster(2);
    c.node.pcieGen = 5; // 51.2 GB/s: the NIC, not PCIe, binds
    auto nicLink = [](const RailClusterConfig& cfg) {
        RailTopology t(cfg);
        for (uint32_t l : t.GetAdjacentLinks(t.Nic(0, 0)))
        {
            if (t.GetLinks()[l].inNode)
            {
                return t.GetLinks()[l].bytesPerSec;
            }
        }
        return 0.0;
    };
    c.railRateBps = 200e9;
    CHECK(nicLink(c) == Approx(23.5e9));
    c.railRateBps = 400e9;
    CHECK(nicLink(c) == Approx(47e9));
    c.node.nicDmaBandwidth = 30e9; // set explicitly, it wins
    CHECK(nicLink(c) == Approx(30e9));
    c.node.nicDmaBandwidth = 0;
    c.node.pcieGen = 4; // 25.6 GB/s: PCIe binds again
    CHECK(nicLink(c) == Approx(25.6e9));

    // GPUDirect into one GPU: a 400G NIC on Gen5 delivers twice a 200G one
    auto rate = [](double railBps) {
        RailClusterConfig cfg;
        cfg.nodes = 2;
        cfg.node.pcieGen = 5;
        cfg.railRateBps = railBps;
        auto f = CreateObject<RdmaRateFabric>();
        f->Build(cfg);
        const RailTopology& t = f->GetTopology();
        Time done;
        f->Write(t.Gpu(1, 0), t.Gpu(0, 0), 100000000, [&done](const RdmaTransferResult& r) {
            done = r.delivered - r.start;
        });
        Simulator::Run();
        f->Dispose();
        Simulator::Destroy();
        return 100000000 / done.GetSeconds();
    };
    CHECK(rate(400e9) == Approx(2 * rate(200e9)).epsilon(0.01));
}
