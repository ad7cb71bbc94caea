/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_LOCAL_LOADER_H
#define AICLUSTER_LOCAL_LOADER_H

#include "provisioning-loader.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * LocalLoader: the PyTorch-DataLoader-style loader.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief PyTorch-DataLoader style: every trainer reads raw samples from storage, decodes on
 * its own cores, stages them in host memory and copies them to its GPUs.
 */
class LocalLoader : public ProvisioningLoader
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    void AddSampleUsage(const ProvisioningModel& model,
                        const ProvisioningJob& job,
                        const CachePlan& cache,
                        uint32_t node,
                        uint32_t gpu,
                        UsageBuilder& u) const override;
};

} // namespace ns3

#endif // AICLUSTER_LOCAL_LOADER_H
