/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_PROVISIONING_JOB_H
#define AICLUSTER_TEST_PROVISIONING_JOB_H

// A running job as the provisioning model's tests state it: a name, a catalog profile and its
// GPUs per node.

#include "ns3/provisioning-model.h"
#include "ns3/workload-catalog.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \param name the job's name
 * \param profile its catalog entry
 * \param gpusOnNode (node, GPUs) pairs
 * \return the job, demanding its profile's rate
 */
inline ProvisioningJob
ProvisioningJobOn(const std::string& name,
                  const std::string& profile,
                  std::vector<std::pair<uint32_t, uint32_t>> gpusOnNode)
{
    ProvisioningJob j;
    j.name = name;
    j.profile = &WorkloadCatalog::Default().Get(profile);
    j.gpusOnNode = std::move(gpusOnNode);
    return j;
}

} // namespace ns3

#endif
