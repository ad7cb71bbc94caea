/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The loaders realized as events on the RDMA fabrics (packets, and fluid flows) against the
// rate-level max-min answer, on a cluster small enough for packets.

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/provisioning-fabric-run.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <limits>

using namespace ns3;

namespace
{

/// Two training nodes of 2 GPUs + 2 NICs on one PCIe switch, one DPP node.
RailClusterConfig
SmallCluster()
{
    RailClusterConfig c;
    c.nodes = 2;
    c.node.gpus = 2;
    c.node.nics = 2;
    c.node.pcieSwitches = 1;
    c.spines = 0;
    return c;
}

/// The model solved for one loading benchmark job on all 4 GPUs; its bottleneck.
std::pair<Ptr<ProvisioningModel>, std::string>
Solved(const std::string& loader)
{
    auto m = CreateObject<ProvisioningModel>();
    m->SetCluster(SmallCluster(), CreateObject<StorageBackend>());
    m->SetLoader(ProvisioningLoader::Create(loader));
    ProvisioningJob j;
    j.name = "resnet50";
    j.profile = &WorkloadCatalog::Default().Get("resnet50-imagenet");
    j.gpusOnNode = {{0, 2}, {1, 2}};
    j.gpuRate = std::numeric_limits<double>::infinity();
    return {m, m->Solve({j}).at(0).bottleneck};
}

template <typename Fabric>
std::vector<double>
RunOn(Ptr<ProvisioningModel> m, Time warmup, Time end)
{
    auto fabric = CreateObject<Fabric>();
    fabric->Build(m->FabricConfig());
    auto run = CreateObject<ProvisioningFabricRun>();
    run->SetAttribute("ChunkSamples", UintegerValue(2));
    run->Setup(m, fabric);
    auto rates = run->Run(warmup, end);
    Simulator::Destroy();
    return rates;
}

void
CheckAgreement(const std::string& loader,
               const std::string& expectedBottleneck,
               Time warmup,
               Time end)
{
    auto [m, bottleneck] = Solved(loader);
    CHECK(bottleneck == expectedBottleneck);
    std::vector<double> packet = RunOn<RdmaPacketFabric>(m, warmup, end);
    std::vector<double> fluid = RunOn<RdmaRateFabric>(m, warmup, end);
    const auto& flows = m->GetFlows();
    REQUIRE(flows.size() == 4);
    for (size_t f = 0; f < flows.size(); ++f)
    {
        INFO(loader << " GPU " << f << ": max-min " << flows[f].rate << ", fluid events "
                    << fluid[f] << ", packets " << packet[f]);
        CHECK(fluid[f] == Approx(flows[f].rate).epsilon(0.05));
        CHECK(packet[f] == Approx(flows[f].rate).epsilon(0.10));
    }
}

} // namespace

TEST_CASE("provisioning packet level: KSpeed's rail writes agree with max-min", "[provisioning]")
{
    // unbounded CPUs and DRAM: the pool node's PCIe uplinks and rails are what limit it
    Config::SetDefault("ns3::ProvisioningModel::PoolCores", DoubleValue(1e6));
    Config::SetDefault("ns3::ProvisioningModel::PoolDramBandwidth", DoubleValue(1e15));
    Config::SetDefault("ns3::ProvisioningModel::PoolNodes", UintegerValue(1));
    CheckAgreement("kspeed", "pcie-uplink", MilliSeconds(1), MilliSeconds(5));
    Config::Reset();
}

TEST_CASE("provisioning packet level: DPP's incast into host memory agrees with max-min",
          "[provisioning]")
{
    Config::SetDefault("ns3::ProvisioningModel::DppCores", DoubleValue(1e6));
    Config::SetDefault("ns3::ProvisioningModel::DramBandwidth", DoubleValue(1e15));
    Config::SetDefault("ns3::ProvisioningModel::DppNodes", UintegerValue(1));
    Config::SetDefault("ns3::StorageBackend::AggregateBandwidth", StringValue("10000Gbps"));
    Config::SetDefault("ns3::StorageBackend::ClientBandwidth", StringValue("10000Gbps"));
    CheckAgreement("dpp", "pcie-uplink", MilliSeconds(1), MilliSeconds(5));
    Config::Reset();
}

TEST_CASE("provisioning packet level: CPU-bound local loading agrees with max-min",
          "[provisioning]")
{
    Config::SetDefault("ns3::ProvisioningModel::CpuCores", DoubleValue(8));
    Config::SetDefault("ns3::ProvisioningModel::DppNodes", UintegerValue(1));
    // ~1300 samples/s per GPU: a longer window keeps chunk granularity under 1%
    CheckAgreement("local", "cpu", MilliSeconds(20), MilliSeconds(220));
    Config::Reset();
}
