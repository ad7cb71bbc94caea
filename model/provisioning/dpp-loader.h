/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_DPP_LOADER_H
#define AICLUSTER_DPP_LOADER_H

#include "provisioning-loader.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * DppLoader: Meta's DPP loader (a separate CPU pool).
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Meta's DPP: a separate CPU pool (PoolNodes) reads and preprocesses, then sends
 * tensors over TCP (RPC) into the trainer's host memory; the trainer pays the receive (stack
 * and copy to user space), stages the tensors in pinned memory and copies them to the GPU.
 */
class DppLoader : public ProvisioningLoader
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool ReadsThroughPool(const ProvisioningModel& model) const override;
    void AddSampleUsage(const ProvisioningModel& model,
                        const ProvisioningJob& job,
                        const CachePlan& cache,
                        uint32_t node,
                        uint32_t gpu,
                        UsageBuilder& u) const override;
};

} // namespace ns3

#endif // AICLUSTER_DPP_LOADER_H
