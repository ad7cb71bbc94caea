/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "scheduling-policy.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SchedulingPolicy");
NS_OBJECT_ENSURE_REGISTERED(SchedulingPolicy);

TypeId
SchedulingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SchedulingPolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

TypeId
SchedulingPolicy::WithBackfill(TypeId tid, bool byDefault)
{
    return tid.AddAttribute(
        "Backfill",
        "If true, a job may start ahead of an earlier one that does not fit "
        "in the free GPUs; if false, the order is strict (head-of-line "
        "blocking).",
        BooleanValue(byDefault),
        MakeBooleanAccessor(&SchedulingPolicy::SetBackfill, &SchedulingPolicy::Backfill),
        MakeBooleanChecker());
}

bool
SchedulingPolicy::Backfill() const
{
    return m_backfill;
}

void
SchedulingPolicy::SetBackfill(bool backfill)
{
    NS_LOG_FUNCTION(this << backfill);
    m_backfill = backfill;
}

double
SchedulingPolicy::NextKeyChange(const ClusterJob& /* job */, double /* now */) const
{
    return std::numeric_limits<double>::infinity();
}

void
SchedulingPolicy::Update(const ClusterJob& /* job */, double /* now */) const
{
}

uint32_t
SchedulingPolicy::Level(const ClusterJob& /* job */) const
{
    return 0;
}

void
SchedulingPolicy::Forget(const ClusterJob& /* job */) const
{
}

// Key, Level, Backfill and IsPreemptive answer the engine's queue operations, several per job
// and pass: they do not log (doc/contributing.md, Logging).

} // namespace ns3
