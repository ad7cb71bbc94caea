/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_GRADIENT_SYNC_H
#define AICLUSTER_INA_GRADIENT_SYNC_H

#include "ina-esa-rate-policy.h"
#include "ina-ranked-holdings.h"
#include "ina-rate-policy.h"

#include "ns3/data-rate.h"
#include "ns3/iteration-model.h"
#include "ns3/max-min-solver.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Rate-level gradient sync with in-network aggregation on a shared aggregator pool.
 *
 * What SwitchML, ATP and ESA change is an InaRatePolicy (SwitchMlRatePolicy, AtpRatePolicy,
 * EsaRatePolicy), chosen by the Policy attribute through ComponentRegistry's ina-rate-policy
 * aliases, or given by SetRatePolicy.
 *
 * A job on n nodes reduces inside each node over NVLink (ring reduce-scatter and
 * all-gather, 2(g-1)/g of the bytes) and aggregates across its n nodes in the
 * switch; single-node jobs only do the NVLink part. Jobs whose nodes sit in one
 * rack use that rack's ToR pool. Jobs spanning racks (Hierarchical, default)
 * aggregate at each ToR they span and then at the spine, as the packet level:
 * they hold aggregators in every pool they span (one hashed index at all
 * levels, so two jobs block each other once, where they hold longest), their
 * racks' uplinks (UplinkRate) are shared max-min in chunks per second, and
 * local jobs of those racks share the ToR pools with them (doc/ina.md, "Racks
 * (rate level)"). Hierarchical=false: the spine's pool only, one more hop each
 * way, every worker packet over the uplink. Every switch has PoolSize
 * aggregators. Per job at one switch, with packet wire time tx = S*8/rate
 * (S = 4 * values + overhead bytes) and chunk round trip R (SwitchML:
 * 2 tx + 2 d + p; ATP, ESA: via the PS, 4 tx + 4 d + 2 p):
 *
 *   T_iter = R + (C - 1) * max(tx, R / K, tx * (f * W + (1 - f)))
 *
 * for C chunks per iteration, window K and fraction f of chunks that fall
 * back to the PS (whose link then carries W packets per chunk). SwitchML:
 * K = min(Window, floor(P / N) / 2) for N jobs at the switch (or the fixed
 * SwitchMlPartitions), f = 0. ATP: a chunk collides when its slot's hashed
 * index is held; the probability of that on a slot's first use in an
 * iteration is rho = (aggregators held by the others and by the job's own
 * other slots) / P, and a slot keeps its index between uses unless it
 * collided (then its PS re-hashes it), so over m = C / K uses per slot
 * f = (1/m) sum_{r<m} rho^(r+1). Aggregators held come from Little's law over
 * an iteration: (1 - f) x (sum of hold times) / T_iter, a hold being the trip
 * to the PS and back (2 one-way + 2 p) plus the chunk's wait in the PS-link
 * queue (i (I - tx) while the window fills, K I - R once it is full, when the
 * PS link is the bottleneck). ESA: only its own and higher-priority holdings
 * block it (priorities ordered by key, then job id, as EsaPolicy ranks them),
 * and a hold ends early when a higher-priority chunk takes the aggregator. Holdings cannot exceed
 * the pool: the surplus falls back (ATP in proportion to demand, ESA by priority). ATP: two slots
 * on one index cost one collision per overlap, not one each; and across iterations only slots still
 * sharing an index collide (each collision re-hashes one of a pair), so rho is scaled by the shared
 * share E_k / E0 of iteration k, averaged over InaRateJob::iterations (dE/dx = -phi E (P - S + E) /
 * P over passes x). Solved as a fixed point. Skew (IterationJitter, PacketJitter): the last
 * worker's start, the latest of W host delays on every window round, longer holds, and keys split
 * by skew that stall a window for ResendTimeout (ESA: until the holder's next use preempts the
 * stranded partial), doc/ina.md "Skew (rate level)". Two-level components take the once-per-
 * iteration terms, the window round's host delays (WindowInterval over all the job's workers) and
 * the keys split at their ToRs (TwoLevelSplitStall: the single-switch terms per ToR pool), and
 * ESA's departure stalls at the ToRs (TwoLevelDepartureStalls). Not
 * captured: loss, state across evaluations, longer holds in two-level components, and keys split
 * at the spine.
 */
