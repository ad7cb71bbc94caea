/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "fifo-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FifoPolicy);

TypeId
FifoPolicy::GetTypeId()
{
    // Strict by default: the classic FIFO baseline, no job overtakes an earlier one.
    static TypeId tid = WithBackfill(TypeId("ns3::FifoPolicy")
                                         .SetParent<SchedulingPolicy>()
                                         .SetGroupName("Aicluster")
                                         .AddConstructor<FifoPolicy>(),
                                     false);
    return tid;
}

std::string
FifoPolicy::Name() const
{
    return "fifo";
}

bool
FifoPolicy::IsPreemptive() const
{
    return false;
}

PriorityKey
FifoPolicy::Key(const ClusterJob& job) const
{
    return {job.record.submitTime, 0, job.record.id};
}

} // namespace ns3
