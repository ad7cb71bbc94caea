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

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

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

/**
 * \param jobs jobs placed over racks (InaRateJob::racks)
 * \return one more than the highest rack id any job uses (0 if none): the ToR pools of a
 *         two-level component, the spine's index after them
 */
size_t RacksInUse(const std::vector<InaRateJob>& jobs);

/// RackSyncTimes' jobs by where they aggregate (PartitionByRack).
struct RackPartition
{
    /// Rack-local jobs by rack; a job without racks is on a switch of its own, as rack
    /// -1 - its index.
    std::map<int64_t, std::vector<size_t>> local;
    std::vector<size_t> cross; //!< cross-rack jobs (two racks or more)
    std::vector<bool> touched; //!< per rack id: whether a cross-rack job spans it

    /** \return whether a cross-rack job spans rack (false for no rack, rack < 0) */
    bool Touched(int64_t rack) const;
};

/**
 * \param jobs jobs placed over racks (InaRateJob::racks)
 * \return the rack-local jobs by rack, the cross-rack jobs and the racks those span
 */
RackPartition PartitionByRack(const std::vector<InaRateJob>& jobs);

/**
 * \param jobs the jobs \param idx indices into jobs
 * \return the sub-problem of those jobs, in idx's order
 */
std::vector<InaRateJob> JobsAt(const std::vector<InaRateJob>& jobs, const std::vector<size_t>& idx);

/**
 * \brief A sub-problem's per-job values (JobsAt), into the jobs' own indices.
 * \param idx the sub-problem's jobs \param sub its values \param into per job of all
 */
void ScatterInto(const std::vector<size_t>& idx,
                 const std::vector<double>& sub,
                 std::vector<double>& into);

/**
 * \brief A sub-problem's [victim][holder] values (JobsAt), into the jobs' own indices.
 * \param idx the sub-problem's jobs \param sub its values \param into [victim][holder] of all
 */
void ScatterInto(const std::vector<size_t>& idx,
                 const std::vector<std::vector<double>>& sub,
                 std::vector<std::vector<double>>& into);

/**
 * One solve of ATP/ESA sharing at one switch's pool (InaGradientSync::SolveSharedPool):
 * fallback fractions from the pool's occupancy, occupancy from the hold times (Little's law),
 * hold times from the PS-link queue, solved one priority level at a time, with the time an
 * iteration waits for keys split by skew. Holds the per-job state its steps share.
 */
class SharedPoolSolve
{
  public:
    /// What the solve reads of the InaGradientSync's attributes.
    struct Config
    {
        const InaRatePolicy* policy; //!< the allocation policy (Policy)
        double pool;                 //!< aggregators in the pool (PoolSize)
        bool dedup;                  //!< distinct indices for a job's slots (DeduplicateIndices)
        double jitter;               //!< IterationJitter [s]
        double timeout;              //!< ResendTimeout [s]
        double tx;                   //!< wire time [s]
        double rtt;                  //!< chunk round trip [s]
        double returnTrip;           //!< switch - worker - switch part of the round trip [s]
    };

    /**
     * \param config the attributes and the solve's times \param jobs the jobs
     * \param chunks per job: chunks per iteration
     * \param hold per job: aggregator hold time without queueing [s]
     * \param spread per job: mean time from a chunk's first packet to its last (host jitter) [s]
     * \param window per job [chunks]
     * \param floor lower bound of each job's interval (empty: none) [s]
     * \param interval per job: start value of its chunk interval [s]
     * \param f per job: start value of its fallback fraction
     * (jobs, hold, spread, window and floor are kept by reference: they must outlive the solve.)
     */
    SharedPoolSolve(const Config& config,
                    const std::vector<InaRateJob>& jobs,
                    const std::vector<double>& chunks,
                    const std::vector<double>& hold,
                    const std::vector<double>& spread,
                    const std::vector<double>& window,
                    const std::vector<double>& floor,
                    const std::vector<double>& interval,
                    const std::vector<double>& f);

