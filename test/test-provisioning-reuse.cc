/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningModel::ReuseUsages: flows' usages kept between Solves give the same results, to
// the bit, as usages built anew at every Solve.

#include "provisioning-compare.h"
#include "provisioning-job.h"

#include "ns3/boolean.h"
#include "ns3/provisioning-model.h"
#include "ns3/uinteger.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

Ptr<ProvisioningModel>
Model(const std::string& loader, bool reuse)
{
    RailClusterConfig c;
    c.nodes = 6;
    auto m = CreateObject<ProvisioningModel>();
    m->SetAttribute("AggregatePerNode", BooleanValue(true));
    m->SetAttribute("ReuseUsages", BooleanValue(reuse));
    m->SetAttribute("PoolNodes", UintegerValue(2));
    m->SetCluster(c, CreateObject<StorageBackend>());
    m->SetLoader(ProvisioningLoader::Create(loader));
    return m;
}

} // namespace

TEST_CASE("provisioning: reused usages give the rates of usages built anew", "[provisioning]")
{
    // Jobs come, go and move; a multi-node job shares its storage clients between its flows;
    // the datasets running change the cache plans. Every Solve of the model that reuses
    // usages must equal, bit for bit, the Solve of one that builds them anew.
    std::vector<std::vector<ProvisioningJob>> passes = {
        {ProvisioningJobOn("a", "resnet50-imagenet", {{0, 8}}),
         ProvisioningJobOn("b", "bert-squad", {{1, 4}})},
        {ProvisioningJobOn("a", "resnet50-imagenet", {{0, 8}}),
         ProvisioningJobOn("b", "bert-squad", {{1, 4}}),
         ProvisioningJobOn("c", "yolov3-voc", {{1, 4}, {2, 8}, {3, 2}})},
        {ProvisioningJobOn("c", "yolov3-voc", {{1, 4}, {2, 8}, {3, 2}}),
         ProvisioningJobOn("d", "resnet18-cifar10", {{0, 2}}),
         ProvisioningJobOn("b", "bert-squad", {{4, 4}})},
        {ProvisioningJobOn("a", "resnet50-imagenet", {{0, 8}}),
         ProvisioningJobOn("b", "bert-squad", {{1, 4}})},
        {ProvisioningJobOn("d", "resnet18-cifar10", {{3, 1}}),
         ProvisioningJobOn("c", "yolov3-voc", {{1, 4}, {2, 8}, {3, 2}}),
         ProvisioningJobOn("a", "resnet50-imagenet", {{0, 8}})},
    };
    for (const std::string loader : {"kspeed", "dpp", "alluxio", "local"})
    {
        Ptr<ProvisioningModel> fresh = Model(loader, false);
        Ptr<ProvisioningModel> reuse = Model(loader, true);
        for (size_t p = 0; p < passes.size(); ++p)
        {
            INFO("loader " << loader << ", pass " << p);
            auto want = CheckSameSolve(fresh, reuse, passes[p]);
            // the rates must be there for the comparison to mean something
            CHECK(want.front().perGpu > 0);
        }
    }
}

TEST_CASE("provisioning: the peers' paths kept per node and rail add what a path per peer adds",
          "[provisioning]")
{
    // AddPathsFromPeers (Alluxio's remote hits) keeps every peer's path to a node on a rail as
    // one list. Cold and warm, it must add the weights and transfers AddPath adds for each
    // peer in node order, to the bit; with nothing to send, nothing.
    Ptr<ProvisioningModel> m = Model("alluxio", true);
    m->Solve({ProvisioningJobOn("a", "resnet50-imagenet", {{0, 8}})}); // builds the fabric
    const RailTopology& t = m->Topology();
    const uint32_t nodes = m->TrainingNodes();
    REQUIRE(nodes == 6);
    uint32_t compared = 0;
    for (int warm = 0; warm < 2; ++warm)
    {
        for (uint32_t node = 0; node < nodes; ++node)
        {
            for (uint32_t rail = 0; rail < t.GetConfig().node.nics; ++rail)
            {
                for (double bytes : {1e6, 3.3e5 / 7, 0.0})
                {
                    INFO("warm " << warm << ", node " << node << ", rail " << rail << ", bytes "
                                 << bytes);
                    UsageBuilder kept;
                    m->AddPathsFromPeers(node, rail, bytes, kept);
                    UsageBuilder perPeer;
                    for (uint32_t src = 0; src < nodes; ++src)
                    {
                        if (src != node)
                        {
                            m->AddPath(t.HostMemory(src), t.HostMemory(node), rail, bytes, perPeer);
                        }
                    }
                    const auto& a = kept.Transfers();
                    const auto& b = perPeer.Transfers();
                    REQUIRE(a.size() == b.size());
                    for (size_t k = 0; k < a.size(); ++k)
                    {
                        CHECK(a[k].src == b[k].src);
                        CHECK(a[k].dst == b[k].dst);
                        CHECK(a[k].rail == b[k].rail);
                        CHECK(a[k].bytes == b[k].bytes);
                    }
                    std::vector<MaxMinSolver::Usage> usage = kept.Take();
                    REQUIRE(usage == perPeer.Take());
                    CHECK(usage.empty() == (bytes == 0));
                    ++compared;
                }
            }
        }
    }
    CHECK(compared == 2 * 6 * t.GetConfig().node.nics * 3);
}
