/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_RATE_POLICY_H
#define AICLUSTER_INA_RATE_POLICY_H

#include "ns3/cluster-job.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One job as the rate-level INA model sees it at one switch.
 */
struct InaRateJob
{
    uint32_t workers{1};     //!< hosts sending into the switch (one per node)
    double gradientBytes{0}; //!< bytes each worker contributes per iteration
    double priorityKey{0};   //!< smaller = more important (remaining work, attained, level)
    double iterations{1};    //!< iterations this answer holds for (the job's remaining ones)
    /// iterations run so far (0: its slots are freshly hashed; InaGradientSync::DepartureStalls
    /// lets pairs of jobs decay from the iterations both have run)
    double iterationsDone{0};
    /// collided indices its PS has re-hashed so far: ATP's PS takes each from a free list of
    /// the pool's indices the job has not used, P - K of them for its whole run, never refilled
    /// (0: a fresh list; the caller adds fallback x chunks per iteration run, and sets 0 again
    /// when the job restarts)
    double rehashesUsed{0};
    /// (rack, workers there) of a job spanning racks, by rack; empty: all at one switch
    std::vector<std::pair<uint32_t, uint32_t>> racks;
    uint64_t id{0}; //!< job id: ESA ranks equal keys by it, lower first, as the switch does
    /// share of LinkRate its workers' links give it (data traffic on the rails, LinkShare)
    double linkShare{1};
};

/**
 * \ingroup aicluster
 * \brief Aggregator allocation policy at the rate level (InaGradientSync): what SwitchML, ATP
 *        and ESA change in the closed-form sync time, as InaAllocationPolicy says it for the
 *        packet level.
 *
 * A policy decides the packet format's defaults, the path a chunk takes (turning around at
 * the switch, or via the job's PS), how a job gets its share of a switch's aggregators (a
 * static partition, or hashed sharing of the whole pool with fallback to the PS when the
 * index is held), and, for sharing policies, who blocks whom (every holder, or only a higher
 * priority, which preempts), how a short pool is split, and what a key split by worker skew
 * costs. The defaults of the virtual members are those of hashed best-effort sharing (ATP).
 * InaGradientSync creates one by its Policy attribute through the `ina-rate-policy` aliases of
 * ComponentRegistry (switchml, atp, esa), or takes one by InaGradientSync::SetRatePolicy.
 */
