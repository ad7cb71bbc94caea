/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// InaGradientSync's rate level over racks (doc/ina.md, "Racks (rate level)"): rack-local jobs
// at their ToR, cross-rack jobs at the spine only or at their ToRs and the spine (two-level),
// with the shared uplinks. The single switch is in ina-gradient-sync.cc, the terms both use in
// ina-gradient-sync-internal.h.
#include "ina-gradient-sync-internal.h"
#include "ina-gradient-sync.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaGradientSyncRacks");

using namespace inarate;

namespace inarate
{

size_t
RacksInUse(const std::vector<InaRateJob>& jobs)
{
    size_t racks = 0;
    for (const auto& job : jobs)
    {
        for (const auto& [rack, w] : job.racks)
        {
            racks = std::max<size_t>(racks, rack + 1);
        }
    }
    return racks;
}

RackPartition
PartitionByRack(const std::vector<InaRateJob>& jobs)
{
    RackPartition part;
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        if (jobs[i].racks.size() >= 2)
        {
            part.cross.push_back(i);
            for (const auto& [rack, w] : jobs[i].racks)
            {
                part.touched.resize(std::max<size_t>(part.touched.size(), rack + 1), false);
                part.touched[rack] = true;
            }
        }
        else
        {
            part.local[jobs[i].racks.empty() ? -1 - static_cast<int64_t>(i)
                                             : jobs[i].racks[0].first]
                .push_back(i);
        }
    }
    return part;
}

bool
RackPartition::Touched(int64_t rack) const
{
    return rack >= 0 && static_cast<size_t>(rack) < touched.size() && touched[rack];
}

std::vector<InaRateJob>
JobsAt(const std::vector<InaRateJob>& jobs, const std::vector<size_t>& idx)
{
    std::vector<InaRateJob> sub;
    sub.reserve(idx.size());
    for (size_t i : idx)
    {
        sub.push_back(jobs[i]);
    }
    return sub;
}

void
ScatterInto(const std::vector<size_t>& idx,
            const std::vector<double>& sub,
            std::vector<double>& into)
{
    for (size_t k = 0; k < idx.size(); ++k)
    {
        into[idx[k]] = sub[k];
    }
}

void
ScatterInto(const std::vector<size_t>& idx,
            const std::vector<std::vector<double>>& sub,
            std::vector<std::vector<double>>& into)
{
    for (size_t a = 0; a < sub.size(); ++a)
    {
        for (size_t b = 0; b < sub[a].size(); ++b)
        {
            into[idx[a]][idx[b]] = sub[a][b];
        }
    }
}

} // namespace inarate

std::vector<double>
InaGradientSync::RackSyncTimes(const std::vector<InaRateJob>& jobs,
                               std::vector<double>* fallback,
                               std::vector<PoolHoldings>* held,
                               std::vector<std::vector<double>>* departure) const
{
    const size_t n = jobs.size();
    RackResults r{std::vector<double>(n, 0.0),
                  std::vector<double>(n, 0.0),
                  std::vector<PoolHoldings>(n),
                  held != nullptr,
                  departure};
    if (departure)
    {
        departure->assign(n, std::vector<double>(n, 0.0));
    }
    const RackPartition part = PartitionByRack(jobs);
    const bool twoLevel = m_hierarchical && !part.cross.empty();
    std::vector<size_t> component = part.cross; // two-level: with the local jobs of their racks
    for (const auto& [rack, idx] : part.local)
    {
        if (twoLevel && part.Touched(rack))
        {
            component.insert(component.end(), idx.begin(), idx.end());
            continue;
        }
        LocalRackTimes(jobs, rack, idx, r);
    }
    if (!part.cross.empty())
    {
        CrossRackTimes(jobs, part.cross, component, twoLevel, r);
    }
    if (fallback)
    {
        *fallback = r.fallback;
    }
    if (held)
    {
        *held = std::move(r.held);
    }
    return r.times;
}

void
InaGradientSync::LocalRackTimes(const std::vector<InaRateJob>& jobs,
                                int64_t rack,
                                const std::vector<size_t>& idx,
                                RackResults& r) const
{
    std::vector<double> f;
    std::vector<double> h;
    std::vector<std::vector<double>> dep;
    std::vector<double> t = SyncTimesWithFloor(JobsAt(jobs, idx),
                                               0,
                                               {},
                                               &f,
                                               nullptr,
                                               r.wantHeld ? &h : nullptr,
                                               r.departure ? &dep : nullptr);
    ScatterInto(idx, t, r.times);
    ScatterInto(idx, f, r.fallback);
    if (r.departure)
    {
        ScatterInto(idx, dep, *r.departure);
    }
    for (size_t k = 0; k < h.size() && rack >= 0; ++k) // rack < 0: no rack given
    {
        r.held[idx[k]] = {{rack, h[k]}};
    }
}

void
InaGradientSync::CrossRackTimes(const std::vector<InaRateJob>& jobs,
                                const std::vector<size_t>& cross,
                                const std::vector<size_t>& component,
                                bool twoLevel,
                                RackResults& r) const
{
    std::vector<double> f;
    std::vector<PoolHoldings> h;
    std::vector<double> spine;
    std::vector<std::vector<double>> dep;
    std::vector<double> t =
        twoLevel ? TwoLevelTimes(JobsAt(jobs, component),
                                 f,
                                 r.wantHeld ? &h : nullptr,
                                 r.departure ? &dep : nullptr)
                 : SpineOnlyTimes(JobsAt(jobs, cross), f, r.wantHeld ? &spine : nullptr);
    ScatterInto(component, t, r.times);
    ScatterInto(component, f, r.fallback);
    if (r.departure && twoLevel)
    {
        ScatterInto(component, dep, *r.departure);
    }
    for (size_t k = 0; k < h.size(); ++k)
    {
        r.held[component[k]] = std::move(h[k]);
    }
    for (size_t k = 0; k < spine.size(); ++k)
    {
        r.held[cross[k]] = {{-1, spine[k]}};
    }
}