    /// Solves the jobs one priority level at a time, most important first.
    void Solve();

    /** \return the aggregators each job holds (Little's law) */
    const std::vector<double>& Held() const;
    /** \return per job: its chunk interval [s] */
    const std::vector<double>& Interval() const;
    /** \return per job: its fallback fraction */
    const std::vector<double>& Fallback() const;
    /** \return per job: time an iteration waits for resend timeouts on keys split by skew [s] */
    const std::vector<double>& Stall() const;

    /**
     * \brief ESA's stalls that outlive their rescuer (InaGradientSync::DepartureStalls).
     * \param overhang out: [victim][holder], seconds the victim loses at once when the holder
     *        departs (all 0 but for a preemptive policy)
     */
    void DepartureStalls(std::vector<std::vector<double>>& overhang) const;

  private:
    /// Job j's holders at the pool, summed over one round (SumHolders).
    struct HolderSums
    {
        double levelBlocking{0}; //!< the blocking of j's level (its own slots included) [aggr.]
        double aboveBlocking{0}; //!< the blocking of the higher priorities [aggr.]
        double aboveFresh{0};    //!< the part of the blocking above whose phase drifts [aggr.]
        double holderHold{0};    //!< blocking-weighted sojourn of the holders [s x aggr.]
        double splitFirst{0};    //!< and first-window split probability [aggr.]
        double timedOut{0};      //!< and share of splits that wait a timeout [aggr.]
        double waitFirst{0};     //!< and the rescue waits (first window, later passes)
        double waitRest{0};      //!< [s x aggr.]
        double uncovered{1};     //!< share of the pool no higher-priority slot uses
        double claimRate{0};     //!< chunk arrivals per aggregator of the jobs blocking j
        double levelOthers{0};   //!< the blocking of the other jobs of j's level
    };

    /// One round of one priority level, order[k, end) (SolveLevel), as its jobs read it.
    struct LevelRound
    {
        size_t k;          //!< the level's first place in the priority order
        size_t end;        //!< one past its last
        double slots;      //!< its window slots
        double demand;     //!< its demand this round [aggr.]
        double phi;        //!< a shared pair's firing probability per pass
        double before;     //!< holdings of strictly more important jobs [aggr.]
        double beforeRate; //!< their chunk arrivals per second
        double weight;     //!< this round's damping
    };

    /** \return job j's window slots it cycles through the pool (fewer if it has fewer chunks) */
    double Slots(size_t j) const;
    /** \return the spread of job j's workers' iteration starts (StartSpread) [s] */
    double Start(size_t j) const;
    /** \return the jobs in the order their levels are solved (the policy's rank if it preempts) */
    std::vector<size_t> PriorityOrder() const;
    /** \return whether jobs a and b are of one priority level */
    bool SameLevel(size_t a, size_t b) const;
    /**
     * \brief Damped rounds of the level order[k, end) until its fallbacks settle.
     * \param levelSlots the level's window slots
     * \param before holdings of strictly more important jobs
     * \param beforeRate their chunk arrivals per second
     * \return {the level's holdings, its chunk arrivals per second}
     */
    std::pair<double, double> SolveLevel(const std::vector<size_t>& order,
                                         size_t k,
                                         size_t end,
                                         double levelSlots,
                                         double before,
                                         double beforeRate);
    /**
     * \brief One round of job j of a level: its blocking, fallback step and split-key stall.
     * \return the step's residual
     */
    double JobRound(const std::vector<size_t>& order, const LevelRound& round, size_t j);
    /**
     * \brief The holders job j meets, order[0, end) (the levels above and its own): their
     *        blocking and what a key split against them waits; records the pair terms
     *        DepartureStalls reads.
     * \param ownApart the job's own holdings never block it (distinct indices)
     */
    HolderSums SumHolders(const std::vector<size_t>& order,
                          size_t k,
                          size_t end,
                          size_t j,
                          bool ownApart);
    /** \brief Job j's holdings from its interval, fallback and stall (Little's law). */
    void Holdings(size_t j);
    /**
     * \brief One damped step of job j's fallback fraction; sets its PS load and interval.
     * \return the step's residual
     */
    double Step(size_t j,
                double blocking,
                double fresh,
                double cover,
                double room,
                double persisting,
                double weight);
    /** \return the share of holder i's blocking of job j whose phase drifts, in [0, 1] */
    double Drift(size_t i, size_t j) const;
    /** \return P(split | collision) of a first-window collision of j's key with holder i's */
    double FirstWindowSplitOf(size_t i, size_t j) const;
    /** \return the time an iteration of job j waits for its keys split by skew [s] */
    double SplitStall(size_t j, const HolderSums& h) const;
    /**
     * \return the share of the pairs of holder i and job j still on one index at i's last
     *         iteration, where their phases do not drift
     */
    double FinalShare(size_t i, size_t j, double allSlots, double allHeld) const;

