/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rdma-endpoint.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEndpoint");
NS_OBJECT_ENSURE_REGISTERED(RdmaEndpoint);

TypeId
RdmaEndpoint::GetTypeId()
{
    // DCQCN defaults are those of HPCC's public simulation config (alibaba-edu/
    // High-Precision-Congestion-Control, simulation/run.py for cc=dcqcn and
    // mix/config_doc.txt): ALPHA_RESUME_INTERVAL 1 us, RATE_DECREASE_INTERVAL 4 us,
    // RP_TIMER 300 us, EWMA_GAIN 1/256, FAST_RECOVERY_TIMES 1, RATE_AI 5 Mb/s and RATE_HAI
    // 50 Mb/s per 25 Gb/s of NIC rate (40 and 400 Mb/s at 200 Gb/s), MIN_RATE 1000 Mb/s,
    // CLAMP_TARGET_RATE 0, L2_ACK_INTERVAL 1, PACKET_PAYLOAD_SIZE 1000, ACK_HIGH_PRIO 1.
    static TypeId tid =
        TypeId("ns3::RdmaEndpoint")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<RdmaEndpoint>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet (HPCC PACKET_PAYLOAD_SIZE: 1000).",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RdmaEndpoint::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 4096))
            .AddAttribute("AckInterval",
                          "Packets per cumulative ACK (HPCC L2_ACK_INTERVAL: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaEndpoint::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RetransmitTimeout",
                          "Go back to the oldest unacknowledged packet after this long "
                          "without progress (s).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RdmaEndpoint::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("DataPriority",
                          "Traffic class (PFC priority) of data packets, 1..7.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaEndpoint::m_dataPriority),
                          MakeUintegerChecker<uint8_t>(1, 7))
            .AddAttribute("AckPriority",
                          "Traffic class of ACK/NACK/READ requests (HPCC ACK_HIGH_PRIO: 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaEndpoint::m_ackPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("DcqcnEnabled",
                          "React to ECN echoes with DCQCN (else send at line rate).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaEndpoint::m_dcqcn),
                          MakeBooleanChecker())
            .AddAttribute("RateAi",
                          "DCQCN additive increase step (bit/s); HPCC: 5 Mb/s per 25 Gb/s.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&RdmaEndpoint::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "DCQCN hyper increase step (bit/s); HPCC: 50 Mb/s per 25 Gb/s.",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&RdmaEndpoint::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "DCQCN floor (bit/s); HPCC MIN_RATE 1000 Mb/s.",
                          DataRateValue(DataRate("1000Mbps")),
                          MakeDataRateAccessor(&RdmaEndpoint::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("AlphaG",
                          "DCQCN EWMA gain g (HPCC EWMA_GAIN 1/256).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&RdmaEndpoint::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaResumeInterval",
                          "Alpha update period (s); HPCC ALPHA_RESUME_INTERVAL 1 us.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RdmaEndpoint::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateDecreaseInterval",
                          "At most one rate cut per interval (s); HPCC 4 us.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RdmaEndpoint::m_decreaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateIncreaseInterval",
                          "DCQCN rate-increase timer T (s): Mellanox RPG_TIME_RESET and HPCC "
                          "RP_TIMER 300 us (SIGCOMM'15: 55 us).",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&RdmaEndpoint::m_increaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FastRecoveryTimes",
                          "F: expiries of the timer or the byte counter after a rate cut spent "
                          "in fast recovery; additive increase once either counter passes F, "
                          "hyper increase once both do (DCQCN, SIGCOMM'15: F = 5; Mellanox "
                          "RPG_THRESHOLD and HPCC FAST_RECOVERY_TIMES: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaEndpoint::m_fastRecoveryTimes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ByteCounter",
                          "DCQCN byte counter B: a rate-increase event every B bytes sent "
                          "while rate limited [bytes]; 0 disables it (timer only, as HPCC's "
                          "simulator). Default: Mellanox ConnectX RPG_BYTE_RESET 32767 "
                          "(SIGCOMM'15 used 10 MB at 40 Gb/s).",
                          UintegerValue(32767),
                          MakeUintegerAccessor(&RdmaEndpoint::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HyperIncreaseScaled",
                          "Hyper increase adds i x RateHai, i = min(T, BC) - F (QCN/DCQCN "
                          "rule), instead of a fixed RateHai per event.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaEndpoint::m_hyperIncreaseScaled),
                          MakeBooleanChecker())
            .AddAttribute("CnpInterval",
                          "Notification point: at most one congestion notification (ECE on an "
                          "ACK) per queue pair per interval [s]; 0 echoes every CE mark (HPCC). "
                          "Default: Mellanox MIN_TIME_BETWEEN_CNPS 4 us.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RdmaEndpoint::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RateOnFirstCnp",
                          "Fraction of the current rate kept on the first CNP (HPCC: 1.0).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RdmaEndpoint::m_rateOnFirstCnp),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ClampTargetRate",
                          "Reset the target rate on every decrease (HPCC: false).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaEndpoint::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddTraceSource("Rate",
                            "DCQCN changed a QP's rate: qp, new rate (bytes/s).",
                            MakeTraceSourceAccessor(&RdmaEndpoint::m_rateTrace),
                            "ns3::RdmaEndpoint::RateTracedCallback");
    return tid;
}

RdmaEndpoint::RdmaEndpoint()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaEndpoint::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wake.Cancel();
    for (auto& [id, q] : m_send)
    {
        q->rtoEvent.Cancel();
        q->decreaseEvent.Cancel();
        q->increaseEvent.Cancel();
    }
    for (auto& [id, r] : m_reads)
    {
        r.timer.Cancel();
    }
    m_send.clear();
    m_active.clear();
    m_device = nullptr;
    m_deliveredHook = nullptr;
    m_ackedHook = nullptr;
    m_readRate = nullptr;
    Object::DoDispose();
}

void
RdmaEndpoint::Setup(uint32_t vertex, Ptr<LosslessNetDevice> device)
{
    NS_LOG_FUNCTION(this << vertex << device);
    m_vertex = vertex;
    m_device = device;
    device->SetReceiveHandler(
        [this](LosslessNetDevice* in, Ptr<Packet> p, const RdmaHeader& h) { Receive(in, p, h); });
    device->SetPullSource([this](uint8_t mask, uint8_t* prio) { return Pull(mask, prio); });
}

void
RdmaEndpoint::SetHooks(DeliveredHook delivered, AckedHook acked)
{
    NS_LOG_FUNCTION(this);
    m_deliveredHook = std::move(delivered);
    m_ackedHook = std::move(acked);
}

void
RdmaEndpoint::SetReadResponseRate(std::function<double(uint32_t, uint32_t)> lineRate)
{
    NS_LOG_FUNCTION(this);
    m_readRate = std::move(lineRate);
}

double
RdmaEndpoint::WireBytes(uint32_t payload) const
{
    NS_LOG_FUNCTION(this << payload);
    return static_cast<double>(payload + RdmaHeader::kWireSize);
}

double
RdmaEndpoint::GetQpRate(uint32_t qp) const
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_send.find(qp);
    return it == m_send.end() ? 0.0 : it->second->rate;
}

void
RdmaEndpoint::StartSend(const RdmaSendSpec& spec)
{
    NS_LOG_FUNCTION(this << spec.qp << spec.dst << spec.srcNic << spec.dstNic << spec.bytes
                         << spec.lineRate << spec.readResponse);
    NS_ABORT_MSG_IF(spec.bytes == 0 || spec.lineRate <= 0, "RdmaEndpoint: empty message");
    NS_ABORT_MSG_IF(m_send.count(spec.qp), "RdmaEndpoint: qp " << spec.qp << " already sending");
    auto q = std::make_unique<SendQp>();
    q->spec = spec;
    q->packets = static_cast<uint32_t>((spec.bytes + m_mtu - 1) / m_mtu);
    q->rate = q->target = spec.lineRate;
    q->nextAvail = Simulator::Now();
    q->lastProgress = Simulator::Now();
    NS_LOG_LOGIC("qp " << spec.qp << " starts sending " << spec.bytes << " bytes in " << q->packets
                       << " packets to " << spec.dst << " at " << spec.lineRate << " bytes/s"
                       << (spec.readResponse ? " (READ response)" : ""));
    m_active.push_back(q.get());
    m_send.emplace(spec.qp, std::move(q));
    m_device->TryTransmit();
}

void
RdmaEndpoint::StartRead(const RdmaSendSpec& spec)
{
    NS_LOG_FUNCTION(this << spec.qp << spec.dst << spec.srcNic << spec.dstNic << spec.bytes
                         << spec.lineRate << spec.readResponse);
    PendingRead& r = m_reads[spec.qp];
    r.spec = spec;
    SendControl(RdmaHeader::READ_REQ,
                spec.qp,
                0,
                spec.dst,
                spec.dstNic,
                spec.srcNic,
                false,
                spec.bytes);
    r.timer = Simulator::Schedule(m_rto, &RdmaEndpoint::ReadTimeout, this, spec.qp);
}

void
RdmaEndpoint::ReadTimeout(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_reads.find(qp);
    if (it == m_reads.end() || it->second.dataSeen)
    {
        return; // once data flows, the responder's queue pair makes it reliable
    }
    const RdmaSendSpec& s = it->second.spec;
    NS_LOG_DEBUG("qp " << qp << " READ request timed out after " << m_rto.As(Time::US)
                       << " without data: asking " << s.dst << " again");
    SendControl(RdmaHeader::READ_REQ, qp, 0, s.dst, s.dstNic, s.srcNic, false, s.bytes);
    it->second.timer = Simulator::Schedule(m_rto, &RdmaEndpoint::ReadTimeout, this, qp);
}

Ptr<Packet>
RdmaEndpoint::Pull(uint8_t pausedMask, uint8_t* prio)
{
    NS_LOG_FUNCTION(this << pausedMask);
    if (m_active.empty() || (pausedMask & (1u << m_dataPriority)))
    {
        return nullptr; // a RESUME restarts the device, which pulls again
    }
    Time now = Simulator::Now();
    Time earliest = Time::Max();
    std::size_t n = m_active.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        std::size_t idx = (m_rr + i) % n;
        SendQp& q = *m_active[idx];
        if (q.sndNxt >= q.packets)
        {
            continue;
        }
        if (q.nextAvail > now)
        {
            earliest = std::min(earliest, q.nextAvail);
            continue;
        }
        m_rr = static_cast<uint32_t>(idx + 1);
        uint64_t offset = static_cast<uint64_t>(q.sndNxt) * m_mtu;
        uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, q.spec.bytes - offset));
        RdmaHeader h;
        h.type = RdmaHeader::DATA;
        h.flags = q.spec.readResponse ? RdmaHeader::READ_RESP : 0;
        h.priority = m_dataPriority;
        h.src = m_vertex;
        h.dst = q.spec.dst;
        h.srcNic = q.spec.srcNic;
        h.dstNic = q.spec.dstNic;
        h.qp = q.spec.qp;
        h.psn = q.sndNxt;
        h.payload = payload;
        h.length = q.spec.bytes;
        Ptr<Packet> p = Create<Packet>(payload);
        p->AddHeader(h);
        if (q.sndNxt < q.highestSent)
        {
            NS_LOG_LOGIC("qp " << q.spec.qp << " retransmits psn " << q.sndNxt << " (highest sent "
                               << q.highestSent << ")");
            ++m_retransmitted;
        }
        ++q.sndNxt;
        q.highestSent = std::max(q.highestSent, q.sndNxt);
        q.nextAvail = now + Seconds(WireBytes(payload) / q.rate);
        if (q.limited && m_byteCounter > 0)
        {
            // DCQCN byte counter: one increase event per B bytes sent while rate limited
            q.bytesSinceEvent += WireBytes(payload);
            if (q.bytesSinceEvent >= static_cast<double>(m_byteCounter))
            {
                q.bytesSinceEvent -= static_cast<double>(m_byteCounter);
                ++q.byteStage;
                RateIncrease(q);
            }
        }
        if (q.rtoEvent.IsExpired())
        {
            q.lastProgress = now;
            q.rtoEvent = Simulator::Schedule(m_rto, &RdmaEndpoint::CheckRto, this, q.spec.qp);
        }
        *prio = m_dataPriority;
        return p;
    }
    if (earliest != Time::Max())
    {
        ScheduleWake(earliest);
    }
    return nullptr;
}

