/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-worker.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ns3-compat.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/split-mix.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaWorker");
NS_OBJECT_ENSURE_REGISTERED(InaWorker);

namespace
{
constexpr uint16_t IPV4_PROTOCOL = 0x0800;
constexpr uint32_t NO_REMAP = std::numeric_limits<uint32_t>::max();

double
Unit(uint64_t h)
{
    return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0); // [0, 1)
}
} // namespace

double
InaGradient::Value(uint64_t seed,
                   uint16_t job,
                   uint32_t worker,
                   uint32_t iteration,
                   uint64_t element,
                   double amplitude,
                   double outlierProbability,
                   double outlierMagnitude)
{
    uint64_t h = SplitMix64(
        seed ^
        SplitMix64((static_cast<uint64_t>(job) << 48) ^ (static_cast<uint64_t>(worker) << 40) ^
                   SplitMix64((static_cast<uint64_t>(iteration) << 40) ^ element)));
    double v;
    if (outlierProbability > 0 && Unit(SplitMix64(h)) < outlierProbability)
    {
        v = (h & 1) ? outlierMagnitude : -outlierMagnitude;
    }
    else
    {
        v = amplitude * (2.0 * Unit(h) - 1.0);
    }
    return static_cast<float>(v); // gradients are float32
}

TypeId
InaWorker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaWorker")
            .SetParent<Application>()
            .SetGroupName("Aicluster")
            .AddConstructor<InaWorker>()
            .AddAttribute("Job",
                          "Job id",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaWorker::m_job),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Rank",
                          "Worker rank within the job (its bitmap bit)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaWorker::m_rank),
                          MakeUintegerChecker<uint32_t>(0, 31))
            .AddAttribute("FanIn",
                          "Workers of the job [workers]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaWorker::m_fanIn),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("Address",
                          "This worker's address",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaWorker::m_addr),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("PsAddress",
                          "Address of the job's parameter server",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaWorker::m_psAddr),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("GradientValues",
                          "Gradient elements (float32) synchronised per iteration [values]",
                          UintegerValue(62 * 64),
                          MakeUintegerAccessor(&InaWorker::m_values),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Iterations",
                          "Training iterations to run [iterations]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaWorker::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeTime",
                          "Compute time before each iteration's sync [s]",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&InaWorker::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("IterationJitter",
                          "Straggling: each iteration's sync starts after ComputeTime plus a "
                          "uniform random delay in [0, IterationJitter] [s]",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&InaWorker::m_jitter),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PacketJitter",
                          "Host/NIC jitter: each packet reaches the NIC after an exponential "
                          "delay of this mean, in send order (seeded by Seed, job and rank); "
                          "0: none [s]",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&InaWorker::m_packetJitter),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ValuesPerPacket",
                          "Values per packet (ATP 62, SwitchML 64) [values]",
                          UintegerValue(62),
                          MakeUintegerAccessor(&InaWorker::m_valuesPerPacket),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("Window",
                          "Outstanding chunks beyond the oldest unacknowledged one [chunks] "
                          "(also the window slots the job cycles through the pool)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&InaWorker::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CongestionControl",
                          "ATP's ECN window control (Retransmit Window only): at the result "
                          "of the chunk that closes the current window, halve the congestion "
                          "window if that result carries ECN, else add CcIncrease bytes; the "
                          "window slots stay Window. ATP's public client ships it off "
                          "(CC_ENABLE false) [bool]",
                          BooleanValue(false),
                          MakeBooleanAccessor(&InaWorker::m_cc),
                          MakeBooleanChecker())
            .AddAttribute("CcMaxWindow",
                          "Largest congestion window (ATP's MAX_BYTES: 100 packets) [chunks]",
                          UintegerValue(100),
                          MakeUintegerAccessor(&InaWorker::m_ccMaxWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CcIncrease",
                          "Additive increase per window without ECN (ATP: 1500) [bytes]",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&InaWorker::m_ccIncrease),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Timeout",
                          "Resend the window when no result arrived for this long [s] "
                          "(ATP 200 us, SwitchML 10 ms)",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&InaWorker::m_timeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Retransmit",
                          "Loss recovery: Window (ATP: after Timeout without any result, resend "
                          "every unacknowledged chunk of the window) or Slot (p4app-switchML: "
                          "a timer of Timeout per window slot, reset at each send, resends that "
                          "slot's chunk only; a slot's next chunk goes out when its result "
                          "arrives)",
                          EnumValue(WINDOW),
                          MakeAiclusterEnumAccessor(&InaWorker::m_retransmit),
                          MakeEnumChecker(WINDOW, "Window", SLOT, "Slot"))
            .AddAttribute("FirstTimeout",
                          "Timeout before the first result of an iteration [s] (ATP 50 ms)",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&InaWorker::m_firstTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Scale",
                          "Quantization scale: int32 value = round(float * Scale) [1/unit]",
                          DoubleValue(1e6),
                          MakeDoubleAccessor(&InaWorker::m_scale),
                          MakeDoubleChecker<double>(1e-30))
            .AddAttribute("Seed",
                          "Seed of the gradient values",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaWorker::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("GradientAmplitude",
                          "Gradient elements are uniform in [-a, a] [gradient units]",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&InaWorker::m_amplitude),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("OutlierProbability",
                          "Chance that an element is an outlier of OutlierMagnitude [0..1]",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&InaWorker::m_outlierProb),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("OutlierMagnitude",
                          "Magnitude of outliers [gradient units]",
                          DoubleValue(1e4),
                          MakeDoubleAccessor(&InaWorker::m_outlierMag),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("HeaderOverheadBytes",
                          "Bytes of a packet besides the values, as on the wire "
                          "(Ethernet+IPv4+UDP+INA header; ATP: 308 - 248 = 60) [bytes]",
                          UintegerValue(60),
                          MakeUintegerAccessor(&InaWorker::m_overhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Priority",
                          "Static priority of the job (larger = more important)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaWorker::m_staticPriority),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Verify",
                          "Check every received sum against the exact float sum of all workers",
                          BooleanValue(true),
                          MakeBooleanAccessor(&InaWorker::m_verify),
                          MakeBooleanChecker())
            .AddTraceSource("IterationDone",
                            "An iteration's sync finished: (job, rank, iteration)",
                            MakeTraceSourceAccessor(&InaWorker::m_iterationTrace),
                            "ns3::InaWorker::IterationCallback");
    return tid;
}

InaWorker::InaWorker()
    : m_jitterRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

int64_t
InaWorker::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_jitterRng->SetStream(stream);
    return 1;
}

Time
InaWorker::ComputePhase()
{
    NS_LOG_FUNCTION(this);
    if (m_jitter.IsZero())
    {
        return m_computeTime;
    }
    return m_computeTime + Seconds(m_jitterRng->GetValue(0, m_jitter.GetSeconds()));
}

InaWorker::~InaWorker()
{
    NS_LOG_FUNCTION(this);
}

void
InaWorker::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_policy = nullptr;
    m_device = nullptr;
    Application::DoDispose();
}

