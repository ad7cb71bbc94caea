/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// The one table of short component names (ComponentRegistry): every alias creates an object of
// its TypeId with its attributes, and each of the four places that turn a name into an object
// (the builder and scenario checks, ProvisioningLoader::Create, StorageAllocationPolicy,
// InaHelper::SetPolicy) accepts exactly the table's names and lists them when one is unknown.

#include "ns3/component-registry.h"
#include "ns3/ina-allocation-policy.h"
#include "ns3/ina-helper.h"
#include "ns3/ina-rate-policy.h"
#include "ns3/iteration-model.h"
#include "ns3/job-sizing-policy.h"
#include "ns3/provisioning-model.h"
#include "ns3/scheduling-policy.h"
#include "ns3/storage-policy.h"
#include "ns3/string.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

using namespace ns3;

namespace
{

/// The base class every entry of a kind must derive from (provisioning: either a data term,
/// ideal, or a loader).
bool
OfItsKind(const ComponentAlias& a, TypeId tid)
{
    if (a.kind == "scheduler")
    {
        return tid.IsChildOf(SchedulingPolicy::GetTypeId());
    }
    if (a.kind == "placement")
    {
        return tid.GetName() == "ns3::GpuAllocator";
    }
    if (a.kind == "sync")
    {
        return tid.IsChildOf(IterationTermModel::GetTypeId());
    }
    if (a.kind == "ina-policy")
    {
        return tid.IsChildOf(InaAllocationPolicy::GetTypeId());
    }
    if (a.kind == "ina-rate-policy")
    {
        return tid.IsChildOf(InaRatePolicy::GetTypeId());
    }
    if (a.kind == "provisioning")
    {
        return tid.IsChildOf(ProvisioningLoader::GetTypeId()) ||
               (a.name == "ideal" && tid.IsChildOf(IterationTermModel::GetTypeId()));
    }
    if (a.kind == "storage")
    {
        return tid.IsChildOf(StorageAllocationPolicy::GetTypeId());
    }
    return false;
}

/// The name an object gives itself: a policy's or loader's own name, the Policy or Rule
/// attribute of the sync model and the allocator, the lower-cased class of a scheduler or
/// of a sync model without a Policy.
std::string
OwnName(Ptr<Object> object)
{
    if (auto p = DynamicCast<InaAllocationPolicy>(object))
    {
        return p->GetName();
    }
    if (auto p = DynamicCast<InaRatePolicy>(object))
    {
        return p->GetName();
    }
    if (auto l = DynamicCast<ProvisioningLoader>(object))
    {
        return l->Name();
    }
    if (auto s = DynamicCast<StorageAllocationPolicy>(object))
    {
        return s->Name();
    }
    TypeId::AttributeInformation info;
    for (const char* attribute : {"Policy", "Rule"})
    {
        if (object->GetInstanceTypeId().LookupAttributeByName(attribute, &info))
        {
            StringValue v;
            object->GetAttribute(attribute, v);
            std::string name = v.Get();
            std::transform(name.begin(), name.end(), name.begin(), ::tolower);
            return name;
        }
    }
    // ns3::FifoPolicy -> fifo, ns3::IdealGradientSync -> ideal, ns3::RingAllReduceSync -> ring
    std::string name = object->GetInstanceTypeId().GetName().substr(5);
    for (const char* suffix : {"Policy", "GradientSync", "AllReduceSync", "DataLoading"})
    {
        size_t at = name.find(suffix);
        if (at != std::string::npos && at > 0)
        {
            name = name.substr(0, at);
            break;
        }
    }
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    return name;
}

} // namespace

