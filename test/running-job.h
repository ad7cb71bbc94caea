/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_RUNNING_JOB_H
#define AICLUSTER_TEST_RUNNING_JOB_H

// A job already running on given nodes, for tests that drive a term model without the engine.

#include "ns3/cluster-job.h"

#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \param id job id
 * \return a record of a job built outside the engine (ClusterJob shares its record): the id
 *         alone, the other fields at their defaults
 */
inline std::shared_ptr<const JobRecord>
RecordWithId(uint64_t id)
{
    auto record = std::make_shared<JobRecord>();
    record->id = id;
    return record;
}

/**
 * \param id job id
 * \param profile its workload
 * \param gpusOnNode the GPUs it holds: (node, GPUs on that node) pairs
 * \param computeTime its compute time per iteration [s]
 * \param iterations iterations left
 * \return a running job. Tests build running jobs here rather than writing the engine's
 *         fields of ClusterJob one by one.
 */
inline Ptr<ClusterJob>
JobOnGpus(uint64_t id,
          const WorkloadProfile& profile,
          std::vector<std::pair<uint32_t, uint32_t>> gpusOnNode,
          double computeTime = 0.04,
          double iterations = 100)
{
    Ptr<ClusterJob> job = Create<ClusterJob>(RecordWithId(id));
    job->profile = &profile;
    job->state = ClusterJob::RUNNING;
    job->placement.gpusOnNode = std::move(gpusOnNode);
    job->gpus = job->placement.TotalGpus();
    job->computeTime = computeTime;
    job->remainingIterations = iterations;
    return job;
}

/**
 * \param id job id
 * \param profile its workload
 * \param nodes the nodes it runs on, one GPU each
 * \param computeTime its compute time per iteration [s]
 * \param iterations iterations left
 * \return a running job (by default 0.04 s of compute per iteration, 100 iterations left)
 */
inline Ptr<ClusterJob>
JobOn(uint64_t id,
      const WorkloadProfile& profile,
      const std::vector<uint32_t>& nodes,
      double computeTime = 0.04,
      double iterations = 100)
{
    std::vector<std::pair<uint32_t, uint32_t>> gpusOnNode;
    for (uint32_t n : nodes)
    {
        gpusOnNode.emplace_back(n, 1);
    }
    return JobOnGpus(id, profile, gpusOnNode, computeTime, iterations);
}

} // namespace ns3

#endif // AICLUSTER_TEST_RUNNING_JOB_H