void
InaWorker::SetPolicy(Ptr<InaAllocationPolicy> policy, const InaJobSlots& slots)
{
    NS_LOG_FUNCTION(this << policy << slots.poolSize << slots.window << slots.partitionBase);
    m_policy = policy;
    m_slots = slots;
}

void
InaWorker::SetDevice(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    m_device = device;
}

void
InaWorker::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_policy || !m_device, "InaWorker: SetPolicy and SetDevice before start");
    NS_ABORT_MSG_IF(m_rank >= m_fanIn,
                    "InaWorker: Rank " << m_rank << " must be below FanIn " << m_fanIn);
    m_window = m_slots.window;
    m_chunks = static_cast<uint32_t>((m_values + m_valuesPerPacket - 1) / m_valuesPerPacket);
    m_remap.assign(m_window, NO_REMAP);
    uint32_t fixed = InaHeader::FixedSize() + 2; // + PPP header
    m_pad = m_overhead > fixed ? m_overhead - fixed : 0;
    m_progress.staticPriority = m_staticPriority;
    m_progress.remainingChunks = static_cast<uint64_t>(m_chunks) * m_iterations;
    m_progress.chunksPerIteration = m_chunks;
    GetNode()->RegisterProtocolHandler(MakeCallback(&InaWorker::Receive, this), 0, m_device, false);
    m_start = Simulator::Now();
    m_computeEvent = Simulator::Schedule(ComputePhase(), &InaWorker::StartIteration, this);
}

