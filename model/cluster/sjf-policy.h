/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_SJF_POLICY_H
#define AICLUSTER_SJF_POLICY_H

#include "scheduling-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * SjfPolicy: shortest job first.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Shortest job first by the trace's run time (the oracle used by SJF baselines),
 *        non-preemptive; jobs without a recorded run time use their compute-bound estimate.
 */
class SjfPolicy : public SchedulingPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool IsPreemptive() const override;
    PriorityKey Key(const ClusterJob& job) const override;
};

} // namespace ns3

#endif // AICLUSTER_SJF_POLICY_H