class InaGradientSync : public IterationTermModel
{
  public:
    /// Aggregators a job holds at each pool it uses: (rack of the ToR, or -1 for the spine,
    /// aggregators held on average: Little's law for ATP/ESA, 2 per window slot for SwitchML)
    using PoolHoldings = std::vector<std::pair<int64_t, double>>;

    /** \return the TypeId */
    static TypeId GetTypeId();
    InaGradientSync();

    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    /** \return true for a job on several nodes: only those share switch aggregators */
    bool IsCoupled(const ClusterJob& job) const override;
    /**
     * \return what bound the job's sync at its last evaluation: pool:tor<rack> or pool:spine
     *         (chunks fell back to the PS), link:rails-n<node> (data traffic's share of that
     *         node's rails, LinkShare), link:nic (the worker's link), nvlink (one node)
     */
    std::string Bottleneck(const ClusterJob& job) const override;
    /** \return per node of a multi-node job: gradient bytes up (and down), at LinkRate */
    void LinkTraffic(const ClusterJob& job, std::vector<SyncLinkTraffic>& traffic) const override;
    /** \brief Forget the job's holdings (its pools' occupancy drops at once). \param job it */
    void JobStopped(const ClusterJob& job) override;

    /**
     * \param racks the cluster's racks
     * \return aggregators held now at each ToR pool (index = rack) and at the spine's (index
     *         racks), summed over the running jobs as their last evaluation left them
     */
    std::vector<double> PoolOccupancy(uint32_t racks) const;

    /**
     * \brief Per-iteration in-switch sync time of jobs sharing one switch.
     * \param jobs the jobs at the switch
     * \param extraHopsEachWay switch hops beyond one (spine: 1)
     * \param fallback if not null: set to the fraction of each job's chunks that fall back to
     *        its PS
     * \param held if not null: set to the aggregators each job holds at the switch
     * \return seconds per iteration, per job
     */
    std::vector<double> SwitchSyncTimes(const std::vector<InaRateJob>& jobs,
                                        uint32_t extraHopsEachWay = 0,
                                        std::vector<double>* fallback = nullptr,
                                        std::vector<double>* held = nullptr) const;

    /**
     * \brief One-off delays at a departure (ESA with skew, single switch): a key split against
     *        the last use of a holder's slot in its iteration waits for the holder's next
     *        iteration; if the holder leaves, it waits for the whole ResendTimeout instead
     *        (only pairs of slots still sharing an index by then, see doc/ina.md). The
     * per-iteration times of SwitchSyncTimes hold while the holders stay; a caller that advances
     * jobs (as the cluster engine) adds [j][i] to job j's remaining time when job i departs. \param
     * jobs the jobs, as for SwitchSyncTimes \return per victim j, per departing job i: seconds j
     * loses at once when i leaves (0 for SwitchML and ATP, and without skew)
     */
    std::vector<std::vector<double>> DepartureStalls(const std::vector<InaRateJob>& jobs) const;

    /**
     * \brief Per-iteration in-switch sync time of jobs placed over racks: jobs with fewer than
     *        two racks in InaRateJob::racks at their rack's ToR, the others across racks
     *        (two-level, or at the spine only when Hierarchical is false).
     * \param jobs the jobs (a job with empty racks is treated as alone in its own rack)
     * \param fallback if not null: set to the fraction of each job's chunks completed at its PS
     * \param held if not null: set to each job's holdings at the pools it uses
     * \param departure if not null: set to DepartureStalls' one-off delays, [victim][holder],
     *        for the jobs at a rack's ToR alone (the single-switch terms) and the two-level
     *        components (TwoLevelDepartureStalls); 0 for the spine-only mode
     * \return seconds per iteration, per job
     */
    std::vector<double> RackSyncTimes(const std::vector<InaRateJob>& jobs,
                                      std::vector<double>* fallback = nullptr,
                                      std::vector<PoolHoldings>* held = nullptr,
                                      std::vector<std::vector<double>>* departure = nullptr) const;