TEST_CASE("registry: every alias creates an object of its TypeId, with its attributes",
          "[registry]")
{
    std::set<std::pair<std::string, std::string>> seen;
    for (const ComponentAlias& a : ComponentRegistry::Aliases())
    {
        INFO(a.kind << " " << a.name << " -> " << a.typeId);
        CHECK(seen.insert({a.kind, a.name}).second); // a name appears once per kind
        if (a.typeId.empty())
        {
            CHECK((a.kind == "storage" && a.name == "ideal")); // no storage model
            continue;
        }
        TypeId tid;
        REQUIRE(TypeId::LookupByNameFailSafe(a.typeId, &tid));
        Ptr<Object> object = ComponentRegistry::Factory(a).Create();
        REQUIRE(object);
        CHECK(object->GetInstanceTypeId() == tid);
        CHECK(OfItsKind(a, tid));
        // The object calls itself by the alias (autocba: a CbaPolicy plus its GPU sizing;
        // sync none: ring all-reduce, no in-network aggregation).
        std::string own = a.name == "autocba" ? "cba" : a.name;
        own = a.kind == "sync" && a.name == "none" ? "ring" : own;
        CHECK(OwnName(object) == own);
        for (const auto& [attribute, value] : a.attributes)
        {
            INFO(attribute);
            StringValue got;
            object->GetAttribute(attribute, got);
            CHECK(got.Get() == value);
        }
        if (!a.jobSizing.empty())
        {
            TypeId sizing;
            REQUIRE(TypeId::LookupByNameFailSafe(a.jobSizing, &sizing));
            CHECK(sizing.IsChildOf(JobSizingPolicy::GetTypeId()));
            Ptr<Object> s = ObjectFactory(a.jobSizing).Create();
            REQUIRE(s);
            CHECK(s->GetInstanceTypeId() == sizing);
        }
    }
    // The kinds the builder and the scenario files choose from all have names.
    for (const char* kind :
         {"scheduler", "placement", "sync", "ina-policy", "provisioning", "storage"})
    {
        INFO(kind);
        CHECK(!ComponentRegistry::Names(kind).empty());
    }
}

TEST_CASE("registry: the loaders, storage policies and INA policies are the table's", "[registry]")
{
    // Provisioning loaders: every provisioning alias but ideal (a data term, not a loader).
    std::vector<std::string> loaders = {"local", "dpp", "alluxio", "kspeed"};
    CHECK(ComponentRegistry::Names("provisioning", ProvisioningLoader::GetTypeId()) == loaders);
    for (const std::string& name : loaders)
    {
        INFO(name);
        CHECK(ProvisioningLoader::Create(name)->GetInstanceTypeId().GetName() ==
              ComponentRegistry::Find("provisioning", name).typeId);
    }
    CHECK_THROWS_WITH(ProvisioningLoader::Create("ideal"),
                      Catch::Contains("unknown name 'ideal'") &&
                          Catch::Contains("expected local, dpp, alluxio or kspeed"));

    // Storage policies: every storage alias but ideal (no model), autocba included.
    for (const std::string& name : StorageAllocationPolicy::Names())
    {
        INFO(name);
        CHECK(StorageAllocationPolicy::TypeNameOf(name) ==
              ComponentRegistry::Find("storage", name).typeId);
    }
    CHECK(StorageAllocationPolicy::Names().size() + 1 ==
          ComponentRegistry::Names("storage").size());
    CHECK(StorageAllocationPolicy::NameList() ==
          "none, cache-all, fair, lru, quiver, silod, cba, autocba");
    CHECK_THROWS_WITH(StorageAllocationPolicy::TypeNameOf("ideal"),
                      Catch::Contains("unknown storage policy 'ideal'; known: none, cache-all"));

    // INA packet-level policies.
    InaHelper ina;
    for (const std::string& name : ComponentRegistry::Names("ina-policy"))
    {
        INFO(name);
        CHECK_NOTHROW(ina.SetPolicy(name));
    }
    CHECK_THROWS_WITH(ina.SetPolicy("ring"),
                      Catch::Contains("INA policy 'ring' unknown: expected switchml, atp or esa"));

    // The builder's and the scenario's line.
    CHECK_THROWS_WITH(ComponentRegistry::Find("sync", "magic"),
                      Catch::Contains("unknown sync 'magic' (known: ideal, none, ring, switchml, "
                                      "atp, esa)"));
    CHECK(ComponentRegistry::Join({"a"}, " or ") == "a");
    CHECK(ComponentRegistry::Join({"a", "b", "c"}, " or ") == "a, b or c");
}