void
RdmaEndpoint::ScheduleWake(Time at)
{
    NS_LOG_FUNCTION(this << at);
    if (!m_wake.IsExpired() && m_wake.GetTs() <= static_cast<uint64_t>(at.GetTimeStep()))
    {
        return;
    }
    m_wake.Cancel();
    m_wake = Simulator::Schedule(at - Simulator::Now(), &RdmaEndpoint::Wake, this);
}

void
RdmaEndpoint::Wake()
{
    NS_LOG_FUNCTION(this);
    m_device->TryTransmit();
}

void
RdmaEndpoint::Receive(LosslessNetDevice*, Ptr<Packet>, const RdmaHeader& h)
{
    NS_LOG_FUNCTION(this << h);
    NS_ABORT_MSG_IF(h.dst != m_vertex,
                    "RdmaEndpoint " << m_vertex << ": misrouted packet for " << h.dst);
    switch (h.type)
    {
    case RdmaHeader::DATA:
        ReceiveData(h);
        break;
    case RdmaHeader::ACK:
    case RdmaHeader::NACK:
        ReceiveAck(h);
        break;
    case RdmaHeader::READ_REQ:
        ReceiveReadRequest(h);
        break;
    default:
        NS_ABORT_MSG("RdmaEndpoint: unexpected packet type " << +h.type);
    }
}

