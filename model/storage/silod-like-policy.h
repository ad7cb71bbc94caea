/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_SILOD_LIKE_POLICY_H
#define AICLUSTER_SILOD_LIKE_POLICY_H

#include "storage-policy.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * SiloDLikePolicy: cache up to each job's saturation point (SiloD-like).
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Joint cache/bandwidth allocation that maximizes throughput under the given scheduler
 *        (SiloD-like), cost-oblivious.
 *
 * Each job first gets a max-min fair bandwidth share b_j; caching x of its
 * dataset then raises it to min(T, b_j / (1 - x)), saturating at x = 1 - b_j/T.
 * Datasets are cached up to their saturation point in decreasing order of
 * throughput gained per cached byte (fractional for the last one), and the
 * bandwidth freed by saturated jobs is water-filled to the others.
 */
class SiloDLikePolicy : public StorageAllocationPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageAllocation Allocate(const StorageProblem& problem) override;
    std::string Name() const override;

  private:
    // Work vectors of Allocate(), kept between calls.
    std::vector<double> m_share;    //!< per entry: max-min fair bandwidth share b_j
    std::vector<double> m_saturate; //!< per dataset: fraction that saturates its readers
    std::vector<double> m_gain;     //!< per dataset: throughput its saturation gains
    std::vector<double> m_demand;   //!< per dataset: summed demand R_k
    std::vector<double> m_perByte;  //!< per dataset: gain per cached byte
    LazyDatasetOrder m_order;       //!< datasets by decreasing gain per byte
};

} // namespace ns3

#endif // AICLUSTER_SILOD_LIKE_POLICY_H