void
InaWorker::StopApplication()
{
    NS_LOG_FUNCTION(this);
    Simulator::Remove(m_timer); // not Cancel: a cancelled event still advances the clock
    ClearSlotTimers();
    m_computeEvent.Cancel();
}

void
InaWorker::ClearSlotTimers()
{
    NS_LOG_FUNCTION(this);
    for (auto& t : m_slotTimers)
    {
        Simulator::Remove(t);
    }
}

void
InaWorker::StartIteration()
{
    NS_LOG_FUNCTION(this);
    m_acked.assign(m_chunks, 0);
    m_lastAck = 0;
    m_next = 0;
    m_inSync = true;
    m_gotResult = false;
    m_lastRx = Simulator::Now();
    // ATP's client starts every tensor with a fresh CC_manager at its full window.
    m_cwndBytes = static_cast<uint64_t>(m_window) * (4ull * m_valuesPerPacket + m_overhead);
    m_ccWindow = m_window;
    m_finishWindow = m_window - 1;
    if (m_retransmit == SLOT)
    {
        ClearSlotTimers();
        m_slotTimers.assign(m_window, EventId());
        SendMore(); // the first chunk of every slot; each slot's timer runs from its send
        return;
    }
    SendMore();
    m_timer = Simulator::Schedule(m_firstTimeout, &InaWorker::OnTimer, this);
}

uint32_t
InaWorker::AdjustCongestionWindow(uint64_t& cwndBytes,
                                  bool ecn,
                                  uint32_t packetBytes,
                                  uint32_t increaseBytes,
                                  uint32_t maxPackets)
{
    NS_LOG_FUNCTION(cwndBytes << ecn << packetBytes << increaseBytes << maxPackets);
    if (ecn)
    {
        cwndBytes /= 2;
    }
    else
    {
        cwndBytes += increaseBytes;
    }
    const uint64_t pkt = std::max<uint32_t>(1, packetBytes);
    cwndBytes = std::max<uint64_t>(cwndBytes, pkt);
    cwndBytes = std::min<uint64_t>(cwndBytes, static_cast<uint64_t>(maxPackets) * pkt);
    cwndBytes = cwndBytes / pkt * pkt;
    return static_cast<uint32_t>(cwndBytes / pkt);
}

void
InaWorker::SendMore()
{
    NS_LOG_FUNCTION(this);
    const uint32_t window = m_cc && m_retransmit == WINDOW ? m_ccWindow : m_window;
    while (m_next < m_chunks && m_next < m_lastAck + window)
    {
        SendChunk(m_next++, false);
    }
}

double
InaWorker::Gradient(uint32_t worker, uint64_t element) const
{
    return InaGradient::Value(m_seed,
                              m_job,
                              worker,
                              m_iter,
                              element,
                              m_amplitude,
                              m_outlierProb,
                              m_outlierMag);
}

uint32_t
InaWorker::IndexOf(uint32_t seq) const
{
    NS_LOG_FUNCTION(this << seq);
    uint32_t slot = seq % m_window;
    if (m_policy->FollowsRemap() && m_remap[slot] != NO_REMAP)
    {
        return m_remap[slot];
    }
    return m_policy->InitialIndex(m_job, seq, m_slots);
}

