/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "lossless-net-device.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LosslessNetDevice");
NS_OBJECT_ENSURE_REGISTERED(LosslessNetDevice);

TypeId
LosslessNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LosslessNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Aicluster")
            .AddConstructor<LosslessNetDevice>()
            .AddAttribute("DataRate",
                          "Line rate of the link (bit/s).",
                          DataRateValue(DataRate("200Gbps")),
                          MakeDataRateAccessor(&LosslessNetDevice::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest frame on this link (bytes), used for PFC headroom. "
                          "Default: 4096-byte RoCE MTU plus 62 bytes of headers.",
                          UintegerValue(4158),
                          MakeUintegerAccessor(&LosslessNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(64))
            .AddAttribute("PfcEnabled",
                          "Send PAUSE/RESUME frames when an ingress queue crosses XOFF/XON.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&LosslessNetDevice::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcXoff",
                          "Ingress bytes per priority above which the upstream is paused "
                          "(bytes).",
                          UintegerValue(262144),
                          MakeUintegerAccessor(&LosslessNetDevice::m_xoff),
                          MakeUintegerChecker<uint64_t>(2048))
            .AddAttribute("PfcXonOffset",
                          "Resume when ingress bytes fall to XOFF minus this (bytes).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&LosslessNetDevice::m_xonOffset),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("EcnEnabled",
                          "Mark CE on DATA packets by egress queue length (RED-style).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&LosslessNetDevice::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "Egress queue (bytes) above which marking starts. HPCC's run.py: "
                          "100 KB per 25 Gbit/s of link rate (800 KB at 200 Gbit/s).",
                          UintegerValue(800000),
                          MakeUintegerAccessor(&LosslessNetDevice::m_kmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "Egress queue (bytes) above which every packet is marked. HPCC's "
                          "run.py: 400 KB per 25 Gbit/s (3.2 MB at 200 Gbit/s).",
                          UintegerValue(3200000),
                          MakeUintegerAccessor(&LosslessNetDevice::m_kmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "Marking probability at Kmax (HPCC's run.py: 0.2).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&LosslessNetDevice::m_pmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ReceiveErrorModel",
                          "Error model dropping received packets (loss-recovery studies).",
                          PointerValue(),
                          MakePointerAccessor(&LosslessNetDevice::m_errorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A packet starts transmission.",
                            MakeTraceSourceAccessor(&LosslessNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet was received.",
                            MakeTraceSourceAccessor(&LosslessNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was sent: priority, true for PAUSE.",
                            MakeTraceSourceAccessor(&LosslessNetDevice::m_pfcTxTrace),
                            "ns3::LosslessNetDevice::PfcTracedCallback")
            .AddTraceSource("ErrorDrop",
                            "A received packet was dropped by the error model.",
                            MakeTraceSourceAccessor(&LosslessNetDevice::m_errorDropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

LosslessNetDevice::LosslessNetDevice()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

LosslessNetDevice::~LosslessNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
LosslessNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_peer = nullptr;
    m_handler = nullptr;
    m_pull = nullptr;
    m_errorModel = nullptr;
    for (auto& q : m_queues)
    {
        q.clear();
    }
    NetDevice::DoDispose();
}

void
LosslessNetDevice::Attach(Ptr<LosslessChannel> ch)
{
    NS_LOG_FUNCTION(this << ch);
    m_channel = ch;
    ch->Attach(this);
    if (ch->GetNDevices() == 2)
    {
        auto a = DynamicCast<LosslessNetDevice>(ch->GetDevice(0));
        auto b = DynamicCast<LosslessNetDevice>(ch->GetDevice(1));
        a->m_peer = PeekPointer(b);
        b->m_peer = PeekPointer(a);
    }
}

void
LosslessNetDevice::SetReceiveHandler(ReceiveHandler handler)
{
    NS_LOG_FUNCTION(this);
    m_handler = std::move(handler);
}

void
LosslessNetDevice::SetPullSource(PullSource source)
{
    NS_LOG_FUNCTION(this);
    m_pull = std::move(source);
}

void
LosslessNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_rate = rate;
}

void
LosslessNetDevice::SetPfcXoff(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    m_xoff = bytes;
}

void
LosslessNetDevice::SetEcnEnabled(bool enabled)
{
    NS_LOG_FUNCTION(this << enabled);
    m_ecnEnabled = enabled;
}

void
LosslessNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    NS_LOG_FUNCTION(this << em);
    m_errorModel = em;
}

int64_t
LosslessNetDevice::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

uint64_t
LosslessNetDevice::GetPfcHeadroom() const
{
    NS_LOG_FUNCTION(this);
    double bytesInFlight =
        m_rate.GetBitRate() / 8.0 * (m_channel ? m_channel->GetDelay().GetSeconds() : 0.0);
    return static_cast<uint64_t>(2 * bytesInFlight) + 2 * m_mtu + kPfcFrameBytes;
}

uint64_t
LosslessNetDevice::GetQueueBytes() const
{
    NS_LOG_FUNCTION(this);
    uint64_t sum = 0;
    for (uint64_t b : m_queueBytes)
    {
        sum += b;
    }
    return sum;
}

Time
LosslessNetDevice::GetPausedTime() const
{
    NS_LOG_FUNCTION(this);
    Time total(0);
    for (uint32_t p = 0; p < kPriorities; ++p)
    {
        total += m_pausedTotal[p];
        if (m_pausedMask & (1u << p))
        {
            total += Simulator::Now() - m_pausedSince[p];
        }
    }
    return total;
}

bool
LosslessNetDevice::MarkEcn(uint8_t prio)
{
    NS_LOG_FUNCTION(this << prio);
    uint64_t q = m_queueBytes[prio];
    if (q <= m_kmin)
    {
        return false;
    }
    if (q >= m_kmax)
    {
        return true;
    }
    double p = m_pmax * static_cast<double>(q - m_kmin) / static_cast<double>(m_kmax - m_kmin);
    return m_uniform->GetValue() < p;
}

void
LosslessNetDevice::Enqueue(Ptr<Packet> p, const RdmaHeader& h, LosslessNetDevice* ingress)
{
    NS_LOG_FUNCTION(this << p << h << ingress);
    uint8_t prio = h.priority % kPriorities;
    uint32_t size = p->GetSize();
    if (m_ecnEnabled && h.type == RdmaHeader::DATA && !(h.flags & RdmaHeader::CE) && MarkEcn(prio))
    {
        // Rewriting a header is the one per-packet copy we pay, and only for marked packets.
        RdmaHeader marked;
        p->RemoveHeader(marked);
        marked.flags |= RdmaHeader::CE;
        p->AddHeader(marked);
        ++m_ecnMarks;
        NS_LOG_LOGIC("ECN: marked CE on qp " << h.qp << " psn " << h.psn << ", priority " << +prio
                                             << " egress queue " << m_queueBytes[prio]
                                             << " bytes (Kmin " << m_kmin << ", Kmax " << m_kmax
                                             << ")");
    }
    if (ingress != nullptr)
    {
        ingress->IngressAdd(prio, size);
    }
    m_queues[prio].push_back(Item{p, ingress, size});
    m_queueBytes[prio] += size;
    uint64_t q = GetQueueBytes();
    m_maxQueue = std::max(m_maxQueue, q);
    TryTransmit();
}

void
LosslessNetDevice::TryTransmit()
{
    NS_LOG_FUNCTION(this);
    if (m_busy || m_peer == nullptr)
    {
        return;
    }
    if (!m_pfcOut.empty())
    {
        // PFC frames are MAC control: never paused, sent before any queued data.
        auto [prio, pause] = m_pfcOut.front();
        m_pfcOut.pop_front();
        RdmaHeader h;
        h.type = RdmaHeader::PFC;
        h.priority = prio;
        h.flags = pause ? RdmaHeader::PAUSE : 0;
        Ptr<Packet> p = Create<Packet>(kPfcFrameBytes - RdmaHeader::kWireSize);
        p->AddHeader(h);
        NS_LOG_LOGIC("PFC: transmitting " << (pause ? "PAUSE" : "RESUME") << " for priority "
                                          << +prio);
        m_pfcTxTrace(prio, pause);
        StartTransmission(p);
        return;
    }
    for (uint32_t prio = 0; prio < kPriorities; ++prio)
    {
        if (m_queues[prio].empty() || (m_pausedMask & (1u << prio)))
        {
            continue;
        }
        Item item = std::move(m_queues[prio].front());
        m_queues[prio].pop_front();
        m_queueBytes[prio] -= item.size;
        if (item.ingress != nullptr)
        {
            item.ingress->IngressRelease(prio, item.size);
        }
        StartTransmission(item.packet);
        return;
    }
    if (m_pull)
    {
        uint8_t prio = 0;
        Ptr<Packet> p = m_pull(m_pausedMask, &prio);
        if (p)
        {
            StartTransmission(p);
        }
    }
}

void
LosslessNetDevice::StartTransmission(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    m_busy = true;
    uint32_t size = p->GetSize();
    m_txBytes += size;
    if (size > kPfcFrameBytes)
    {
        m_txPayload += size - RdmaHeader::kWireSize;
    }
    m_macTxTrace(p);
    // Serialisation time in whole time steps with the remainder carried to the next packet,
    // so that the mean rate is exact at the simulator's (nanosecond) resolution.
    double exact = size * 8.0 / m_rate.GetBitRate() * 1e9 + m_txCarryNs;
    int64_t ns = static_cast<int64_t>(exact);
    m_txCarryNs = exact - static_cast<double>(ns);
    Time txTime = NanoSeconds(ns);
    Simulator::Schedule(txTime, &LosslessNetDevice::TransmitComplete, this);
    m_channel->Transmit(p, this, txTime);
}

void
LosslessNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_busy = false;
    TryTransmit();
}

void
LosslessNetDevice::Receive(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    RdmaHeader h;
    p->PeekHeader(h);
    if (h.type == RdmaHeader::PFC)
    {
        // PFC frames are exempt from the error model: without pause-quanta expiry a lost
        // RESUME would stall the link forever.
        HandlePfc(h);
        return;
    }
    if (m_errorModel && m_errorModel->IsCorrupt(p))
    {
        NS_LOG_LOGIC("drop: error model corrupted type " << +h.type << " qp " << h.qp << " psn "
                                                         << h.psn);
        ++m_errorDrops;
        m_errorDropTrace(p);
        return;
    }
    m_macRxTrace(p);
    NS_ABORT_MSG_IF(!m_handler,
                    "LosslessNetDevice: no receive handler on node " << m_node->GetId());
    m_handler(this, p, h);
}

void
LosslessNetDevice::HandlePfc(const RdmaHeader& h)
{
    NS_LOG_FUNCTION(this << h);
    uint8_t prio = h.priority % kPriorities;
    uint8_t bit = static_cast<uint8_t>(1u << prio);
    bool pause = (h.flags & RdmaHeader::PAUSE) != 0;
    if (pause && !(m_pausedMask & bit))
    {
        m_pausedMask |= bit;
        m_pausedSince[prio] = Simulator::Now();
        ++m_pausesReceived;
        NS_LOG_LOGIC("PFC: priority " << +prio << " paused by the peer, " << m_queueBytes[prio]
                                      << " bytes queued");
    }
    else if (!pause && (m_pausedMask & bit))
    {
        m_pausedMask &= static_cast<uint8_t>(~bit);
        m_pausedTotal[prio] += Simulator::Now() - m_pausedSince[prio];
        NS_LOG_LOGIC("PFC: priority " << +prio << " resumed after "
                                      << (Simulator::Now() - m_pausedSince[prio]).As(Time::US)
                                      << ", " << m_queueBytes[prio] << " bytes queued");
        TryTransmit();
    }
}

void
LosslessNetDevice::IngressAdd(uint8_t prio, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << prio << bytes);
    uint64_t& b = m_ingressBytes[prio];
    b += bytes;
    m_maxIngress = std::max(m_maxIngress, b);
    if (b > m_xoff + GetPfcHeadroom())
    {
        NS_LOG_DEBUG("PFC headroom exceeded on priority "
                     << +prio << ": " << b << " ingress bytes > XOFF " << m_xoff << " + headroom "
                     << GetPfcHeadroom());
        ++m_headroomViolations;
    }
    if (m_pfcEnabled && !m_pauseSent[prio] && b > m_xoff)
    {
        NS_LOG_LOGIC("PFC: ingress priority " << +prio << " at " << b << " bytes > XOFF " << m_xoff
                                              << ": pausing the upstream");
        SendPfc(prio, true);
    }
}

void
LosslessNetDevice::IngressRelease(uint8_t prio, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << prio << bytes);
    uint64_t& b = m_ingressBytes[prio];
    b -= bytes;
    if (m_pauseSent[prio] && b + m_xonOffset <= m_xoff)
    {
        NS_LOG_LOGIC("PFC: ingress priority " << +prio << " down to " << b << " bytes <= XON "
                                              << m_xoff - m_xonOffset << ": resuming the upstream");
        SendPfc(prio, false);
    }
}

void
LosslessNetDevice::SendPfc(uint8_t prio, bool pause)
{
    NS_LOG_FUNCTION(this << prio << pause);
    m_pauseSent[prio] = pause;
    if (pause)
    {
        ++m_pausesSent;
    }
    m_pfcOut.emplace_back(prio, pause);
    TryTransmit();
}

// ---- NetDevice boilerplate: a point-to-point link without L3 addressing ----

void
LosslessNetDevice::SetIfIndex(const uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_ifIndex = index;
}

uint32_t
LosslessNetDevice::GetIfIndex() const
{
    NS_LOG_FUNCTION(this);
    return m_ifIndex;
}

Ptr<Channel>
LosslessNetDevice::GetChannel() const
{
    NS_LOG_FUNCTION(this);
    return m_channel;
}

void
LosslessNetDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    m_address = Mac48Address::ConvertFrom(address);
}

Address
LosslessNetDevice::GetAddress() const
{
    NS_LOG_FUNCTION(this);
    return m_address;
}

bool
LosslessNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    m_mtu = mtu;
    return true;
}

uint16_t
LosslessNetDevice::GetMtu() const
{
    NS_LOG_FUNCTION(this);
    return m_mtu;
}

bool
LosslessNetDevice::IsLinkUp() const
{
    NS_LOG_FUNCTION(this);
    return m_peer != nullptr;
}

void
LosslessNetDevice::AddLinkChangeCallback(Callback<void>)
{
    NS_LOG_FUNCTION(this);
    // Links never change state in this model.
}

bool
LosslessNetDevice::IsBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

Address
LosslessNetDevice::GetBroadcast() const
{
    NS_LOG_FUNCTION(this);
    return Mac48Address::GetBroadcast();
}

bool
LosslessNetDevice::IsMulticast() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

Address
LosslessNetDevice::GetMulticast(Ipv4Address) const
{
    NS_LOG_FUNCTION(this);
    return Mac48Address::GetMulticast(Ipv4Address("224.0.0.0"));
}

Address
LosslessNetDevice::GetMulticast(Ipv6Address addr) const
{
    NS_LOG_FUNCTION(this << addr);
    return Mac48Address::GetMulticast(addr);
}

bool
LosslessNetDevice::IsBridge() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

bool
LosslessNetDevice::IsPointToPoint() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

bool
LosslessNetDevice::Send(Ptr<Packet> packet, const Address&, uint16_t)
{
    NS_LOG_FUNCTION(this << packet);
    // Accepts packets that already carry an RdmaHeader; its priority selects the queue.
    RdmaHeader h;
    if (packet->GetSize() < RdmaHeader::kWireSize)
    {
        NS_LOG_LOGIC("refused: " << packet->GetSize() << " bytes carry no RdmaHeader");
        return false;
    }
    packet->PeekHeader(h);
    Enqueue(packet, h, nullptr);
    return true;
}

bool
LosslessNetDevice::SendFrom(Ptr<Packet> packet, const Address&, const Address& dest, uint16_t proto)
{
    NS_LOG_FUNCTION(this << packet << dest << proto);
    return Send(packet, dest, proto);
}

Ptr<Node>
LosslessNetDevice::GetNode() const
{
    NS_LOG_FUNCTION(this);
    return m_node;
}

void
LosslessNetDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
}

bool
LosslessNetDevice::NeedsArp() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

void
LosslessNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback)
{
    NS_LOG_FUNCTION(this);
    // Packets go to the receive handler (switch or RDMA endpoint), not to an L3 stack.
}

void
LosslessNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback)
{
    NS_LOG_FUNCTION(this);
}

bool
LosslessNetDevice::SupportsSendFrom() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

} // namespace ns3