class InaRatePolicy : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    InaRatePolicy();
    ~InaRatePolicy() override;

    /** \return "switchml", "atp" or "esa": the policy's ina-rate-policy alias */
    virtual std::string GetName() const = 0;

    /** \return int32 values per packet when InaGradientSync::ValuesPerPacket is 0 [values] */
    virtual uint32_t DefaultValuesPerPacket() const = 0;

    /** \return pipeline passes per packet when InaGradientSync::PipelinePasses is 0 [passes] */
    virtual uint32_t DefaultPipelinePasses() const = 0;

    /**
     * \brief Chunk round trip at one switch, from a worker's send to its result.
     * \param hop one link crossing: wire time plus propagation delay [s]
     * \param pass the switch's latency per packet (passes x pass latency) [s]
     * \param extraHops switch hops each way beyond one (the spine: 1)
     * \return the round trip R [s]
     */
    virtual double RoundTrip(double hop, double pass, double extraHops) const = 0;

    /**
     * \brief How long a chunk holds its aggregator at one switch, without queueing.
     * \param hop one link crossing [s] \param pass the switch's latency per packet [s]
     * \param extraHops switch hops each way beyond one
     * \return the hold [s]
     */
    virtual double Hold(double hop, double pass, double extraHops) const = 0;

    /**
     * \brief Chunk round trip of a job aggregating at its racks' ToRs and then at the spine.
     * \param tx wire time of a packet on a worker link [s]
     * \param txUp wire time of a packet on a ToR uplink [s]
     * \param delay one-way propagation delay of a link [s]
     * \param pass the switch's latency per packet [s]
     * \return the round trip [s]
     */
    virtual double CrossRackRoundTrip(double tx, double txUp, double delay, double pass) const = 0;

    /**
     * \return true if the jobs at a switch share its whole pool by hashed index, holdings
     *         following from Little's law and chunks whose index is held falling back to the
     *         PS (ATP, ESA); false if each job has a static partition (SwitchML)
     */
    virtual bool SharesPool() const = 0;

    /**
     * \brief The window slots a job uses at a switch (default: its whole window).
     * \param window outstanding chunks a worker wants (InaGradientSync::Window) [chunks]
     * \param poolSize aggregators per switch
     * \param partitions configured static partitions (InaGradientSync::SwitchMlPartitions;
     *        0 = one per job at the switch)
     * \param jobsAtSwitch jobs aggregating at the switch
     * \return the window [chunks]
     * \throws std::invalid_argument if the job's share of the pool cannot hold one slot
     */
    virtual double Window(uint32_t window,
                          uint32_t poolSize,
                          uint32_t partitions,
                          size_t jobsAtSwitch) const;

    /**
     * \brief Aggregators a job holds in a static partition (policies that do not share the
     *        pool; sharing policies' holdings follow from Little's law: 0 here).
     * \param window the job's window [chunks] \param chunks its chunks per iteration
     * \return aggregators held
     */
    virtual double PartitionHeld(double window, double chunks) const;

    /**
     * \return true if a higher-priority chunk takes an aggregator another job holds (ESA):
     *         jobs are then solved one priority at a time, most important first, and a chunk
     *         stranded by skew is rescued when the holder's slot comes back (default false)
     */
    virtual bool Preempts() const;

    /**
     * \brief The order of importance among jobs (default: none, all equal).
     * \param a a job \param ia its index in the problem \param b another \param ib its index
     * \return true if a ranks strictly before b
     */
    virtual bool Outranks(const InaRateJob& a, size_t ia, const InaRateJob& b, size_t ib) const;

    /**
     * \param job a running job
     * \return its priority key, smaller = more important (InaRateJob::priorityKey; default 0:
     *         a policy without priorities ranks no job)
     */
    virtual double PriorityKey(const ClusterJob& job) const;

    /**
     * \brief How much of a holder's holdings block a job's chunks (default: all, 1).
     * \param holder the holding job \param ih its index \param job the blocked job
     * \param ij its index
     * \return the weight of the holder's holdings, 0 to 1
     */
    virtual double BlockingWeight(const InaRateJob& holder,
                                  size_t ih,
                                  const InaRateJob& job,
                                  size_t ij) const;

    /**
     * \brief Aggregators a job's holdings may take at one pool that cannot hold every job's
     *        demand (default: shares in proportion to demand).
     * \param pool aggregators of the pool
     * \param blocking aggregators held by the jobs that block this one there
     * \param demand what the job would hold if none of its chunks fell back
     * \param poolDemand the demand of all the jobs at the pool
     * \return the room left for the job [aggregators]
     */
    virtual double Room(double pool, double blocking, double demand, double poolDemand) const;

    /**
     * \brief Time an iteration loses to keys split by skew (default: each episode waits for
     *        ResendTimeout, then the resent chunk's round trip).
     * \param episodesFirst stall episodes in an iteration's first window
     * \param episodesRest stall episodes in its later passes
     * \param timeout the workers' resend timeout [s] \param rtt the chunk round trip [s]
     * \param waitFirst mean rescue wait of a first-window episode [s]
     * \param waitRest mean rescue wait of a later episode [s]
     * \return seconds per iteration
     */
    virtual double SplitKeyStall(double episodesFirst,
                                 double episodesRest,
                                 double timeout,
                                 double rtt,
                                 double waitFirst,
                                 double waitRest) const;
};

} // namespace ns3

#endif // AICLUSTER_INA_RATE_POLICY_H