void
InaWorker::SendChunk(uint32_t chunk, bool resend)
{
    NS_LOG_FUNCTION(this << chunk << resend);
    InaHeader h;
    h.src = m_addr;
    h.dst = m_psAddr;
    h.job = m_job;
    h.seq = m_iter * m_chunks + chunk;
    h.worker = static_cast<uint8_t>(m_rank);
    h.fanIn = static_cast<uint8_t>(m_fanIn);
    h.bitmap = 1u << m_rank;
    h.aggIndex = IndexOf(h.seq);
    h.priority = m_policy->Priority(m_progress);
    h.values.resize(m_valuesPerPacket);
    // A quantized value above INT32_MAX / fanIn could make the sum of fanIn values wrap.
    const double bound = static_cast<double>(std::numeric_limits<int32_t>::max() / m_fanIn);
    bool overflow = false;
    const uint64_t first = static_cast<uint64_t>(chunk) * m_valuesPerPacket;
    for (uint32_t i = 0; i < m_valuesPerPacket; ++i)
    {
        double g = first + i < m_values ? Gradient(m_rank, first + i) : 0.0;
        double q = std::nearbyint(g * m_scale);
        if (std::fabs(q) > bound)
        {
            overflow = true;
        }
        h.values[i] = overflow ? 0 : static_cast<int32_t>(q);
    }
    if (overflow)
    {
        NS_LOG_LOGIC("chunk " << chunk << " seq " << h.seq
                              << ": a value exceeds the int32 sum bound, sent as float32");
        for (uint32_t i = 0; i < m_valuesPerPacket; ++i)
        {
            float f = first + i < m_values ? static_cast<float>(Gradient(m_rank, first + i)) : 0.f;
            std::memcpy(&h.values[i], &f, sizeof(f));
        }
        h.flags |= InaHeader::FLAG_OVERFLOW;
    }
    if (resend)
    {
        h.flags |= InaHeader::FLAG_RESEND;
        ++m_resends;
        NS_LOG_LOGIC("job " << m_job << " worker " << m_rank << " resends chunk " << chunk
                            << " seq " << h.seq << " at aggregator " << h.aggIndex);
    }
    else
    {
        ++m_sent;
        m_overflows += overflow ? 1 : 0;
    }
    Ptr<Packet> p = Create<Packet>(m_pad);
    p->AddHeader(h);
    if (m_packetJitter.IsPositive())
    {
        // The host stack and PCIe add a random delay; packets keep their order.
        uint64_t r = SplitMix64(m_seed ^ SplitMix64((static_cast<uint64_t>(m_job) << 40) ^
                                                    (static_cast<uint64_t>(m_rank) << 32) ^
                                                    SplitMix64(++m_packetsOut)));
        double delay = -m_packetJitter.GetSeconds() * std::log1p(-Unit(r));
        Time at = std::max(Simulator::Now() + Seconds(delay), m_hostReady);
        m_hostReady = at;
        Simulator::Schedule(at - Simulator::Now(), &InaWorker::Transmit, this, p);
    }
    else
    {
        Transmit(p);
    }
    if (m_retransmit == SLOT)
    {
        EventId& t = m_slotTimers[chunk % m_window];
        Simulator::Remove(t);
        t = Simulator::Schedule(m_timeout, &InaWorker::OnSlotTimer, this, h.seq);
    }
}

void
InaWorker::Transmit(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    m_device->Send(p, m_device->GetBroadcast(), IPV4_PROTOCOL);
}

void
InaWorker::OnSlotTimer(uint32_t seq)
{
    NS_LOG_FUNCTION(this << seq);
    const uint64_t base = static_cast<uint64_t>(m_iter) * m_chunks;
    if (!m_inSync || seq < base || seq >= base + m_chunks || m_acked[seq - base])
    {
        return;
    }
    NS_LOG_DEBUG("job " << m_job << " worker " << m_rank << ": slot timer of seq " << seq
                        << " expired without a result");
    SendChunk(static_cast<uint32_t>(seq - base), true); // re-arms the slot's timer
}

