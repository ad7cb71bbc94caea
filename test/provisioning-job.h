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

/**
 * \param job a job
 * \param used GPUs already taken per node, advanced past the job
 * \return the job with its first GPU on each of its nodes when a pass's jobs are packed in
 *         order: what the level pass hands ProvisioningModel::DescribeJob
 */
inline ProvisioningJob
WithFirstGpus(const ProvisioningJob& job, std::vector<uint32_t>& used)
{
    ProvisioningJob numbered = job;
    numbered.firstGpu.clear();
    for (const auto& [node, g] : job.gpusOnNode)
    {
        numbered.firstGpu.push_back(used[node]);
        used[node] += g;
    }
    return numbered;
}

} // namespace ns3

#endif
