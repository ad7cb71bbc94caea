/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_FAIR_SHARE_POLICY_H
#define AICLUSTER_FAIR_SHARE_POLICY_H

#include "storage-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * FairSharePolicy: an equal cache share per running job.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Equal cache share per running job (a dataset gets its readers' shares, at most its
 *        size) and max-min fair bandwidth.
 */
class FairSharePolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
};

} // namespace ns3

#endif // AICLUSTER_FAIR_SHARE_POLICY_H