void
InaWorker::Receive(Ptr<NetDevice> /*device*/,
                   Ptr<const Packet> packet,
                   uint16_t /*protocol*/,
                   const Address& /*from*/,
                   const Address& /*to*/,
                   NetDevice::PacketType /*type*/)
{
    NS_LOG_FUNCTION(this << packet);
    InaHeader h;
    packet->PeekHeader(h);
    if (!h.Has(InaHeader::FLAG_RESULT) || h.job != m_job || !m_inSync)
    {
        return;
    }
    const uint64_t base = static_cast<uint64_t>(m_iter) * m_chunks;
    if (h.seq < base || h.seq >= base + m_chunks)
    {
        return; // a late duplicate of an earlier iteration
    }
    uint32_t chunk = h.seq - base;
    m_lastRx = Simulator::Now();
    if (m_retransmit == SLOT)
    {
        m_gotResult = true;
    }
    else if (!m_gotResult)
    {
        // From the first result on, the short timeout applies: bring the timer forward.
        m_gotResult = true;
        Simulator::Remove(m_timer);
        m_timer = Simulator::Schedule(m_timeout, &InaWorker::OnTimer, this);
    }
    if (m_acked[chunk])
    {
        NS_LOG_LOGIC("duplicate result for seq " << h.seq << " ignored");
        return;
    }
    m_acked[chunk] = 1;
    NS_LOG_LOGIC("job " << m_job << " worker " << m_rank << ": result for seq " << h.seq
                        << (h.Has(InaHeader::FLAG_COLLISION) ? " (from the PS, collision)" : "")
                        << ", remap " << h.remap);
    if (m_verify)
    {
        Check(h, chunk);
    }
    if (m_policy->FollowsRemap())
    {
        m_remap[h.seq % m_window] = h.remap;
    }
    if (m_cc && m_retransmit == WINDOW && chunk == m_finishWindow)
    {
        // ATP: the result of the window's last chunk adjusts the window, once per window.
        const bool ecn = h.Has(InaHeader::FLAG_ECN);
        m_ccWindow = AdjustCongestionWindow(m_cwndBytes,
                                            ecn,
                                            4 * m_valuesPerPacket + m_overhead,
                                            m_ccIncrease,
                                            m_ccMaxWindow);
        m_finishWindow += m_ccWindow;
        ++m_adjustments;
        m_ecnDecreases += ecn ? 1 : 0;
    }
    bool fallback = h.Has(InaHeader::FLAG_COLLISION);
    m_fallbacks += fallback ? 1 : 0;
    m_progress.fallbackStreak = fallback ? m_progress.fallbackStreak + 1 : 0;
    ++m_progress.attainedChunks;
    --m_progress.remainingChunks;
    while (m_lastAck < m_chunks && m_acked[m_lastAck])
    {
        ++m_lastAck;
    }
    if (m_retransmit == SLOT)
    {
        // The slot is free again: its timer stops, and its next chunk goes out.
        Simulator::Remove(m_slotTimers[chunk % m_window]);
        if (chunk + m_window < m_chunks)
        {
            SendChunk(chunk + m_window, false);
            m_next = std::max(m_next, chunk + m_window + 1);
        }
        if (m_lastAck < m_chunks)
        {
            return;
        }
    }
    else if (m_lastAck < m_chunks)
    {
        SendMore();
        return;
    }
    // Iteration done.
    NS_LOG_INFO("job " << m_job << " worker " << m_rank << " finished iteration " << m_iter << " ("
                       << m_chunks << " chunks, " << m_resends << " resends so far)");
    m_inSync = false;
    Simulator::Remove(m_timer); // not Cancel: a cancelled event still advances the clock
    ClearSlotTimers();
    m_iterationEnds.push_back(Simulator::Now());
    m_iterationTrace(m_job, m_rank, m_iter);
    ++m_iter;
    if (m_iter < m_iterations)
    {
        m_computeEvent = Simulator::Schedule(ComputePhase(), &InaWorker::StartIteration, this);
    }
    else
    {
        m_finish = Simulator::Now();
    }
}