    const InaRatePolicy& m_policy;         //!< the allocation policy
    double m_pool;                         //!< aggregators in the pool
    bool m_dedup;                          //!< distinct indices for a job's slots
    double m_jitter;                       //!< IterationJitter [s]
    double m_timeout;                      //!< ResendTimeout [s]
    const std::vector<InaRateJob>& m_jobs; //!< the jobs
    std::vector<double> m_chunks;          //!< per job: chunks per iteration
    double m_tx;                           //!< wire time [s]
    double m_rtt;                          //!< chunk round trip [s]
    double m_returnTrip;                   //!< switch - worker - switch [s]
    const std::vector<double>& m_hold;     //!< per job: hold without queueing [s]
    const std::vector<double>& m_spread;   //!< per job: host spread of a key's packets [s]
    const std::vector<double>& m_window;   //!< per job [chunks]
    const std::vector<double>& m_floor;    //!< per job: interval's lower bound (empty: none)
    std::vector<double> m_interval;        //!< per job: chunk interval [s]
    std::vector<double> m_f;               //!< per job: fallback fraction
    std::vector<double> m_stall;           //!< per job: split-key stall per iteration [s]
    bool m_preempts;                       //!< the policy preempts (ESA)
    std::vector<double> m_psLoad;          //!< per job: PS-link time per chunk [s]
    std::vector<double> m_held;            //!< per job: aggregators held
    std::vector<double> m_demand;          //!< aggregators held if no chunk fell back
    std::vector<double> m_preemptRate;     //!< ESA: higher-priority arrivals per aggregator
    std::vector<double> m_perChunk;        //!< mean aggregator sojourn of a chunk [s]
    std::vector<double> m_keptHold;        //!< that sojourn as higher priorities cut it [s]
    std::vector<double> m_steadyHold;      //!< that sojourn outside an iteration's first window
    std::vector<double> m_rho;             //!< first-use collision probability
    /// f without the pairs that cannot split (PersistingPairFallback): the settled rate of the
    /// split-key chain (SplitStall)
    std::vector<double> m_fRehashed;
    /// chunk arrivals per aggregator of the jobs that block j (StillFree)
    std::vector<double> m_claim;
    /// ESA, per victim j and holder i: the blocking, the last-use rescue wait (0 where nothing
    /// rescues: ATP, a job's own slot) and i's cycle (for DepartureStalls).
    std::vector<std::vector<double>> m_pairBlocking;
    std::vector<std::vector<double>> m_pairWaitLast; //!< see m_pairBlocking
    std::vector<std::vector<double>> m_pairCycle;    //!< see m_pairBlocking
};

} // namespace inarate
} // namespace ns3

#endif // AICLUSTER_INA_GRADIENT_SYNC_INTERNAL_H
