/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_JOB_SIZING_POLICY_H
#define AICLUSTER_JOB_SIZING_POLICY_H

#include "cluster-job.h"
#include "cluster-topology.h"

#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Decides how many GPUs a job runs on (auto-scaling), instead of the count it asked for.
 *
 * The engine asks when a job is submitted. A job's work is a number of
 * samples, so when the GPU count changes from the requested g to g' the
 * engine rescales its iterations by g / g' (the per-GPU batch stays the same)
 * and its iteration time follows the catalog's ComputeTime(g').
 */
class JobSizingPolicy : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();

    /**
     * \param job the job being submitted (job.gpus holds the requested count)
     * \param topology the cluster
     * \param now the current time [s]
     * \return GPUs to run it on, 1 .. topology.TotalGpus()
     */
    virtual uint32_t GpusFor(const ClusterJob& job,
                             const ClusterTopology& topology,
                             double now) = 0;
};

} // namespace ns3

#endif // AICLUSTER_JOB_SIZING_POLICY_H
