/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaSwitch");
NS_OBJECT_ENSURE_REGISTERED(InaSwitch);

namespace
{
constexpr uint16_t IPV4_PROTOCOL = 0x0800; // the only payload a PPP device accepts besides IPv6
} // namespace

TypeId
InaSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaSwitch")
            .SetParent<Object>()
            .SetGroupName("Aicluster")
            .AddConstructor<InaSwitch>()
            .AddAttribute("PoolSize",
                          "Aggregators in the switch pool, shared by all jobs [aggregators] "
                          "(ATP: 20000, SwitchML: 8192 incl. shadow copies)",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&InaSwitch::m_poolSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ValuesPerPacket",
                          "int32 values each aggregator holds (ATP 62, SwitchML 64) [values]",
                          UintegerValue(62),
                          MakeUintegerAccessor(&InaSwitch::m_valuesPerPacket),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("PipelinePasses",
                          "Pipeline passes per packet (1 + recirculations) [passes]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaSwitch::m_passes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PassLatency",
                          "Latency of one pipeline pass [s]",
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&InaSwitch::m_passLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("FreeOnResend",
                          "ATP/ESA at a single switch: a resend frees the aggregator holding its "
                          "key after sending its partial sum to the PS, as ATP's switch cleans "
                          "it; false: keep it reserved (delegated) until the PS result passes "
                          "[bool]",
                          BooleanValue(true),
                          MakeBooleanAccessor(&InaSwitch::m_freeOnResend),
                          MakeBooleanChecker())
            .AddAttribute("EcnThreshold",
                          "Mark a packet ECN when the egress queue it joins holds this many "
                          "bytes or more (ATP's p4ml-16 dcqcn.p4: queue depth above 1250 Tofino "
                          "80-byte cells); 0 never marks. Only workers with "
                          "InaWorker::CongestionControl react to it [bytes]",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&InaSwitch::m_ecnThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Aggregation",
                          "Run the aggregation pipeline; false = plain forwarding by address",
                          BooleanValue(true),
                          MakeBooleanAccessor(&InaSwitch::m_aggregate),
                          MakeBooleanChecker())
            .AddAttribute("Policy",
                          "Aggregator allocation policy (SwitchMlPolicy, AtpPolicy, EsaPolicy)",
                          PointerValue(),
                          MakePointerAccessor(&InaSwitch::m_policy),
                          MakePointerChecker<InaAllocationPolicy>())
            .AddTraceSource("Preemption",
                            "An aggregator was taken from a job: (evicted job, evicted seq, "
                            "new job, new seq)",
                            MakeTraceSourceAccessor(&InaSwitch::m_preemptTrace),
                            "ns3::InaSwitch::PreemptionCallback")
            .AddTraceSource("Collision",
                            "A worker packet went to the PS because its aggregator was taken: "
                            "(job, seq)",
                            MakeTraceSourceAccessor(&InaSwitch::m_collisionTrace),
                            "ns3::InaSwitch::KeyCallback")
            .AddTraceSource("Complete",
                            "A key completed in the switch: (job, seq)",
                            MakeTraceSourceAccessor(&InaSwitch::m_completeTrace),
                            "ns3::InaSwitch::KeyCallback");
    return tid;
}

InaSwitch::InaSwitch()
{
    NS_LOG_FUNCTION(this);
}

InaSwitch::~InaSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
InaSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_routes.clear();
    m_defaultRoute = nullptr;
    m_policy = nullptr;
    Object::DoDispose();
}

void
InaSwitch::SetPolicy(Ptr<InaAllocationPolicy> policy)
{
    NS_LOG_FUNCTION(this << policy);
    m_policy = policy;
}

Ptr<InaAllocationPolicy>
InaSwitch::GetPolicy() const
{
    NS_LOG_FUNCTION(this);
    return m_policy;
}

void
InaSwitch::Install(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    NS_ABORT_MSG_IF(!m_policy, "InaSwitch: set a Policy before Install");
    m_pool = std::make_unique<InaAggregatorPool>(m_poolSize, m_valuesPerPacket);
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        node->RegisterProtocolHandler(MakeCallback(&InaSwitch::Receive, this),
                                      0,
                                      node->GetDevice(i),
                                      false);
    }
}

