/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rdma-switch.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitch");
NS_OBJECT_ENSURE_REGISTERED(RdmaSwitch);

TypeId
RdmaSwitch::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaSwitch")
                            .SetParent<Object>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<RdmaSwitch>();
    return tid;
}

RdmaSwitch::RdmaSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_portOfLink.clear();
    m_routes.clear();
    Object::DoDispose();
}

void
RdmaSwitch::Setup(const RailTopology* topology, uint32_t vertex)
{
    NS_LOG_FUNCTION(this << topology << vertex);
    m_topology = topology;
    m_vertex = vertex;
}

void
RdmaSwitch::AddPort(uint32_t link, Ptr<LosslessNetDevice> device)
{
    NS_LOG_FUNCTION(this << link << device);
    m_ports.push_back(device);
    m_portOfLink[link] = PeekPointer(device);
    device->SetReceiveHandler(
        [this](LosslessNetDevice* in, Ptr<Packet> p, const RdmaHeader& h) { Receive(in, p, h); });
}

const std::vector<LosslessNetDevice*>&
RdmaSwitch::Route(uint32_t target)
{
    NS_LOG_FUNCTION(this << target);
    auto it = m_routes.find(target);
    if (it != m_routes.end())
    {
        return it->second;
    }
    std::vector<LosslessNetDevice*> out;
    for (uint32_t link : m_topology->NextHopLinks(m_vertex, target))
    {
        out.push_back(m_portOfLink.at(link));
    }
    NS_LOG_LOGIC("switch " << m_vertex << ": route to " << target << " over " << out.size()
                           << " port(s)");
    return m_routes.emplace(target, std::move(out)).first->second;
}

void
RdmaSwitch::Receive(LosslessNetDevice* in, Ptr<Packet> p, const RdmaHeader& h)
{
    NS_LOG_FUNCTION(this << in << p << h);
    uint32_t target = m_topology->Waypoint(m_vertex, h.dst, h.srcNic, h.dstNic);
    const std::vector<LosslessNetDevice*>& ports = Route(target);
    std::size_t n = ports.size();
    LosslessNetDevice* out =
        ports[n == 1 ? 0 : RailTopology::EcmpIndex(h.qp, m_vertex, static_cast<uint32_t>(n))];
    ++m_forwarded;
    out->Enqueue(p, h, in);
}

} // namespace ns3
