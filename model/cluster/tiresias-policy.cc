/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "tiresias-policy.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TiresiasPolicy");
NS_OBJECT_ENSURE_REGISTERED(TiresiasPolicy);

namespace
{
/// Slack for comparing times and services computed along different paths [s or GPU-s].
constexpr double EPSILON = 1e-6;
} // namespace

TypeId
TiresiasPolicy::GetTypeId()
{
    static TypeId tid =
        WithBackfill(TypeId("ns3::TiresiasPolicy")
                         .SetParent<SchedulingPolicy>()
                         .SetGroupName("Aicluster")
                         .AddConstructor<TiresiasPolicy>(),
                     true)
            .AddAttribute(
                "Thresholds",
                "Ascending attained-service thresholds between queue levels [GPU-s], "
                "comma separated; n thresholds make n+1 levels. Default 3250: two levels. "
                "The Tiresias reference simulator (NSDI'19) uses three queues: 3250,7200.",
                StringValue("3250"),
                MakeStringAccessor(&TiresiasPolicy::SetThresholds, &TiresiasPolicy::GetThresholds),
                MakeStringChecker())
            .AddAttribute("StarvationFactor",
                          "A waiting job is promoted to level 0 once its wait since it last "
                          "queued reaches this many times its total run time [dimensionless]; "
                          "0 disables promotion.",
                          DoubleValue(10.0),
                          MakeDoubleAccessor(&TiresiasPolicy::m_starvationFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("LevelOrder",
                          "The order inside a queue level: SubmitTime (by submit time, a "
                          "waiting job may preempt a later-submitted running job of its "
                          "level) or LevelEntry (as the Tiresias reference simulator: the "
                          "level's running jobs first, never preempted by a waiting job of "
                          "the same level, then the waiting ones; each by the time it "
                          "entered the level).",
                          EnumValue(TiresiasPolicy::SUBMIT_TIME),
                          MakeAiclusterEnumAccessor(&TiresiasPolicy::m_levelOrder),
                          MakeEnumChecker(TiresiasPolicy::SUBMIT_TIME,
                                          "SubmitTime",
                                          TiresiasPolicy::LEVEL_ENTRY,
                                          "LevelEntry"));
    return tid;
}

void
TiresiasPolicy::SetThresholds(const std::string& thresholds)
{
    NS_LOG_FUNCTION(this << thresholds);
    std::vector<double> parsed;
    std::istringstream in(thresholds);
    std::string item;
    while (std::getline(in, item, ','))
    {
        char* end = nullptr;
        double value = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0' || !(value > 0) ||
            (!parsed.empty() && value <= parsed.back()))
        {
            // An exception, not an abort: a bad --ns3::TiresiasPolicy::Thresholds is user input.
            throw std::invalid_argument("ns3::TiresiasPolicy::Thresholds: expected ascending "
                                        "positive GPU-seconds separated by commas, got '" +
                                        thresholds + "'");
        }
        parsed.push_back(value);
    }
    m_thresholds = parsed;
}

std::string
TiresiasPolicy::GetThresholds() const
{
    std::ostringstream out;
    for (size_t i = 0; i < m_thresholds.size(); ++i)
    {
        out << (i ? "," : "") << m_thresholds[i];
    }
    return out.str();
}

std::string
TiresiasPolicy::Name() const
{
    return "tiresias";
}

bool
TiresiasPolicy::IsPreemptive() const
{
    return true;
}

PriorityKey
TiresiasPolicy::Key(const ClusterJob& job) const
{
    const JobLevel& state = StateOf(job);
    if (m_levelOrder == LEVEL_ENTRY)
    {
        // Level l: its running jobs (2l), then its waiting ones (2l + 1).
        double entry = state.entry < 0 ? job.record.submitTime : state.entry;
        double waiting = job.state == ClusterJob::RUNNING ? 0 : 1;
        return {2.0 * state.level + waiting, entry, job.record.id};
    }
    return {static_cast<double>(state.level), job.record.submitTime, job.record.id};
}

TiresiasPolicy::JobLevel&
TiresiasPolicy::StateOf(const ClusterJob& job) const
{
    return m_levels[job.record.id];
}

uint32_t
TiresiasPolicy::Level(const ClusterJob& job) const
{
    return StateOf(job).level;
}

void
TiresiasPolicy::Forget(const ClusterJob& job) const
{
    NS_LOG_FUNCTION(this << job.record.id);
    m_levels.erase(job.record.id);
}

uint32_t
TiresiasPolicy::LevelOf(double service) const
{
    auto above = std::upper_bound(m_thresholds.begin(), m_thresholds.end(), service + EPSILON);
    return static_cast<uint32_t>(above - m_thresholds.begin());
}

double
TiresiasPolicy::LevelService(const ClusterJob& job, const JobLevel& state, double now)
{
    double service = job.attainedService;
    if (job.state == ClusterJob::RUNNING)
    {
        service += job.gpus * (now - job.lastUpdate);
    }
    return service - state.serviceBaseline;
}

double
TiresiasPolicy::NextKeyChange(const ClusterJob& job, double now) const
{
    NS_LOG_FUNCTION(this << job.record.id << now);
    const JobLevel& state = StateOf(job);
    if (job.state == ClusterJob::RUNNING && state.level < m_thresholds.size())
    {
        double toGo = m_thresholds[state.level] - LevelService(job, state, now);
        return now + std::max(0.0, toGo) / job.gpus;
    }
    if (job.state == ClusterJob::WAITING && state.level > 0 && m_starvationFactor > 0)
    {
        double ranFor = job.attainedService / job.gpus;
        return std::max(now, job.lastQueued + m_starvationFactor * ranFor);
    }
    return std::numeric_limits<double>::infinity();
}

void
TiresiasPolicy::Update(const ClusterJob& job, double now) const
{
    NS_LOG_FUNCTION(this << job.record.id << now);
    JobLevel& state = StateOf(job);
    if (job.state == ClusterJob::WAITING && state.level > 0 && m_starvationFactor > 0)
    {
        double ranFor = job.attainedService / job.gpus;
        if (now - job.lastQueued + EPSILON >= m_starvationFactor * ranFor)
        {
            NS_LOG_DEBUG("job " << job.record.id << " promoted after waiting "
                                << now - job.lastQueued << " s");
            state.serviceBaseline = job.attainedService;
            state.level = 0;
            state.entry = now;
            return;
        }
    }
    uint32_t level = LevelOf(LevelService(job, state, now));
    if (level != state.level)
    {
        NS_LOG_LOGIC("job " << job.record.id << " moves from level " << state.level << " to "
                            << level);
        state.level = level;
        state.entry = now;
    }
}

} // namespace ns3