std::vector<double>
InaGradientSync::SpineOnlyTimes(const std::vector<InaRateJob>& jobs,
                                std::vector<double>& fallback,
                                std::vector<double>* held) const
{
    // Every worker packet crosses its rack's uplink (n_i per chunk); the spine's pool is the
    // single-switch model one hop further. The uplinks' max-min chunk rates bound the
    // intervals, which in turn move the pool's fixed point: a few rounds settle both.
    const size_t n = jobs.size();
    const double bytes = 4.0 * ValuesPerPacket() + m_overhead;
    const double tx = bytes * 8 / m_linkRate.GetBitRate();
    const double txUp = bytes * 8 / m_uplinkRate.GetBitRate();
    size_t racks = 0;
    std::vector<TieredJob> tj(n);
    for (size_t j = 0; j < n; ++j)
    {
        tj[j].job = &jobs[j];
        for (const auto& [rack, w] : jobs[j].racks)
        {
            tj[j].uplinks.emplace_back(rack, w);
            racks = std::max<size_t>(racks, rack + 1);
        }
    }
    std::vector<double> floor(n, 0.0);
    std::vector<double> own; // each job's interval apart from the uplinks
    std::vector<double> t;
    constexpr int ROUNDS = 20;
    for (int round = 0; round < ROUNDS; ++round)
    {
        std::vector<double> interval;
        t = SyncTimesWithFloor(jobs, 1, floor, &fallback, &interval, held);
        own.resize(n, 0.0);
        for (size_t j = 0; j < n; ++j)
        {
            if (interval[j] > floor[j] || round == 0)
            {
                own[j] = interval[j];
            }
            tj[j].interval = own[j];
        }
        ShareUplinks(tj, racks, txUp, tx);
        double change = 0;
        for (size_t j = 0; j < n; ++j)
        {
            change = std::max(change, std::fabs(tj[j].uplinkFloor - floor[j]) / own[j]);
            floor[j] = tj[j].uplinkFloor;
        }
        if (change < 1e-9)
        {
            break;
        }
    }
    return t;
}

void
InaGradientSync::ShareUplinks(std::vector<TieredJob>& tj,
                              size_t racks,
                              double txUp,
                              double tx) const
{
    // Max-min fair chunk rates (model/common's solver): every uplink has all of its time
    // (capacity 1); a job's chunk costs it packets x txUp seconds there, and the job runs at
    // most at its own rate (one chunk per interval without the uplinks). A FIFO uplink gives
    // jobs whose windows keep packets queued equal chunk rates (each job's share of the queue
    // is its window of chunks). A job the uplinks hold below its own rate gets their interval
    // as its floor.
    //
    // When every uplink takes every job's own rate, the solver would give each job its cap and
    // no floor: the solve is skipped (the fixed point shares the uplinks every round, and they
    // rarely bind).
    for (auto& job : tj)
    {
        job.uplinkFloor = 0;
    }
    if (UplinksOverloaded(tj, racks, txUp))
    {
        SetUplinkFloors(tj, racks, txUp);
    }
    for (auto& job : tj)
    {
        job.interval = std::max({job.interval, job.uplinkFloor, tx / job.job->linkShare});
    }
}

void
InaGradientSync::SetUplinkFloors(std::vector<TieredJob>& tj, size_t racks, double txUp) const
{
    MaxMinSolver& solver = m_uplinkSolver;
    solver.Reset(std::vector<double>(racks, 1.0));
    std::vector<uint32_t> flow(tj.size());
    std::vector<MaxMinSolver::Usage> usage;
    for (size_t j = 0; j < tj.size(); ++j)
    {
        if (tj[j].uplinks.empty())
        {
            continue;
        }
        usage.clear();
        for (const auto& [rack, packets] : tj[j].uplinks)
        {
            usage.emplace_back(static_cast<uint32_t>(rack), packets * txUp);
        }
        flow[j] = solver.AddFlow(usage, 1 / tj[j].interval);
    }
    solver.Solve();
    for (size_t j = 0; j < tj.size(); ++j)
    {
        if (!tj[j].uplinks.empty())
        {
            const double rate = solver.GetRate(flow[j]);
            if (rate < 1 / tj[j].interval)
            {
                tj[j].uplinkFloor = rate > 0 ? 1 / rate : 1e30;
            }
        }
    }
}

bool
InaGradientSync::UplinksOverloaded(const std::vector<TieredJob>& tj, size_t racks, double txUp)
{
    std::vector<double> demand(racks, 0.0);
    for (const auto& job : tj)
    {
        const double cap = 1 / job.interval;
        for (const auto& [rack, packets] : job.uplinks)
        {
            demand[rack] += packets * txUp * cap;
        }
    }
    // The solver's own test on the demands SetUplinkFloors would give it (weight x cap, per
    // rack in job order, as MaxMinSolver::AddFlow sums them), so "no" means the solve would
    // give every job its cap: skipping it keeps the bits.
    return std::any_of(demand.begin(), demand.end(), [](double d) {
        return MaxMinSolver::IsOver(d, 1.0);
    });
}

