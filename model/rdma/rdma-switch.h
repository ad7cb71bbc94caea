/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_SWITCH_H
#define AICLUSTER_RDMA_SWITCH_H

#include "lossless-net-device.h"
#include "rail-topology.h"

#include "ns3/object.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Store-and-forward element of a lossless fabric: leaf and spine switches, NICs
 * (between their PCIe and rail ports), PCIe switches and root complexes.
 *
 * Forwards by the RailTopology's routing (waypoint, equal-cost next hops, ECMP hash of the
 * queue pair), so packets take exactly the paths the rate-level solver uses. Buffering and
 * PFC live in the LosslessNetDevices: a packet's bytes count against its ingress port
 * until it leaves the egress port.
 */
class RdmaSwitch : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    RdmaSwitch();

    /** \param topology routing source (outlives this) \param vertex this element's vertex */
    void Setup(const RailTopology* topology, uint32_t vertex);
    /** \param link topology link id \param device this element's device on that link */
    void AddPort(uint32_t link, Ptr<LosslessNetDevice> device);

    /** \return packets forwarded */
    uint64_t GetForwardedPackets() const
    {
        return m_forwarded;
    }

  protected:
    void DoDispose() override;

  private:
    void Receive(LosslessNetDevice* in, Ptr<Packet> p, const RdmaHeader& h);
    const std::vector<LosslessNetDevice*>& Route(uint32_t target);

    const RailTopology* m_topology{nullptr};
    uint32_t m_vertex{0};
    std::vector<Ptr<LosslessNetDevice>> m_ports;
    std::unordered_map<uint32_t, LosslessNetDevice*> m_portOfLink;
    std::unordered_map<uint32_t, std::vector<LosslessNetDevice*>> m_routes;
    uint64_t m_forwarded{0};
};

} // namespace ns3

#endif // AICLUSTER_RDMA_SWITCH_H
