/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "sjf-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SjfPolicy);

TypeId
SjfPolicy::GetTypeId()
{
    static TypeId tid = WithBackfill(TypeId("ns3::SjfPolicy")
                                         .SetParent<SchedulingPolicy>()
                                         .SetGroupName("Aicluster")
                                         .AddConstructor<SjfPolicy>(),
                                     true);
    return tid;
}

std::string
SjfPolicy::Name() const
{
    return "sjf";
}

bool
SjfPolicy::IsPreemptive() const
{
    return false;
}

PriorityKey
SjfPolicy::Key(const ClusterJob& job) const
{
    double length = job.record.duration;
    if (length < 0)
    {
        // No recorded run time (step- or sample-based traces): the compute-bound estimate
        // on the GPUs it runs on (same samples in total as on the GPUs it asked for).
        double iterations = job.record.iterations * job.record.numGpus / job.gpus;
        length = iterations * job.profile->ComputeTime(job.gpus);
    }
    return {length, job.record.submitTime, job.record.id};
}

} // namespace ns3
