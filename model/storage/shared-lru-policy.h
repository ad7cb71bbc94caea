/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_SHARED_LRU_POLICY_H
#define AICLUSTER_SHARED_LRU_POLICY_H

#include "storage-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * SharedLruPolicy: one LRU cache shared by all datasets (Alluxio-like).
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One LRU cache shared by all datasets (Alluxio-like).
 *
 * A shared LRU holds what was read in the last T seconds, so dataset k
 * occupies min(d_k, R_k T) with T set by the capacity (R_k: its readers'
 * demand); its hit fraction is LruShuffledHitRatio(c_k/d_k) < c_k/d_k, since
 * shuffled epochs evict items before they are read again. Bandwidth max-min fair.
 */
class SharedLruPolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    bool IsLru() const override;
    std::string Name() const override;
};

} // namespace ns3

#endif // AICLUSTER_SHARED_LRU_POLICY_H
