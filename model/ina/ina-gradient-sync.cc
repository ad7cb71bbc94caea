/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-gradient-sync.h"

#include "ina-gradient-sync-internal.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/component-registry.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaGradientSync");
NS_OBJECT_ENSURE_REGISTERED(InaGradientSync);

using namespace inarate; // the terms shared with ina-gradient-sync-racks.cc

namespace
{

/// 2(g-1)/g of the bytes over NVLink: reduce-scatter plus all-gather inside one node.
double
IntraNodeSeconds(const JobPlacement& placement, double bytes, double nvlinkBitsPerSecond)
{
    double worst = 0;
    for (const auto& [node, gpus] : placement.gpusOnNode)
    {
        if (gpus > 1)
        {
            worst = std::max(worst, 2.0 * (gpus - 1) / gpus * bytes * 8 / nvlinkBitsPerSecond);
        }
    }
    return worst;
}

/**
 * std::pow(base, exponent) for a base in [0, 1] and exponent >= 0, without glibc's slow
 * underflow path: where base^exponent < e^-746, below half the smallest subnormal, pow
 * returns exactly +0, so this returns 0 without calling it (the same bits). Large models
 * have thousands of uses per slot, and pow's underflow handling was a quarter of a
 * congested replay's time.
 */
double
UnitPow(double base, double exponent)
{
    if (exponent * std::log(base) < -746.0) // false for 0 x -inf (NaN): pow decides
    {
        return 0.0;
    }
    return std::pow(base, exponent);
}

/**
 * Mean of max(0, gap - O) for O uniform on [lo, hi] (a point mass at lo when hi <= lo): how
 * long a key split by skew still waits for its rescuer (ESA) when the rescuer's next packet
 * on the index comes gap after the aggregator was freed and the key's last packet came O
 * after that.
 */
double
MeanShortfall(double gap, double lo, double hi)
{
    if (gap <= lo)
    {
        return 0.0;
    }
    if (hi <= lo)
    {
        return gap - lo;
    }
    if (gap >= hi)
    {
        return gap - (lo + hi) / 2;
    }
    return (gap - lo) * (gap - lo) / (2 * (hi - lo));
}

/**
 * P(lo < U_b - U_a < hi) for U_b uniform on [0, b] and U_a on [0, a] (a, b > 0): the area
 * of {(u, v) : lo < u - v < hi} over the rectangle, through H(t), the integral of
 * clamp(s, 0, b) up to t, since the slice at v contributes clamp(z + v, 0, b).
 */
double
UniformDifferenceBetween(double b, double a, double lo, double hi)
{
    auto integral = [b](double t) {
        if (t <= 0)
        {
            return 0.0;
        }
        return t <= b ? t * t / 2 : b * b / 2 + b * (t - b);
    };
    auto below = [&](double z) { return (integral(z + a) - integral(z)) / (a * b); };
    return hi > lo ? std::clamp(below(hi) - below(lo), 0.0, 1.0) : 0.0;
}

/**
 * Expected split-key stalls over the passes of an iteration after its first window, when a
 * stall that waits the resend timeout shifts the job's phase against the other jobs: the
 * pass after it meets the pool afresh (its slots collide at the first-use rate, as in a
 * first window, not at the settled rate of sticky slots that met their neighbours before).
 * A two-state chain over the passes: a pass is fresh with probability p, stalls with
 * s = p fresh + (1 - p) settled, and the next is fresh with probability timedOut x s (only
 * stalls that wait the timeout shift the phase; ESA's rescues come within a slot's cycle).
 * \param passes passes after the first window (the last one may be partial)
 * \param firstFresh probability that the first of them is fresh
 * \param settled stall probability of a settled pass \param fresh that of a fresh pass
 * \param timedOut share of stalls that wait the timeout
 * \return the expected stalls (episodes) over those passes
 */
double
RestallingEpisodes(double passes, double firstFresh, double settled, double fresh, double timedOut)
{
    double p = firstFresh;
    double sum = 0;
    for (double left = passes; left > 0; left -= 1)
    {
        const double stall = p * fresh + (1 - p) * settled;
        sum += std::min(1.0, left) * stall;
        p = timedOut * stall;
    }
    return sum;
}

/**
 * Fallback fraction from blocking met anew on every use (ESA: the higher priorities whose
 * phase drifts against the job), with the re-hash as the only way out: a slot whose index
 * a higher-priority slot also uses collides on a use with probability c; its PS then
 * re-hashes it, onto an index that a higher-priority slot uses again with probability
 * `cover` (the share of the pool their slots take), else onto one none of them uses, where
 * they never block it again. Slots keep their indices across iterations. A slot starts on a
 * covered index with probability cover, so rho = c x cover is the first use's collision
 * probability, and over M uses the share still covered decays as a^r, a = 1 - c (1 - cover):
 * f = rho (1 - a^M) / (M (1 - a)). With cover = 1 (the higher priorities' slots take every
 * index: a window as large as the pool) there is no way out and f = rho on every use.
 */
double
EscapingFallback(double rho, double cover, double uses)
{
    if (rho <= 0)
    {
        return 0.0;
    }
    rho = std::min(1.0, rho);
    const double q = std::min(1.0, std::max(cover, rho)); // c = rho / q <= 1
    const double a = 1 - rho / q * (1 - q);
    if (uses <= 1 || a >= 1 - 1e-12)
    {
        return rho;
    }
    return rho * (1 - UnitPow(a, uses)) / (uses * (1 - a));
}

/**
 * Of S slots hashed at random into P aggregators, those on an index already taken:
 * E0 = S - P (1 - e^(-S/P)) (IterationShare).
 */
double
FreshSharedSlots(double slots, double pool)
{
    return slots - pool * (1 - std::exp(-slots / pool));
}

/**
 * IterationShare's decay constant kx [per iteration]: per pass a shared pair fires at most
 * once (probability phi) and its re-hash lands on a free index with probability
 * (P - S + E) / P, so E shrinks by the factor 1 - phi (P - S) / P per pass near the limit:
 * the rate of the closed form is -ln of that factor, not its first-order phi (P - S) / P,
 * which leaves e^-1 of the pairs where one pass at phi = 1 splits all of them.
 */
double
PairDecayConstant(double slots, double pool, double phi, double passesPerIteration)
{
    const double a = pool - slots;
    double kx = phi / pool * passesPerIteration;
    if (a > 0 && phi > 0)
    {
        const double perPass = std::min(phi * a / pool, 1 - 1e-12);
        kx = -std::log1p(-perPass) / a * passesPerIteration;
    }
    return kx;
}

/**
 * E(x), IterationShare's slots on a shared index after x iterations from a fresh hash (its
 * closed form): E0 / (1 + E0 x kx) for P = S, else a r q^x / (1 - r q^x), a = P - S,
 * r = E0 / (a + E0), q = e^(-a kx).
 */
double
SharedSlotsAfter(double slots, double pool, double phi, double passesPerIteration, double x)
{
    const double e0 = FreshSharedSlots(slots, pool);
    if (x <= 0 || e0 <= 1e-9 || phi <= 0)
    {
        return std::max(0.0, e0);
    }
    const double a = pool - slots;
    const double kx = PairDecayConstant(slots, pool, phi, passesPerIteration);
    if (std::fabs(a) < 1e-6)
    {
        return e0 / (1 + e0 * x * kx);
    }
    const double r = e0 / (a + e0);
    if (!(std::isfinite(r) && r >= 0))
    {
        return -a; // at its limit S - P from the start (IterationShare)
    }
    const double rx = std::min(r * std::exp(std::clamp(-a * kx * x, -700.0, 700.0)), 1e300);
    return rx >= 1e300 ? -a : a * rx / (1 - rx);
}

/**
 * When a job's PS runs out of free indices. ATP's PS re-hashes a collided index to the next
 * index of a shuffled list of the pool's indices that the job has not used, and never refills
 * the list (HashNew_predefine in ATP's public code returns -1 once it is through): P - K
 * re-hashes per job over its whole run (its K window slots declared its own). After that a
 * collided slot keeps its index, so the pairs of that moment stop splitting.
 * \param budget re-hashes the job has left (P - K - InaRateJob::rehashesUsed, at least 0)
 * \param perIteration its collisions per iteration (fallback x chunks: each re-hashes one
 *        index while the list lasts)
 * \param iterations the iterations the answer holds for
 * \return {share of those iterations after the list runs out, iterations until it does}
 */
std::pair<double, double>
ExhaustedShare(double budget, double perIteration, double iterations)
{
    if (iterations <= 0 || perIteration * iterations <= budget)
    {
        return {0.0, iterations};
    }
    const double until = budget / perIteration;
    return {1 - until / iterations, until};
}

/**
 * ESA: how much later than its last packet a key split against a holder is rescued while the
 * holder's slot comes back within the iteration (the holder preempts the stranded partial,
 * whose eviction hands the key to the PS). The slot is idle for gap = K_i I_i - h_i between
 * uses (h_i its steady hold); in an iteration's first window the holder's earliest workers
 * wait for its last one to start (start_i), so they send the slot's next chunk as soon as the
 * result reaches them: gap = max(one trip switch - worker - switch, K_i I_i - h_i - start_i).
 * The key's packets span s and split when its last packet comes after the holder's hold
 * H = h_i + start_i ends, by O uniform on [max(0, s - H), s] (its first packet uniform over
 * the hold), so it waits E[max(0, gap - O)] (MeanShortfall) more than unsplit.
 * \param returnTrip switch - worker - switch [s] \param holderCycle K_i I_i [s]
 * \param holderHold h_i [s] \param holderStart start_i (0 past the first window) [s]
 * \param span s [s]
 */
double
RescueDelay(double returnTrip,
            double holderCycle,
            double holderHold,
            double holderStart,
            double span)
{
    const double gap = std::max(returnTrip, holderCycle - holderHold - holderStart);
    const double h = holderHold + holderStart;
    return MeanShortfall(gap, std::max(0.0, span - h), span);
}

/**
 * \brief MakeEnumAccessor for a setter and getter of EsaRatePolicy::Rule, on every ns-3 release
 *        (ns-3.41 made EnumValue a template, see ns3-compat.h).
 * \param setter the setter \param getter the getter
 * \return the accessor
 */
Ptr<const AttributeAccessor>
MakeRuleAccessor(void (InaGradientSync::*setter)(EsaRatePolicy::Rule),
                 EsaRatePolicy::Rule (InaGradientSync::*getter)() const)
{
#if AICLUSTER_NS3_MINOR >= 41
    return MakeEnumAccessor<EsaRatePolicy::Rule>(setter, getter);
#else
    return MakeEnumAccessor(setter, getter);
#endif
}

/// Iterations a job has left now: the engine advances remainingIterations lazily.
double
RemainingNow(const ClusterJob& job)
{
    return job.RemainingIterationsAt(Simulator::Now().GetSeconds());
}

} // namespace

