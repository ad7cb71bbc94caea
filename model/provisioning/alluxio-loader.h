/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_ALLUXIO_LOADER_H
#define AICLUSTER_ALLUXIO_LOADER_H

#include "provisioning-loader.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * AlluxioLoader: the Alluxio-style distributed raw-sample cache.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Alluxio-style distributed cache of raw samples across the trainers' host memory;
 * decode stays on the trainer's CPUs. A hit is local with probability 1/N (N cache nodes):
 * a short-circuit copy out of the local worker's memory; else the node holding it sends it
 * over TCP (gRPC) on the rails and the client receives it; a miss is read from storage. The
 * training process reads every byte through the Alluxio FUSE mount (its extra copies).
 */
class AlluxioLoader : public ProvisioningLoader
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    std::vector<CachePlan> PlanCaches(const ProvisioningModel& model,
                                      const std::vector<ProvisioningJob>& jobs) const override;
    void AddSampleUsage(const ProvisioningModel& model,
                        const ProvisioningJob& job,
                        const CachePlan& cache,
                        uint32_t node,
                        uint32_t gpu,
                        UsageBuilder& u) const override;

  private:
    bool m_lru{true}; //!< LRU eviction (else pinned, never evicted)
};

} // namespace ns3

#endif // AICLUSTER_ALLUXIO_LOADER_H
