/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_FIFO_POLICY_H
#define AICLUSTER_FIFO_POLICY_H

#include "scheduling-policy.h"

#include <string>

/**
 * \file
 * \ingroup aicluster
 * FifoPolicy: first in, first out.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief First in, first out by submit time, non-preemptive.
 */
class FifoPolicy : public SchedulingPolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    std::string Name() const override;
    bool IsPreemptive() const override;
    PriorityKey Key(const ClusterJob& job) const override;
};

} // namespace ns3

#endif // AICLUSTER_FIFO_POLICY_H