std::vector<double>
InaGradientSync::TwoLevelTimes(const std::vector<InaRateJob>& jobs,
                               std::vector<double>& fallback,
                               std::vector<PoolHoldings>* held,
                               std::vector<std::vector<double>>* departure) const
{
    const size_t n = jobs.size();
    const double bytes = 4.0 * ValuesPerPacket() + m_overhead;
    const double tx = bytes * 8 / m_linkRate.GetBitRate();
    const double txUp = bytes * 8 / m_uplinkRate.GetBitRate();
    // Pools: a ToR per rack in use (by rack id), then the spine.
    const size_t racks = RacksInUse(jobs);
    const size_t spine = racks;
    std::vector<std::vector<size_t>> atPool(racks + 1); // jobs aggregating at each pool
    std::vector<TieredJob> tj = TieredJobs(jobs, racks, tx, txUp, atPool);
    PolicyWindows(tj, atPool);
    for (auto& t : tj)
    {
        StartTwoLevelInterval(t, spine, tx);
    }
    ShareUplinks(tj, racks, txUp, tx);
    if (m_ratePolicy->SharesPool())
    {
        SolveTwoLevel(tj, atPool, tx, txUp, racks);
    }
    std::vector<double> out(n);
    fallback.assign(n, 0.0);
    for (size_t j = 0; j < n; ++j)
    {
        out[j] = tj[j].rtt + (tj[j].chunks - 1) * tj[j].interval +
                 SkewSeconds(jobs[j].workers, tj[j].interval) + tj[j].stall;
        fallback[j] = tj[j].f;
    }
    if (departure)
    {
        *departure = TwoLevelDepartureStalls(tj, SharedPools(tj, atPool));
    }
    if (held)
    {
        *held = TwoLevelHeld(tj, spine);
    }
    return out;
}

std::vector<InaGradientSync::TieredJob>
InaGradientSync::TieredJobs(const std::vector<InaRateJob>& jobs,
                            size_t racks,
                            double tx,
                            double txUp,
                            std::vector<std::vector<size_t>>& atPool) const
{
    const double values = ValuesPerPacket();
    const double d = m_linkDelay.GetSeconds();
    const double p = PipelineSeconds();
    const InaRatePolicy& policy = *m_ratePolicy;
    const size_t spine = racks;
    // Hold from arrival to the PS result passing back (ATP, ESA): at the spine, as at a single
    // switch with its PS; at a ToR, two uplink crossings and two passes more.
    const double holdSpine = 2 * (tx + d) + 2 * p;
    const double holdTor = holdSpine + 2 * (txUp + d) + 2 * p;
    std::vector<TieredJob> tj(jobs.size());
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        TieredJob& t = tj[j];
        t.job = &jobs[j];
        t.chunks = std::max(1.0, std::ceil(jobs[j].gradientBytes / (4.0 * values)));
        t.window = m_window;
        const bool cross = jobs[j].racks.size() >= 2;
        for (const auto& [rack, w] : jobs[j].racks)
        {
            t.levels.push_back({rack, cross ? holdTor : holdSpine, double(w), cross});
            if (cross)
            {
                t.uplinks.emplace_back(rack, 1.0);
            }
        }
        if (cross)
        {
            t.levels.push_back({spine, holdSpine, double(jobs[j].racks.size()), false});
            // Worker, ToR, uplink, spine and back: SwitchML multicasts from the spine; ATP and
            // ESA go on to the PS (at the spine) and back.
            t.rtt = policy.CrossRackRoundTrip(tx, txUp, d, p);
        }
        else
        {
            t.rtt = policy.RoundTrip(tx + d, p, 0);
        }
        for (const Level& l : t.levels)
        {
            atPool[l.pool].push_back(j);
        }
    }
    return tj;
}

void
InaGradientSync::StartTwoLevelInterval(TieredJob& t, size_t spine, double tx) const
{
    // A window slot is reused one round after its chunk left the slowest of the job's
    // workers' hosts (all of them: the spine waits for every rack's partial), as at one
    // switch. Without host jitter it is max(tx, rtt / window), and tx <= tx / linkShare
    // below, so the interval keeps its bits.
    t.windowed = WindowInterval(t.rtt, t.window, tx, t.job->workers);
    SetToRSpreads(t, spine);
    t.psLoad = tx * (t.f * t.job->workers + (1 - t.f));
    for (size_t u = 0; u < t.uplinks.size(); ++u)
    {
        // One partial per chunk, or (SwitchML without a slot) every worker packet.
        t.uplinks[u].second = t.f * t.levels[u].workers + (1 - t.f);
    }
    t.interval = std::max({tx / t.job->linkShare, t.windowed, t.psLoad});
}

void
InaGradientSync::SetToRSpreads(TieredJob& t, size_t spine) const
{
    for (Level& l : t.levels)
    {
        // Keys split at the ToRs (TwoLevelSplitStall): a key's packets there are the rack's
        // workers', spread by their host delays and, in the first window, their starts.
        // The spine is left out: measured, it (almost) never strands a partial (doc/ina.md,
        // "Racks (rate level)").
        if (l.pool != spine)
        {
            const KeyReach span = SpanOf(1, l.workers, t.windowed);
            l.spread = span.spread;
            l.start = span.start;
        }
    }
    // A holder spanning all those ToRs meets a key at all of them on one index: its
    // packets there are all those workers' (TwoLevelSplitStall, KeyReach).
    t.reachAll = {};
    for (const Level& l : t.levels)
    {
        if (l.spread + l.start > 0)
        {
            t.reachAll.tors += 1;
            t.reachAll.workers += l.workers;
        }
    }
    if (t.reachAll.tors > 0)
    {
        t.reachAll = SpanOf(t.reachAll.tors, t.reachAll.workers, t.windowed);
    }
}

std::vector<InaGradientSync::PoolHoldings>
InaGradientSync::TwoLevelHeld(const std::vector<TieredJob>& tj, size_t spine) const
{
    const InaRatePolicy& policy = *m_ratePolicy;
    std::vector<PoolHoldings> held(tj.size());
    for (size_t j = 0; j < tj.size(); ++j)
    {
        for (const Level& l : tj[j].levels) // static partitions: the slots' aggregators
        {
            held[j].emplace_back(
                l.pool == spine ? -1 : int64_t(l.pool),
                policy.SharesPool() ? l.held : policy.PartitionHeld(tj[j].window, tj[j].chunks));
        }
    }
    return held;
}