void
RdmaEndpoint::SendControl(uint8_t type,
                          uint32_t qp,
                          uint32_t psn,
                          uint32_t to,
                          uint32_t toNic,
                          uint32_t fromNic,
                          bool ece,
                          uint64_t length)
{
    NS_LOG_FUNCTION(this << type << qp << psn << to << toNic << fromNic << ece << length);
    RdmaHeader h;
    h.type = type;
    h.flags = ece ? RdmaHeader::ECE : 0;
    h.priority = m_ackPriority;
    h.src = m_vertex;
    h.dst = to;
    h.srcNic = fromNic;
    h.dstNic = toNic;
    h.qp = qp;
    h.psn = psn;
    h.length = length;
    Ptr<Packet> p = Create<Packet>(0);
    p->AddHeader(h);
    m_device->Enqueue(p, h, nullptr);
}

void
RdmaEndpoint::ReceiveData(const RdmaHeader& h)
{
    NS_LOG_FUNCTION(this << h);
    RecvQp& r = m_recv[h.qp];
    r.length = h.length;
    if (h.flags & RdmaHeader::READ_RESP)
    {
        auto it = m_reads.find(h.qp);
        if (it != m_reads.end())
        {
            it->second.dataSeen = true;
        }
    }
    if (h.flags & RdmaHeader::CE)
    {
        r.cePending = true;
    }
    if (r.done || h.psn < r.expected)
    {
        // Duplicate (a retransmission after a lost ACK): re-acknowledge.
        NS_LOG_LOGIC("qp " << h.qp << " duplicate psn " << h.psn << " (expected " << r.expected
                           << "): re-acknowledging");
        SendControl(RdmaHeader::ACK, h.qp, r.expected, h.src, h.srcNic, h.dstNic, EchoCe(r), 0);
        return;
    }
    if (h.psn > r.expected)
    {
        // Go-back-N receiver: drop out-of-order data, NACK the gap once.
        NS_LOG_LOGIC("qp " << h.qp << " out-of-order psn " << h.psn << " (expected " << r.expected
                           << "): dropped" << (r.nackSent ? "" : ", NACK sent"));
        if (!r.nackSent)
        {
            SendControl(RdmaHeader::NACK,
                        h.qp,
                        r.expected,
                        h.src,
                        h.srcNic,
                        h.dstNic,
                        EchoCe(r),
                        0);
            r.nackSent = true;
        }
        return;
    }
    ++r.expected;
    r.nackSent = false;
    r.bytes += h.payload;
    m_deliveredBytes += h.payload;
    bool last = r.bytes >= r.length;
    if (last || r.expected % m_ackInterval == 0)
    {
        SendControl(RdmaHeader::ACK, h.qp, r.expected, h.src, h.srcNic, h.dstNic, EchoCe(r), 0);
    }
    if (last)
    {
        NS_LOG_LOGIC("qp " << h.qp << " delivered all " << r.length << " bytes from " << h.src);
        r.done = true;
        auto it = m_reads.find(h.qp);
        if (it != m_reads.end())
        {
            it->second.timer.Cancel();
            m_reads.erase(it);
        }
        if (m_deliveredHook)
        {
            m_deliveredHook(h.qp, r.length);
        }
    }
}