    /**
     * \brief Use this allocation policy (as TcpSocketBase::SetCongestionControlAlgorithm).
     *        The Policy attribute sets one by name, through ComponentRegistry's
     *        `ina-rate-policy` aliases; this takes one with attributes of its own.
     * \param policy the policy (not null)
     */
    void SetRatePolicy(Ptr<InaRatePolicy> policy);
    /** \return the allocation policy in use (EsaRatePolicy by default) */
    Ptr<InaRatePolicy> GetRatePolicy() const;

    /** \return values per packet in use (policy default when the attribute is 0) */
    uint32_t ValuesPerPacket() const;
    /**
     * \param gradientBytes bytes each worker contributes per iteration
     * \return the chunks (packets per worker) of one iteration, at least 1
     */
    double ChunksPerIteration(double gradientBytes) const;
    /** \return the switch's latency per packet: passes x pass latency [s] */
    double PipelineSeconds() const;
    /**
     * \param workers the job's workers
     * \param interval the job's chunk interval (spacing of a worker's sends) [s]
     * \return what worker skew adds to an iteration's sync once: the last worker's start
     *         (IterationJitter) and the latest host delay of the last chunk (PacketJitter) [s]
     */
    double SkewSeconds(uint32_t workers, double interval) const;
    /**
     * \brief Chunk interval a window allows: max(tx, (R + E[latest of W host delays]) / K),
     *        the host delays (PacketJitter) taken at that interval's spacing.
     * \param rtt chunk round trip R [s] \param window K [chunks] \param tx wire time [s]
     * \param workers W
     * \return the interval [s] (R / K or tx without PacketJitter)
     */
    double WindowInterval(double rtt, double window, double tx, uint32_t workers) const;

  private:
    /// One aggregation level of a job in a two-level component: a ToR or the spine.
    struct Level
    {
        size_t pool;           //!< pool index in the component (ToRs, then the spine)
        double hold;           //!< aggregator hold per chunk without queueing [s]
        double workers;        //!< packets per chunk into this level from below if it collides
        bool tor;              //!< a ToR level (waits in the uplink queue too)
        double demand{0};      //!< aggregators held if no chunk fell back here
        double held{0};        //!< aggregators held
        double f{0};           //!< fraction of chunks colliding at this level
        double preemptRate{0}; //!< ESA: higher-priority chunk arrivals per aggregator [1/s]
        double sojourn{0};     //!< aggregator hold per chunk with queueing [s]
        double spread{0};      //!< host spread of a key's packets from below, ToRs only [s]
        double start{0};       //!< range of the iteration starts of its workers below [s]
        double rho{0};         //!< first-use collision probability here
        double fRehashed{0};   //!< f here without the floor of the pairs that cannot split
    };

    /**
     * The packets of a key that one collision can split (TwoLevelSplitStall): the job's at
     * every ToR where it meets the holder. ATP and ESA address a chunk by the same hashed index
     * at every switch, so a holder spanning several of the job's ToRs holds that index at all
     * of them and frees it at about the same time (its PS result passes them all).
     */
    struct KeyReach
    {
        double tors{0};    //!< ToRs the key meets the holder at (that can split: spread > 0)
        double workers{0}; //!< the job's workers at those ToRs: the key's packets there
        double spread{0};  //!< host spread of those packets, E[max] - E[min] [s]
        double start{0};   //!< range of those workers' iteration starts [s]
    };

    /// A job of a two-level component (ToR pools of the racks it touches, and the spine).
    struct TieredJob
    {
        const InaRateJob* job;     //!< the job
        std::vector<Level> levels; //!< its levels, ToRs first
        double chunks{1};          //!< chunks per iteration
        double window{1};          //!< window slots [chunks]
        double rtt{0};             //!< chunk round trip [s]
        double windowed{0};        //!< interval the window allows (WindowInterval) [s]
        double interval{0};        //!< chunk interval [s]
        double uplinkFloor{0};     //!< interval the shared uplinks leave it [s]
        double psLoad{0};          //!< PS-link time per chunk [s]
        double f{0};               //!< fraction of chunks completed at the PS
        double stall{0};           //!< time an iteration loses to keys split by skew [s]
        std::vector<std::pair<size_t, double>> uplinks; //!< (rack, packets per chunk)
        KeyReach reachAll; //!< its keys at all its ToRs that can split (TwoLevelSplitStall)