void
InaGradientSync::PolicyWindows(std::vector<TieredJob>& tj,
                               const std::vector<std::vector<size_t>>& atPool) const
{
    // SwitchML: a static partition at every switch the job aggregates at; one window for all
    // of them, so that a window slot means the same chunk at its ToRs and at the spine.
    for (auto& t : tj)
    {
        for (const Level& l : t.levels)
        {
            t.window = std::min(t.window,
                                m_ratePolicy->Window(m_window,
                                                     m_poolSize,
                                                     m_switchMlPartitions,
                                                     atPool[l.pool].size()));
        }
    }
}

void
InaGradientSync::SolveTwoLevel(std::vector<TieredJob>& tj,
                               const std::vector<std::vector<size_t>>& atPool,
                               double tx,
                               double txUp,
                               size_t racks) const
{
    // Who meets whom where: the same hashed index addresses a job's chunk at all its levels,
    // so a job is blocked by another at every pool they share, and the blocks coincide. A
    // preemptive policy is blocked only by the jobs that outrank it, in full: sums over the
    // rank order (InaRankedHoldings) instead of every pair.
    const bool ranked = m_ratePolicy->Preempts();
    std::vector<std::vector<Shared>> shared;
    InaRankedHoldings above;
    if (ranked)
    {
        RankComponent(tj, atPool.size(), racks, above);
    }
    // The split-key stalls (TwoLevelSplitStall) visit every holder of a ToR, also under a
    // preemptive policy; only with skew, since nothing splits without it.
    const bool skewed = m_packetJitter.GetSeconds() > 0 || m_iterationJitter.GetSeconds() > 0;
    if (!ranked || skewed)
    {
        shared = SharedPools(tj, atPool);
    }
    constexpr int ROUNDS = 2000;
    auto weight = [](int it) { return it < 50 ? 0.5 : 25.0 / it; };
    constexpr double TOLERANCE = 1e-7;
    for (int it = 0; it < ROUNDS; ++it)
    {
        TwoLevelHoldings(tj, tx);
        if (TwoLevelRound(tj,
                          ranked ? nullptr : &shared,
                          shared.empty() ? nullptr : &shared,
                          above,
                          atPool,
                          tx,
                          txUp,
                          racks,
                          weight(it)) < TOLERANCE)
        {
            return;
        }
    }
    NS_LOG_WARN("two-level fixed point not converged for " << tj.size() << " jobs");
}

std::vector<std::vector<InaGradientSync::Shared>>
InaGradientSync::SharedPools(const std::vector<TieredJob>& tj,
                             const std::vector<std::vector<size_t>>& atPool) const
{
    std::vector<std::vector<Shared>> shared(tj.size());
    std::vector<size_t> slot(tj.size(), SIZE_MAX);
    for (size_t j = 0; j < tj.size(); ++j)
    {
        for (size_t a = 0; a < tj[j].levels.size(); ++a)
        {
            const size_t pool = tj[j].levels[a].pool;
            for (size_t c : atPool[pool])
            {
                if (c == j)
                {
                    continue;
                }
                size_t b = 0;
                while (tj[c].levels[b].pool != pool)
                {
                    ++b;
                }
                if (slot[c] == SIZE_MAX)
                {
                    slot[c] = shared[j].size();
                    shared[j].push_back({c, {}});
                }
                shared[j][slot[c]].levels.emplace_back(a, b);
            }
        }
        for (const Shared& s : shared[j])
        {
            slot[s.other] = SIZE_MAX;
        }
    }
    return shared;
}

void
InaGradientSync::RankComponent(const std::vector<TieredJob>& tj,
                               size_t pools,
                               size_t spine,
                               InaRankedHoldings& above) const
{
    std::vector<size_t> order(tj.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return m_ratePolicy->Outranks(*tj[a].job, a, *tj[b].job, b);
    });
    std::vector<std::vector<size_t>> poolsOf(tj.size());
    for (size_t j = 0; j < tj.size(); ++j)
    {
        for (const Level& l : tj[j].levels)
        {
            poolsOf[j].push_back(l.pool);
        }
    }
    above.SetComponent(poolsOf, pools, spine, order);
}

void
InaGradientSync::TwoLevelHoldings(std::vector<TieredJob>& tj, double tx) const
{
    // Little's law at every level, as at one switch. A chunk waits in the queue of whichever
    // link sets its interval: the PS link's queue holds its aggregators at every level, the
    // uplink's only at the ToRs (the spine allocates after the uplink). A job stalled on a
    // split key holds nothing meanwhile (its iteration is longer).
    for (auto& t : tj)
    {
        const double iter = t.rtt + (t.chunks - 1) * t.interval + t.stall;
        const double qPs = QueueingSum(t.chunks, t.window, t.interval, t.psLoad, tx, t.rtt);
        const double qUp =
            t.uplinkFloor > t.psLoad
                ? QueueingSum(t.chunks, t.window, t.interval, t.uplinkFloor, tx, t.rtt)
                : 0.0;
        for (Level& l : t.levels)
        {
            const double sojourn = t.chunks * l.hold + qPs + (l.tor ? qUp : 0.0);
            l.sojourn = sojourn / t.chunks;
            const double x = l.preemptRate * sojourn / t.chunks;
            const double kept = x > 1e-12 ? (1 - std::exp(-x)) / x : 1.0;
            l.demand = kept * sojourn / iter;
            l.held = (1 - l.f) * l.demand;
        }
    }
}

