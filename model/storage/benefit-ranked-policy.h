/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_BENEFIT_RANKED_POLICY_H
#define AICLUSTER_BENEFIT_RANKED_POLICY_H

#include "storage-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * BenefitRankedPolicy: whole datasets by bytes saved per cached byte (Quiver-like).
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Benefit-ranked cache (Quiver-like): whole datasets in decreasing order of remote
 *        bytes saved per cached byte (sum of readers' demands / size), skipping those that do
 *        not fit; bandwidth max-min fair. Cost-oblivious.
 */
class BenefitRankedPolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;
};

} // namespace ns3

#endif // AICLUSTER_BENEFIT_RANKED_POLICY_H