// The terms both files use, documented in ina-gradient-sync-internal.h.
namespace inarate
{

double
QueueingSum(double chunks, double window, double interval, double psLoad, double tx, double rtt)
{
    const double ramp = std::max(0.0, psLoad - tx);
    const double steady = psLoad >= interval ? std::max(0.0, window * interval - rtt) : 0.0;
    if (ramp <= 0 || steady <= 0)
    {
        return 0.0;
    }
    const double rampChunks = std::min(chunks, std::ceil(steady / ramp));
    return ramp * rampChunks * (rampChunks - 1) / 2 + (chunks - rampChunks) * steady;
}

double
StickyFallback(double rho, double chunks, double window)
{
    const double uses = chunks / window;
    if (uses <= 1 || rho <= 0 || rho >= 1)
    {
        return std::min(1.0, rho);
    }
    const double whole = std::floor(uses);
    const double geometric = rho * (1 - UnitPow(rho, whole)) / (1 - rho); // uses 0 .. whole-1
    const double last = (uses - whole) * UnitPow(rho, whole + 1);         // the partial use
    return (geometric + last) / uses;
}

double
PairFiring(double a, double b)
{
    const double sum = a + b;
    return sum > 1 ? 1 / sum : 1.0;
}

double
PersistingPairFallback(double levelSlots, double pool, double othersBlocking, double othersSlots)
{
    const double excess = levelSlots - pool;
    if (excess <= 0 || othersSlots <= 0)
    {
        return 0.0;
    }
    const double inPairs = std::min(1.0, 2 * excess / levelSlots);
    return std::min(1.0, inPairs * othersBlocking / othersSlots);
}

double
IterationShare(double slots, double pool, double phi, double passesPerIteration, double iterations)
{
    const double e0 = FreshSharedSlots(slots, pool);
    if (iterations <= 0 || e0 <= 1e-9 || phi <= 0)
    {
        return 1.0;
    }
    const double a = pool - slots;
    const double kx = PairDecayConstant(slots, pool, phi, passesPerIteration); // per iteration
    // E / E0 after x iterations: 1 / (1 + E0 x kx) for a = 0, else a r / ((1 - r) E0) with
    // r = E0 / (a + E0) q^x, q = e^(-a kx).
    const bool flat = std::fabs(a) < 1e-6;
    const double q = flat ? 1.0 : std::exp(std::clamp(-a * kx, -700.0, 700.0));
    double r = flat ? 0.0 : e0 / (a + e0);
    if (!flat && !(std::isfinite(r) && r >= 0))
    {
        // Far more slots than aggregators: a + E0 = P e^(-S/P) rounds to 0 (or below), r is
        // infinite, and E stays at its limit S - P from the start.
        return -a / e0;
    }
    auto share = [&](double x) { return flat ? 1 / (1 + e0 * x * kx) : a * r / ((1 - r) * e0); };
    constexpr int EXACT = 64; // E is at its limit long before for any pool in use
    double sum = 0;
    int k = 0;
    for (; k < EXACT && k + 1 <= iterations; ++k)
    {
        sum += share(k);
        r = std::min(r * q, 1e300); // a < 0: r grows without bound, E to S - P
    }
    sum += (iterations - k) * share(k); // the remaining (or partial) iterations
    return sum / iterations;
}

double
ListedIterationShare(double slots,
                     double pool,
                     double phi,
                     const InaRateJob& job,
                     double chunks,
                     double windowSlots,
                     double fallback)
{
    const double passes = chunks / windowSlots;
    const double budget = std::max(0.0, pool - windowSlots - job.rehashesUsed);
    const auto [after, until] = ExhaustedShare(budget, fallback * chunks, job.iterations);
    if (after <= 0)
    {
        return IterationShare(slots, pool, phi, passes, job.iterations);
    }
    const double e0 = FreshSharedSlots(slots, pool);
    const double frozen = e0 > 1e-9 ? SharedSlotsAfter(slots, pool, phi, passes, until) / e0 : 1.0;
    return (until * IterationShare(slots, pool, phi, passes, until) +
            (job.iterations - until) * frozen) /
           job.iterations;
}

std::pair<double, double>
HostDelayExtremes(double workers, double mean, double spacing)
{
    if (mean <= 0)
    {
        return {0.0, 0.0};
    }
    const double s = std::max(spacing, 1e-3 * mean); // at most ~7000 terms per point
    const double ratio = std::exp(-s / mean);
    auto logCdf = [&](double x) {
        double sum = 0;
        for (double y = x;; y += s)
        {
            const double z = y / mean;
            if (z > 7)
            {
                return sum - std::exp(-z) / (1 - ratio); // log(1 - e^-z) ~ -e^-z: geometric tail
            }
            sum += std::log1p(-std::exp(-z));
        }
    };
    const double w = std::max(1.0, workers);
    const double upper = mean * (std::log(w * (1 + mean / s)) + 15); // 1 - F^W < 1e-6 beyond
    constexpr int POINTS = 256;
    const double h = upper / POINTS;
    double eMax = 0;
    double eMin = 0;
    for (int i = 0; i < POINTS; ++i)
    {
        const double cdf = std::exp(logCdf((i + 0.5) * h));
        eMax += (1 - UnitPow(cdf, w)) * h;
        eMin += UnitPow(1 - cdf, w) * h;
    }
    return {eMax, eMin};
}

double
StartSpread(double jitter, double workers)
{
    const double w = std::max(1.0, workers);
    return jitter * (w - 1) / (w + 1);
}

double
StillFree(double claim, double workers, double s)
{
    const double w = std::max(1.0, workers);
    return std::exp(-claim * s / (w + 1));
}

FirstPacketArrival
FirstPacketArrivalOf(double workers,
                     double slots,
                     double tx,
                     double linkShare,
                     double jitter,
                     bool self)
{
    const double w = std::max(1.0, workers);
    const double span = slots * tx / linkShare;
    const double startMean = self ? 0.0 : jitter / (w + 1);
    const double startVar = self ? 0.0 : w * jitter * jitter / ((w + 1) * (w + 1) * (w + 2));
    const double width = std::sqrt(span * span + 12 * startVar);
    return {width, span / 2 + startMean - width / 2};
}

double
FirstWindowQueueing(double rho,
                    double f,
                    double workers,
                    double slots,
                    double window,
                    double interval,
                    double tx,
                    double rtt)
{
    const double r = std::min(1.0, std::max(rho, f));
    const double load = tx * (r * workers + 1 - r);
    return QueueingSum(slots, window, std::max(interval, load), load, tx, rtt) / slots;
}

double
FirstWindowSplit(FirstPacketArrival holder, FirstPacketArrival victim, double held, double range)
{
    const double shift = victim.offset - holder.offset; // D = U_j - U_i + shift
    const double collide =
        holder.width > 0 && victim.width > 0
            ? UniformDifferenceBetween(victim.width, holder.width, -shift, held - shift)
            : 0.0;
    if (collide <= 1e-12)
    {
        return std::min(1.0, range / std::max(held, 1e-30));
    }
    const double lo = std::max(0.0, held - range);
    return UniformDifferenceBetween(victim.width, holder.width, lo - shift, held - shift) / collide;
}

double
HolderCycle(double iterations,
            double rtt,
            double chunks,
            double interval,
            double stall,
            double timeout)
{
    const double cycle = iterations > 1 ? rtt + (chunks - 1) * interval + stall : timeout;
    return std::min(timeout, cycle);
}

HolderSplitWait
HolderSplitWaits(bool rescued,
                 double timeout,
                 double victimRtt,
                 double returnTrip,
                 const SplitKeyHolder& holder,
                 double victimSpread,
                 double victimStart)
{
    const double again = std::max(0.0, 1 - holder.slots / holder.chunks);
    HolderSplitWait w;
    w.cycle = HolderCycle(holder.iterations,
                          holder.rtt,
                          holder.chunks,
                          holder.interval,
                          holder.stall,
                          timeout);
    if (!rescued)
    {
        w.first = timeout + victimRtt;
        w.rest = timeout + victimRtt;
        w.timedOut = 1.0;
        return w;
    }
    w.last = (1 - again) * w.cycle;
    w.first = again * std::min(timeout,
                               RescueDelay(returnTrip,
                                           holder.slotCycle,
                                           holder.hold,
                                           holder.start,
                                           victimSpread + victimStart)) +
              w.last;
    w.rest =
        again *
            std::min(timeout,
                     RescueDelay(returnTrip, holder.slotCycle, holder.hold, 0.0, victimSpread)) +
        w.last;
    w.timedOut = 1 - again;
    return w;
}

SplitKeyCounts
ExpectedSplits(const SplitKeyExposure& x)
{
    const double first = x.spread + x.start;
    if (first <= 0 || x.holderHold <= 0)
    {
        return {};
    }
    const double k = x.slots;
    const double passes = x.chunks / k;
    const double firstRate = std::min(1.0, std::max(x.rho, x.fRehashed));
    SplitKeyCounts c;
    c.first = k * firstRate * x.splitFirst * StillFree(x.claim, x.workers, first);
    if (passes > 1)
    {
        const double restRate =
            std::max(0.0, (x.fRehashed * x.chunks - firstRate * k) / (x.chunks - k));
        const double splitRest =
            std::min(1.0, x.spread / x.holderHold) * StillFree(x.claim, x.workers, x.spread);
        c.settled = k * restRate * splitRest;
        c.fresh = k * std::min(1.0, x.rho) * splitRest;
    }
    return c;
}

std::pair<double, double>
SplitKeyEpisodes(const SplitKeyCounts& c, double passes, double timedOut)
{
    const double first = 1 - std::exp(-c.first);
    if (passes <= 1)
    {
        return {first, 0.0};
    }
    const double settled = 1 - std::exp(-c.settled);
    const double fresh = 1 - std::exp(-c.fresh);
    return {first, RestallingEpisodes(passes - 1, first * timedOut, settled, fresh, timedOut)};
}

} // namespace inarate

