/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_SWITCH_H
#define AICLUSTER_INA_SWITCH_H

#include "ina-aggregator-pool.h"
#include "ina-allocation-policy.h"
#include "ina-header.h"

#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Counters of one INA switch.
 */
struct InaSwitchStats
{
    uint64_t packetsIn{0};       //!< packets the switch received
    uint64_t packetsOut{0};      //!< packets the switch sent
    uint64_t aggregated{0};      //!< worker packets added into an aggregator
    uint64_t allocations{0};     //!< aggregators allocated
    uint64_t collisions{0};      //!< worker packets sent to the PS because the aggregator was taken
    uint64_t preemptions{0};     //!< aggregators taken from another job (ESA)
    uint64_t evictedPartials{0}; //!< partial aggregates sent to their PS on preemption
    uint64_t flushes{0};         //!< partial aggregates flushed to the PS by a resend or overflow
    uint64_t resendFrees{0};     //!< aggregators a resend freed (ATP/ESA, FreeOnResend)
    /// preemptions of a complete aggregator only waiting for the PS result (nothing lost)
    uint64_t earlyReleases{0};
    uint64_t completions{0};     //!< keys completed in the switch
    uint64_t toPsPackets{0};     //!< packets sent towards a PS (aggregates and fallbacks)
    uint64_t toPsBytes{0};       //!< their bytes (INA header + padding)
    uint64_t fallbackPackets{0}; //!< worker packets forwarded to the PS unaggregated
    uint64_t partials{0};        //!< first level: local aggregates sent up to the second level
    uint64_t bypassed{0};        //!< second level: contributions that bypassed a ToR's
                                 //!< aggregation (worker packets, flushed or evicted partials)
    uint64_t upPackets{0};       //!< packets sent through the default route (a ToR's uplink)
    uint64_t upBytes{0};         //!< their bytes (INA header + padding)
    uint64_t ecnMarks{0};        //!< packets marked ECN on egress (queue >= EcnThreshold)
};

/**
 * \ingroup aicluster
 * \brief A P4-style programmable switch: forwards by address and runs an aggregation
 *        pipeline over a bounded aggregator pool shared by jobs.
 *
 * Installed on a node, it registers a protocol handler on every device of the
 * node and forwards itself (no internet stack). Worker gradient packets run
 * the pipeline: aggregate into the aggregator holding their key, or ask the
 * allocation policy (allocate, collide to the PS, or preempt). Completed
 * aggregates go to the PS (ATP, ESA) or are multicast to the workers
 * (SwitchML). Results from a PS free their aggregator as they pass (ATP, ESA)
 * and are multicast to the job's workers. Every packet the pipeline emits
 * leaves after PipelinePasses x PassLatency.
 *
 * Two-level aggregation of a job spanning racks: each ToR aggregates the
 * job's local workers (AddFirstLevelJob) and sends one partial aggregate per
 * chunk up (FLAG_PARTIAL, the rack as contributor bit); the spine
 * (AddSecondLevelJob) aggregates the racks' partials like worker packets and
 * completes as the policy says. A contribution that reaches the spine outside
 * a partial (a worker packet the ToR could not aggregate, or a ToR aggregate
 * flushed or evicted to the PS) delegates the key at the spine: its partial
 * goes to the PS and later partials of that key follow, so the PS merges
 * disjoint worker sets (see doc/ina.md, "Racks").
 */