bool
RdmaEndpoint::EchoCe(RecvQp& r)
{
    NS_LOG_FUNCTION(this << r.cePending << r.lastCnp);
    // Notification point: a pending CE mark rides the next ACK as ECE (the CNP), at most one
    // per CnpInterval per queue pair; marks in between are covered by that notification.
    if (!r.cePending)
    {
        return false;
    }
    Time now = Simulator::Now();
    if (r.lastCnp >= Time(0) && now - r.lastCnp < m_cnpInterval)
    {
        return false; // stays pending: echoed by the first ACK after the interval
    }
    NS_LOG_LOGIC("CE mark echoed as ECE (CNP)");
    r.lastCnp = now;
    r.cePending = false;
    return true;
}

void
RdmaEndpoint::ReceiveAck(const RdmaHeader& h)
{
    NS_LOG_FUNCTION(this << h);
    auto it = m_send.find(h.qp);
    if (it == m_send.end())
    {
        NS_LOG_LOGIC("qp " << h.qp << " late ACK/NACK psn " << h.psn << " ignored");
        return; // late ACK of a finished queue pair
    }
    SendQp& q = *it->second;
    if (h.flags & RdmaHeader::ECE)
    {
        OnCongestionNotification(q);
    }
    if (h.psn > q.sndUna)
    {
        q.sndUna = h.psn;
        q.lastProgress = Simulator::Now();
        q.sndNxt = std::max(q.sndNxt, q.sndUna);
    }
    if (q.sndUna >= q.packets)
    {
        FinishSend(h.qp);
        return;
    }
    if (h.type == RdmaHeader::NACK && h.psn < q.sndNxt)
    {
        NS_LOG_LOGIC("qp " << h.qp << " NACK psn " << h.psn << ": going back from " << q.sndNxt);
        q.sndNxt = h.psn; // go back N
        m_device->TryTransmit();
    }
}