TypeId
InaGradientSync::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaGradientSync")
            .SetParent<IterationTermModel>()
            .SetGroupName("Aicluster")
            .AddConstructor<InaGradientSync>()
            .AddAttribute("Policy",
                          "Aggregator allocation policy: switchml, atp or esa (an "
                          "ina-rate-policy alias of ComponentRegistry: the InaRatePolicy "
                          "SwitchMlRatePolicy, AtpRatePolicy or EsaRatePolicy)",
                          StringValue("esa"),
                          MakeStringAccessor(&InaGradientSync::SetPolicyName,
                                             &InaGradientSync::GetPolicyName),
                          MakeStringChecker())
            .AddAttribute("PriorityRule",
                          "ESA priority (EsaRatePolicy::PriorityRule): Static "
                          "(ClusterJob::priorityLevel), ShortestRemaining (remaining iterations "
                          "x gradient bytes) or LeastAttained (attained GPU-seconds)",
                          EnumValue(EsaRatePolicy::SHORTEST_REMAINING),
                          MakeRuleAccessor(&InaGradientSync::SetPriorityRule,
                                           &InaGradientSync::GetPriorityRule),
                          MakeEnumChecker(EsaRatePolicy::STATIC,
                                          "Static",
                                          EsaRatePolicy::SHORTEST_REMAINING,
                                          "ShortestRemaining",
                                          EsaRatePolicy::LEAST_ATTAINED_SERVICE,
                                          "LeastAttained"))
            .AddAttribute("PoolSize",
                          "Aggregators per switch [aggregators]",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&InaGradientSync::m_poolSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LinkRate",
                          "Host (NIC) link rate [bit/s]",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&InaGradientSync::m_linkRate),
                          MakeDataRateChecker())
            .AddAttribute("LinkDelay",
                          "One-way propagation delay of a link [s]",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&InaGradientSync::m_linkDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PipelineLatency",
                          "Switch latency of one pipeline pass (InaSwitch::PassLatency) [s]",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&InaGradientSync::m_pipelineLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PipelinePasses",
                          "Pipeline passes per packet; 0 = policy default (ATP/ESA 2: 31 of "
                          "the 62 values per pass, resubmitted once; SwitchML 1) [passes]",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaGradientSync::m_pipelinePasses),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ValuesPerPacket",
                          "int32 values per packet; 0 = policy default (ATP/ESA 62, SwitchML 64) "
                          "[values]",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaGradientSync::m_valuesPerPacket),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeaderOverheadBytes",
                          "Wire bytes of a packet besides the values [bytes]",
                          UintegerValue(60),
                          MakeUintegerAccessor(&InaGradientSync::m_overhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Window",
                          "Outstanding chunks per worker [chunks]",
                          UintegerValue(256),
                          MakeUintegerAccessor(&InaGradientSync::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SwitchMlPartitions",
                          "SwitchML: number of equal static partitions of the pool; 0 = one per "
                          "job now running at the switch (re-partitioned as jobs come and go) "
                          "[partitions]",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaGradientSync::m_switchMlPartitions),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DeduplicateIndices",
                          "ATP/ESA: a job's window slots have distinct indices (ATP's host "
                          "library, AtpPolicy::DeduplicateIndices), so a job never blocks "
                          "itself [bool]",
                          BooleanValue(true),
                          MakeBooleanAccessor(&InaGradientSync::m_dedup),
                          MakeBooleanChecker())
            .AddAttribute("IterationJitter",
                          "Per-worker skew: each worker starts each iteration's sync up to this "
                          "late, uniform (InaWorker::IterationJitter) [s]",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&InaGradientSync::m_iterationJitter),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PacketJitter",
                          "Mean host/NIC delay per packet (InaWorker::PacketJitter) [s]",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&InaGradientSync::m_packetJitter),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ResendTimeout",
                          "ATP/ESA: a worker resends its window when no result arrived for this "
                          "long (InaWorker::Timeout); a key split by skew waits for it [s]",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&InaGradientSync::m_resendTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("NvlinkBandwidth",
                          "Per-GPU NVLink bandwidth for the intra-node reduction [bit/s]",
                          DataRateValue(DataRate("2400Gbps")),
                          MakeDataRateAccessor(&InaGradientSync::m_nvlink),
                          MakeDataRateChecker())
            .AddAttribute("Hierarchical",
                          "Jobs spanning racks aggregate at each of their ToRs, then at the "
                          "spine (InaHelper's default); false: at the spine only",
                          BooleanValue(true),
                          MakeBooleanAccessor(&InaGradientSync::m_hierarchical),
                          MakeBooleanChecker())
            .AddAttribute("UplinkRate",
                          "ToR-to-spine link rate [bit/s]",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&InaGradientSync::m_uplinkRate),
                          MakeDataRateChecker())
            .AddTraceSource("PoolOccupancy",
                            "The aggregators held at the switches changed (PoolOccupancy())",
                            MakeTraceSourceAccessor(&InaGradientSync::m_poolsTrace),
                            "ns3::TracedValueCallback::Void");
    return tid;
}

