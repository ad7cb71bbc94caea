/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CACHE_ALL_POLICY_H
#define AICLUSTER_CACHE_ALL_POLICY_H

#include "storage-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * CacheAllPolicy: whole datasets in order of their first reader.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Cache every dataset that fits whole, in order of its first reader (lowest job id);
 *        bandwidth max-min fair.
 */
class CacheAllPolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
};

} // namespace ns3

#endif // AICLUSTER_CACHE_ALL_POLICY_H
