/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_GRADIENT_SYNC_INTERNAL_H
#define AICLUSTER_INA_GRADIENT_SYNC_INTERNAL_H

// Internal to model/ina: the rate-level terms that both InaGradientSync files use, the single
// switch (ina-gradient-sync.cc, where they are defined) and the racks
// (ina-gradient-sync-racks.cc). Not installed as ns3/ header.

#include "ina-rate-policy.h"

#include <utility>

namespace ns3
{
namespace inarate
{

/**
 * Sum over the C chunks of an iteration of the time each waits at its PS link, for chunk
 * interval I (the PS link's service time per chunk when it is the bottleneck), line-rate
 * send interval tx and window K: the first chunks leave the worker every tx while the PS
 * link takes I, so chunk i waits i (I - tx); from then on the window clocks the sends and
 * every chunk waits what the window holds beyond one round trip, K I - R.
 */
double QueueingSum(double chunks,
                   double window,
                   double interval,
                   double psLoad,
                   double tx,
                   double rtt);

/**
 * Fallback fraction of a job whose slots keep their aggregator index between uses (ATP, ESA):
 * on a slot's first use in an iteration it finds its index held with probability rho; a slot
 * that collided is re-hashed by its PS and finds its new index held with probability rho
 * again on its next use, while a slot that did not collide keeps an index nobody else used
 * at that phase. Over m = C / K uses per slot: f = (1/m) sum_{r < m} rho^(r+1), the last use
 * counted by the fraction of slots that reach it.
 */
double StickyFallback(double rho, double chunks, double window);

/**
 * Share of the holder's occupancy that turns into collisions for two slots on one index,
 * held a fraction a and b of their period: their holds overlap on a pass with probability
 * min(1, a + b), and the overlap costs one collision (the second arrival's; its PS re-hashes
 * it, so the pair is split). Counting each slot as blocked by the other's occupancy gives
 * a + b, which double-counts once the holds fill more than half the period.
 */
double PairFiring(double a, double b);

/**
 * Fallback fraction from the pairs of slots that cannot split: a level's S window slots on P
 * aggregators leave at least S - P of them on an index another slot of the level uses, however
 * often collisions re-hash them (IterationShare's E goes to S - P, not to 0). A re-hash then
 * only moves a slot to another shared index, so such a slot meets a partner on every use, not
 * only on its first (StickyFallback's assumption): at least 2 (S - P) of the S slots are in
 * pairs, and a slot in a pair collides on a use when its partner holds the index, with the
 * partner's held share of its slots, once per overlap (PairFiring, already in the blocking).
 * Measured at the packet level (ATP, 8 workers, no skew): 2 jobs on 384 aggregators, resnet50
 * falls back on 0.32 of its chunks, the sticky term alone gave 0.28 to it but 0.03 to vgg16,
 * which at the packet level sends at half its rate while both run (the PS link).
 * \param levelSlots S of the level \param pool P
 * \param othersBlocking the blocking holdings of the other jobs of the level (held x PairFiring)
 * \param othersSlots their window slots
 * \return the fraction of the job's chunks that fall back at least; 0 while S <= P
 */
double PersistingPairFallback(double levelSlots,
                              double pool,
                              double othersBlocking,
                              double othersSlots);

/**
 * Mean, over the iterations a rate holds for, of the share of slots that still share their
 * aggregator index with another slot at each iteration's start (relative to the first).
 * The sticky-slot term applies in full to the first iteration, whose slots are freshly
 * hashed, and to a later one only in this proportion: a slot that was split from its
 * partner by a collision keeps its own index across iterations.
 *
 * S slots hashed at random into P aggregators leave E0 = S - P (1 - e^(-S/P)) slots on an
 * index already taken. A shared pair fires with probability phi per pass (one use of every
 * slot); the collision re-hashes one slot, which lands on a free index with probability
 * (P - S + E) / P. So dE/dx = -phi E (P - S + E) / P, solved in closed form: E decays to 0
 * when the pool can give every slot its own index, and to S - P when it cannot. An iteration
 * is C / K passes.
 */
double IterationShare(double slots,
                      double pool,
                      double phi,
                      double passesPerIteration,
                      double iterations);

/**
 * IterationShare for a job whose PS may run out of free indices (ExhaustedShare): the share
 * decays while the list lasts, and the slots shared when it runs out stay shared for the rest
 * of the iterations (E(x) / E0, SharedSlotsAfter).
 * \param slots S \param pool P \param phi a shared pair's firing probability per pass
 * \param job the job (its iterations and InaRateJob::rehashesUsed)
 * \param chunks its chunks per iteration C \param windowSlots its window slots K
 * \param fallback its fallback fraction (each collision re-hashes one index)
 * \return the mean share, as IterationShare's
 */
double ListedIterationShare(double slots,
                            double pool,
                            double phi,
                            const InaRateJob& job,
                            double chunks,
                            double windowSlots,
                            double fallback);

/**
 * Host/NIC delay of the W packets of one chunk (InaWorker::PacketJitter): each worker's
 * packets reach the NIC after an exponential delay X of mean m but in send order, so a packet
 * sent s after the previous one waits D = max(X, D' - s). With sends every s, D has the
 * stationary distribution P(D <= x) = prod_{k >= 0} P(X <= x + k s), the W workers' delays are
 * independent, and a chunk's first packet arrives after their minimum, its last (the one that
 * completes it) after their maximum:
 *   E[max] = integral of 1 - F(x)^W,   E[min] = integral of (1 - F(x))^W.
 * \param workers W \param mean m [s] \param spacing s [s]
 * \return {E[max], E[min]} [s]
 */
std::pair<double, double> HostDelayExtremes(double workers, double mean, double spacing);

/**
 * Mean range of the W workers' iteration starts, uniform on [0, J]: J (W - 1) / (W + 1). An
 * iteration's first window waits for the last worker to start, so its keys' packets arrive
 * spread over this much more than the host delays' spread.
 */
double StartSpread(double jitter, double workers);

/**
 * Probability that a key's late packets still find the aggregator free when its holder
 * releases it: a chunk of a job that blocks the victim (claim: their chunk arrivals per
 * aggregator) hashed there in between takes it first with probability 1 - exp(-claim x gap),
 * and the late packets then fall back to the PS too, so the key completes there (no stall).
 * gap: from the release to the victim's next packet, the spacing of its W workers' packets
 * over their spread s, s / (W + 1).
 * \param claim chunk arrivals per aggregator [1/s] \param workers W \param s spread [s]
 */
double StillFree(double claim, double workers, double s);

/// Where a job's first packet of a slot reaches the switch in an iteration's first window: a
/// uniform on [offset, offset + width] (FirstPacketArrivalOf).
struct FirstPacketArrival
{
    double width;  //!< width of the uniform [s]
    double offset; //!< its start [s]
};

/**
 * A first packet comes at its slot's offset in the window, which leaves at line rate (uniform
 * over the window's send span), plus the earliest worker's start, the least of W uniform
 * starts on [0, J] (mean J / (W + 1), variance W J^2 / ((W + 1)^2 (W + 2))): taken as one
 * uniform of that mean and variance. A job's own slots share its workers' starts (self: the
 * window offset alone).
 * \param workers W \param slots its window slots \param tx line-rate wire time [s]
 * \param linkShare its share of the host link \param jitter J [s] \param self against itself
 */
FirstPacketArrival FirstPacketArrivalOf(double workers,
                                        double slots,
                                        double tx,
                                        double linkShare,
                                        double jitter,
                                        bool self);

/**
 * The PS-link queue a holder's chunk meets in an iteration's first window, per chunk: the
 * link starts the iteration empty and fills at the first use's fallback rate (QueueingSum's
 * ramp), so the first window's holds are shorter than the settled ones.
 * \param rho first-use collision probability \param f fallback fraction
 * \param workers W \param slots window slots it cycles \param window K
 * \param interval its chunk interval [s] \param tx wire time [s] \param rtt round trip [s]
 */
double FirstWindowQueueing(double rho,
                           double f,
                           double workers,
                           double slots,
                           double window,
                           double interval,
                           double tx,
                           double rtt);

/**
 * P(split | collision) of a first-window collision of the victim's key with a holder's. The
 * holder holds from its first packet to its last and then for the switch - PS - switch part
 * of its hold (its PS link's queue included): H = start_i + hold_i + queue_i; the victim's
 * packets span L = start_j + spread_j. Their first packets arrive D = first_j - first_i apart
 * (FirstPacketArrival): the collision is 0 < D < H, the split H - L < D < H. The later
 * passes' min(1, spread / h) reads D as uniform over the hold; at an iteration's start it is
 * not: both jobs' first packets crowd its beginning, so a collision there splits less often.
 * \param holder the holder's first-packet arrival \param victim the victim's
 * \param held H [s] \param range L [s]
 */
double FirstWindowSplit(FirstPacketArrival holder,
                        FirstPacketArrival victim,
                        double held,
                        double range);

/// The holder of a split key's aggregator, as HolderSplitWaits reads it.
struct SplitKeyHolder
{
    double slots;      //!< K_i: window slots it cycles through the pool
    double chunks;     //!< C_i: chunks per iteration
    double iterations; //!< iterations it has left (> 1: its slots come back next iteration)
    double rtt;        //!< its chunk round trip [s]
    double interval;   //!< I_i: its chunk interval [s]
    double stall;      //!< what its iteration loses to its own split keys [s]
    double slotCycle;  //!< K_i I_i: from one use of a slot to the next [s]
    double hold;       //!< h_i: its hold of the aggregator (sojourn) [s]
    double start;      //!< start_i: spread of its workers' iteration starts [s]
};

/// What a key split against one holder waits (HolderSplitWaits).
struct HolderSplitWait
{
    double first{0};    //!< its wait in an iteration's first window [s]
    double rest{0};     //!< its wait in a later pass [s]
    double last{0};     //!< the part of either that waits for the holder's next iteration [s]
    double cycle{0};    //!< the holder's iteration, at most the timeout [s]
    double timedOut{0}; //!< the share of such splits that wait the timeout
};

/**
 * The holder's iteration, after which the last use of a slot in it comes back: R_i + (C_i - 1)
 * I_i + stall_i, or the timeout if the holder has no iteration left; at most the timeout.
 * \param iterations iterations the holder has left \param rtt its round trip [s]
 * \param chunks C_i \param interval I_i [s] \param stall its split-key stall [s]
 * \param timeout ResendTimeout [s]
 * \return seconds
 */
double HolderCycle(double iterations,
                   double rtt,
                   double chunks,
                   double interval,
                   double stall,
                   double timeout);

/**
 * How long a key of the victim split against holder i waits, at one pool. Unrescued (ATP;
 * ESA against the victim's own slot: a job does not preempt itself, PreemptOwnJob false) it
 * waits the timeout and its resend: timeout + R_victim, always timed out. Rescued (ESA, a
 * higher priority): the holder's slot comes back within its iteration with probability
 * again = max(0, 1 - K_i / C_i), the key waiting RescueDelay (at most the timeout) past its
 * last packet, with the holder's start only in the first window; after the slot's last use of
 * the iteration it waits for the holder's next iteration, cycle = R_i + (C_i - 1) I_i +
 * stall_i (the timeout if none is left), at most the timeout: last = (1 - again) min(timeout,
 * cycle), and those splits count as timed out.
 * \param rescued the holder preempts the stranded partial \param timeout ResendTimeout [s]
 * \param victimRtt the victim's round trip [s] \param returnTrip switch - worker - switch [s]
 * \param holder holder i \param victimSpread host spread of the key's packets [s]
 * \param victimStart spread of the victim's workers' iteration starts [s]
 */
HolderSplitWait HolderSplitWaits(bool rescued,
                                 double timeout,
                                 double victimRtt,
                                 double returnTrip,
                                 const SplitKeyHolder& holder,
                                 double victimSpread,
                                 double victimStart);

/// Expected keys of a job split by skew at one pool, per pass (ExpectedSplits).
struct SplitKeyCounts
{
    double first{0};   //!< in an iteration's first window
    double settled{0}; //!< in a later pass that meets its neighbours at settled phases
    double fresh{0};   //!< in a later pass that meets them afresh (after a timed-out stall)
};

/// What ExpectedSplits reads of a job at one pool.
struct SplitKeyExposure
{
    double slots;      //!< K: window slots it cycles through the pool
    double chunks;     //!< C: chunks per iteration
    double rho;        //!< first-use collision probability there
    double fRehashed;  //!< its fallback there without the floor of the pairs that cannot split
    double spread;     //!< host spread of a key's packets there, E[max] - E[min] [s]
    double start;      //!< spread of the iteration starts of its workers there [s]
    double workers;    //!< W: its packets of a key there
    double claim;      //!< chunk arrivals per aggregator of the jobs that block it [1/s]
    double holderHold; //!< blocking-weighted sojourn of the holders [s]
    double splitFirst; //!< blocking-weighted first-window split probability (FirstWindowSplit)
};

/**
 * Keys split by skew at one pool (ATP, ESA): a key whose first packet collides with a holder
 * that frees before the key's last packet arrives has its late packets allocate the
 * aggregator, a partial sum that can never complete. Past the first window a holder's
 * remaining hold at a random arrival is uniform over its sojourn h, so a collision splits
 * with probability min(1, spread / h); in the first window the split follows from when the
 * two jobs' first packets arrive (splitFirst). Collisions sit mostly in a slot's first use
 * (sticky slots: rho in the first pass, rho^(r+1) after), so the first window has about
 * min(K, C) rho of them and the settled passes share the rest of f C. The settled passes
 * collide at the re-hashed rate: pairs that cannot split meet anew on every pass, and the
 * chain's fresh passes (first-use rate rho, every held index) already charge that; counting
 * them in the settled rate as well counts them twice (tried: ATP with skew, 4 jobs / 256,
 * +7.7% -> +17.6% against the packet level). Every split needs the index still free
 * (StillFree).
 * \return the expected splits per pass; 0 without skew or holders
 */
SplitKeyCounts ExpectedSplits(const SplitKeyExposure& x);

/**
 * Stall episodes from the splits of each pass: one timeout resends the whole window, so the
 * splits of one pass cost one stall, 1 - exp(-splits in the pass) (splits at several pools
 * add up: a key stalls its window once whichever pool it split at). A stall that waits the
 * timeout shifts the job's phase against the others, so the pass after it collides at the
 * first-use rate again (RestallingEpisodes; measured at 4 jobs / 1024: 3-4 stalls an
 * iteration per job where one pass of fresh collisions gives one).
 * \param c the expected splits per pass \param passes C / K
 * \param timedOut the share of stalls that wait the timeout
 * \return {episodes in the first window, in the later passes}
 */
std::pair<double, double> SplitKeyEpisodes(const SplitKeyCounts& c, double passes, double timedOut);

} // namespace inarate
} // namespace ns3

#endif // AICLUSTER_INA_GRADIENT_SYNC_INTERNAL_H