InaGradientSync::InaGradientSync()
{
    NS_LOG_FUNCTION(this);
}

void
InaGradientSync::SetRatePolicy(Ptr<InaRatePolicy> policy)
{
    NS_LOG_FUNCTION(this << policy);
    NS_ABORT_MSG_IF(!policy, "InaGradientSync::SetRatePolicy: no policy");
    m_ratePolicy = policy;
}

Ptr<InaRatePolicy>
InaGradientSync::GetRatePolicy() const
{
    return m_ratePolicy;
}

void
InaGradientSync::SetPolicyName(std::string name)
{
    NS_LOG_FUNCTION(this << name);
    const ComponentAlias* alias =
        ComponentRegistry::Lookup("ina-rate-policy", name, InaRatePolicy::GetTypeId());
    if (!alias)
    {
        throw std::invalid_argument(
            "InaGradientSync: Policy '" + name + "' unknown; expected " +
            ComponentRegistry::Join(
                ComponentRegistry::Names("ina-rate-policy", InaRatePolicy::GetTypeId()),
                " or "));
    }
    m_ratePolicy = ComponentRegistry::Factory(*alias).Create<InaRatePolicy>();
    SetPriorityRule(m_priorityRule);
}

std::string
InaGradientSync::GetPolicyName() const
{
    return m_ratePolicy ? m_ratePolicy->GetName() : "";
}

void
InaGradientSync::SetPriorityRule(EsaRatePolicy::Rule rule)
{
    NS_LOG_FUNCTION(this << rule);
    m_priorityRule = rule;
    if (Ptr<EsaRatePolicy> esa = DynamicCast<EsaRatePolicy>(m_ratePolicy))
    {
        esa->SetPriorityRule(rule);
    }
}

EsaRatePolicy::Rule
InaGradientSync::GetPriorityRule() const
{
    Ptr<EsaRatePolicy> esa = DynamicCast<EsaRatePolicy>(m_ratePolicy);
    return esa ? esa->GetPriorityRule() : m_priorityRule;
}

uint32_t
InaGradientSync::ValuesPerPacket() const
{
    if (m_valuesPerPacket > 0)
    {
        return m_valuesPerPacket;
    }
    return m_ratePolicy->DefaultValuesPerPacket();
}

double
InaGradientSync::SkewSeconds(uint32_t workers, double interval) const
{
    // A sync ends no earlier than its last worker starts: the latest of W starts uniform in
    // [0, J] is J W / (W + 1) on average. The last chunk completes when the latest of its W
    // packets gets through its worker's host (HostDelayExtremes).
    const double w = std::max(1u, workers);
    return m_iterationJitter.GetSeconds() * w / (w + 1) +
           HostDelayExtremes(w, m_packetJitter.GetSeconds(), interval).first;
}

double
InaGradientSync::WindowInterval(double rtt, double window, double tx, uint32_t workers) const
{
    const double bare = std::max(tx, rtt / window);
    const double mean = m_packetJitter.GetSeconds();
    if (mean <= 0)
    {
        return bare;
    }
    // A window slot is reused one round after its chunk left the slowest worker's host: the
    // round is R + E[max of W host delays], and those delays shrink as the interval (the
    // spacing of a worker's sends) grows. g(I) = I - max(tx, (R + E[max](I)) / K) increases
    // with I: bisect between the jitter-free interval and the one at that spacing.
    auto next = [&](double i) {
        return std::max(tx, (rtt + HostDelayExtremes(workers, mean, i).first) / window);
    };
    double lo = bare;
    double hi = std::max(lo, next(lo));
    for (int it = 0; it < 40 && hi - lo > 1e-4 * lo; ++it)
    {
        const double mid = 0.5 * (lo + hi);
        (next(mid) > mid ? lo : hi) = mid;
    }
    return hi;
}

double
InaGradientSync::ChunksPerIteration(double gradientBytes) const
{
    return std::max(1.0, std::ceil(gradientBytes / (4.0 * ValuesPerPacket())));
}

double
InaGradientSync::PipelineSeconds() const
{
    uint32_t passes =
        m_pipelinePasses > 0 ? m_pipelinePasses : m_ratePolicy->DefaultPipelinePasses();
    return passes * m_pipelineLatency.GetSeconds();
}

std::vector<double>
InaGradientSync::SwitchSyncTimes(const std::vector<InaRateJob>& jobs,
                                 uint32_t extraHopsEachWay,
                                 std::vector<double>* fallback,
                                 std::vector<double>* held) const
{
    return SyncTimesWithFloor(jobs, extraHopsEachWay, {}, fallback, nullptr, held);
}

std::vector<std::vector<double>>
InaGradientSync::DepartureStalls(const std::vector<InaRateJob>& jobs) const
{
    NS_LOG_FUNCTION(this << jobs.size());
    std::vector<std::vector<double>> overhang;
    SyncTimesWithFloor(jobs, 0, {}, nullptr, nullptr, nullptr, &overhang);
    overhang.resize(jobs.size(), std::vector<double>(jobs.size(), 0.0));
    return overhang;
}

