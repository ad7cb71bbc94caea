/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_IDEAL_DATA_LOADING_H
#define AICLUSTER_IDEAL_DATA_LOADING_H

#include "cluster-job.h"
#include "cluster-topology.h"
#include "iteration-model.h"

#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Data loading that never stalls: 0 s per iteration.
 */
class IdealDataLoading : public IterationTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    bool DependsOnOtherJobs() const override;
};

} // namespace ns3

#endif // AICLUSTER_IDEAL_DATA_LOADING_H