double
InaGradientSync::TwoLevelRound(std::vector<TieredJob>& tj,
                               const std::vector<std::vector<Shared>>* shared,
                               const std::vector<std::vector<Shared>>* pairs,
                               InaRankedHoldings& above,
                               const std::vector<std::vector<size_t>>& atPool,
                               double tx,
                               double txUp,
                               size_t racks,
                               double weight) const
{
    std::vector<double> poolDemand(atPool.size(), 0.0); // ATP shares a short pool by demand
    std::vector<double> poolSlots(atPool.size(), 0.0);  // window slots hashed into each pool
    std::vector<size_t> offset(tj.size() + 1, 0);
    for (size_t j = 0; j < tj.size(); ++j)
    {
        for (const Level& l : tj[j].levels)
        {
            poolDemand[l.pool] += l.demand;
            poolSlots[l.pool] += tj[j].Slots();
        }
        offset[j + 1] = offset[j] + tj[j].levels.size();
    }
    std::vector<double> fNew(tj.size());
    std::vector<LevelFallback> levelF(offset.back());
    std::vector<double> preempt(offset.back());
    std::vector<double> block(offset.back());
    if (!shared)
    {
        SumRankedHoldings(tj, above);
    }
    for (size_t j = 0; j < tj.size(); ++j)
    {
        const Met met =
            shared ? PairwiseBlocking(tj, j, (*shared)[j], &block[offset[j]], &preempt[offset[j]])
                   : RankedBlocking(tj, j, above, &block[offset[j]], &preempt[offset[j]]);
        fNew[j] =
            NextFallback(tj[j], met, &block[offset[j]], poolDemand, poolSlots, &levelF[offset[j]]);
    }
    double residual = 0;
    for (size_t j = 0; j < tj.size(); ++j)
    {
        TieredJob& t = tj[j];
        residual = std::max(residual, std::fabs(fNew[j] - t.f));
        t.f += weight * (fNew[j] - t.f);
        for (size_t a = 0; a < t.levels.size(); ++a)
        {
            Level& l = t.levels[a];
            const LevelFallback& next = levelF[offset[j] + a];
            residual = std::max(residual, std::fabs(next.f - l.f));
            l.f += weight * (next.f - l.f);
            l.fRehashed += weight * (next.rehashed - l.fRehashed);
            l.rho = next.rho;
            l.preemptRate = preempt[offset[j] + a];
        }
        // PS link: one aggregate per chunk done in the network; a chunk that fell back brings
        // each rack's worker packets if it collided at that ToR, else the rack's partial.
        double packets = t.f * t.job->workers + (1 - t.f);
        if (!t.uplinks.empty())
        {
            packets = 1 - t.f;
            for (size_t u = 0; u < t.uplinks.size(); ++u)
            {
                const Level& l = t.levels[u];
                packets += l.f * l.workers + std::max(0.0, t.f - l.f);
                t.uplinks[u].second = (1 - l.f) + l.f * l.workers;
            }
        }
        t.psLoad = tx * packets;
        t.interval = std::max({tx / t.job->linkShare, t.windowed, t.psLoad});
    }
    for (size_t j = 0; j < tj.size() && pairs; ++j)
    {
        tj[j].stall = TwoLevelSplitStall(tj, j, (*pairs)[j], tx);
    }
    ShareUplinks(tj, racks, txUp, tx);
    return residual;
}

void
InaGradientSync::SumRankedHoldings(const std::vector<TieredJob>& tj, InaRankedHoldings& above) const
{
    std::vector<double> held;
    held.reserve(above.LevelOffset(tj.size()));
    std::vector<double> rate(tj.size());
    for (size_t j = 0; j < tj.size(); ++j)
    {
        for (const Level& l : tj[j].levels)
        {
            held.push_back(l.held);
        }
        rate[j] = 1 / tj[j].interval;
    }
    above.Sum(held, rate);
}

InaGradientSync::Met
InaGradientSync::RankedBlocking(const std::vector<TieredJob>& tj,
                                size_t j,
                                const InaRankedHoldings& above,
                                double* block,
                                double* preempt) const
{
    // Only higher priorities block, in full (no pair firing, no decay over iterations).
    const TieredJob& t = tj[j];
    for (size_t a = 0; a < t.levels.size(); ++a)
    {
        block[a] = above.AtLevel(j, a);
        preempt[a] = above.RateAtLevel(j, a) / m_poolSize;
    }
    return {above.Met(j), 0.0, t.Slots()};
}

InaGradientSync::Met
InaGradientSync::PairwiseBlocking(const std::vector<TieredJob>& tj,
                                  size_t j,
                                  const std::vector<Shared>& shared,
                                  double* block,
                                  double* preempt) const
{
    const double pool = m_poolSize;
    const InaRatePolicy& policy = *m_ratePolicy;
    const TieredJob& t = tj[j];
    const size_t levels = t.levels.size();
    std::fill(block, block + levels, 0.0);
    std::fill(preempt, preempt + levels, 0.0);
    Met met{0.0, 0.0, t.Slots()};
    for (const Shared& s : shared)
    {
        const TieredJob& c = tj[s.other];
        // ESA: only higher priorities block, in full; ATP: every holder, one collision per
        // overlapping pair.
        const double w = policy.BlockingWeight(*c.job, s.other, *t.job, j);
        double best = 0;
        double bestHeld = 0;
        for (const auto& [a, b] : s.levels)
        {
            const double h = c.levels[b].held;
            const double x = PairBlock(c, h, t, t.levels[a].held, w);
            block[a] += x;
            preempt[a] += w / c.interval / pool;
            // The same index at every level, and a ToR's hold contains the spine's: the
            // blocks coincide, so the job meets each other job once, where it holds longest.
            best = std::max(best, x);
            bestHeld = std::max(bestHeld, h);
        }
        met.blocking += best;
        met.heldAll += w > 0 ? bestHeld : 0.0;
        met.slots += c.Slots();
    }
    return met;
}

double
InaGradientSync::PairBlock(const TieredJob& c,
                           double held,
                           const TieredJob& t,
                           double tHeld,
                           double weight) const
{
    return weight * held *
           (m_ratePolicy->Preempts() ? 1.0 : PairFiring(held / c.window, tHeld / t.window));
}