std::vector<double>
InaGradientSync::SyncTimesWithFloor(const std::vector<InaRateJob>& jobs,
                                    uint32_t extraHopsEachWay,
                                    const std::vector<double>& floor,
                                    std::vector<double>* fallback,
                                    std::vector<double>* intervalOut,
                                    std::vector<double>* heldOut,
                                    std::vector<std::vector<double>>* overhangOut) const
{
    const size_t n = jobs.size();
    std::vector<double> out(n, 0.0);
    if (n == 0)
    {
        return out;
    }
    const double values = ValuesPerPacket();
    const double tx = (4.0 * values + m_overhead) * 8.0 / m_linkRate.GetBitRate();
    const double d = m_linkDelay.GetSeconds();
    const double p = PipelineSeconds();
    // Each extra hop puts one more switch between the workers and their aggregation point.
    // SwitchML turns around there; ATP and ESA go on to the PS, attached to that switch, so
    // the extra hops lengthen the workers' legs but not the hold (switch - PS - switch).
    const double e = extraHopsEachWay;
    const double hop = tx + d;

    const InaRatePolicy& policy = *m_ratePolicy;
    const double rtt = policy.RoundTrip(hop, p, e);
    const double hold = policy.Hold(hop, p, e);
    std::vector<double> window(n, policy.Window(m_window, m_poolSize, m_switchMlPartitions, n));
    std::vector<double> f(n, 0.0);

    // Chunk interval of each job, solved jointly with the aggregators the jobs hold. Host
    // jitter lengthens every window round (WindowInterval) and keeps an ATP/ESA aggregator
    // from its key's first packet to its last, E[max] - E[min] of the host delays, longer.
    std::vector<double> interval(n);
    std::vector<double> lower(n);
    std::vector<double> holds(n, hold);
    std::vector<double> spread(n, 0.0);
    std::vector<double> stall(n, 0.0);
    for (size_t j = 0; j < n; ++j)
    {
        const double windowed = WindowInterval(rtt, window[j], tx, jobs[j].workers);
        lower[j] = std::max(windowed, floor.empty() ? 0.0 : floor[j]);
        interval[j] = std::max(tx / jobs[j].linkShare, lower[j]);
        auto [latest, earliest] =
            HostDelayExtremes(jobs[j].workers, m_packetJitter.GetSeconds(), windowed);
        spread[j] = latest - earliest;
        holds[j] += spread[j];
    }
    if (policy.SharesPool())
    {
        SolveSharedPool(jobs,
                        tx,
                        rtt,
                        holds,
                        spread,
                        window,
                        lower,
                        interval,
                        f,
                        stall,
                        heldOut,
                        overhangOut);
    }
    else
    {
        for (size_t j = 0; j < n; ++j)
        {
            double psLoad = tx * (f[j] * jobs[j].workers + (1 - f[j]));
            interval[j] = std::max(interval[j], psLoad);
        }
        if (heldOut)
        {
            heldOut->resize(n);
            for (size_t j = 0; j < n; ++j) // a static partition's slots
            {
                double chunks = std::ceil(jobs[j].gradientBytes / (4.0 * values));
                (*heldOut)[j] = policy.PartitionHeld(window[j], chunks);
            }
        }
    }
    for (size_t j = 0; j < n; ++j)
    {
        double chunks = std::ceil(jobs[j].gradientBytes / (4.0 * values));
        out[j] = chunks > 0 ? rtt + (chunks - 1) * interval[j] +
                                  SkewSeconds(jobs[j].workers, interval[j]) + stall[j]
                            : 0.0;
    }
    if (fallback)
    {
        *fallback = f;
    }
    if (intervalOut)
    {
        *intervalOut = interval;
    }
    return out;
}

void
InaGradientSync::SolveSharedPool(const std::vector<InaRateJob>& jobs,
                                 double tx,
                                 double rtt,
                                 const std::vector<double>& hold,
                                 const std::vector<double>& spread,
                                 const std::vector<double>& window,
                                 const std::vector<double>& floor,
                                 std::vector<double>& interval,
                                 std::vector<double>& f,
                                 std::vector<double>& stall,
                                 std::vector<double>* heldOut,
                                 std::vector<std::vector<double>>* overhangOut) const
{
    const size_t n = jobs.size();
    std::vector<double> chunks(n);
    for (size_t j = 0; j < n; ++j)
    {
        chunks[j] = ChunksPerIteration(jobs[j].gradientBytes);
    }
    const double returnTrip =
        std::max(0.0, rtt - 2 * (tx + m_linkDelay.GetSeconds()) - 2 * PipelineSeconds());
    const SharedPoolSolve::Config config{PeekPointer(m_ratePolicy),
                                         double(m_poolSize),
                                         m_dedup,
                                         m_iterationJitter.GetSeconds(),
                                         m_resendTimeout.GetSeconds(),
                                         tx,
                                         rtt,
                                         returnTrip};
    SharedPoolSolve solve(config, jobs, chunks, hold, spread, window, floor, interval, f);
    solve.Solve();
    interval = solve.Interval();
    f = solve.Fallback();
    stall = solve.Stall();
    if (heldOut)
    {
        *heldOut = solve.Held();
    }
    if (overhangOut)
    {
        solve.DepartureStalls(*overhangOut);
    }
}