void
InaSwitch::AddRoute(uint16_t addr, Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << addr << device);
    if (m_routes.size() <= addr)
    {
        m_routes.resize(addr + 1);
    }
    m_routes[addr] = device;
}

void
InaSwitch::AddJob(uint16_t job, uint16_t psAddr, const std::vector<uint16_t>& workerAddrs)
{
    NS_LOG_FUNCTION(this << job << psAddr << workerAddrs);
    NS_ABORT_MSG_IF(workerAddrs.empty() || workerAddrs.size() > 32,
                    "InaSwitch: job " << job << " has " << workerAddrs.size()
                                      << " workers; expected 1 to 32 (bitmap width)");
    JobEntry e;
    e.role = SINGLE;
    e.psAddr = psAddr;
    e.workers = workerAddrs;
    e.fanIn = static_cast<uint8_t>(workerAddrs.size());
    m_jobs[job] = e;
}

void
InaSwitch::AddTransitJob(uint16_t job, const std::vector<uint16_t>& workerAddrs)
{
    NS_LOG_FUNCTION(this << job << workerAddrs);
    JobEntry e;
    e.role = TRANSIT;
    e.workers = workerAddrs;
    m_jobs[job] = e;
}

void
InaSwitch::AddFirstLevelJob(uint16_t job,
                            uint16_t psAddr,
                            const std::vector<uint16_t>& localWorkers,
                            uint8_t rackBit,
                            const InaJobSlots& slots)
{
    NS_LOG_FUNCTION(this << job << psAddr << localWorkers << rackBit << slots.poolSize
                         << slots.window << slots.partitionBase);
    NS_ABORT_MSG_IF(localWorkers.empty() || localWorkers.size() > 32 || rackBit >= 32,
                    "InaSwitch: job " << job << " has " << localWorkers.size()
                                      << " local workers and rack bit " << unsigned(rackBit)
                                      << "; expected 1 to 32 workers and a bit below 32");
    JobEntry e;
    e.role = FIRST_LEVEL;
    e.psAddr = psAddr;
    e.workers = localWorkers;
    e.fanIn = static_cast<uint8_t>(localWorkers.size());
    e.rackBit = rackBit;
    e.slots = slots;
    m_jobs[job] = e;
}

void
InaSwitch::AddSecondLevelJob(uint16_t job,
                             uint16_t psAddr,
                             const std::vector<uint16_t>& workerAddrs,
                             uint8_t racks,
                             const InaJobSlots& slots)
{
    NS_LOG_FUNCTION(this << job << psAddr << workerAddrs << racks << slots.poolSize << slots.window
                         << slots.partitionBase);
    NS_ABORT_MSG_IF(workerAddrs.empty() || workerAddrs.size() > 32 || racks < 1 || racks > 32,
                    "InaSwitch: job " << job << " has " << workerAddrs.size() << " workers in "
                                      << unsigned(racks)
                                      << " racks; expected 1 to 32 of each (bitmap width)");
    JobEntry e;
    e.role = SECOND_LEVEL;
    e.psAddr = psAddr;
    e.workers = workerAddrs;
    e.fanIn = racks;
    e.slots = slots;
    m_jobs[job] = e;
}

void
InaSwitch::SetDefaultRoute(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    m_defaultRoute = device;
}

const InaSwitchStats&
InaSwitch::GetStats() const
{
    NS_LOG_FUNCTION(this);
    return m_stats;
}

uint32_t
InaSwitch::GetPoolSize() const
{
    NS_LOG_FUNCTION(this);
    return m_poolSize;
}

uint32_t
InaSwitch::GetInUse() const
{
    NS_LOG_FUNCTION(this);
    return m_pool ? m_pool->InUse() : 0;
}

double
InaSwitch::GetBusyAggregatorSeconds() const
{
    NS_LOG_FUNCTION(this);
    return m_pool ? m_pool->BusySeconds(Simulator::Now()) : 0;
}

double
InaSwitch::GetBusyAggregatorSeconds(Time until) const
{
    NS_LOG_FUNCTION(this << until);
    return m_pool ? m_pool->BusySeconds(until) : 0;
}