double
InaGradientSync::TwoLevelSplitStall(const std::vector<TieredJob>& tj,
                                    size_t j,
                                    const std::vector<Shared>& shared,
                                    double tx) const
{
    const TieredJob& t = tj[j];
    // A key stalls its window once per pass whichever ToR it split at: the splits of a pass
    // at the job's ToRs add up before the chain turns them into stalls. ESA's rescue waits
    // and the share of stalls that wait the timeout are the split-weighted means over them.
    SplitKeyCounts splits;
    double waitFirst = 0;
    double waitRest = 0;
    double timedOut = 0;
    double timedOutOf = 0; // the splits timedOut is the mean over
    for (size_t a = 0; a < t.levels.size(); ++a)
    {
        const Level& here = t.levels[a];
        if (here.spread + here.start <= 0)
        {
            continue; // the spine, or no skew: nothing splits
        }
        const std::vector<ToRHolderGroup> groups = SumToRHolders(tj, j, a, shared, tx);
        double blocking = 0;
        double claim = 0; // the chunk arrivals of all the pool's holders (StillFree)
        for (const ToRHolderGroup& g : groups)
        {
            blocking += g.sums.blocking;
            claim += g.sums.claim;
        }
        for (const ToRHolderGroup& g : groups)
        {
            const ToRHolderSums& sums = g.sums;
            if (sums.blocking <= 0)
            {
                continue;
            }
            // The pool's collisions with this group's holders are its share of the blocking.
            // One that the holder meets at several of the job's ToRs (g.reach) is the same
            // collision at each of them (one index, freed at about the same time), so each
            // ToR counts its share of it, and it splits the key if the holder frees the index
            // while the key's packets still come at one of those ToRs: with the release
            // uniform over the hold (as ExpectedSplits reads a collision), the probability
            // grows from this ToR's packet range to the range of all those ToRs' packets
            // (their workers' spread, and in the first window their starts), not to the sum
            // of the ranges.
            const double share = sums.blocking / blocking / g.reach.tors;
            double splitFirst = sums.splitFirst / sums.blocking;
            if (g.reach.tors > 1)
            {
                splitFirst = std::min(1.0,
                                      splitFirst * (g.reach.start + g.reach.spread) /
                                          (here.start + here.spread));
            }
            const SplitKeyCounts atPool = ExpectedSplits({t.Slots(),
                                                          t.chunks,
                                                          here.rho,
                                                          here.fRehashed,
                                                          g.reach.spread,
                                                          g.reach.start,
                                                          g.reach.workers,
                                                          claim,
                                                          sums.holderHold / sums.blocking,
                                                          splitFirst});
            const double first = atPool.first * share;
            const double settled = atPool.settled * share;
            const double fresh = atPool.fresh * share;
            splits.first += first;
            splits.settled += settled;
            splits.fresh += fresh;
            waitFirst += first * sums.waitFirst / sums.blocking;
            waitRest += (settled + fresh) * sums.waitRest / sums.blocking;
            const double poolSplits = first + settled + fresh;
            timedOut += poolSplits * (sums.timedOut / sums.blocking);
            timedOutOf += poolSplits;
        }
    }
    if (timedOutOf <= 0)
    {
        return 0.0;
    }
    const auto [first, rest] =
        SplitKeyEpisodes(splits, t.chunks / t.Slots(), timedOut / timedOutOf);
    return m_ratePolicy->SplitKeyStall(
        first,
        rest,
        m_resendTimeout.GetSeconds(),
        t.rtt,
        splits.first > 0 ? waitFirst / splits.first : 0.0,
        splits.settled + splits.fresh > 0 ? waitRest / (splits.settled + splits.fresh) : 0.0);
}

void
InaGradientSync::VisitToRHolders(const std::vector<TieredJob>& tj,
                                 size_t j,
                                 size_t a,
                                 const std::vector<Shared>& shared,
                                 const std::function<void(const ToRHolder&)>& visit) const
{
    const TieredJob& t = tj[j];
    const Level& here = t.levels[a];
    const InaRatePolicy& policy = *m_ratePolicy;
    const bool ownApart = m_dedup && t.Slots() <= m_poolSize; // as in NextFallback
    if (!ownApart)
    {
        // Its own slot holds the index at all its ToRs.
        visit({&t,
               j,
               &here,
               PairBlock(t, here.held, t, here.held, 1.0),
               true,
               t.reachAll.tors,
               t.reachAll.workers});
    }
    for (const Shared& s : shared)
    {
        const TieredJob& c = tj[s.other];
        const double w = policy.BlockingWeight(*c.job, s.other, *t.job, j);
        if (w <= 0)
        {
            continue;
        }
        // c holds the index wherever it meets j: the ToRs of j it spans that can split.
        const Level* there = nullptr;
        double tors = 0;
        double workers = 0;
        for (const auto& [mine, theirs] : s.levels)
        {
            const Level& l = t.levels[mine];
            if (l.spread + l.start > 0)
            {
                tors += 1;
                workers += l.workers;
            }
            there = mine == a ? &c.levels[theirs] : there;
        }
        if (there)
        {
            visit({&c,
                   s.other,
                   there,
                   PairBlock(c, there->held, t, here.held, w),
                   false,
                   tors,
                   workers});
        }
    }
}