        /** \return the window slots it cycles through a pool: its window, or its chunks if
         *          fewer */
        double Slots() const
        {
            return std::min(window, chunks);
        }
    };

    /// RackSyncTimes' results per job, filled one sub-problem at a time.
    struct RackResults
    {
        std::vector<double> times;                   //!< seconds per iteration
        std::vector<double> fallback;                //!< fraction of its chunks completed at its PS
        std::vector<PoolHoldings> held;              //!< holdings at the pools it uses
        bool wantHeld;                               //!< whether the caller asks for the holdings
        std::vector<std::vector<double>>* departure; //!< [victim][holder], null if not asked
    };

    /**
     * \brief The jobs alone at one rack's ToR (or a switch of their own): the single-switch
     *        terms (SyncTimesWithFloor), into the jobs' own indices.
     * \param jobs all the jobs \param rack their rack (< 0: none given, no holdings kept)
     * \param idx their indices in jobs \param r out: their results
     */
    void LocalRackTimes(const std::vector<InaRateJob>& jobs,
                        int64_t rack,
                        const std::vector<size_t>& idx,
                        RackResults& r) const;
    /**
     * \brief The cross-rack jobs: two-level with the local jobs of their racks
     *        (TwoLevelTimes), or at the spine only (SpineOnlyTimes), into the jobs' own indices.
     * \param jobs all the jobs \param cross the cross-rack jobs' indices
     * \param component two-level: those and the local jobs of their racks (else cross)
     * \param twoLevel Hierarchical \param r out: their results
     */
    void CrossRackTimes(const std::vector<InaRateJob>& jobs,
                        const std::vector<size_t>& cross,
                        const std::vector<size_t>& component,
                        bool twoLevel,
                        RackResults& r) const;
    /**
     * \brief Two-level aggregation of cross-rack jobs with the local jobs of their racks.
     * \param jobs the component's jobs \param fallback out: fraction at the PS per job
     * \param held out if not null: each job's holdings per pool
     * \param departure out if not null: TwoLevelDepartureStalls, [victim][holder]
     * \return seconds per iteration, per job
     */
    std::vector<double> TwoLevelTimes(const std::vector<InaRateJob>& jobs,
                                      std::vector<double>& fallback,
                                      std::vector<PoolHoldings>* held = nullptr,
                                      std::vector<std::vector<double>>* departure = nullptr) const;
    /**
     * \brief The jobs of a two-level component with their levels (a ToR per rack, and the
     *        spine for a cross-rack job), chunks, window and round trip.
     * \param jobs the component's jobs \param racks ToR pools (the spine is pool racks)
     * \param tx wire time [s] \param txUp wire time on an uplink [s]
     * \param atPool out: the jobs aggregating at each pool (racks + 1 of them)
     * \return one TieredJob per job
     */
    std::vector<TieredJob> TieredJobs(const std::vector<InaRateJob>& jobs,
                                      size_t racks,
                                      double tx,
                                      double txUp,
                                      std::vector<std::vector<size_t>>& atPool) const;
    /**
     * \brief A two-level job's interval before the uplinks and the pools are shared: the
     *        window's (TieredJob::windowed), its PS load and host link; also sets its ToR
     *        spreads (SetToRSpreads) and uplink packets per chunk, from its fallback.
     * \param t the job \param spine the spine's pool index \param tx wire time [s]
     */
    void StartTwoLevelInterval(TieredJob& t, size_t spine, double tx) const;
    /**
     * \brief The spread of a two-level job's key packets at each of its ToR levels
     *        (Level::spread, Level::start) and over all of them (TieredJob::reachAll).
     * \param t the job, its windowed interval set \param spine the spine's pool index
     */
    void SetToRSpreads(TieredJob& t, size_t spine) const;
    /**
     * \param tj the solved component \param spine the spine's pool index
     * \return each job's holdings per pool (the spine as -1; static partitions: the slots'
     *         aggregators)
     */
    std::vector<PoolHoldings> TwoLevelHeld(const std::vector<TieredJob>& tj, size_t spine) const;
    /**
     * \brief Cross-rack jobs aggregated at the spine only (the single-switch model with one
     *        more hop each way), their chunk interval at least what the shared uplinks leave.
     * \param jobs cross-rack jobs \param fallback out: fraction at the PS per job
     * \param held out if not null: aggregators each job holds at the spine
     * \return seconds per iteration, per job
     */
    std::vector<double> SpineOnlyTimes(const std::vector<InaRateJob>& jobs,
                                       std::vector<double>& fallback,
                                       std::vector<double>* held = nullptr) const;
    /**
     * \brief SwitchSyncTimes with a lower bound on each job's chunk interval.
     * \param jobs the jobs \param extraHopsEachWay as SwitchSyncTimes
     * \param floor per job (empty: none) [s] \param fallback out if not null
     * \param intervalOut out if not null: chunk interval per job [s]
     * \param heldOut out if not null: aggregators each job holds
     * \param overhangOut out if not null: DepartureStalls
     * \return seconds per iteration, per job
     */
    std::vector<double> SyncTimesWithFloor(
        const std::vector<InaRateJob>& jobs,
        uint32_t extraHopsEachWay,
        const std::vector<double>& floor,
        std::vector<double>* fallback,
        std::vector<double>* intervalOut,
        std::vector<double>* heldOut = nullptr,
        std::vector<std::vector<double>>* overhangOut = nullptr) const;