void
InaWorker::Check(const InaHeader& h, uint32_t chunk)
{
    NS_LOG_FUNCTION(this << h << chunk);
    const uint64_t first = static_cast<uint64_t>(chunk) * m_valuesPerPacket;
    const bool isFloat = h.Has(InaHeader::FLAG_OVERFLOW);
    for (uint32_t i = 0; i < m_valuesPerPacket && first + i < m_values; ++i)
    {
        double exact = 0;
        double magnitude = 0;
        for (uint32_t w = 0; w < m_fanIn; ++w)
        {
            double g = Gradient(w, first + i);
            exact += g;
            magnitude += std::fabs(g);
        }
        double got;
        if (isFloat)
        {
            float f;
            std::memcpy(&f, &h.values[i], sizeof(f));
            got = f;
        }
        else
        {
            got = h.values[i] / m_scale;
        }
        // Rounding each of fanIn values to 1/Scale, plus float32 rounding of a float result.
        double bound = 0.5 * m_fanIn / m_scale + (isFloat ? 1.2e-7 * magnitude : 0) + 1e-12;
        double err = std::fabs(got - exact);
        m_maxErrRatio = std::max(m_maxErrRatio, err / bound);
        ++m_checked;
        m_wrong += err > bound ? 1 : 0;
    }
}

void
InaWorker::OnTimer()
{
    NS_LOG_FUNCTION(this);
    if (!m_inSync)
    {
        return;
    }
    Time timeout = m_gotResult ? m_timeout : m_firstTimeout;
    Time idle = Simulator::Now() - m_lastRx;
    if (idle < timeout)
    {
        m_timer = Simulator::Schedule(timeout - idle, &InaWorker::OnTimer, this);
        return;
    }
    NS_LOG_DEBUG("job " << m_job << " worker " << m_rank << ": timeout after " << idle.As(Time::US)
                        << " idle, resending unacknowledged chunks " << m_lastAck << ".."
                        << m_next);
    for (uint32_t c = m_lastAck; c < m_next; ++c)
    {
        if (!m_acked[c])
        {
            SendChunk(c, true);
        }
    }
    m_lastRx = Simulator::Now();
    m_timer = Simulator::Schedule(m_timeout, &InaWorker::OnTimer, this);
}

uint32_t
InaWorker::GetIterationsDone() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_iterationEnds.size());
}

Time
InaWorker::GetFinishTime() const
{
    NS_LOG_FUNCTION(this);
    return m_finish;
}

Time
InaWorker::GetStartTime() const
{
    NS_LOG_FUNCTION(this);
    return m_start;
}

uint64_t
InaWorker::GetValuesChecked() const
{
    NS_LOG_FUNCTION(this);
    return m_checked;
}

uint64_t
InaWorker::GetValuesWrong() const
{
    NS_LOG_FUNCTION(this);
    return m_wrong;
}

double
InaWorker::GetMaxErrorRatio() const
{
    NS_LOG_FUNCTION(this);
    return m_maxErrRatio;
}

uint64_t
InaWorker::GetChunksSent() const
{
    NS_LOG_FUNCTION(this);
    return m_sent;
}

uint64_t
InaWorker::GetResends() const
{
    NS_LOG_FUNCTION(this);
    return m_resends;
}

uint64_t
InaWorker::GetFallbackResults() const
{
    NS_LOG_FUNCTION(this);
    return m_fallbacks;
}

uint64_t
InaWorker::GetOverflowChunks() const
{
    NS_LOG_FUNCTION(this);
    return m_overflows;
}

const std::vector<Time>&
InaWorker::GetIterationEnds() const
{
    NS_LOG_FUNCTION(this);
    return m_iterationEnds;
}

uint64_t
InaWorker::GetEcnDecreases() const
{
    NS_LOG_FUNCTION(this);
    return m_ecnDecreases;
}

uint64_t
InaWorker::GetWindowAdjustments() const
{
    NS_LOG_FUNCTION(this);
    return m_adjustments;
}

} // namespace ns3