namespace inarate
{

SharedPoolSolve::SharedPoolSolve(const Config& config,
                                 const std::vector<InaRateJob>& jobs,
                                 const std::vector<double>& chunks,
                                 const std::vector<double>& hold,
                                 const std::vector<double>& spread,
                                 const std::vector<double>& window,
                                 const std::vector<double>& floor,
                                 const std::vector<double>& interval,
                                 const std::vector<double>& f)
    : m_policy(*config.policy),
      m_pool(config.pool),
      m_dedup(config.dedup),
      m_jitter(config.jitter),
      m_timeout(config.timeout),
      m_jobs(jobs),
      m_chunks(chunks),
      m_tx(config.tx),
      m_rtt(config.rtt),
      m_returnTrip(config.returnTrip),
      m_hold(hold),
      m_spread(spread),
      m_window(window),
      m_floor(floor),
      m_interval(interval),
      m_f(f),
      m_stall(jobs.size(), 0.0),
      m_preempts(config.policy->Preempts()),
      m_psLoad(jobs.size(), config.tx),
      m_held(jobs.size()),
      m_demand(jobs.size()),
      m_preemptRate(jobs.size(), 0.0),
      m_perChunk(jobs.size(), 0.0),
      m_keptHold(jobs.size(), 0.0),
      m_steadyHold(jobs.size(), 0.0),
      m_rho(jobs.size(), 0.0),
      m_fRehashed(jobs.size(), 0.0),
      m_claim(jobs.size(), 0.0),
      m_pairBlocking(jobs.size(), std::vector<double>(jobs.size(), 0.0)),
      m_pairWaitLast(jobs.size(), std::vector<double>(jobs.size(), 0.0)),
      m_pairCycle(jobs.size(), std::vector<double>(jobs.size(), 0.0))
{
}

const std::vector<double>&
SharedPoolSolve::Held() const
{
    return m_held;
}

const std::vector<double>&
SharedPoolSolve::Interval() const
{
    return m_interval;
}

const std::vector<double>&
SharedPoolSolve::Fallback() const
{
    return m_f;
}

const std::vector<double>&
SharedPoolSolve::Stall() const
{
    return m_stall;
}

double
SharedPoolSolve::Slots(size_t j) const
{
    return std::min(m_window[j], m_chunks[j]);
}

double
SharedPoolSolve::Start(size_t j) const
{
    // Workers start an iteration up to IterationJitter apart: the first window's keys arrive
    // spread over the range of W uniform starts, J (W - 1) / (W + 1) on average.
    return StartSpread(m_jitter, m_jobs[j].workers);
}

void
SharedPoolSolve::Holdings(size_t j)
{
    // Little's law over one iteration: aggregators held = sum of the hold times of the chunks
    // that got one (arrival to the PS result passing back, PS-link queueing included) /
    // iteration time. ESA: a higher-priority chunk hashed onto a held aggregator takes it, so
    // a hold lasts min(sojourn, time to that arrival), on average (1 - exp(-x)) / x of the
    // sojourn for x = arrival rate x mean sojourn.
    // Skew: the first window's aggregators wait for the last worker to start, and a job
    // stalled on a split key (stall) holds nothing meanwhile.
    double iter = m_rtt + (m_chunks[j] - 1) * m_interval[j] + m_stall[j];
    double sojourn = m_chunks[j] * m_hold[j] + Slots(j) * Start(j) +
                     QueueingSum(m_chunks[j], m_window[j], m_interval[j], m_psLoad[j], m_tx, m_rtt);
    m_perChunk[j] = sojourn / m_chunks[j];
    m_steadyHold[j] = m_perChunk[j] - Slots(j) * Start(j) / m_chunks[j];
    double x = m_preemptRate[j] * sojourn / m_chunks[j];
    double kept = x > 1e-12 ? (1 - std::exp(-x)) / x : 1.0;
    m_keptHold[j] = kept * m_perChunk[j];
    m_demand[j] = kept * sojourn / iter;
    m_held[j] = (1 - m_f[j]) * m_demand[j];
}

double
SharedPoolSolve::Step(size_t j,
                      double blocking,
                      double fresh,
                      double cover,
                      double room,
                      double persisting,
                      double weight)
{
    // One damped step of job j's fallback fraction: re-hashed first uses against the blocking
    // holdings, at least the surplus over its room in the pool (holdings cannot exceed it).
    // fresh: blocking whose phase against the job drifts (see Drift), met anew on every use
    // until the slot escapes by re-hash; cover: share of the pool the higher priorities' slots
    // take; persisting: the floor from the pairs that cannot split (PersistingPairFallback).
    blocking = std::max(0.0, blocking - 1); // not the aggregator it holds itself
    const double sticky = std::min(1.0, std::max(0.0, blocking - fresh) / m_pool);
    const double again = std::min(1.0, fresh / m_pool);
    m_rho[j] = std::min(1.0, sticky + again);
    const double uses = m_chunks[j] / Slots(j) * std::max(1.0, m_jobs[j].iterations);
    double fNew = 1 - (1 - StickyFallback(sticky, m_chunks[j], m_window[j])) *
                          (1 - EscapingFallback(again, cover, uses));
    if (m_demand[j] > 0)
    {
        fNew = std::max(fNew, 1 - std::max(0.0, room) / m_demand[j]);
    }
    fNew = std::min(1.0, fNew);
    double residual = std::fabs(fNew - m_fRehashed[j]);
    m_fRehashed[j] += weight * (fNew - m_fRehashed[j]);
    fNew = std::max(fNew, persisting);
    residual = std::max(residual, std::fabs(fNew - m_f[j]));
    m_f[j] += weight * (fNew - m_f[j]);
    m_psLoad[j] = m_tx * (m_f[j] * m_jobs[j].workers + (1 - m_f[j]));
    m_interval[j] = std::max({m_tx / m_jobs[j].linkShare,
                              m_rtt / m_window[j],
                              m_psLoad[j],
                              m_floor.empty() ? 0.0 : m_floor[j]});
    return residual;
}

double
SharedPoolSolve::Drift(size_t i, size_t j) const
{
    // Sticky slots assume a slot that got through meets the other slots on its index at the
    // same phase on its next use. ESA: a slot sharing an index with a higher priority is not
    // re-hashed when it is evicted, so the pair persists, and the two jobs run at different
    // chunk rates (the higher one unblocked, the lower one slowed by its PS link): their uses
    // shift by |K_i I_i - K_j I_j| per pass, and once the shift reaches the width of an
    // overlap the next use meets the holder at an independent phase. The width is the
    // holder's hold h_i alone: the lower job collides only when it arrives inside it, and its
    // own hold never blocks the holder, which preempts it (measured: doc/ina.md, "ESA under
    // contention" 3). And h_i is the hold as the priorities above the holder cut it (keptHold:
    // the sojourn times (1 - e^-x) / x, as in its holdings), not its whole sojourn: a lower
    // job's sojourn includes the queue of its own PS link, but a chunk from above evicts the
    // aggregator long before (measured at 8 jobs / 256 aggregators: packet holds of 2-6 us,
    // model sojourns of 20-33 us; doc/ina.md, "ESA under contention" 3). That share (Drift) of
    // the blocking above is met anew on every use, until a collision's re-hash takes the slot to an
    // index no higher-priority slot uses (EscapingFallback; cover: the share of the pool their
    // slots take). Within a level a collision re-hashes the pair apart, so the sticky term stays as
    // it is there.
    const double width = m_keptHold[i];
    if (i == j || width <= 0)
    {
        return 0.0;
    }
    return std::min(1.0,
                    std::fabs(m_window[i] * m_interval[i] - m_window[j] * m_interval[j]) / width);
}

double
SharedPoolSolve::SplitStall(size_t j, const HolderSums& h) const
{
    // Skew splits keys (ATP, ESA; ExpectedSplits): the worker's window stalls on a key split
    // at the switch until ResendTimeout passes without a result, and the resend moves the key
    // to the PS (SplitKeyEpisodes, each episode ResendTimeout plus the resent chunk's round
    // trip). ESA: the holder a key collided with has the higher priority, and when its slot
    // comes back to that index it preempts the stranded partial, whose eviction hands the key
    // to the PS by the path its aggregate would have taken: the stall is only how much later
    // that eviction comes than the key's last packet, at most the timeout (waitFirst and
    // waitRest, the blocking-weighted means over the holders, RescueDelay). After the last of
    // the holder's C / K passes of an iteration its slot comes back one iteration later (the
    // sync part: compute time is not known here) if it has iterations left.
    const SplitKeyExposure exposure{Slots(j),
                                    m_chunks[j],
                                    m_rho[j],
                                    m_fRehashed[j],
                                    m_spread[j],
                                    Start(j),
                                    double(m_jobs[j].workers),
                                    m_claim[j],
                                    h.holderHold,
                                    h.splitFirst};
    const auto [first, rest] =
        SplitKeyEpisodes(ExpectedSplits(exposure), m_chunks[j] / Slots(j), h.timedOut);
    return m_policy.SplitKeyStall(first, rest, m_timeout, m_rtt, h.waitFirst, h.waitRest);
}

double
SharedPoolSolve::FirstWindowSplitOf(size_t i, size_t j) const
{
    const bool self = i == j;
    auto arrival = [&](size_t x) {
        return FirstPacketArrivalOf(m_jobs[x].workers,
                                    Slots(x),
                                    m_tx,
                                    m_jobs[x].linkShare,
                                    m_jitter,
                                    self);
    };
    const double queue = FirstWindowQueueing(m_rho[i],
                                             m_f[i],
                                             m_jobs[i].workers,
                                             Slots(i),
                                             m_window[i],
                                             m_interval[i],
                                             m_tx,
                                             m_rtt);
    return FirstWindowSplit(arrival(i),
                            arrival(j),
                            Start(i) + m_hold[i] + queue,
                            Start(j) + m_spread[j]);
}

std::vector<size_t>
SharedPoolSolve::PriorityOrder() const
{
    // Jobs are solved one priority level at a time, most important first. ATP is one level:
    // every job collides with every holder (its own other slots included) and every job loses
    // the same share of what it would hold when the pool is short. ESA: a job is blocked by
    // higher priorities (it cannot preempt them) and, as in ATP, by the jobs of its own level:
    // the switch compares priorities strictly and a priority holds for a whole iteration
    // (EsaPolicy::PriorityQuantum), so equal jobs do not preempt each other. Only higher
    // priorities evict a job's holds, and its room is what they leave.
    const size_t n = m_jobs.size();
    std::vector<size_t> order(n);
    for (size_t j = 0; j < n; ++j)
    {
        order[j] = j;
    }
    if (m_preempts)
    {
        std::sort(order.begin(), order.end(), [this](size_t a, size_t b) {
            return m_policy.Outranks(m_jobs[a], a, m_jobs[b], b);
        });
    }
    return order;
}

bool
SharedPoolSolve::SameLevel(size_t a, size_t b) const
{
    return !m_preempts || a == b;
}

void
SharedPoolSolve::Solve()
{
    const size_t n = m_jobs.size();
    const std::vector<size_t> order = PriorityOrder();
    double before = 0;     // holdings of strictly more important jobs
    double beforeRate = 0; // their chunk arrivals per second
    for (size_t k = 0; k < n;)
    {
        size_t end = k;
        double levelSlots = 0;
        while (end < n && SameLevel(order[end], order[k]))
        {
            levelSlots += Slots(order[end]);
            ++end;
        }
        const auto [level, levelRate] = SolveLevel(order, k, end, levelSlots, before, beforeRate);
        before += level;
        beforeRate += levelRate;
        k = end;
    }
}

std::pair<double, double>
SharedPoolSolve::SolveLevel(const std::vector<size_t>& order,
                            size_t k,
                            size_t end,
                            double levelSlots,
                            double before,
                            double beforeRate)
{
    // Damped steps whose weight decays as 1/round after the first rounds (Mann iteration):
    // the map is continuous but can overshoot into a 2-cycle near the pool's capacity.
    constexpr int ROUNDS = 2000;
    auto weight = [](int it) { return it < 50 ? 0.5 : 25.0 / it; };
    constexpr double TOLERANCE = 1e-7;
    double level = 0;
    double levelRate = 0;
    bool converged = false;
    for (int it = 0; it < ROUNDS && !converged; ++it)
    {
        level = 0;
        levelRate = 0;
        double levelDemand = 0;
        for (size_t q = k; q < end; ++q)
        {
            Holdings(order[q]);
            level += m_held[order[q]];
            levelRate += 1 / m_interval[order[q]];
            levelDemand += m_demand[order[q]];
        }
        const double phi = std::min(1.0, 2 * level / levelSlots);
        double maxChange = 0;
        const LevelRound
            round{k, end, levelSlots, levelDemand, phi, before, beforeRate, weight(it)};
        for (size_t q = k; q < end; ++q)
        {
            maxChange = std::max(maxChange, JobRound(order, round, order[q]));
        }
        converged = maxChange < TOLERANCE;
    }
    if (!converged)
    {
        NS_LOG_WARN("INA fixed point not converged at priority level " << k << " of "
                                                                       << m_jobs.size());
    }
    return {level, levelRate};
}

double
SharedPoolSolve::JobRound(const std::vector<size_t>& order, const LevelRound& round, size_t j)
{
    // Once the job's free list is through its collisions re-hash nothing: the
    // slots shared at that moment stay shared instead of decaying further.
    const double share = ListedIterationShare(round.slots,
                                              m_pool,
                                              round.phi,
                                              m_jobs[j],
                                              m_chunks[j],
                                              Slots(j),
                                              m_f[j]);
    // Within the level a collision splits the pair (the PS re-hashes); a slot that
    // shares an index with a higher priority is evicted when it arrives first, which
    // re-hashes nothing, so those pairs persist.
    // ATP's host library gives a job's slots distinct indices (while it has no
    // more slots than the pool has aggregators): its own holdings never block it.
    const bool ownApart = m_dedup && Slots(j) <= m_pool;
    HolderSums h = SumHolders(order, round.k, round.end, j, ownApart);
    h.holderHold /= std::max(h.aboveBlocking + h.levelBlocking, 1e-30);
    h.waitFirst /= std::max(h.aboveBlocking + h.levelBlocking, 1e-30);
    h.waitRest /= std::max(h.aboveBlocking + h.levelBlocking, 1e-30);
    double room = (m_pool - round.before) * m_demand[j] / std::max(round.demand, 1e-30);
    m_preemptRate[j] = round.beforeRate / m_pool;
    // Step() discounts the aggregator the job holds itself, which is in its level
    // (unless its own holdings are left out already).
    double own = ownApart ? 0.0 : 1.0;
    double level = std::max(0.0, h.levelBlocking - own);
    double blocking = h.aboveBlocking + share * level + 1;
    double fresh = h.aboveFresh;
    const double persisting =
        PersistingPairFallback(round.slots, m_pool, h.levelOthers, round.slots - Slots(j));
    const double residual =
        Step(j, blocking, fresh, 1 - h.uncovered, room, persisting, round.weight);
    h.splitFirst /= std::max(h.aboveBlocking + h.levelBlocking, 1e-30);
    h.timedOut /= std::max(h.aboveBlocking + h.levelBlocking, 1e-30);
    m_claim[j] = h.claimRate;
    m_stall[j] = SplitStall(j, h);
    return residual;
}

SharedPoolSolve::HolderSums
SharedPoolSolve::SumHolders(const std::vector<size_t>& order,
                            size_t k,
                            size_t end,
                            size_t j,
                            bool ownApart)
{
    HolderSums h;
    const bool skewed = m_spread[j] + Start(j) > 0;
    for (size_t p = 0; p < end; ++p)
    {
        size_t i = order[p];
        if (p < k)
        {
            h.uncovered *= std::max(0.0, 1 - Slots(i) / m_pool);
        }
        if (i == j && ownApart)
        {
            continue;
        }
        // (without skew nothing splits: StillFree does not read it)
        h.claimRate += skewed ? 1 / m_interval[i] / m_pool : 0.0;
        double b = m_held[i] * PairFiring(m_held[i] / m_window[i], m_held[j] / m_window[j]);
        h.levelOthers += p >= k && i != j ? b : 0.0;
        (p < k ? h.aboveBlocking : h.levelBlocking) += b;
        h.aboveFresh += p < k ? b * Drift(i, j) : 0.0;
        h.holderHold += b * m_perChunk[i];
        // (without skew nothing splits: SplitStall does not read it)
        h.splitFirst += skewed ? b * FirstWindowSplitOf(i, j) : 0.0;
        // A key split against the job's own slot (more slots than aggregators) is
        // never rescued: a job does not preempt itself (PreemptOwnJob false), so
        // it waits for the timeout and its resend, as under ATP.
        const SplitKeyHolder holder{Slots(i),
                                    m_chunks[i],
                                    m_jobs[i].iterations,
                                    m_rtt,
                                    m_interval[i],
                                    m_stall[i],
                                    m_window[i] * m_interval[i],
                                    m_steadyHold[i],
                                    Start(i)};
        const HolderSplitWait w = HolderSplitWaits(m_preempts && i != j,
                                                   m_timeout,
                                                   m_rtt,
                                                   m_returnTrip,
                                                   holder,
                                                   m_spread[j],
                                                   Start(j));
        h.waitFirst += b * w.first;
        h.timedOut += b * w.timedOut;
        h.waitRest += b * w.rest;
        m_pairBlocking[j][i] = b;
        m_pairWaitLast[j][i] = w.last;
        m_pairCycle[j][i] = w.cycle;
    }
    return h;
}

double
SharedPoolSolve::FinalShare(size_t i, size_t j, double allSlots, double allHeld) const
{
    // Shared indices left at the holder's last iteration (relative to the jobs' first
    // together): every collision of the victim re-hashes its slot (its PS's free list), so
    // pairs on one index decay over iterations as within a level (IterationShare over all the
    // switch's slots), from the iterations the pair has already run together
    // (InaRateJob::iterationsDone of the less advanced job; 0: freshly hashed).
    const double iters =
        m_jobs[i].iterations + std::min(m_jobs[i].iterationsDone, m_jobs[j].iterationsDone);
    if (iters <= 1)
    {
        return 1.0;
    }
    const double phi = std::min(1.0, 2 * allHeld / std::max(allSlots, 1e-30));
    const double passes = m_chunks[i] / Slots(i);
    return iters * IterationShare(allSlots, m_pool, phi, passes, iters) -
           (iters - 1) * IterationShare(allSlots, m_pool, phi, passes, iters - 1);
}

void
SharedPoolSolve::DepartureStalls(std::vector<std::vector<double>>& overhang) const
{
    // Stalls that outlive their rescuer (ESA). A key of job j split against holder i waits
    // for i's slot to come back. A slot that comes back within i's iteration rescues it
    // before i can leave; one split against the last use of i's slot in the iteration waits
    // for i's next iteration (the cycle, which the per-iteration stall charges), and if i
    // leaves instead nothing rescues it: j's window stalls until its ResendTimeout, once
    // however many of its keys are stranded (one timeout resends the whole window). So when
    // i departs j loses (1 - e^-N) (ResendTimeout - cycle) at once, N the keys of j split in
    // i's last window: j sends K_i I_i / I_j chunks meanwhile, a share f_j of them collides
    // (its fallback), i's part of that is its share of j's blocking, only pairs still on one
    // index then count (persist), and a collision splits with probability min(1, spread_j /
    // h_i). ATP: a split key waits the timeout whoever leaves, and the per-iteration average
    // already counts it.
    const size_t n = m_jobs.size();
    double allSlots = 0;
    double allHeld = 0;
    for (size_t q = 0; q < n; ++q)
    {
        allSlots += Slots(q);
        allHeld += m_held[q];
    }
    overhang.assign(n, std::vector<double>(n, 0.0));
    for (size_t j = 0; j < n && m_preempts; ++j)
    {
        if (m_stall[j] <= 0 || m_spread[j] <= 0)
        {
            continue;
        }
        double total = 0; // j's blocking, all holders
        for (size_t i = 0; i < n; ++i)
        {
            total += m_pairBlocking[j][i];
        }
        for (size_t i = 0; i < n && total > 0; ++i)
        {
            if (i == j || m_pairWaitLast[j][i] <= 0)
            {
                continue; // a job's own slot never rescues; none of i's last uses
            }
            // Only pairs still on one index at i's last iteration can strand j then:
            // those whose phases drift meet anew, the others decay (FinalShare).
            const double persist =
                Drift(i, j) + (1 - Drift(i, j)) * FinalShare(i, j, allSlots, allHeld);
            const double split = std::min(1.0, m_spread[j] / std::max(m_steadyHold[i], 1e-30)) *
                                 StillFree(m_claim[j], m_jobs[j].workers, m_spread[j]);
            const double stranded = m_window[i] * m_interval[i] / m_interval[j] * m_f[j] *
                                    m_pairBlocking[j][i] / total * persist * split;
            overhang[j][i] =
                (1 - std::exp(-stranded)) * std::max(0.0, m_timeout - m_pairCycle[j][i]);
        }
    }
}

} // namespace inarate

