/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_RATE_FABRIC_H
#define AICLUSTER_RDMA_RATE_FABRIC_H

#include "rail-topology.h"
#include "rdma-fabric.h"
#include "rdma-transfer.h"

#include "ns3/event-id.h"
#include "ns3/max-min-solver.h"
#include "ns3/object.h"

#include <memory>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Rate-level rail-optimized cluster: the same topology, endpoints, NIC choice and
 * paths as RdmaPacketFabric, with every transfer a fluid flow at its max-min fair rate.
 *
 * Resources are the directed links of the RailTopology (rails, leaf-spine links, PCIe links,
 * PCIe uplinks to the root complex, the memory interface). A flow's wire rate x uses x on
 * every link of its data path and x * 62 / ((MTU + 62) * AckInterval) on the reverse links
 * (its ACKs, a strict-priority load); its payload goodput is x * MTU / (MTU + 62); its cap is the
 * queue pair's line rate. Rates change only when a flow starts or ends (one ns-3 event per
 * completion), and only the affected component is refilled. The last byte is delivered one path
 * propagation delay after the fluid finishes. MTU, ACK interval and NIC policy are the defaults of
 * ns3::RdmaEndpoint and ns3::RdmaPacketFabric, so one Config::SetDefault sets both levels.
 *
 * DCQCN's operating point: a flow whose bottleneck lies at or after an ECN-marking switch port
 * on its path, where the flows arriving on that port's ingress links can hold more than Kmin
 * in its queue (each ingress pauses at its PFC XOFF), is congestion controlled and runs at
 * DcqcnUtilization of its max-min rate (the share DCQCN's sawtooth keeps of the bottleneck).
 */
class RdmaRateFabric : public RdmaFabric
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    RdmaRateFabric();
    ~RdmaRateFabric() override;

    /** \param config cluster to build */
    void Build(const RailClusterConfig& config) override;
    /** \return the topology (valid after Build) */
    const RailTopology& GetTopology() const override;

    /**
     * Same contract as RdmaPacketFabric::Write. Rates are assigned by one reallocation at
     * the current instant after all transfers posted at this instant.
     * \return transfer id
     */
    uint32_t Write(uint32_t src,
                   uint32_t dst,
                   uint64_t bytes,
                   RdmaCompletion done,
                   RdmaTransferOptions options = {}) override;
    /** Same contract as RdmaPacketFabric::Read. \return transfer id */
    uint32_t Read(uint32_t local,
                  uint32_t remote,
                  uint64_t bytes,
                  RdmaCompletion done,
                  RdmaTransferOptions options = {}) override;

    /** \param id transfer \return current payload rate, bytes/s (0 if finished) */
    double GetRate(uint32_t id) const;
    /** \param directedLink link \return current wire load, bytes/s */
    double GetLinkLoad(uint32_t directedLink) const;

    /** \return active transfers */
    uint32_t GetNActive() const
    {
        return static_cast<uint32_t>(m_byId.size());
    }

    /** \return reallocations (solver runs) so far */
    uint64_t GetReallocations() const
    {
        return m_reallocations;
    }

    /** \return the solver (read-only) */
    const MaxMinSolver& GetSolver() const
    {
        return *m_solver;
    }

    /**
     * Add a transfer without solving or scheduling (benchmarks: add many, then Reallocate).
     * \param src source endpoint \param dst destination \param bytes payload \param read READ
     * \param done callback \param options NIC choice \return transfer id
     */
    uint32_t AddTransfer(uint32_t src,
                         uint32_t dst,
                         uint64_t bytes,
                         bool read,
                         RdmaCompletion done,
                         RdmaTransferOptions options);
    /** Settle progress, re-solve the touched components and reschedule the next finish. */
    void Reallocate();

  protected:
    void DoDispose() override;

  private:
    /** Progress of a fluid transfer, stored at its solver handle (read at every reallocation) */
    struct Flow
    {
        double remaining{0};  //!< payload bytes left
        double rate{0};       //!< payload bytes/s since lastUpdate
        double lastUpdate{0}; //!< s
        uint32_t version{0};  //!< bumped at each rate change and at the end (slots are reused)
        bool active{false};
        uint32_t pathLen{0}; //!< directed links of its path (kept only when DCQCN is modelled)
        uint64_t pathAt{0};  //!< where they start in m_paths
    };

    /** What a transfer reports when it ends, stored at its solver handle */
    struct FlowInfo
    {
        RdmaTransferResult result;
        RdmaCompletion done;
        double latency{0}; //!< path propagation delay, s
    };

    using Finish = std::tuple<double, uint32_t, uint32_t>; //!< time, solver handle, version

    double DcqcnFactor(uint32_t sid) const;
    /**
     * \param path directed links of a flow's path \param n how many
     * \param delta +1 when the flow starts, -1 when it ends
     */
    void CountUpstream(const uint32_t* path, uint32_t n, int delta);
    /** Copies the live flows' paths down over those of ended flows, once they are most of it */
    void CompactPaths();
    void ScheduleNext();
    void ScheduleReallocation();
    void OnFinish();
    void PushFinish(uint32_t slot);
    /** \return whether m_finish's entry is a flow's current projection (not stale) */
    bool IsCurrent(const Finish& entry) const;
    /**
     * Takes the current entries of m_finish due by now, in the order a heap pops them.
     * \param now s \return (time, solver handle, version) of each
     */
    std::vector<Finish> TakeDue(double now);

    std::unique_ptr<RailTopology> m_topology;
    std::unique_ptr<MaxMinSolver> m_solver;
    std::vector<Flow> m_flows;    //!< indexed by solver flow handle
    std::vector<FlowInfo> m_info; //!< indexed by solver flow handle
    /// the paths of the flows (DCQCN), one after the other: each reallocation reads them in
    /// flow order, from one array rather than from a small allocation per flow
    std::vector<uint32_t> m_paths;
    uint64_t m_pathsDead{0};                       //!< entries of m_paths whose flows have ended
    std::unordered_map<uint32_t, uint32_t> m_byId; //!< transfer id -> solver flow handle
    /// projected finish times: a min-heap (std::greater) or, after a rebuild, a plain list
    /// (see m_finishHeaped)
    std::vector<Finish> m_finish;
    /// whether m_finish is a heap. A rebuild (most flows got new rates) leaves a plain list:
    /// the next finish is then found by one scan and the finished flows by another, instead of
    /// heaping every flow at each reallocation; it is heaped when a few entries are pushed.
    bool m_finishHeaped{true};
    EventId m_event;   //!< next flow completion
    EventId m_pending; //!< reallocation for transfers posted at this instant
    uint32_t m_nextId{1};
    uint64_t m_reallocations{0};
    bool m_mergeIdentical{true};

    // read from the packet level's attributes (RdmaEndpoint, RdmaPacketFabric) at Build
    NicPolicy m_nicPolicy{NicPolicy::RAIL_AFFINITY};
    uint32_t m_mtu{1000};
    uint32_t m_ackInterval{1};

    // DCQCN's operating point (read from RdmaEndpoint / RdmaPacketFabric at Build)
    double m_dcqcnUtilization{0.9}; //!< share of a DCQCN-controlled bottleneck the flows use
    bool m_dcqcn{false};            //!< DCQCN on and some links mark ECN
    std::vector<double> m_kmin;     //!< per directed link: ECN Kmin bytes (0: no marking)
    /** per ECN-marking directed link: flows per upstream (ingress) link */
    std::vector<std::unordered_map<uint32_t, uint32_t>> m_upstream;
    /// per directed link: whether its ingress XOFF exceeds Kmin (see DcqcnFactor), kept
    /// between reallocations; -1 = to be computed (its upstream counts changed)
    mutable std::vector<int8_t> m_marking;
    /// per directed link: whether its load is at capacity after this reallocation's solve
    /// (see DcqcnFactor); -1 = not asked yet. Asked once per link and solve rather than once
    /// per flow crossing it: the all-to-all's flows share a few thousand links.
    mutable std::vector<int8_t> m_saturated;
};

} // namespace ns3

#endif // AICLUSTER_RDMA_RATE_FABRIC_H