double
InaSwitch::GetUsefulAggregatorSeconds() const
{
    NS_LOG_FUNCTION(this);
    return m_pool ? m_pool->UsefulSeconds() : 0;
}

const InaSwitch::JobEntry&
InaSwitch::Job(uint16_t job) const
{
    NS_LOG_FUNCTION(this << job);
    auto it = m_jobs.find(job);
    NS_ABORT_MSG_IF(it == m_jobs.end(), "InaSwitch: packet of undeclared job " << job);
    return it->second;
}

void
InaSwitch::Receive(Ptr<NetDevice> /*device*/,
                   Ptr<const Packet> packet,
                   uint16_t /*protocol*/,
                   const Address& /*from*/,
                   const Address& /*to*/,
                   NetDevice::PacketType /*type*/)
{
    NS_LOG_FUNCTION(this << packet);
    ++m_stats.packetsIn;
    InaHeader h;
    packet->PeekHeader(h);
    if (!m_aggregate || h.type != InaHeader::TYPE_INA || Job(h.job).role == TRANSIT)
    {
        Forward(packet, h);
        return;
    }
    const JobEntry& e = Job(h.job);
    uint32_t pad = packet->GetSize() - h.GetSerializedSize();
    if (h.Has(InaHeader::FLAG_RESULT))
    {
        OnResult(h, pad, e);
    }
    else if (e.role == SECOND_LEVEL)
    {
        if (h.Has(InaHeader::FLAG_PARTIAL))
        {
            OnGradient(h, pad, e);
        }
        else
        {
            OnBypass(h, pad, e);
        }
    }
    else if (h.Has(InaHeader::FLAG_AGGREGATE))
    {
        Forward(packet, h); // another switch's aggregate on its way to the PS
    }
    else
    {
        OnGradient(h, pad, e);
    }
}

void
InaSwitch::Forward(Ptr<const Packet> packet, const InaHeader& h)
{
    NS_LOG_FUNCTION(this << packet << h);
    if (h.Has(InaHeader::FLAG_RESULT) && h.dst == InaHeader::MULTICAST_JOB)
    {
        Replicate(packet, h.job);
        return;
    }
    if (!m_aggregate && !h.Has(InaHeader::FLAG_RESULT) && h.type == InaHeader::TYPE_INA)
    {
        ++m_stats.toPsPackets;
        ++m_stats.fallbackPackets;
        m_stats.toPsBytes += packet->GetSize();
    }
    SendTo(packet->Copy(), h.dst);
}

uint32_t
InaSwitch::IndexOf(const InaHeader& h, const JobEntry& e) const
{
    NS_LOG_FUNCTION(this << h << e.psAddr);
    // At one level the packet carries this switch's index; two levels may lay the job out
    // differently (SwitchML partitions), so the policy maps the chunk to this level.
    uint32_t i =
        e.role == SINGLE ? h.aggIndex : m_policy->LevelIndex(h.job, h.seq, h.aggIndex, e.slots);
    return i % m_pool->Size();
}

bool
InaSwitch::MovesToPs(const InaHeader& h,
                     const InaAggregator& a,
                     bool holds,
                     const JobEntry& e) const
{
    NS_LOG_FUNCTION(this << h << a.seq << holds << e.psAddr);
    if (h.Has(InaHeader::FLAG_OVERFLOW))
    {
        return true;
    }
    if (!h.Has(InaHeader::FLAG_RESEND))
    {
        return false;
    }
    if (m_policy->FlushOnResend())
    {
        return true;
    }
    // SwitchML at a first level: a worker resends a chunk this ToR completed but whose result
    // never came back (the partial or the result was lost above). The ToR holds only its
    // rack's partial, so the PS finishes the chunk.
    const uint32_t bit = 1u << h.worker;
    return e.role == FIRST_LEVEL && holds && !a.delegated && (a.bitmap & bit) != 0 && a.complete &&
           !a.result;
}

