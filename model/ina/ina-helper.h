/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_HELPER_H
#define AICLUSTER_INA_HELPER_H

#include "ina-allocation-policy.h"
#include "ina-parameter-server.h"
#include "ina-switch.h"
#include "ina-worker.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/uinteger.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief One training job of a packet-level INA scenario.
 */
struct InaJobSpec
{
    uint32_t workers{8};               //!< data-parallel workers (1..32)
    uint64_t gradientValues{0};        //!< float32 gradient elements per iteration
    uint32_t iterations{1};            //!< iterations to run
    Time computeTime{Seconds(0)};      //!< compute before each iteration's sync [s]
    uint32_t priority{0};              //!< static priority (ESA with PriorityRule=Static)
    Time startTime{Seconds(0)};        //!< when the job starts [s]
    std::vector<uint32_t> workerRacks; //!< rack of each worker (empty: all in rack job % racks)
};

/**
 * \ingroup aicluster
 * \brief Result of one job of a packet-level run.
 */
struct InaJobResult
{
    double jct{-1};              //!< completion time [s] from the job's start (-1: unfinished)
    double meanIterationTime{0}; //!< mean iteration time [s]
    uint32_t iterationsDone{0};  //!< iterations every worker finished
    uint64_t valuesChecked{0};   //!< values checked against the exact sum
    uint64_t valuesWrong{0};     //!< values outside the quantization bound (must be 0)
    double maxErrorRatio{0};     //!< largest error / bound
    uint64_t resends{0};         //!< chunk resends (all workers)
    uint64_t fallbackResults{0}; //!< results completed at the PS (worker 0's view)
    uint64_t overflowChunks{0};  //!< chunks sent as float (all workers)
    uint64_t psPackets{0};       //!< packets the PS received (normal results included)
    uint64_t psBytes{0};         //!< bytes the PS received (normal results included)
    /// bytes the PS received besides complete in-switch aggregates (ATP's and ESA's normal
    /// result path): collisions, evictions, flushes, resends, overflow
    uint64_t psFallbackBytes{0};
    uint64_t psFallbackPackets{0}; //!< packets counted in psFallbackBytes
    uint64_t psEvicted{0};         //!< evicted partial aggregates the PS received
    /// window halvings on an ECN-marked result (worker 0; InaWorker::CongestionControl)
    uint64_t ecnDecreases{0};
};

/**
 * \ingroup aicluster
 * \brief Builds a packet-level INA scenario: every job's workers and its PS each on their own
 *        host, one point-to-point link per host, to one P4 switch or to a ToR per rack.
 *
 * With SetRacks(r > 1), each rack has a ToR switch (with its own pool) under
 * a spine switch (with its own pool). A job whose workers sit in one rack
 * aggregates at that ToR, its PS attached there. A job spanning racks has its
 * PS at the spine; by default (SetHierarchical(true)) it aggregates in two
 * levels: each ToR over its local workers, then the spine over the racks'
 * partials. SetHierarchical(false) keeps the spine-only mode: the ToRs only
 * forward its packets and replicate its results (see doc/ina.md, "Racks"). Per-policy defaults
 * follow the papers: ATP and ESA send 62 values per packet with timeouts 50 ms / 200 us; SwitchML
 * 64 values with a 10 ms timeout. Any attribute can be overridden through the Set* methods after
 * SetPolicy.
 */
class InaHelper
{
  public:
    InaHelper();

    /**
     * \param name "switchml", "atp" or "esa" (sets the per-policy defaults)
     * \throws std::invalid_argument on another name
     */
    void SetPolicy(const std::string& name);
    /** \param name attribute of the policy \param value its value */
    void SetPolicyAttribute(const std::string& name, const AttributeValue& value);
    /** \param name InaSwitch attribute \param value its value */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /** \param name InaWorker attribute (for every worker) \param value its value */
    void SetWorkerAttribute(const std::string& name, const AttributeValue& value);
    /** \param rate link rate of every host link */
    void SetLinkRate(DataRate rate);
    /** \param delay one-way propagation delay of every host link */
    void SetLinkDelay(Time delay);
    /** \param rate packet loss probability on every link direction [0..1] */
    void SetLossRate(double rate);
    /** \param packets device queue capacity [packets] */
    void SetQueuePackets(uint32_t packets);
    /** \param values values per packet (overrides the policy default) */
    void SetValuesPerPacket(uint32_t values);
    /** \param window outstanding chunks per worker */
    void SetWindow(uint32_t window);
    /**
     * \param racks racks (1: a single switch) \param uplinkRate ToR-to-spine link rate
     */
    void SetRacks(uint32_t racks, DataRate uplinkRate = DataRate("400Gbps"));
    /**
     * \brief Choose how jobs spanning racks aggregate (default true).
     * \param twoLevel true: at each of their ToRs over the local workers, then at the spine
     *        over the racks' partials; false: at the spine only (ToRs forward every packet)
     */
    void SetHierarchical(bool twoLevel);

    /** \param job the job to add \return its index */
    uint32_t AddJob(const InaJobSpec& job);