void
RdmaEndpoint::ReceiveReadRequest(const RdmaHeader& h)
{
    NS_LOG_FUNCTION(this << h);
    if (!m_readsServed.insert(h.qp).second)
    {
        NS_LOG_LOGIC("qp " << h.qp << " duplicate READ request from " << h.src << " ignored");
        return; // duplicate request, already answering
    }
    RdmaSendSpec spec;
    spec.qp = h.qp;
    spec.dst = h.src;
    spec.srcNic = h.dstNic;
    spec.dstNic = h.srcNic;
    spec.bytes = h.length;
    spec.readResponse = true;
    NS_ABORT_MSG_IF(!m_readRate, "RdmaEndpoint: no READ response rate configured");
    spec.lineRate = m_readRate(h.src, h.dstNic);
    NS_LOG_LOGIC("qp " << h.qp << " READ request from " << h.src << " for " << h.length
                       << " bytes");
    StartSend(spec);
}

void
RdmaEndpoint::CheckRto(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_send.find(qp);
    if (it == m_send.end())
    {
        return;
    }
    SendQp& q = *it->second;
    if (q.sndUna >= q.highestSent)
    {
        return; // nothing outstanding; the next send re-arms the timer
    }
    Time deadline = q.lastProgress + m_rto;
    Time now = Simulator::Now();
    if (now < deadline)
    {
        q.rtoEvent = Simulator::Schedule(deadline - now, &RdmaEndpoint::CheckRto, this, qp);
        return;
    }
    NS_LOG_DEBUG("qp " << qp << " timeout, back to " << q.sndUna);
    q.sndNxt = q.sndUna;
    q.lastProgress = now;
    q.rtoEvent = Simulator::Schedule(m_rto, &RdmaEndpoint::CheckRto, this, qp);
    m_device->TryTransmit();
}