std::vector<InaGradientSync::ToRHolderGroup>
InaGradientSync::SumToRHolders(const std::vector<TieredJob>& tj,
                               size_t j,
                               size_t a,
                               const std::vector<Shared>& shared,
                               double tx) const
{
    const TieredJob& t = tj[j];
    const Level& here = t.levels[a];
    const InaRatePolicy& policy = *m_ratePolicy;
    // ESA's rescuer sends its slot's next chunk when its result reaches its worker: one trip
    // ToR - worker - ToR, as at one switch (RescueDelay).
    const double hop = tx + m_linkDelay.GetSeconds();
    const double pass = PipelineSeconds();
    const double returnTrip = std::max(0.0, policy.RoundTrip(hop, pass, 0) - 2 * hop - 2 * pass);
    std::vector<ToRHolderGroup> groups;
    VisitToRHolders(tj, j, a, shared, [&](const ToRHolder& h) {
        size_t g = 0;
        while (g < groups.size() &&
               (groups[g].reach.tors != h.tors || groups[g].reach.workers != h.workers))
        {
            ++g;
        }
        if (g == groups.size())
        {
            groups.push_back({ReachAt(t, a, h.tors, h.workers), {}});
        }
        MeetToRHolder(groups[g].sums,
                      *h.job,
                      *h.there,
                      t,
                      here,
                      h.blocking,
                      h.self,
                      tx,
                      returnTrip);
    });
    return groups;
}

InaGradientSync::KeyReach
InaGradientSync::ReachAt(const TieredJob& t, size_t a, double tors, double workers) const
{
    if (tors <= 1)
    {
        const Level& here = t.levels[a];
        return {1.0, here.workers, here.spread, here.start};
    }
    if (tors == t.reachAll.tors)
    {
        return t.reachAll;
    }
    // Some but not all of its ToRs (three racks or more).
    return SpanOf(tors, workers, t.windowed);
}

InaGradientSync::KeyReach
InaGradientSync::SpanOf(double tors, double workers, double windowed) const
{
    const auto [latest, earliest] =
        HostDelayExtremes(workers, m_packetJitter.GetSeconds(), windowed);
    return {tors, workers, latest - earliest, StartSpread(m_iterationJitter.GetSeconds(), workers)};
}

void
InaGradientSync::MeetToRHolder(ToRHolderSums& sums,
                               const TieredJob& c,
                               const Level& there,
                               const TieredJob& t,
                               const Level& here,
                               double b,
                               bool self,
                               double tx,
                               double returnTrip) const
{
    const double jitter = m_iterationJitter.GetSeconds();
    auto arrival = [&](const TieredJob& x, double workers) {
        return FirstPacketArrivalOf(workers, x.Slots(), tx, x.job->linkShare, jitter, self);
    };
    const double queue = FirstWindowQueueing(there.rho,
                                             c.f,
                                             c.job->workers,
                                             c.Slots(),
                                             c.window,
                                             c.interval,
                                             tx,
                                             c.rtt);
    sums.blocking += b;
    sums.holderHold += b * there.sojourn;
    sums.splitFirst += b * FirstWindowSplit(arrival(c, there.workers),
                                            arrival(t, here.workers),
                                            there.start + there.hold + queue,
                                            here.start + here.spread);
    const double pool = m_poolSize;
    sums.claim += 1 / c.interval / pool;
    // Nothing rescues it under ATP, nor ESA's own slot (a job does not preempt itself); ESA's
    // higher priority comes back to its slot (HolderSplitWaits).
    const SplitKeyHolder holder{c.Slots(),
                                c.chunks,
                                c.job->iterations,
                                c.rtt,
                                c.interval,
                                c.stall,
                                c.window * c.interval,
                                there.sojourn,
                                there.start};
    const HolderSplitWait w = HolderSplitWaits(m_ratePolicy->Preempts() && !self,
                                               m_resendTimeout.GetSeconds(),
                                               t.rtt,
                                               returnTrip,
                                               holder,
                                               here.spread,
                                               here.start);
    sums.waitFirst += b * w.first;
    sums.waitRest += b * w.rest;
    sums.timedOut += b * w.timedOut;
}

double
InaGradientSync::StillSharedAtLastIteration(const TieredJob& c,
                                            const TieredJob& t,
                                            double sojourn,
                                            double slots,
                                            double held) const
{
    // As at one switch (DepartureStalls): pairs whose phases drift meet anew on every use;
    // the others decay over the iterations the pair has run together, as every collision of
    // the victim re-hashes its slot (IterationShare over all the slots hashed into the pool).
    const double drift =
        sojourn > 0
            ? std::min(1.0, std::fabs(c.window * c.interval - t.window * t.interval) / sojourn)
            : 0.0;
    const double iters = c.job->iterations + std::min(c.job->iterationsDone, t.job->iterationsDone);
    if (iters <= 1)
    {
        return 1.0;
    }
    const double pool = m_poolSize;
    const double phi = std::min(1.0, 2 * held / std::max(slots, 1e-30));
    const double passes = c.chunks / c.Slots();
    const double last = iters * IterationShare(slots, pool, phi, passes, iters) -
                        (iters - 1) * IterationShare(slots, pool, phi, passes, iters - 1);
    return drift + (1 - drift) * last;
}

