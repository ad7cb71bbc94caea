/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "component-registry.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ComponentRegistry");

const std::vector<ComponentAlias>&
ComponentRegistry::Aliases()
{
    // The one table of short names. test-component-registry.cc creates every entry and
    // checks that it is an object of its TypeId.
    static const std::vector<ComponentAlias> table{
        {"scheduler", "fifo", "ns3::FifoPolicy", {}, ""},
        {"scheduler", "sjf", "ns3::SjfPolicy", {}, ""},
        {"scheduler", "tiresias", "ns3::TiresiasPolicy", {}, ""},
        {"placement", "consolidated", "ns3::GpuAllocator", {{"Rule", "Consolidated"}}, ""},
        {"placement", "spread", "ns3::GpuAllocator", {{"Rule", "Spread"}}, ""},
        // Gradient sync at the rate level (the engine's sync term).
        {"sync", "ideal", "ns3::IdealGradientSync", {}, ""},
        {"sync", "none", "ns3::RingAllReduceSync", {}, ""},
        {"sync", "ring", "ns3::RingAllReduceSync", {}, ""},
        {"sync", "switchml", "ns3::InaGradientSync", {{"Policy", "switchml"}}, ""},
        {"sync", "atp", "ns3::InaGradientSync", {{"Policy", "atp"}}, ""},
        {"sync", "esa", "ns3::InaGradientSync", {{"Policy", "esa"}}, ""},
        // The rate level's aggregator allocation policies (InaGradientSync's Policy).
        {"ina-rate-policy", "switchml", "ns3::SwitchMlRatePolicy", {}, ""},
        {"ina-rate-policy", "atp", "ns3::AtpRatePolicy", {}, ""},
        {"ina-rate-policy", "esa", "ns3::EsaRatePolicy", {}, ""},
        // The packet-level switches' aggregator allocation policies (InaHelper::SetPolicy).
        {"ina-policy", "switchml", "ns3::SwitchMlPolicy", {}, ""},
        {"ina-policy", "atp", "ns3::AtpPolicy", {}, ""},
        {"ina-policy", "esa", "ns3::EsaPolicy", {}, ""},
        // Data provisioning: ideal is the engine's data term that never stalls, the others
        // are ProvisioningLoaders (ProvisioningLoader::Create).
        {"provisioning", "ideal", "ns3::IdealDataLoading", {}, ""},
        {"provisioning", "local", "ns3::LocalLoader", {}, ""},
        {"provisioning", "dpp", "ns3::DppLoader", {}, ""},
        {"provisioning", "alluxio", "ns3::AlluxioLoader", {}, ""},
        {"provisioning", "kspeed", "ns3::KSpeedLoader", {}, ""},
        // Storage: ideal is no storage model; the others are StorageAllocationPolicies.
        {"storage", "ideal", "", {}, ""},
        {"storage", "none", "ns3::NoCachePolicy", {}, ""},
        {"storage", "cache-all", "ns3::CacheAllPolicy", {}, ""},
        {"storage", "fair", "ns3::FairSharePolicy", {}, ""},
        {"storage", "lru", "ns3::SharedLruPolicy", {}, ""},
        {"storage", "quiver", "ns3::BenefitRankedPolicy", {}, ""},
        {"storage", "silod", "ns3::SiloDLikePolicy", {}, ""},
        {"storage", "cba", "ns3::CbaPolicy", {}, ""},
        // AutoCBA allocates storage as CBA does and sizes jobs' GPUs (StorageHelper).
        {"storage", "autocba", "ns3::CbaPolicy", {}, "ns3::AutoCbaSizing"},
    };
    return table;
}

bool
ComponentRegistry::IsA(const std::string& typeId, TypeId base)
{
    TypeId tid;
    return !typeId.empty() && TypeId::LookupByNameFailSafe(typeId, &tid) &&
           (tid == base || tid.IsChildOf(base));
}

const ComponentAlias*
ComponentRegistry::Lookup(const std::string& kind, const std::string& name)
{
    for (const auto& a : Aliases())
    {
        if (a.kind == kind && a.name == name)
        {
            return &a;
        }
    }
    return nullptr;
}

const ComponentAlias*
ComponentRegistry::Lookup(const std::string& kind, const std::string& name, TypeId base)
{
    const ComponentAlias* a = Lookup(kind, name);
    return a && IsA(a->typeId, base) ? a : nullptr;
}

const ComponentAlias&
ComponentRegistry::Find(const std::string& kind, const std::string& name)
{
    if (const ComponentAlias* a = Lookup(kind, name))
    {
        return *a;
    }
    throw std::invalid_argument("unknown " + kind + " '" + name +
                                "' (known: " + Join(Names(kind), ", ") + ")");
}

std::vector<std::string>
ComponentRegistry::Names(const std::string& kind)
{
    std::vector<std::string> names;
    for (const auto& a : Aliases())
    {
        if (a.kind == kind)
        {
            names.push_back(a.name);
        }
    }
    return names;
}

std::vector<std::string>
ComponentRegistry::Names(const std::string& kind, TypeId base)
{
    std::vector<std::string> names;
    for (const auto& a : Aliases())
    {
        if (a.kind == kind && IsA(a.typeId, base))
        {
            names.push_back(a.name);
        }
    }
    return names;
}

std::string
ComponentRegistry::Join(const std::vector<std::string>& names, const std::string& last)
{
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
    {
        if (i > 0)
        {
            text += i + 1 == names.size() ? last : ", ";
        }
        text += names[i];
    }
    return text;
}

ObjectFactory
ComponentRegistry::Factory(const ComponentAlias& alias)
{
    NS_LOG_FUNCTION(alias.kind << alias.name << alias.typeId);
    ObjectFactory factory(alias.typeId);
    for (const auto& [attribute, value] : alias.attributes)
    {
        factory.Set(attribute, StringValue(value));
    }
    return factory;
}

} // namespace ns3