void
RdmaEndpoint::FinishSend(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_send.find(qp);
    SendQp* q = it->second.get();
    q->rtoEvent.Cancel();
    q->decreaseEvent.Cancel();
    q->increaseEvent.Cancel();
    m_active.erase(std::find(m_active.begin(), m_active.end(), q));
    m_send.erase(it);
    NS_LOG_LOGIC("qp " << qp << " fully acknowledged");
    if (m_ackedHook)
    {
        m_ackedHook(qp);
    }
}

// ---- DCQCN reaction point (Mellanox variant, as in HPCC's rdma-hw) ----

void
RdmaEndpoint::OnCongestionNotification(SendQp& q)
{
    NS_LOG_FUNCTION(this << q.spec.qp);
    if (!m_dcqcn)
    {
        return;
    }
    ++m_cnps;
    Time now = Simulator::Now();
    if (!q.cnpSeen)
    {
        q.cnpSeen = true;
        q.cnpEpoch = now;
        q.alpha = 1.0;
        q.alphaWindow = 0;
        q.cnpInWindow = false;
        q.rate = std::max(m_minRate.GetBitRate() / 8.0, q.rate * m_rateOnFirstCnp);
        q.target = q.rate;
        q.decreasePending = true;
        NS_LOG_LOGIC("DCQCN: qp " << q.spec.qp << " first CNP, rate " << q.rate << " bytes/s");
        q.decreaseEvent =
            Simulator::Schedule(m_decreaseInterval, &RdmaEndpoint::DecreaseCheck, this, q.spec.qp);
        return;
    }
    AdvanceAlpha(q);
    q.cnpInWindow = true;
    q.decreasePending = true;
    if (q.decreaseEvent.IsExpired())
    {
        // Decrease checks tick every interval from the first CNP; only the next one matters.
        int64_t k = (now - q.cnpEpoch).GetTimeStep() / m_decreaseInterval.GetTimeStep() + 1;
        Time at = q.cnpEpoch + m_decreaseInterval * k;
        q.decreaseEvent =
            Simulator::Schedule(at - now, &RdmaEndpoint::DecreaseCheck, this, q.spec.qp);
    }
}

