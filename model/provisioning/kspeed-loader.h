/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_KSPEED_LOADER_H
#define AICLUSTER_KSPEED_LOADER_H

#include "provisioning-loader.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * KSpeedLoader: the KSpeed loader (a memory/CPU pool writing into GPU memory).
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief KSpeed: a pool of memory/CPU nodes (PoolNodes of PoolCores cores and
 * PoolCacheBytes of cache each, on the rails) reads from storage, decodes on demand, caches
 * raw or preprocessed samples and RDMA-WRITEs them straight into the consuming GPU's memory
 * over its rail (GPUDirect), bypassing the trainer's CPU, host memory and PCIe uplink. With
 * PoolNodes 0 the training nodes themselves form the pool (their CpuCores and
 * CacheBytesPerNode).
 */
class KSpeedLoader : public ProvisioningLoader
{
  public:
    /** Where a GPU's samples are prepared. */
    enum Placement
    {
        SPREAD, //!< every pool node serves 1/N of every GPU's samples (no hot spot)
        LOCAL   //!< one pool node per training node (node mod pool size): no balancing
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool ReadsThroughPool(const ProvisioningModel& model) const override;
    std::vector<CachePlan> PlanCaches(const ProvisioningModel& model,
                                      const std::vector<ProvisioningJob>& jobs) const override;
    void AddSampleUsage(const ProvisioningModel& model,
                        const ProvisioningJob& job,
                        const CachePlan& cache,
                        uint32_t node,
                        uint32_t gpu,
                        UsageBuilder& u) const override;

  private:
    Placement m_placement{SPREAD};
    bool m_cacheDecoded{true};
};

} // namespace ns3

#endif // AICLUSTER_KSPEED_LOADER_H
