/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "lossless-channel.h"

#include "lossless-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LosslessChannel");
NS_OBJECT_ENSURE_REGISTERED(LosslessChannel);

TypeId
LosslessChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LosslessChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<LosslessChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the link (s).",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&LosslessChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

LosslessChannel::LosslessChannel()
{
    NS_LOG_FUNCTION(this);
}

void
LosslessChannel::Attach(Ptr<LosslessNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_devices[1], "LosslessChannel: already has two devices");
    m_devices[m_devices[0] ? 1 : 0] = device;
}

void
LosslessChannel::Transmit(Ptr<Packet> p, LosslessNetDevice* from, Time txTime)
{
    NS_LOG_FUNCTION(this << p << from << txTime);
    LosslessNetDevice* to =
        PeekPointer(m_devices[0]) == from ? PeekPointer(m_devices[1]) : PeekPointer(m_devices[0]);
    Simulator::ScheduleWithContext(to->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &LosslessNetDevice::Receive,
                                   to,
                                   p);
}

std::size_t
LosslessChannel::GetNDevices() const
{
    NS_LOG_FUNCTION(this);
    return m_devices[1] ? 2 : (m_devices[0] ? 1 : 0);
}

Ptr<NetDevice>
LosslessChannel::GetDevice(std::size_t i) const
{
    NS_LOG_FUNCTION(this << i);
    return m_devices[i];
}

} // namespace ns3