std::vector<std::vector<double>>
InaGradientSync::TwoLevelDepartureStalls(const std::vector<TieredJob>& tj,
                                         const std::vector<std::vector<Shared>>& shared) const
{
    const size_t n = tj.size();
    std::vector<std::vector<double>> out(n, std::vector<double>(n, 0.0));
    const InaRatePolicy& policy = *m_ratePolicy;
    if (!policy.Preempts())
    {
        return out; // ATP: a split key waits the timeout whoever leaves (TwoLevelSplitStall)
    }
    const double pool = m_poolSize;
    const double timeout = m_resendTimeout.GetSeconds();
    // Per pool: the window slots hashed into it and the aggregators held there, for the share
    // of pairs still on one index at the holder's last iteration (as at one switch).
    std::vector<double> poolSlots;
    std::vector<double> poolHeld;
    for (const TieredJob& t : tj)
    {
        for (const Level& l : t.levels)
        {
            poolSlots.resize(std::max(poolSlots.size(), l.pool + 1), 0.0);
            poolHeld.resize(poolSlots.size(), 0.0);
            poolSlots[l.pool] += t.Slots();
            poolHeld[l.pool] += l.held;
        }
    }
    for (size_t j = 0; j < n; ++j)
    {
        const TieredJob& t = tj[j];
        if (t.stall <= 0)
        {
            continue; // nothing split (no skew, or nothing to collide with)
        }
        std::vector<double> stranded(n, 0.0); // keys of j split in i's last window
        for (size_t a = 0; a < t.levels.size(); ++a)
        {
            const Level& here = t.levels[a];
            if (here.spread <= 0)
            {
                continue; // the spine, or no host jitter: nothing splits after the first window
            }
            // The holders j meets at this ToR, as TwoLevelSplitStall weighs them: j's blocking
            // there and the chunk arrivals per aggregator that may take a freed index first.
            double blocking = 0;
            double claim = 0;
            // (holder, its level at this pool, its blocking of j here)
            std::vector<std::tuple<size_t, const Level*, double>> above;
            VisitToRHolders(tj, j, a, shared[j], [&](const ToRHolder& h) {
                blocking += h.blocking;
                claim += 1 / h.job->interval / pool;
                if (!h.self)
                {
                    above.emplace_back(h.index, h.there, h.blocking);
                }
            });
            if (blocking <= 0)
            {
                continue;
            }
            for (const auto& [i, there, b] : above)
            {
                const TieredJob& c = tj[i];
                const double sojourn = there->sojourn;
                // j sends K_i I_i / I_j chunks in i's last window, a share f there collides at
                // this ToR, i's part of it is its share of j's blocking, and a collision
                // splits when j's packets outlast i's hold and none is taken first; only pairs
                // still on one index by i's last iteration count.
                const double split = std::min(1.0, here.spread / std::max(sojourn, 1e-30)) *
                                     StillFree(claim, here.workers, here.spread);
                const double persist = StillSharedAtLastIteration(c,
                                                                  t,
                                                                  sojourn,
                                                                  poolSlots[here.pool],
                                                                  poolHeld[here.pool]);
                stranded[i] +=
                    c.window * c.interval / t.interval * here.f * b / blocking * persist * split;
            }
        }
        for (size_t i = 0; i < n; ++i)
        {
            const TieredJob& c = tj[i];
            if (stranded[i] <= 0 || c.Slots() <= 0 || c.chunks <= 0)
            {
                continue;
            }
            // i's last use of a slot in an iteration is rescued by its next iteration (the
            // cycle the per-iteration stall charges); when i leaves, j waits the rest of the
            // timeout.
            const double cycle =
                HolderCycle(c.job->iterations, c.rtt, c.chunks, c.interval, c.stall, timeout);
            out[j][i] = (1 - std::exp(-stranded[i])) * (timeout - cycle);
        }
    }
    return out;
}

double
InaGradientSync::NextFallback(const TieredJob& t,
                              Met met,
                              const double* block,
                              const std::vector<double>& poolDemand,
                              const std::vector<double>& poolSlots,
                              LevelFallback* levelF) const
{
    const double pool = m_poolSize;
    const InaRatePolicy& policy = *m_ratePolicy;
    const bool preempts = policy.Preempts();
    const size_t levels = t.levels.size();
    double blocking = met.blocking; // over the job's levels together
    double heldAll = met.heldAll;   // holdings of the jobs that block it
    double slots = met.slots;       // their window slots
    // The job's own slots block it only without ATP's per-job de-duplication (or with more
    // slots than aggregators); the "- 1" below then discounts the aggregator it holds.
    const bool ownApart = m_dedup && t.Slots() <= pool;
    std::vector<double> own(levels, ownApart ? 1.0 : 0.0);
    double ownBest = ownApart ? 1.0 : 0.0;
    double ownHeld = 0;
    for (size_t a = 0; a < levels && !ownApart; ++a)
    {
        const double h = t.levels[a].held;
        own[a] = h * (preempts ? 1.0 : PairFiring(h / t.window, h / t.window));
        ownBest = std::max(ownBest, own[a]);
        ownHeld = std::max(ownHeld, h);
    }
    blocking += ownBest;
    heldAll += ownHeld;
    double share = 1;
    if (!preempts)
    {
        const double phi = std::min(1.0, 2 * heldAll / slots);
        share = ListedIterationShare(slots, pool, phi, *t.job, t.chunks, t.Slots(), t.f);
    }
    // Not the aggregator it holds itself; re-hashed first uses against the blocking holdings.
    auto firstUse = [&](double b) { return std::min(1.0, share * std::max(0.0, b - 1) / pool); };
    auto hashed = [&](double b) { return StickyFallback(firstUse(b), t.chunks, t.window); };
    double f = hashed(blocking);
    for (size_t a = 0; a < levels; ++a)
    {
        const Level& l = t.levels[a];
        double fa = hashed(block[a] + own[a]);
        if (l.demand > 0)
        {
            // Holdings cannot exceed a pool: ATP shares it by demand, ESA by priority.
            const double room = policy.Room(pool, block[a], l.demand, poolDemand[l.pool]);
            fa = std::max(fa, 1 - std::max(0.0, room) / l.demand);
        }
        levelF[a].rho = firstUse(block[a] + own[a]);
        levelF[a].rehashed = std::min(1.0, fa);
        if (!preempts)
        {
            // A pool holding more window slots than aggregators keeps pairs on one index that
            // re-hashing cannot split, as at one switch (SolveSharedPool's level is the pool
            // here: ATP's jobs all meet there). ESA's level is the job alone, no floor.
            const double levelSlots = poolSlots[l.pool];
            fa = std::max(
                fa,
                PersistingPairFallback(levelSlots, pool, block[a], levelSlots - t.Slots()));
        }
        levelF[a].f = std::min(1.0, fa);
        f = std::max(f, levelF[a].f);
    }
    return std::min(1.0, f);
}

} // namespace ns3
