/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Provisioning as a mechanism: KSpeed's pool is memory/CPU nodes of its own writing over the
// rails into GPU memory (the trainers' CPU, memory and uplinks carry none of its work); DPP's
// tensors land in the trainer's host memory and the trainer pays the TCP receive; Alluxio's
// client pays its copies and the FUSE mount. Each cost is an attribute; each test moves one
// and sees the loader that pays it (and only that one) move.

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/provisioning-model.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <limits>

using namespace ns3;

namespace
{

const double kInf = std::numeric_limits<double>::infinity();

ProvisioningJobResult
Capacity(const std::string& loader, const WorkloadProfile& profile, uint32_t nodes = 4)
{
    RailClusterConfig c;
    c.nodes = nodes;
    ProvisioningJob j;
    j.name = profile.name;
    j.profile = &profile;
    for (uint32_t n = 0; n < nodes; ++n)
    {
        j.gpusOnNode.emplace_back(n, 8);
    }
    j.gpuRate = kInf;
    auto m = CreateObject<ProvisioningModel>();
    m->SetCluster(c, CreateObject<StorageBackend>());
    m->SetLoader(ProvisioningLoader::Create(loader));
    return m->Solve({j}).at(0);
}

ProvisioningJobResult
Capacity(const std::string& loader, const std::string& workload, uint32_t nodes = 4)
{
    return Capacity(loader, WorkloadCatalog::Default().Get(workload), nodes);
}

} // namespace

TEST_CASE("provisioning: KSpeed's pool is its own nodes; the trainers do none of its work",
          "[provisioning]")
{
    auto base = Capacity("kspeed", "resnet50-imagenet");
    Config::SetDefault("ns3::ProvisioningModel::CpuCores", DoubleValue(1e-3));
    Config::SetDefault("ns3::ProvisioningModel::DramBandwidth", DoubleValue(1e3));
    auto starvedTrainers = Capacity("kspeed", "resnet50-imagenet");
    Config::Reset();
    Config::SetDefault("ns3::ProvisioningModel::PoolCores", DoubleValue(128));
    auto biggerPool = Capacity("kspeed", "resnet50-imagenet");
    Config::Reset();
    INFO("base " << base.perGpu << " (" << base.bottleneck << "), trainers starved "
                 << starvedTrainers.perGpu << ", pool x2 " << biggerPool.perGpu);
    CHECK(base.bottleneck == "pool-cpu");
    CHECK(starvedTrainers.perGpu == Approx(base.perGpu).epsilon(1e-9));
    CHECK(biggerPool.perGpu > 1.5 * base.perGpu);

    // PoolNodes 0: the trainers themselves are the pool (their cores bind)
    Config::SetDefault("ns3::ProvisioningModel::PoolNodes", UintegerValue(0));
    auto onTrainers = Capacity("kspeed", "resnet50-imagenet");
    Config::Reset();
    CHECK(onTrainers.bottleneck == "cpu");
}

TEST_CASE("provisioning: DPP's trainer pays the TCP receive of its tensors", "[provisioning]")
{
    // trainers with few cores: DPP's receive side binds on them; the pool has plenty
    Config::SetDefault("ns3::ProvisioningModel::CpuCores", DoubleValue(2));
    Config::SetDefault("ns3::ProvisioningModel::PoolCores", DoubleValue(1e6));
    auto paid = Capacity("dpp", "cyclegan-monet2photo-gavel");
    auto kspeed = Capacity("kspeed", "cyclegan-monet2photo-gavel");
    Config::SetDefault("ns3::ProvisioningModel::TcpReceiveCpuSecondsPerByte", DoubleValue(0));
    auto free = Capacity("dpp", "cyclegan-monet2photo-gavel");
    auto kspeedFree = Capacity("kspeed", "cyclegan-monet2photo-gavel");
    Config::Reset();
    INFO("dpp " << paid.perGpu << " (" << paid.bottleneck << "), without the receive cost "
                << free.perGpu << " (" << free.bottleneck << ")");
    CHECK(paid.bottleneck == "cpu");
    CHECK(free.perGpu > 1.2 * paid.perGpu);
    CHECK(kspeedFree.perGpu == Approx(kspeed.perGpu).epsilon(1e-9)); // KSpeed pays no receive
}

TEST_CASE("provisioning: Alluxio's client pays its copies and the FUSE mount", "[provisioning]")
{
    // A byte-heavy, decode-light workload (cyclegan's samples, a thousandth of its decode) on
    // trainers with 2 loading cores: the per-byte costs are what bind.
    WorkloadProfile light = WorkloadCatalog::Default().Get("cyclegan-monet2photo-gavel");
    light.cpuSecondsPerSample *= 1e-3;
    Config::SetDefault("ns3::ProvisioningModel::CpuCores", DoubleValue(2));
    auto paid = Capacity("alluxio", light);
    auto local = Capacity("local", light);
    Config::SetDefault("ns3::ProvisioningModel::FuseCpuSecondsPerByte", DoubleValue(0));
    auto noFuse = Capacity("alluxio", light);
    auto localNoFuse = Capacity("local", light);
    Config::Reset();
    INFO("alluxio " << paid.perGpu << " (" << paid.bottleneck << "), without FUSE " << noFuse.perGpu
                    << "; local " << local.perGpu);
    CHECK(paid.bottleneck == "cpu");
    CHECK(noFuse.perGpu > 1.05 * paid.perGpu);
    CHECK(localNoFuse.perGpu == Approx(local.perGpu).epsilon(1e-9)); // no FUSE in local loading
    CHECK(paid.perGpu < local.perGpu); // the cache's client path costs the trainer's cores
}