class InaSwitch : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    InaSwitch();
    ~InaSwitch() override;

    /**
     * Signature of the Preemption trace source.
     * \param evictedJob the job whose aggregator was taken
     * \param evictedSeq the key (sequence number) it was aggregating
     * \param newJob the job that took the aggregator
     * \param newSeq the key it aggregates now
     */
    typedef void (*PreemptionCallback)(uint16_t evictedJob,
                                       uint32_t evictedSeq,
                                       uint16_t newJob,
                                       uint32_t newSeq);
    /**
     * Signature of the Collision and Complete trace sources.
     * \param job the job
     * \param seq the key (sequence number)
     */
    typedef void (*KeyCallback)(uint16_t job, uint32_t seq);

    /** \param policy the allocation policy (before Install) */
    void SetPolicy(Ptr<InaAllocationPolicy> policy);
    /** \return the allocation policy */
    Ptr<InaAllocationPolicy> GetPolicy() const;

    /** \brief Take over the node's devices (registers the protocol handler). \param node it */
    void Install(Ptr<Node> node);

    /** \param addr destination address \param device the device leading there */
    void AddRoute(uint16_t addr, Ptr<NetDevice> device);

    /**
     * \brief Declare a job: its PS and workers (the multicast group).
     * \param job job id \param psAddr PS address \param workerAddrs worker addresses, by rank
     */
    void AddJob(uint16_t job, uint16_t psAddr, const std::vector<uint16_t>& workerAddrs);

    /**
     * \brief Declare a job that aggregates at another switch: this one only forwards it and
     *        replicates its multicast results to the members below it.
     * \param job job id \param workerAddrs the job's workers reachable through this switch
     */
    void AddTransitJob(uint16_t job, const std::vector<uint16_t>& workerAddrs);

    /**
     * \brief Declare a cross-rack job's first aggregation level (at a ToR): the key is
     *        complete over the local workers, then one partial goes up to the spine.
     * \param job job id \param psAddr PS address
     * \param localWorkers addresses of the job's workers below this switch
     * \param rackBit this rack's contributor bit at the second level
     * \param slots the job's layout on this switch's pool
     */
    void AddFirstLevelJob(uint16_t job,
                          uint16_t psAddr,
                          const std::vector<uint16_t>& localWorkers,
                          uint8_t rackBit,
                          const InaJobSlots& slots);

    /**
     * \brief Declare a cross-rack job's second aggregation level (at the spine): the
     *        contributors are the racks' partials.
     * \param job job id \param psAddr PS address \param workerAddrs all its workers
     * \param racks racks the job spans (the fan-in here) \param slots its layout here
     */
    void AddSecondLevelJob(uint16_t job,
                           uint16_t psAddr,
                           const std::vector<uint16_t>& workerAddrs,
                           uint8_t racks,
                           const InaJobSlots& slots);

    /** \param device where packets to addresses without a route go (a ToR's uplink) */
    void SetDefaultRoute(Ptr<NetDevice> device);

    /** \return the counters */
    const InaSwitchStats& GetStats() const;

    /** \return aggregators in the pool */
    uint32_t GetPoolSize() const;

    /** \return aggregators in use now */
    uint32_t GetInUse() const;

    /** \return busy aggregator-seconds so far */
    double GetBusyAggregatorSeconds() const;

    /**
     * \param until the end of the measured period (at or before now): aggregators still held
     *        are counted up to it, e.g. the last job's finish when the run went on after it
     * \return busy aggregator-seconds up to until
     */
    double GetBusyAggregatorSeconds(Time until) const;

    /** \return useful aggregator-seconds (allocation to in-switch completion) so far */
    double GetUsefulAggregatorSeconds() const;

  protected:
    void DoDispose() override;

  private:
    /** What this switch does with a job's packets. */
    enum Role : uint8_t
    {
        SINGLE,       //!< the job aggregates here only
        TRANSIT,      //!< forward by address, replicate results
        FIRST_LEVEL,  //!< aggregate the local workers, send a partial up
        SECOND_LEVEL, //!< aggregate the racks' partials
    };

    struct JobEntry
    {
        Role role{SINGLE};
        uint16_t psAddr{0};
        std::vector<uint16_t> workers; //!< members reachable through this switch
        uint8_t fanIn{0};              //!< contributions that complete a key here
        uint8_t rackBit{0};            //!< FIRST_LEVEL: contributor bit at the second level
        InaJobSlots slots;             //!< the job's layout here (two-level roles)
    };

    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);
    void Forward(Ptr<const Packet> packet, const InaHeader& h);
    uint32_t IndexOf(const InaHeader& h, const JobEntry& e) const;
    bool MovesToPs(const InaHeader& h, const InaAggregator& a, bool holds, const JobEntry& e) const;
    void Delegate(const InaHeader& h, uint32_t pad, const JobEntry& e);
    void OnGradient(InaHeader& h, uint32_t pad, const JobEntry& e);
    void OnBypass(InaHeader& h, uint32_t pad, const JobEntry& e);
    void OnResult(InaHeader& h, uint32_t pad, const JobEntry& e);
    void Accumulate(InaAggregator& a,
                    uint32_t index,
                    const InaHeader& h,
                    uint32_t pad,
                    const JobEntry& e);
    void EmitPartial(const InaAggregator& a, const InaHeader& h, uint32_t pad, const JobEntry& e);
    void EmitAggregate(const InaAggregator& a, uint32_t index, uint8_t extraFlags, uint32_t pad);
    void EmitResult(const InaAggregator& a, uint32_t index, uint16_t dst, uint32_t pad);
    void ToPs(InaHeader& h, uint32_t pad, const JobEntry& e);
    void Emit(const InaHeader& h, uint32_t pad, uint16_t dst);
    void Multicast(const InaHeader& h, uint32_t pad);
    void Replicate(Ptr<const Packet> p, uint16_t job);
    Ptr<NetDevice> RouteTo(uint16_t dst) const;
    void SendTo(Ptr<Packet> p, uint16_t dst);
    void SendVia(Ptr<NetDevice> dev, Ptr<Packet> p);
    void Transmit(Ptr<NetDevice> dev, Ptr<Packet> p);
    const JobEntry& Job(uint16_t job) const;

    Ptr<InaAllocationPolicy> m_policy;
    std::unique_ptr<InaAggregatorPool> m_pool;
    uint32_t m_poolSize;
    uint32_t m_valuesPerPacket;
    uint32_t m_passes;
    Time m_passLatency;
    bool m_aggregate;
    bool m_freeOnResend;                  //!< FreeOnResend
    uint32_t m_ecnThreshold;              //!< EcnThreshold [bytes], 0: never mark
    std::vector<Ptr<NetDevice>> m_routes; //!< by address
    Ptr<NetDevice> m_defaultRoute;
    std::map<uint16_t, JobEntry> m_jobs;
    InaSwitchStats m_stats;

    TracedCallback<uint16_t, uint32_t, uint16_t, uint32_t> m_preemptTrace;
    TracedCallback<uint16_t, uint32_t> m_collisionTrace;
    TracedCallback<uint16_t, uint32_t> m_completeTrace;
};

} // namespace ns3

#endif // AICLUSTER_INA_SWITCH_H
