/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_COMPONENT_REGISTRY_H
#define AICLUSTER_COMPONENT_REGISTRY_H

#include "ns3/object-factory.h"
#include "ns3/type-id.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One short name of a component (e.g. `esa`, `kspeed`, `cba`) and what it stands for.
 */
struct ComponentAlias
{
    std::string kind;   //!< scheduler, placement, sync, ina-policy, ina-rate-policy,
                        //!< provisioning or storage
    std::string name;   //!< the short name used on command lines and in scenario files
    std::string typeId; //!< the TypeId it creates ("" for ideal storage: no model)
    /** attribute name -> value set on the created object (e.g. InaGradientSync's Policy) */
    std::map<std::string, std::string> attributes;
    /** TypeId of the engine's JobSizingPolicy this choice brings ("" = none; autocba) */
    std::string jobSizing;
};

/**
 * \ingroup aicluster
 * \brief The one table of short component names: every place that turns a name into an
 *        object (ClusterBuilder, ClusterScenario's checks, ClusterEngineHelper,
 *        ProvisioningLoader::Create, StorageAllocationPolicy::TypeNameOf, InaHelper::SetPolicy)
 *        reads it and creates through an ObjectFactory of the entry's TypeId.
 *
 * A kind can hold names of different base classes (sync: IdealGradientSync,
 * RingAllReduceSync and InaGradientSync are IterationTermModels; provisioning: ideal is an
 * IdealDataLoading, the others ProvisioningLoaders): the overloads taking a base TypeId keep
 * only the entries whose TypeId is that class or derives from it. The table names TypeIds
 * by string, so this folder depends on no component.
 */
class ComponentRegistry
{
  public:
    /** \return every entry, in table order (baselines first within a kind) */
    static const std::vector<ComponentAlias>& Aliases();

    /**
     * \param kind a kind of component (ComponentAlias::kind)
     * \param name a short name
     * \return its entry, or nullptr if the kind has no such name
     */
    static const ComponentAlias* Lookup(const std::string& kind, const std::string& name);

    /**
     * \param kind a kind of component
     * \param name a short name
     * \param base a base class: entries whose TypeId does not derive from it do not count
     * \return its entry, or nullptr if the kind has no such name of that base
     */
    static const ComponentAlias* Lookup(const std::string& kind,
                                        const std::string& name,
                                        TypeId base);

    /**
     * \param kind a kind of component
     * \param name a short name
     * \return its entry
     * \throws std::invalid_argument "unknown <kind> '<name>' (known: a, b, c)"
     */
    static const ComponentAlias& Find(const std::string& kind, const std::string& name);

    /**
     * \param kind a kind of component
     * \return its short names, in table order
     */
    static std::vector<std::string> Names(const std::string& kind);

    /**
     * \param kind a kind of component
     * \param base a base class
     * \return the short names of the kind whose TypeId derives from base, in table order
     */
    static std::vector<std::string> Names(const std::string& kind, TypeId base);

    /**
     * \param names short names
     * \param last the separator before the last name (", " or " or ")
     * \return the names joined by ", ", with last before the last one
     */
    static std::string Join(const std::vector<std::string>& names, const std::string& last);

    /**
     * \param alias an entry with a TypeId
     * \return a factory of its TypeId with its attributes set
     */
    static ObjectFactory Factory(const ComponentAlias& alias);

    /**
     * \param typeId a TypeId name
     * \param base a base class
     * \return true if typeId is registered and is base or derives from it
     */
    static bool IsA(const std::string& typeId, TypeId base);
};

} // namespace ns3

#endif // AICLUSTER_COMPONENT_REGISTRY_H