    /// Another job a job meets: (its level, the other's level) at each pool they share.
    struct Shared
    {
        size_t other;                                  //!< the other job
        std::vector<std::pair<size_t, size_t>> levels; //!< (level here, level there)
    };

    /**
     * \brief The smallest window the policy gives each job at the pools it uses (SwitchML:
     *        its static partitions; sharing policies: the whole window).
     */
    void PolicyWindows(std::vector<TieredJob>& tj,
                       const std::vector<std::vector<size_t>>& atPool) const;
    /**
     * \brief ATP/ESA fixed point of a two-level component: per-level and overall fallback,
     *        holdings, PS-link and uplink loads.
     */
    void SolveTwoLevel(std::vector<TieredJob>& tj,
                       const std::vector<std::vector<size_t>>& atPool,
                       double tx,
                       double txUp,
                       size_t racks) const;
    /** \brief Holdings of every level of every job from its interval and fallback. */
    void TwoLevelHoldings(std::vector<TieredJob>& tj, double tx) const;
    /**
     * \brief Time an iteration of job j loses to keys split by skew at its ToRs: the
     *        single-switch terms (ExpectedSplits) at every ToR pool it aggregates at, with that
     *        pool's holders, its workers there and their spread; the splits of a pass add up
     *        over the ToRs (one timeout resends the window whichever ToR a key split at).
     * \param shared the others job j shares a pool with \param tx wire time [s]
     *        ESA: a key split against a higher priority waits for that holder's slot to come
     *        back (RescueDelay), one against its own slot the timeout.
     * \return seconds per iteration (0 without skew)
     */
    double TwoLevelSplitStall(const std::vector<TieredJob>& tj,
                              size_t j,
                              const std::vector<Shared>& shared,
                              double tx) const;

    /// Job j's holders at one of its ToR pools, summed as at one switch (SolveSharedPool).
    struct ToRHolderSums
    {
        double blocking{0};   //!< their blocking [aggr.]
        double holderHold{0}; //!< blocking-weighted sojourn [s x aggr.]
        double splitFirst{0}; //!< blocking-weighted first-window split (FirstWindowSplit) [aggr.]
        double claim{0};      //!< their chunk arrivals per aggregator [1/s]
        double waitFirst{0};  //!< blocking-weighted wait of a split key, first window [s x aggr.]
        double waitRest{0};   //!< the same in a later pass [s x aggr.]
        double timedOut{0};   //!< blocking-weighted share of splits waiting the timeout [aggr.]
    };

    /// The holders of one ToR pool that reach the same packets of job j's key.
    struct ToRHolderGroup
    {
        KeyReach reach;     //!< the key's packets a collision with them can split
        ToRHolderSums sums; //!< their sums
    };

    /// A holder job j meets at one of its ToR pools (VisitToRHolders).
    struct ToRHolder
    {
        const TieredJob* job; //!< the holder (job j itself for its own slots)
        size_t index;         //!< its index in the component
        const Level* there;   //!< its level at that pool
        double blocking;      //!< its blocking of job j there (PairBlock)
        bool self;            //!< job j's own slots
        double tors;          //!< ToRs of job j it holds the index at that can split (KeyReach)
        double workers;       //!< job j's workers at those ToRs
    };

