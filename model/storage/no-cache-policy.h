/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_NO_CACHE_POLICY_H
#define AICLUSTER_NO_CACHE_POLICY_H

#include "storage-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * NoCachePolicy: no cache, every byte read remotely.
 */

namespace ns3
{

/** \ingroup aicluster \brief No cache: every byte is read remotely, bandwidth max-min fair. */
class NoCachePolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
    bool UsesCache() const override;
};

} // namespace ns3

#endif // AICLUSTER_NO_CACHE_POLICY_H