void
InaSwitch::Delegate(const InaHeader& h, uint32_t pad, const JobEntry& e)
{
    NS_LOG_FUNCTION(this << h << pad << e.psAddr);
    const uint32_t index = IndexOf(h, e);
    InaAggregator& a = m_pool->At(index);
    if (a.Holds(h.job, h.seq))
    {
        // Hand over what the switch holds, and keep the key delegated so that contributions
        // still in flight follow it to the PS.
        if (!a.delegated && a.count > 0)
        {
            NS_LOG_LOGIC("aggregator " << index << ": flushing job " << a.job << " seq " << a.seq
                                       << " (" << +a.count << "/" << +a.fanIn
                                       << " contributions) to the PS");
            EmitAggregate(a, index, 0, pad);
            ++m_stats.flushes;
        }
        NS_LOG_LOGIC("aggregator " << index << ": job " << h.job << " seq " << h.seq
                                   << " delegated to the PS");
        a.delegated = true;
        return;
    }
    // Nothing held yet: reserve the key as delegated if the policy lets it take the
    // aggregator, so the rest of the key does not build a stranded partial.
    auto d = m_policy->Decide(a, h);
    if (d == InaAllocationPolicy::COLLIDE)
    {
        NS_LOG_LOGIC("aggregator " << index << " busy with job " << a.job << " seq " << a.seq
                                   << ": job " << h.job << " seq " << h.seq
                                   << " not reserved for the PS");
        return;
    }
    if (d == InaAllocationPolicy::PREEMPT && a.count > 0 && !a.complete && !a.delegated)
    {
        NS_LOG_LOGIC("aggregator " << index << ": job " << h.job << " seq " << h.seq
                                   << " preempts job " << a.job << " seq " << a.seq
                                   << ", evicted partial to its PS");
        EmitAggregate(a, index, InaHeader::FLAG_EVICTED, pad);
        ++m_stats.evictedPartials;
    }
    InaAggregator& n =
        m_pool->Allocate(index, h.job, h.seq, e.fanIn, h.priority, e.psAddr, Simulator::Now());
    NS_LOG_LOGIC("aggregator " << index << " reserved for job " << h.job << " seq " << h.seq
                               << ", delegated to the PS");
    n.delegated = true;
}

void
InaSwitch::OnBypass(InaHeader& h, uint32_t pad, const JobEntry& e)
{
    NS_LOG_FUNCTION(this << h << pad << e.psAddr);
    // A rack's contribution that the rack's ToR could not aggregate.
    NS_LOG_LOGIC("bypass from rack: job " << h.job << " seq " << h.seq << " worker " << +h.worker);
    ++m_stats.bypassed;
    const uint32_t index = IndexOf(h, e);
    InaAggregator& a = m_pool->At(index);
    if (a.Holds(h.job, h.seq) && a.result)
    {
        // SwitchML's shadow copy holds the result: only workers that lost it resend. The PS
        // could not finish the key now: the workers that have the result never resend.
        if (!h.Has(InaHeader::FLAG_AGGREGATE))
        {
            EmitResult(a, index, h.src, pad);
        }
        return;
    }
    // Otherwise the spine's partial of this key can no longer complete, so the key moves to
    // the PS as a resend moves it.
    Delegate(h, pad, e);
    if (h.Has(InaHeader::FLAG_AGGREGATE))
    {
        ++m_stats.toPsPackets;
        m_stats.toPsBytes += h.GetSerializedSize() + pad;
        Emit(h, pad, h.dst);
        return;
    }
    ToPs(h, pad, e);
}