bool
InaGradientSync::IsCoupled(const ClusterJob& job) const
{
    return job.placement.gpusOnNode.size() > 1;
}

void
InaGradientSync::Evaluate(const ClusterTopology& topology,
                          const std::vector<Ptr<const ClusterJob>>& running,
                          std::vector<double>& seconds)
{
    seconds.assign(running.size(), 0.0);
    std::vector<InaRateJob> jobs;
    std::vector<size_t> member; // running index of each rate job
    bool changed = false;       // holdings changed (PoolOccupancy)
    for (size_t i = 0; i < running.size(); ++i)
    {
        const ClusterJob& job = *running[i];
        NS_ABORT_MSG_IF(!job.profile,
                        "InaGradientSync: running job " << job.record.id << " has no profile");
        const double bytes = job.profile->gradientBytes;
        seconds[i] = IntraNodeSeconds(job.placement, bytes, m_nvlink.GetBitRate());
        if (job.placement.gpusOnNode.size() < 2)
        {
            m_bound.erase(job.record.id);
            m_freeList.erase(job.record.id);
            changed = m_held.erase(job.record.id) > 0 || changed;
            continue;
        }
        InaRateJob r;
        r.id = job.record.id;
        r.iterations = RemainingNow(job);
        FreeListUse& list = m_freeList[job.record.id];
        list.used += list.perIteration * std::max(0.0, list.remaining - r.iterations);
        list.remaining = r.iterations;
        r.rehashesUsed = list.used;
        r.workers = static_cast<uint32_t>(job.placement.gpusOnNode.size());
        r.gradientBytes = bytes;
        r.priorityKey = m_ratePolicy->PriorityKey(job);
        std::map<uint32_t, uint32_t> perRack;
        for (const auto& [node, gpus] : job.placement.gpusOnNode)
        {
            ++perRack[topology.RackOf(node)];
        }
        r.racks.assign(perRack.begin(), perRack.end());
        if (Ptr<LinkShare> links = GetLinkShare())
        {
            std::vector<SyncLinkTraffic> traffic;
            LinkTraffic(job, traffic);
            uint32_t node = 0;
            r.linkShare = links->SyncShare(running[i], traffic, &node);
            if (r.linkShare < 1)
            {
                m_bound[job.record.id] = "link:rails-n" + std::to_string(node);
            }
        }
        jobs.push_back(std::move(r));
        member.push_back(i);
    }
    std::vector<double> fallback;
    std::vector<PoolHoldings> held;
    std::vector<double> t = RackSyncTimes(jobs, &fallback, &held);
    for (size_t k = 0; k < member.size(); ++k)
    {
        seconds[member[k]] += t[k];
        m_held[jobs[k].id] = std::move(held[k]);
        m_freeList[jobs[k].id].perIteration =
            fallback[k] * ChunksPerIteration(jobs[k].gradientBytes);
        // What bound it, for attribution: its pool when chunks fell back to the PS.
        const InaRateJob& r = jobs[k];
        std::string& bound = m_bound[r.id];
        if (fallback[k] > 1e-9)
        {
            bound =
                r.racks.size() >= 2 ? "pool:spine" : "pool:tor" + std::to_string(r.racks[0].first);
        }
        else if (!(r.linkShare < 1))
        {
            bound = "link:nic";
        }
    }
    if (changed || !member.empty())
    {
        m_poolsTrace();
    }
}