    /**
     * \brief Visits the holders job j meets at its ToR level a, in one order (the sums over
     *        them keep their bits): its own slots where de-duplication cannot separate them
     *        (they hold the index at all its ToRs, reachAll), then every job sharing that pool
     *        with a positive BlockingWeight (ATP: all; ESA: the higher priorities), with the
     *        ToRs of j it spans that can split.
     * \param shared the others job j shares a pool with \param visit called once a holder
     */
    void VisitToRHolders(const std::vector<TieredJob>& tj,
                         size_t j,
                         size_t a,
                         const std::vector<Shared>& shared,
                         const std::function<void(const ToRHolder&)>& visit) const;
    /**
     * \brief The holders job j meets at its ToR level a (TwoLevelSplitStall, VisitToRHolders),
     *        grouped by what a collision with them reaches (the ToRs of j they span, KeyReach).
     * \param shared the others job j shares a pool with \param tx wire time [s]
     */
    std::vector<ToRHolderGroup> SumToRHolders(const std::vector<TieredJob>& tj,
                                              size_t j,
                                              size_t a,
                                              const std::vector<Shared>& shared,
                                              double tx) const;
    /**
     * \brief The packets of job t's key that a holder met at t's ToR level a reaches, when it
     *        spans tors of t's ToRs that can split, with t's workers there: level a's own
     *        (one ToR), t's reachAll (all of them), else from those workers (HostDelayExtremes).
     */
    KeyReach ReachAt(const TieredJob& t, size_t a, double tors, double workers) const;
    /**
     * \brief The span of a key's packets from the workers of a job at tors of its ToRs: their
     *        host spread, E[max] - E[min] of their delays (HostDelayExtremes, at the spacing
     *        windowed), and the range of their iteration starts (StartSpread).
     * \param tors the ToRs \param workers the job's workers there
     * \param windowed the job's window interval (TieredJob::windowed) [s]
     * \return {tors, workers, spread, start}
     */
    KeyReach SpanOf(double tors, double workers, double windowed) const;
    /**
     * \brief Add holder c's level there to the sums of job t's level here: its blocking b,
     *        sojourn, first-window split, chunk arrivals and the waits of a key split against it
     *        (HolderSplitWaits; rescued only by ESA's higher priorities, never by self).
     * \param returnTrip ToR - worker - ToR [s]
     */
    void MeetToRHolder(ToRHolderSums& sums,
                       const TieredJob& c,
                       const Level& there,
                       const TieredJob& t,
                       const Level& here,
                       double b,
                       bool self,
                       double tx,
                       double returnTrip) const;
    /**
     * \brief The share of job t's slots that still share an index with holder c's at c's last
     *        iteration, at one pool (the single switch's persist, DepartureStalls).
     * \param c the holder \param t the victim \param sojourn c's hold per chunk there [s]
     * \param slots window slots hashed into the pool \param held aggregators held there
     * \return in [0, 1]
     */
    double StillSharedAtLastIteration(const TieredJob& c,
                                      const TieredJob& t,
                                      double sojourn,
                                      double slots,
                                      double held) const;
    /**
     * \brief ESA's stalls that outlive their rescuer, at the ToRs (DepartureStalls' terms per
     *        ToR pool): a key of job j split at a ToR against the last use of holder i's slot
     *        in i's iteration waits for i's next iteration; if i leaves instead, nothing
     *        rescues it and j waits its ResendTimeout. The keys of j split in i's last window
     *        add up over the ToRs they share (one timeout resends j's whole window).
     * \param tj the component, solved \param shared per job, the others it shares a pool with
     * \return [j][i]: seconds j loses at once when i departs (0 without skew and but for ESA)
     */
    std::vector<std::vector<double>> TwoLevelDepartureStalls(
        const std::vector<TieredJob>& tj,
        const std::vector<std::vector<Shared>>& shared) const;
    /**
     * \brief What holder c's holdings at one level take from job t at the same pool: in full
     *        (ESA: a higher priority), or once per overlapping pair (ATP, PairFiring).
     * \param c the holder \param held c's holdings there \param t the job
     * \param tHeld t's holdings there \param weight the policy's BlockingWeight of c on t
     */
    double PairBlock(const TieredJob& c,
                     double held,
                     const TieredJob& t,
                     double tHeld,
                     double weight) const;
    /**
     * \brief One damped round: new fallback fractions, loads and intervals.
     * \param shared per job the others it shares a pool with (PairwiseBlocking), or null for a
     *        preemptive policy (RankedBlocking over above)
     * \param pairs the same, for the split-key stalls (TwoLevelSplitStall), or null: none
     * \return residual
     */
    double TwoLevelRound(std::vector<TieredJob>& tj,
                         const std::vector<std::vector<Shared>>* shared,
                         const std::vector<std::vector<Shared>>* pairs,
                         InaRankedHoldings& above,
                         const std::vector<std::vector<size_t>>& atPool,
                         double tx,
                         double txUp,
                         size_t racks,
                         double weight) const;
    /** \brief Per job, every other job it shares a pool with, and where (PairwiseBlocking). */
    std::vector<std::vector<Shared>> SharedPools(
        const std::vector<TieredJob>& tj,
        const std::vector<std::vector<size_t>>& atPool) const;
    /** \brief The component in the policy's rank order, for RankedBlocking. */
    void RankComponent(const std::vector<TieredJob>& tj,
                       size_t pools,
                       size_t spine,
                       InaRankedHoldings& above) const;
    /** \brief This round's holdings and rates into the ranked sums. */
    void SumRankedHoldings(const std::vector<TieredJob>& tj, InaRankedHoldings& above) const;