void
InaSwitch::OnGradient(InaHeader& h, uint32_t pad, const JobEntry& e)
{
    NS_LOG_FUNCTION(this << h << pad << e.psAddr);
    const uint32_t index = IndexOf(h, e);
    InaAggregator& a = m_pool->At(index);
    const bool holds = a.Holds(h.job, h.seq);
    const uint32_t bit = 1u << h.worker;

    if (MovesToPs(h, a, holds, e))
    {
        if (m_freeOnResend && e.role == SINGLE && m_policy->FlushOnResend() &&
            h.Has(InaHeader::FLAG_RESEND) && !h.Has(InaHeader::FLAG_OVERFLOW))
        {
            // ATP's switch on a resend: whatever the aggregator holds of the key is forced
            // out to the PS and the aggregator is cleaned (freed) for others.
            if (holds)
            {
                if (!a.delegated && a.count > 0 && !a.complete)
                {
                    EmitAggregate(a, index, 0, pad);
                    ++m_stats.flushes;
                }
                NS_LOG_LOGIC("aggregator " << index << ": resend of job " << h.job << " seq "
                                           << h.seq << " flushes and frees it");
                m_pool->Release(index, Simulator::Now());
                ++m_stats.resendFrees;
            }
        }
        else
        {
            Delegate(h, pad, e);
        }
        NS_LOG_LOGIC("job " << h.job << " seq " << h.seq << " worker " << +h.worker
                            << (h.Has(InaHeader::FLAG_OVERFLOW) ? " overflow" : " resend")
                            << ": to the PS");
        ToPs(h, pad, e);
        return;
    }

    if (holds)
    {
        if (a.delegated)
        {
            ToPs(h, pad, e);
        }
        else if ((a.bitmap & bit) == 0)
        {
            Accumulate(a, index, h, pad, e);
        }
        else if (a.result && !h.Has(InaHeader::FLAG_PARTIAL))
        {
            EmitResult(a, index, h.src, pad); // the worker lost the multicast result
        }
        return; // otherwise a duplicate of a contribution already in
    }

    switch (m_policy->Decide(a, h))
    {
    case InaAllocationPolicy::COLLIDE:
        NS_LOG_LOGIC("collision at aggregator " << index << " (job " << a.job << " seq " << a.seq
                                                << "): job " << h.job << " seq " << h.seq
                                                << " worker " << +h.worker << " goes to the PS");
        h.flags |= InaHeader::FLAG_COLLISION;
        ++m_stats.collisions;
        m_collisionTrace(h.job, h.seq);
        ToPs(h, pad, e);
        return;
    case InaAllocationPolicy::PREEMPT:
        NS_LOG_LOGIC("preemption at aggregator "
                     << index << ": job " << h.job << " seq " << h.seq << " (priority "
                     << h.priority << ") evicts job " << a.job << " seq " << a.seq << " (priority "
                     << a.priority << ", " << +a.count << "/" << +a.fanIn << " in)");
        ++m_stats.preemptions;
        m_preemptTrace(a.job, a.seq, h.job, h.seq);
        if (a.count > 0 && !a.complete && !a.delegated)
        {
            // The evicted partial sum is never lost: its PS completes the key.
            EmitAggregate(a, index, InaHeader::FLAG_EVICTED, pad);
            ++m_stats.evictedPartials;
        }
        else if (a.complete)
        {
            ++m_stats.earlyReleases; // its aggregate is at the PS already
        }
        break;
    case InaAllocationPolicy::ALLOCATE:
        break;
    }
    InaAggregator& n =
        m_pool->Allocate(index, h.job, h.seq, e.fanIn, h.priority, e.psAddr, Simulator::Now());
    NS_LOG_LOGIC("aggregator " << index << " allocated to job " << h.job << " seq " << h.seq
                               << " (fan-in " << +e.fanIn << ")");
    ++m_stats.allocations;
    Accumulate(n, index, h, pad, e);
}

void
InaSwitch::Accumulate(InaAggregator& a,
                      uint32_t index,
                      const InaHeader& h,
                      uint32_t pad,
                      const JobEntry& e)
{
    NS_LOG_FUNCTION(this << a.job << a.seq << index << h << pad << e.psAddr);
    const size_t n = std::min(a.sums.size(), h.values.size());
    for (size_t i = 0; i < n; ++i)
    {
        // Two's-complement wrap-around like the switch ALU (workers bound values so that
        // a complete sum never wraps).
        a.sums[i] = static_cast<int32_t>(static_cast<uint32_t>(a.sums[i]) +
                                         static_cast<uint32_t>(h.values[i]));
    }
    a.bitmap |= 1u << h.worker;
    a.members |= h.Has(InaHeader::FLAG_PARTIAL) ? h.bitmap : 1u << h.worker;
    a.ecn = a.ecn || h.Has(InaHeader::FLAG_ECN); // ATP's ecn_register_table
    ++a.count;
    ++m_stats.aggregated;
    if (a.count < a.fanIn)
    {
        return;
    }
    NS_LOG_LOGIC("aggregator " << index << ": job " << a.job << " seq " << a.seq << " complete ("
                               << +a.count << " contributions)");
    m_pool->MarkComplete(index, Simulator::Now());
    ++m_stats.completions;
    m_completeTrace(a.job, a.seq);
    if (e.role == FIRST_LEVEL)
    {
        EmitPartial(a, h, pad, e);
    }
    else if (m_policy->GetCompletion() == InaAllocationPolicy::TO_PS)
    {
        EmitAggregate(a, index, 0, pad);
    }
    else
    {
        a.result = true;
        EmitResult(a, index, InaHeader::MULTICAST_JOB, pad);
    }
}

