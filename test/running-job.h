/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AICLUSTER_TEST_RUNNING_JOB_H
#define AICLUSTER_TEST_RUNNING_JOB_H

// A job already running on given nodes, for tests that drive a term model without the engine.

#include "ns3/cluster-job.h"

#include <vector>

namespace ns3
{

/**
 * \param id job id
 * \param profile its workload
 * \param nodes the nodes it runs on, one GPU each
 * \return a running job (0.04 s of compute per iteration, 100 iterations left)
 */
inline Ptr<ClusterJob>
JobOn(uint64_t id, const WorkloadProfile& profile, std::vector<uint32_t> nodes)
{
    Ptr<ClusterJob> job = Create<ClusterJob>();
    job->record.id = id;
    job->profile = &profile;
    job->state = ClusterJob::RUNNING;
    for (uint32_t n : nodes)
    {
        job->placement.gpusOnNode.emplace_back(n, 1);
    }
    job->gpus = static_cast<uint32_t>(nodes.size());
    job->computeTime = 0.04;
    job->remainingIterations = 100;
    return job;
}

} // namespace ns3

#endif // AICLUSTER_TEST_RUNNING_JOB_H