    /// A job's fallback at one level in a round (NextFallback's output).
    struct LevelFallback
    {
        double f{0};        //!< fraction of chunks colliding there
        double rho{0};      //!< first-use collision probability there
        double rehashed{0}; //!< f without the floor of the pairs that cannot split
    };

    /// What the other jobs of a component take from one job in a round (NextFallback's input).
    struct Met
    {
        double blocking; //!< over the job's levels together: each other job once
        double heldAll;  //!< holdings of the jobs that block it (hashed sharing only)
        double slots;    //!< its window slots and theirs (hashed sharing only)
    };

    /**
     * \brief The blocking job j meets, visiting every job it shares a pool with (any policy).
     * \param block out: per level, the others' weighted holdings there
     * \param preempt out: per level, ESA's higher-priority arrivals per aggregator [1/s]
     */
    Met PairwiseBlocking(const std::vector<TieredJob>& tj,
                         size_t j,
                         const std::vector<Shared>& shared,
                         double* block,
                         double* preempt) const;
    /**
     * \brief The same for a preemptive policy (only the jobs ranked above block, in full), from
     *        the rank-order sums; heldAll and slots are not used then.
     */
    Met RankedBlocking(const std::vector<TieredJob>& tj,
                       size_t j,
                       const InaRankedHoldings& above,
                       double* block,
                       double* preempt) const;
    /**
     * \brief Job j's target fallback: overall (its levels' blocks coincide: one index) and per
     *        level (levelF), from what the others take (met, block per level). ATP: at least,
     *        per level, the pairs of slots that cannot split at its pool (PersistingPairFallback,
     *        as at one switch).
     * \param t the job
     * \param met what the jobs it meets take from it, over its levels together
     * \param block per level of t: the others' blocking holdings at its pool
     * \param poolDemand per pool: the demand of all the jobs there
     * \param poolSlots per pool: the window slots of all the jobs there
     * \param levelF out: per level of t, its fallback fraction there (f), its first-use
     *        collision probability (rho) and f without the pairs' floor (rehashed)
     * \return the overall fallback fraction
     */
    double NextFallback(const TieredJob& t,
                        Met met,
                        const double* block,
                        const std::vector<double>& poolDemand,
                        const std::vector<double>& poolSlots,
                        LevelFallback* levelF) const;
    /**
     * \brief Max-min fair chunk rates on the shared uplinks (FIFO: jobs whose windows fill the
     *        queue get equal chunk rates); sets uplinkFloor and the interval of every job.
     */
    void ShareUplinks(std::vector<TieredJob>& tj, size_t racks, double txUp, double tx) const;
    /**
     * \brief Solves the uplinks max-min (MaxMinSolver) and sets the floor of every job they
     *        hold below its own rate (one chunk per interval).
     */
    void SetUplinkFloors(std::vector<TieredJob>& tj, size_t racks, double txUp) const;
    /**
     * \return whether some uplink cannot take every job at its own rate (one chunk per
     *         interval): MaxMinSolver::IsOver on the demands, in its order, so that false
     *         means the solve would give every job its rate
     */
    static bool UplinksOverloaded(const std::vector<TieredJob>& tj, size_t racks, double txUp);