void
InaSwitch::EmitPartial(const InaAggregator& a, const InaHeader& h, uint32_t pad, const JobEntry& e)
{
    NS_LOG_FUNCTION(this << a.job << a.seq << h << pad << e.psAddr);
    InaHeader out;
    out.job = a.job;
    out.seq = a.seq;
    out.worker = e.rackBit;
    out.fanIn = a.fanIn;
    out.bitmap = a.members;
    out.aggIndex = h.aggIndex; // the spine maps it to its own level
    out.priority = a.priority;
    out.flags =
        InaHeader::FLAG_AGGREGATE | InaHeader::FLAG_PARTIAL | (a.ecn ? InaHeader::FLAG_ECN : 0);
    out.dst = a.psAddr;
    out.values = a.sums;
    ++m_stats.partials;
    Emit(out, pad, a.psAddr);
}

void
InaSwitch::OnResult(InaHeader& h, uint32_t pad, const JobEntry& e)
{
    NS_LOG_FUNCTION(this << h << pad << e.psAddr);
    const uint32_t index = IndexOf(h, e);
    InaAggregator& a = m_pool->At(index);
    if (a.Holds(h.job, h.seq))
    {
        if (m_policy->GetCompletion() == InaAllocationPolicy::TO_PS)
        {
            NS_LOG_LOGIC("aggregator " << index << " released: result of job " << h.job << " seq "
                                       << h.seq << " passes back");
            m_pool->Release(index, Simulator::Now()); // ATP: freed as the PS result passes back
        }
        else if (e.role == FIRST_LEVEL && !a.delegated && !h.Has(InaHeader::FLAG_OVERFLOW))
        {
            // SwitchML's shadow copy at the ToR: keep the result to answer local resends. The
            // sums now cover every worker of the job (a flush would then be exact).
            std::copy_n(h.values.begin(), std::min(h.values.size(), a.sums.size()), a.sums.begin());
            a.members = h.bitmap;
            a.result = true;
        }
    }
    if (h.dst == InaHeader::MULTICAST_JOB)
    {
        Multicast(h, pad);
    }
    else
    {
        Emit(h, pad, h.dst);
    }
}

void
InaSwitch::Multicast(const InaHeader& h, uint32_t pad)
{
    NS_LOG_FUNCTION(this << h << pad);
    // Serialize once; the copies share the buffer (copy-on-write), as a replication engine.
    Ptr<Packet> p = Create<Packet>(pad);
    p->AddHeader(h);
    Replicate(p, h.job);
}

void
InaSwitch::Replicate(Ptr<const Packet> p, uint16_t job)
{
    NS_LOG_FUNCTION(this << p << job);
    // One copy per egress port that leads to members: a switch further down replicates again.
    std::vector<Ptr<NetDevice>> done;
    for (uint16_t w : Job(job).workers)
    {
        Ptr<NetDevice> dev = RouteTo(w);
        if (std::find(done.begin(), done.end(), dev) == done.end())
        {
            done.push_back(dev);
            SendVia(dev, p->Copy());
        }
    }
}

