/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

#ifndef AICLUSTER_NS3_COMPAT_H
#define AICLUSTER_NS3_COMPAT_H

/**
 * \file
 * \ingroup aicluster
 * The few ns-3 APIs that changed between ns-3.37 and ns-3-dev, spelled once for both.
 *
 * ns-3.38 changed CommandLine::AddValue's parser callback from Callback<bool, std::string> to
 * Callback<bool, const std::string&>;
 * ns-3.41 made EnumValue a class template (EnumValue<T>) and MakeEnumAccessor take the
 * enum type as a template argument; EventId::IsRunning() is gone since ns-3.46 (use
 * !IsExpired(), which every release has). AICLUSTER_NS3_MINOR comes from the generated
 * ns3/aicluster-ns3-version.h (CMakeLists.txt).
 */

#include "ns3/callback.h"
#include "ns3/enum.h"

#include <string>

// The CMake builds generate this header; waf-era trees (ns-3.35 and older, wscript) do
// not, and have the old API.
#if __has_include("ns3/aicluster-ns3-version.h")
#include "ns3/aicluster-ns3-version.h"
#else
#define AICLUSTER_NS3_MINOR 35
#endif

namespace ns3
{

#if AICLUSTER_NS3_MINOR >= 38
/// The parser callback CommandLine::AddValue takes (ns-3.38 and later: a const reference).
using AiclusterCommandLineCallback = Callback<bool, const std::string&>;
#else
/// The parser callback CommandLine::AddValue takes (before ns-3.38: the string by value).
using AiclusterCommandLineCallback = Callback<bool, std::string>;
#endif

#if AICLUSTER_NS3_MINOR >= 41
/// The EnumValue that holds an E (ns-3.41 and later: EnumValue<E>).
template <typename E>
using AiclusterEnumValue = EnumValue<E>;
#else
/// The EnumValue that holds an E (before ns-3.41: the one non-template EnumValue).
template <typename E>
using AiclusterEnumValue = EnumValue;
#endif

/**
 * \ingroup aicluster
 * \brief MakeEnumAccessor for a member of enum (or int) type, on every ns-3 release.
 * \param member the attribute's data member
 * \return the accessor
 */
template <typename C, typename E>
Ptr<const AttributeAccessor>
MakeAiclusterEnumAccessor(E C::*member)
{
#if AICLUSTER_NS3_MINOR >= 41
    return MakeEnumAccessor<E>(member);
#else
    return MakeEnumAccessor(member);
#endif
}

} // namespace ns3

#endif // AICLUSTER_NS3_COMPAT_H