void
InaGradientSync::JobStopped(const ClusterJob& job)
{
    NS_LOG_FUNCTION(this << job.record.id);
    m_freeList.erase(job.record.id); // a restart starts a fresh PS, and its list
    if (m_held.erase(job.record.id) > 0)
    {
        m_poolsTrace();
    }
}

std::vector<double>
InaGradientSync::PoolOccupancy(uint32_t racks) const
{
    std::vector<double> pools(racks + 1, 0.0);
    for (const auto& [id, holdings] : m_held)
    {
        for (const auto& [rack, aggregators] : holdings)
        {
            pools[rack < 0 || rack >= racks ? racks : size_t(rack)] += aggregators;
        }
    }
    return pools;
}

std::string
InaGradientSync::Bottleneck(const ClusterJob& job) const
{
    auto it = m_bound.find(job.record.id);
    if (it != m_bound.end())
    {
        return it->second;
    }
    return job.placement.gpusOnNode.size() < 2 ? "nvlink" : "link:nic";
}

void
InaGradientSync::LinkTraffic(const ClusterJob& job, std::vector<SyncLinkTraffic>& traffic) const
{
    if (job.placement.gpusOnNode.size() < 2 || !job.profile)
    {
        return; // NVLink only
    }
    // Each worker (one per node) sends every chunk up and receives its result down.
    const double values = ValuesPerPacket();
    const double chunks = std::ceil(job.profile->gradientBytes / (4.0 * values));
    const double wire = chunks * (4.0 * values + m_overhead);
    for (const auto& [node, gpus] : job.placement.gpusOnNode)
    {
        traffic.push_back({node, wire, m_linkRate.GetBitRate() / 8.0});
    }
}

} // namespace ns3