void
InaSwitch::EmitAggregate(const InaAggregator& a, uint32_t index, uint8_t extraFlags, uint32_t pad)
{
    NS_LOG_FUNCTION(this << a.job << a.seq << index << extraFlags << pad);
    InaHeader out;
    out.job = a.job;
    out.seq = a.seq;
    out.fanIn = a.fanIn;
    out.bitmap = a.members;
    out.aggIndex = index;
    out.priority = a.priority;
    out.flags = InaHeader::FLAG_AGGREGATE | extraFlags | (a.ecn ? InaHeader::FLAG_ECN : 0);
    out.dst = a.psAddr;
    out.values = a.sums;
    ++m_stats.toPsPackets;
    m_stats.toPsBytes += out.GetSerializedSize() + pad;
    Emit(out, pad, a.psAddr);
}

void
InaSwitch::EmitResult(const InaAggregator& a, uint32_t index, uint16_t dst, uint32_t pad)
{
    NS_LOG_FUNCTION(this << a.job << a.seq << index << dst << pad);
    InaHeader out;
    out.job = a.job;
    out.seq = a.seq;
    out.fanIn = a.fanIn;
    out.bitmap = a.members;
    out.aggIndex = index;
    out.remap = index;
    out.flags = InaHeader::FLAG_RESULT | (a.ecn ? InaHeader::FLAG_ECN : 0);
    out.dst = dst;
    out.values = a.sums;
    if (dst == InaHeader::MULTICAST_JOB)
    {
        Multicast(out, pad);
    }
    else
    {
        Emit(out, pad, dst);
    }
}

void
InaSwitch::ToPs(InaHeader& h, uint32_t pad, const JobEntry& e)
{
    NS_LOG_FUNCTION(this << h << pad << e.psAddr);
    ++m_stats.fallbackPackets;
    ++m_stats.toPsPackets;
    m_stats.toPsBytes += h.GetSerializedSize() + pad;
    h.dst = e.psAddr;
    Emit(h, pad, h.dst);
}

void
InaSwitch::Emit(const InaHeader& h, uint32_t pad, uint16_t dst)
{
    NS_LOG_FUNCTION(this << h << pad << dst);
    Ptr<Packet> p = Create<Packet>(pad);
    p->AddHeader(h);
    SendTo(p, dst);
}

Ptr<NetDevice>
InaSwitch::RouteTo(uint16_t dst) const
{
    NS_LOG_FUNCTION(this << dst);
    if (dst < m_routes.size() && m_routes[dst])
    {
        return m_routes[dst];
    }
    NS_ABORT_MSG_IF(!m_defaultRoute, "InaSwitch: no route to " << dst);
    return m_defaultRoute;
}

void
InaSwitch::SendTo(Ptr<Packet> p, uint16_t dst)
{
    NS_LOG_FUNCTION(this << p << dst);
    SendVia(RouteTo(dst), p);
}

void
InaSwitch::SendVia(Ptr<NetDevice> dev, Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << dev << p);
    Time delay = m_passLatency * static_cast<int64_t>(m_passes);
    if (delay.IsZero())
    {
        Transmit(dev, p);
    }
    else
    {
        Simulator::Schedule(delay, &InaSwitch::Transmit, this, dev, p);
    }
}

void
InaSwitch::Transmit(Ptr<NetDevice> dev, Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << dev << p);
    ++m_stats.packetsOut;
    if (dev == m_defaultRoute)
    {
        ++m_stats.upPackets;
        m_stats.upBytes += p->GetSize();
    }
    // ECN at egress, as ATP's switch marks a packet whose queue is deep (at enqueue here).
    Ptr<PointToPointNetDevice> ppp = DynamicCast<PointToPointNetDevice>(dev);
    if (m_ecnThreshold > 0 && ppp && ppp->GetQueue() &&
        ppp->GetQueue()->GetNBytes() >= m_ecnThreshold)
    {
        InaHeader h;
        p = p->Copy(); // a multicast may share the packet with other ports
        p->RemoveHeader(h);
        if (!h.Has(InaHeader::FLAG_ECN))
        {
            h.flags |= InaHeader::FLAG_ECN;
            ++m_stats.ecnMarks;
        }
        p->AddHeader(h);
    }
    dev->Send(p, dev->GetBroadcast(), IPV4_PROTOCOL);
}

} // namespace ns3
