/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-esa-rate-policy.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EsaRatePolicy");
NS_OBJECT_ENSURE_REGISTERED(EsaRatePolicy);

TypeId
EsaRatePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EsaRatePolicy")
                            .SetParent<AtpRatePolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<EsaRatePolicy>();
    // No PriorityRule attribute here: InaGradientSync, which creates this policy, owns it and
    // sets it (SetPriorityRule) whenever it creates one, so a default given here would be
    // overwritten without a word.
    return tid;
}

EsaRatePolicy::EsaRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

EsaRatePolicy::~EsaRatePolicy()
{
    NS_LOG_FUNCTION(this);
}

std::string
EsaRatePolicy::GetName() const
{
    return "esa";
}

bool
EsaRatePolicy::Preempts() const
{
    return true;
}

bool
EsaRatePolicy::Outranks(const InaRateJob& a, size_t ia, const InaRateJob& b, size_t ib) const
{
    if (a.priorityKey != b.priorityKey)
    {
        return a.priorityKey < b.priorityKey;
    }
    if (a.id != b.id)
    {
        return a.id < b.id;
    }
    return ia < ib;
}

double
EsaRatePolicy::PriorityKey(const ClusterJob& job) const
{
    switch (m_rule)
    {
    case STATIC:
        return job.priorityLevel;
    case SHORTEST_REMAINING:
        return job.remainingIterations * (job.profile ? job.profile->gradientBytes : 0.0);
    case LEAST_ATTAINED_SERVICE:
        return job.attainedService;
    }
    return 0.0;
}

double
EsaRatePolicy::BlockingWeight(const InaRateJob& holder,
                              size_t ih,
                              const InaRateJob& job,
                              size_t ij) const
{
    return Outranks(holder, ih, job, ij) ? 1.0 : 0.0;
}

double
EsaRatePolicy::Room(double pool, double blocking, double /*demand*/, double /*poolDemand*/) const
{
    return pool - blocking;
}

double
EsaRatePolicy::SplitKeyStall(double episodesFirst,
                             double episodesRest,
                             double /*timeout*/,
                             double /*rtt*/,
                             double waitFirst,
                             double waitRest) const
{
    return episodesFirst * waitFirst + episodesRest * waitRest;
}

void
EsaRatePolicy::SetPriorityRule(Rule rule)
{
    NS_LOG_FUNCTION(this << rule);
    m_rule = rule;
}

EsaRatePolicy::Rule
EsaRatePolicy::GetPriorityRule() const
{
    return m_rule;
}

} // namespace ns3
