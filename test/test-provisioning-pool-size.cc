/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningModel's pool size: unless PoolNodes or DppNodes is set, DPP's and KSpeed's pool
// scales with the cluster, PoolNodesPerTrainingNode x training nodes rounded up (one pool node
// per four trainers by default), so a large cluster is not starved by a pool sized for the
// bundled sample; an explicit size wins; a size above 4096 nodes is refused by name.

#include "ns3/double.h"
#include "ns3/provisioning-model.h"
#include "ns3/uinteger.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace ns3;
using Catch::Matchers::Contains;

namespace
{

/** \return the pool size of a model set up for `nodes` training nodes */
uint32_t
PoolFor(Ptr<ProvisioningModel> model, uint32_t nodes)
{
    RailClusterConfig cluster;
    cluster.nodes = nodes;
    model->SetCluster(cluster, CreateObject<StorageBackend>());
    return model->PoolNodes();
}

} // namespace

TEST_CASE("the provisioning pool has one node per four training nodes, rounded up, by default",
          "[provisioning][pool]")
{
    CHECK(PoolFor(CreateObject<ProvisioningModel>(), 16) == 4);     // the bundled sample
    CHECK(PoolFor(CreateObject<ProvisioningModel>(), 352) == 88);   // Philly
    CHECK(PoolFor(CreateObject<ProvisioningModel>(), 6) == 2);      // 1.5 rounds up
    CHECK(PoolFor(CreateObject<ProvisioningModel>(), 1) == 1);      // never an empty pool
    CHECK(PoolFor(CreateObject<ProvisioningModel>(), 3520) == 880); // tenfold Philly
    CHECK(PoolFor(CreateObject<ProvisioningModel>(), 20000) == 4096);
}

TEST_CASE("PoolNodesPerTrainingNode sets the ratio the default pool scales by",
          "[provisioning][pool]")
{
    auto half = CreateObject<ProvisioningModel>();
    half->SetAttribute("PoolNodesPerTrainingNode", DoubleValue(0.5));
    CHECK(PoolFor(half, 16) == 8);
    CHECK(PoolFor(half, 7) == 4);

    auto none = CreateObject<ProvisioningModel>();
    none->SetAttribute("PoolNodesPerTrainingNode", DoubleValue(0));
    CHECK(PoolFor(none, 16) == 0); // KSpeed then pools the trainers themselves
}

TEST_CASE("an explicit PoolNodes or DppNodes overrides the scaled pool", "[provisioning][pool]")
{
    auto three = CreateObject<ProvisioningModel>();
    three->SetAttribute("PoolNodes", UintegerValue(3));
    CHECK(PoolFor(three, 352) == 3);

    auto zero = CreateObject<ProvisioningModel>();
    zero->SetAttribute("PoolNodes", UintegerValue(0));
    CHECK(PoolFor(zero, 352) == 0);

    auto alias = CreateObject<ProvisioningModel>();
    alias->SetAttribute("PoolNodes", UintegerValue(3));
    alias->SetAttribute("DppNodes", UintegerValue(5));
    CHECK(PoolFor(alias, 16) == 5);
}

TEST_CASE("a pool above 4096 nodes is refused naming the attribute", "[provisioning][pool]")
{
    for (const char* attribute : {"PoolNodes", "DppNodes"})
    {
        auto model = CreateObject<ProvisioningModel>();
        model->SetAttribute(attribute, UintegerValue(5000));
        try
        {
            PoolFor(model, 16);
            FAIL("a pool of 5000 nodes was accepted");
        }
        catch (const std::invalid_argument& e)
        {
            CHECK_THAT(e.what(),
                       Contains(std::string("ns3::ProvisioningModel::") + attribute + " is 5000") &&
                           Contains("expected 0 to 4096 nodes"));
        }
    }
}