void
RdmaEndpoint::AdvanceAlpha(SendQp& q)
{
    NS_LOG_FUNCTION(this << q.spec.qp);
    // Equivalent to HPCC's alpha timer firing every AlphaResumeInterval since the first CNP,
    // computed on demand instead of with one event per interval.
    int64_t w = (Simulator::Now() - q.cnpEpoch).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (w <= q.alphaWindow)
    {
        return;
    }
    q.alpha = (1 - m_g) * q.alpha + (q.cnpInWindow ? m_g : 0.0);
    int64_t idle = w - q.alphaWindow - 1;
    if (idle > 0)
    {
        q.alpha *= std::pow(1 - m_g, static_cast<double>(idle));
    }
    q.alphaWindow = w;
    q.cnpInWindow = false;
}

void
RdmaEndpoint::DecreaseCheck(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_send.find(qp);
    if (it == m_send.end())
    {
        return;
    }
    SendQp& q = *it->second;
    if (!q.decreasePending)
    {
        return;
    }
    AdvanceAlpha(q);
    // The target follows the rate unless no increase happened since the last cut (Mellanox
    // CLAMP_TGT_RATE 0; ClampTargetRate resets it on every cut).
    if (m_clampTargetRate || q.timeStage != 0 || q.byteStage != 0)
    {
        q.target = q.rate;
    }
    q.rate = std::max(m_minRate.GetBitRate() / 8.0, q.rate * (1 - q.alpha / 2));
    q.timeStage = 0;
    q.byteStage = 0;
    q.bytesSinceEvent = 0;
    q.limited = true;
    q.decreasePending = false;
    ++m_rateDecreases;
    NS_LOG_LOGIC("DCQCN: qp " << qp << " rate cut to " << q.rate << " bytes/s (alpha " << q.alpha
                              << ", target " << q.target << ")");
    m_rateTrace(qp, q.rate);
    q.increaseEvent.Cancel();
    q.increaseEvent =
        Simulator::Schedule(m_increaseInterval, &RdmaEndpoint::IncreaseTimer, this, qp);
}

void
RdmaEndpoint::IncreaseTimer(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_send.find(qp);
    if (it == m_send.end())
    {
        return;
    }
    SendQp& q = *it->second;
    ++q.timeStage;
    RateIncrease(q);
    if (q.limited)
    {
        q.increaseEvent =
            Simulator::Schedule(m_increaseInterval, &RdmaEndpoint::IncreaseTimer, this, qp);
    }
}

void
RdmaEndpoint::RateIncrease(SendQp& q)
{
    NS_LOG_FUNCTION(this << q.spec.qp);
    // DCQCN reaction point (SIGCOMM'15, Fig. 5): after a cut the timer (T) and the byte
    // counter (BC) count expiries; both at most F: fast recovery towards the target; either
    // beyond F: additive increase of the target; both beyond F: hyper increase. Every event
    // moves the rate halfway to the target.
    double line = q.spec.lineRate;
    uint32_t f = m_fastRecoveryTimes;
    uint32_t t = q.timeStage;
    uint32_t bc = m_byteCounter > 0 ? q.byteStage : q.timeStage; // timer only: T counts twice
    if (std::max(t, bc) <= f)
    {
        // fast recovery: the target stays, the rate halves its distance to it
    }
    else if (std::min(t, bc) > f)
    {
        double i = m_hyperIncreaseScaled ? static_cast<double>(std::min(t, bc) - f) : 1.0;
        q.target = std::min(line, q.target + i * m_rhai.GetBitRate() / 8.0);
    }
    else
    {
        q.target = std::min(line, q.target + m_rai.GetBitRate() / 8.0);
    }
    q.rate = std::min(line, (q.rate + q.target) / 2);
    ++m_rateIncreases;
    if (q.target >= line && q.rate >= line * (1 - 1e-6))
    {
        q.rate = line; // back at line rate: nothing left to increase
        q.limited = false;
        q.increaseEvent.Cancel();
    }
    NS_LOG_LOGIC("DCQCN: qp " << q.spec.qp << " rate up to " << q.rate << " bytes/s (target "
                              << q.target << ", T " << t << ", BC " << bc << ")");
    m_rateTrace(q.spec.qp, q.rate);
}

} // namespace ns3