    /**
     * \brief Create nodes, links, the switch and the applications.
     * \throws std::invalid_argument if a job cannot be laid out on a pool (SwitchML: a
     *         partition below 2 aggregators)
     */
    void Install();

    /**
     * \param stream first random stream number (worker jitter, then loss models)
     * \return number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /** \return the switch (the spine with several racks) */
    Ptr<InaSwitch> GetSwitch() const;
    /** \return every switch: the ToRs, then the spine */
    std::vector<Ptr<InaSwitch>> GetSwitches() const;
    /** \return the policy */
    Ptr<InaAllocationPolicy> GetPolicy() const;
    /** \param job index \return its workers */
    const std::vector<Ptr<InaWorker>>& GetWorkers(uint32_t job) const;
    /** \param job index \return its PS */
    Ptr<InaParameterServer> GetParameterServer(uint32_t job) const;
    /** \return number of jobs */
    uint32_t GetNJobs() const;
    /** \param job index \return its result (after Simulator::Run) */
    InaJobResult GetResult(uint32_t job) const;
    /** \param job index \return its spec */
    const InaJobSpec& GetJobSpec(uint32_t job) const;
    /** \return values per packet in use */
    uint32_t GetValuesPerPacket() const;
    /** \return wire bytes per packet (values + HeaderOverheadBytes) */
    uint32_t GetPacketBytes() const;

  private:
    /** \return a switch with this helper's policy and values per packet */
    Ptr<InaSwitch> MakeSwitch() const;
    /** \brief The ToRs (and the spine with its uplinks if there are racks). */
    void BuildSwitches();
    /**
     * \brief Link a host to its rack's ToR (rack == racks: the spine) and route to it.
     * \return the host's device
     */
    Ptr<NetDevice> Connect(Ptr<Node> host, uint16_t addr, uint32_t rack);
    /**
     * \param racks the rack of each of a job's workers
     * \return the switches it aggregates at, the PS's one last (racks == m_racks: the spine)
     */
    std::vector<uint32_t> AggregationLevels(std::vector<uint32_t> racks) const;
    /** \brief Job j's PS and workers, registered at its switches; advances nextAddr. */
    void InstallJob(uint32_t j,
                    const std::vector<uint32_t>& levels,
                    std::map<uint32_t, InaJobSlots> slots,
                    uint16_t& nextAddr);
    /** \brief Job j's parameter server, attached to switch top. */
    void InstallParameterServer(uint32_t j,
                                uint16_t psAddr,
                                uint32_t top,
                                const InaJobSlots& slots);
    /** \return job j's worker of this rank, in this rack, with this layout */
    Ptr<InaWorker> InstallWorker(uint32_t j,
                                 uint32_t rank,
                                 uint16_t addr,
                                 uint16_t psAddr,
                                 uint32_t rack,
                                 const InaJobSlots& slots);
    /** \brief A packet error model on every device's receive side (LossRate > 0). */
    void AddLoss();
    /** \param j job \return the rack of each of its workers (validated) */
    std::vector<uint32_t> WorkerRacks(uint32_t j) const;
    /**
     * \param j job \param levels switches it aggregates at
     * \param jobsAt jobs aggregating at each switch \param poolSize aggregators per switch
     * \return its layout at each of those switches, with one common window
     */
    std::map<uint32_t, InaJobSlots> Layouts(uint32_t j,
                                            const std::vector<uint32_t>& levels,
                                            const std::map<uint32_t, std::vector<uint32_t>>& jobsAt,
                                            uint64_t poolSize) const;

    std::string m_policyName;
    ObjectFactory m_policyFactory;
    ObjectFactory m_switchFactory;
    ObjectFactory m_workerFactory;
    ObjectFactory m_psFactory;
    DataRate m_rate;
    Time m_delay;
    double m_loss;
    uint32_t m_queuePackets;
    uint32_t m_valuesPerPacket;
    uint32_t m_window;
    uint32_t m_racks;
    DataRate m_uplinkRate;
    bool m_hierarchical;
    std::vector<InaJobSpec> m_specs;

    Ptr<InaAllocationPolicy> m_policy;
    Ptr<InaSwitch> m_switch;
    Ptr<InaSwitch> m_spine;
    std::vector<Ptr<InaSwitch>> m_tors;
    std::vector<Ptr<Node>> m_torNodes;       //!< ToR nodes, by rack
    Ptr<Node> m_spineNode;                   //!< spine node (racks > 1)
    std::vector<Ptr<NetDevice>> m_spineDown; //!< spine port towards each ToR
    PointToPointHelper m_p2p;                //!< host links
    UintegerValue m_psOverhead;              //!< the workers' HeaderOverheadBytes
    DoubleValue m_psScale;                   //!< the workers' quantization Scale
    NodeContainer m_nodes;
    std::vector<std::vector<Ptr<InaWorker>>> m_workers;
    std::vector<Ptr<InaParameterServer>> m_ps;
    std::vector<Ptr<NetDevice>> m_devices;
};

} // namespace ns3

#endif // AICLUSTER_INA_HELPER_H