    /**
     * \brief Fixed point of ATP/ESA sharing: fallback fractions from the pool's occupancy,
     *        occupancy from the hold times (Little's law), hold times from the PS-link queue.
     * \param jobs the jobs \param tx wire time [s] \param rtt chunk round trip [s]
     * \param hold per job: aggregator hold time without queueing [s]
     * \param spread per job: mean time from a chunk's first packet to its last (host jitter) [s]
     * \param window per job [chunks]
     * \param floor lower bound of each job's interval (empty: none) [s]
     * \param interval in: start values, out: chunk interval per job [s]
     * \param f in: start values, out: fallback fraction per job
     * \param stall out: per job, time an iteration waits for resend timeouts on keys split
     *        by skew [s]
     * \param heldOut out if not null: aggregators each job holds (Little's law)
     * \param overhangOut out if not null: DepartureStalls
     */
    void SolveSharedPool(const std::vector<InaRateJob>& jobs,
                         double tx,
                         double rtt,
                         const std::vector<double>& hold,
                         const std::vector<double>& spread,
                         const std::vector<double>& window,
                         const std::vector<double>& floor,
                         std::vector<double>& interval,
                         std::vector<double>& f,
                         std::vector<double>& stall,
                         std::vector<double>* heldOut = nullptr,
                         std::vector<std::vector<double>>* overhangOut = nullptr) const;

    /**
     * \brief The Policy attribute's setter: a new policy of that ina-rate-policy alias (an
     *        EsaRatePolicy gets PriorityRule).
     * \param name switchml, atp or esa
     * \throws std::invalid_argument for another name
     */
    void SetPolicyName(std::string name);
    /** \return the name of the policy in use (the Policy attribute) */
    std::string GetPolicyName() const;
    /**
     * \brief The PriorityRule attribute's setter: kept here and given to the ESA policy.
     * \param rule the rule
     */
    void SetPriorityRule(EsaRatePolicy::Rule rule);
    /** \return the ESA policy's rule, or the one kept here under another policy */
    EsaRatePolicy::Rule GetPriorityRule() const;

    Ptr<InaRatePolicy> m_ratePolicy; //!< the allocation policy
    EsaRatePolicy::Rule m_priorityRule{EsaRatePolicy::SHORTEST_REMAINING}; //!< PriorityRule
    uint32_t m_poolSize;
    DataRate m_linkRate;
    Time m_linkDelay;
    Time m_pipelineLatency;
    uint32_t m_pipelinePasses;
    bool m_dedup;
    Time m_iterationJitter;
    Time m_packetJitter;
    Time m_resendTimeout;
    uint32_t m_valuesPerPacket;
    uint32_t m_overhead;
    uint32_t m_window;
    uint32_t m_switchMlPartitions;
    DataRate m_nvlink;
    bool m_hierarchical;
    DataRate m_uplinkRate;
    std::map<uint64_t, std::string> m_bound; //!< per job id: what bound its last evaluation
    std::map<uint64_t, PoolHoldings> m_held; //!< per running multi-node job: its holdings

    /// A running multi-node job's PS free list (InaRateJob::rehashesUsed), counted between
    /// evaluations at the rate of the last one.
    struct FreeListUse
    {
        double used{0};         //!< re-hashes so far
        double perIteration{0}; //!< at the last evaluation: fallback x chunks per iteration
        double remaining{0};    //!< the job's remaining iterations then
    };

    std::map<uint64_t, FreeListUse> m_freeList; //!< per running multi-node job (id)
    TracedCallback<> m_poolsTrace;              //!< the pools' occupancy changed
    /// ShareUplinks' solver, kept so its buffers are reused (Reset at every call)
    mutable MaxMinSolver m_uplinkSolver{std::vector<double>{}};
};

} // namespace ns3

#endif // AICLUSTER_INA_GRADIENT_SYNC_H
