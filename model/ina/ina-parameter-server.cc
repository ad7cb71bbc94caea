/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-parameter-server.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/split-mix.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaParameterServer");
NS_OBJECT_ENSURE_REGISTERED(InaParameterServer);

namespace
{
constexpr uint16_t IPV4_PROTOCOL = 0x0800;
}

TypeId
InaParameterServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaParameterServer")
            .SetParent<Application>()
            .SetGroupName("Aicluster")
            .AddConstructor<InaParameterServer>()
            .AddAttribute("Job",
                          "Job id",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaParameterServer::m_job),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Address",
                          "This PS's address",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaParameterServer::m_addr),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("FanIn",
                          "Workers of the job [workers]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaParameterServer::m_fanIn),
                          MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute("ValuesPerPacket",
                          "Values per packet [values]",
                          UintegerValue(62),
                          MakeUintegerAccessor(&InaParameterServer::m_valuesPerPacket),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("Scale",
                          "Quantization scale the workers use [1/unit]",
                          DoubleValue(1e6),
                          MakeDoubleAccessor(&InaParameterServer::m_scale),
                          MakeDoubleChecker<double>(1e-30))
            .AddAttribute("HeaderOverheadBytes",
                          "Bytes of a packet besides the values, as on the wire [bytes]",
                          UintegerValue(60),
                          MakeUintegerAccessor(&InaParameterServer::m_overhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ChunksPerIteration",
                          "Chunks per iteration (to forget results older than two iterations) "
                          "[chunks]",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaParameterServer::m_chunksPerIteration),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

InaParameterServer::InaParameterServer()
{
    NS_LOG_FUNCTION(this);
}

InaParameterServer::~InaParameterServer()
{
    NS_LOG_FUNCTION(this);
}

void
InaParameterServer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_policy = nullptr;
    m_device = nullptr;
    m_chunks.clear();
    Application::DoDispose();
}

void
InaParameterServer::SetPolicy(Ptr<InaAllocationPolicy> policy, const InaJobSlots& slots)
{
    NS_LOG_FUNCTION(this << policy << slots.poolSize << slots.window << slots.partitionBase);
    m_policy = policy;
    m_slots = slots;
}

void
InaParameterServer::SetDevice(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    m_device = device;
}

void
InaParameterServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_policy || !m_device, "InaParameterServer: SetPolicy and SetDevice first");
    uint32_t fixed = InaHeader::FixedSize() + 2;
    m_pad = m_overhead > fixed ? m_overhead - fixed : 0;
    if (m_policy->FollowsRemap())
    {
        // ATP's PS knows the indices its job's workers declared (their slots' hashes).
        m_declared.assign(m_slots.poolSize, false);
        for (uint32_t slot = 0; slot < m_slots.window; ++slot)
        {
            m_declared[m_policy->InitialIndex(m_job, slot, m_slots) % m_slots.poolSize] = true;
        }
    }
    GetNode()->RegisterProtocolHandler(MakeCallback(&InaParameterServer::Receive, this),
                                       0,
                                       m_device,
                                       false);
}

void
InaParameterServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
}

void
InaParameterServer::Receive(Ptr<NetDevice> /*device*/,
                            Ptr<const Packet> packet,
                            uint16_t /*protocol*/,
                            const Address& /*from*/,
                            const Address& /*to*/,
                            NetDevice::PacketType /*type*/)
{
    NS_LOG_FUNCTION(this << packet);
    InaHeader h;
    packet->PeekHeader(h);
    if (h.job != m_job || h.Has(InaHeader::FLAG_RESULT))
    {
        return;
    }
    ++m_rxPackets;
    m_rxBytes += packet->GetSize();
    const uint32_t allBits = m_fanIn == 32 ? 0xffffffffu : (1u << m_fanIn) - 1;
    if (!h.Has(InaHeader::FLAG_AGGREGATE) || h.Has(InaHeader::FLAG_EVICTED) ||
        (h.bitmap & allBits) != allBits)
    {
        // Not a complete in-switch aggregate (ATP's normal result path): fallback traffic.
        ++m_fallbackPackets;
        m_fallbackBytes += packet->GetSize();
    }
    if (h.seq < m_pruned)
    {
        NS_LOG_LOGIC("seq " << h.seq << " below the pruned mark " << m_pruned << ": ignored");
        return; // older than anything a worker can still be waiting for
    }
    if (!m_declared.empty() && h.aggIndex < m_declared.size())
    {
        m_declared[h.aggIndex] = true; // as ATP's PS, every index seen is taken
    }
    Chunk& c = m_chunks[h.seq];
    if (c.done)
    {
        if (!h.Has(InaHeader::FLAG_AGGREGATE))
        {
            NS_LOG_LOGIC("seq " << h.seq << " done: result sent again to " << h.src);
            SendResult(h.seq, c, h.src); // the worker lost the result
        }
        return;
    }
    if (!c.started)
    {
        c.started = true;
        c.index = h.aggIndex;
    }
    // A worker packet, or a rack's partial aggregate at the second level, that found its
    // aggregator taken: re-hash the slot.
    c.collided = c.collided || h.Has(InaHeader::FLAG_COLLISION);
    c.ecn = c.ecn || h.Has(InaHeader::FLAG_ECN); // echoed in the result (ATP's PS)
    if (h.Has(InaHeader::FLAG_AGGREGATE))
    {
        m_evicted += h.Has(InaHeader::FLAG_EVICTED) ? 1 : 0;
        NS_LOG_LOGIC("seq " << h.seq << ": aggregate of workers 0x" << std::hex << h.bitmap
                            << std::dec << (h.Has(InaHeader::FLAG_EVICTED) ? " (evicted)" : ""));
        Merge(c, h);
    }
    else
    {
        uint32_t bit = 1u << h.worker;
        NS_LOG_LOGIC("seq " << h.seq << ": fallback packet of worker " << +h.worker
                            << (h.Has(InaHeader::FLAG_COLLISION) ? " (collision)" : "")
                            << (h.Has(InaHeader::FLAG_OVERFLOW) ? " (float32)" : ""));
        c.fallback = true;
        if ((c.indivBits & bit) == 0)
        {
            c.indivBits |= bit;
            c.indiv[h.worker] = h.values;
            if (h.Has(InaHeader::FLAG_OVERFLOW))
            {
                c.floatBits |= bit;
                c.isFloat = true;
            }
        }
    }
    const uint32_t all = m_fanIn == 32 ? 0xffffffffu : (1u << m_fanIn) - 1;
    if (((c.aggBits | c.indivBits) & all) == all)
    {
        Complete(h.seq, c);
    }
}

void
InaParameterServer::Merge(Chunk& c, const InaHeader& h)
{
    NS_LOG_FUNCTION(this << c.index << h);
    if ((h.bitmap & ~c.aggBits) == 0)
    {
        NS_LOG_LOGIC("aggregate adds no worker: dropped");
        return; // no new worker: the same allocation emitted twice, or a part of one merged
    }
    for (const auto& a : c.aggs)
    {
        if ((a.bits & h.bitmap) != 0 && (a.bits & ~h.bitmap) != 0)
        {
            NS_LOG_LOGIC("aggregate straddles a merged one: dropped");
            return; // straddles a merged aggregate: not separable; the workers' resends cover it
        }
    }
    // Merged aggregates inside this one are its parts (a ToR's partial inside the spine's
    // aggregate, which reached the PS first): this one replaces them.
    c.aggs.erase(std::remove_if(c.aggs.begin(),
                                c.aggs.end(),
                                [&](const Aggregate& a) { return (a.bits & h.bitmap) != 0; }),
                 c.aggs.end());
    Aggregate a;
    a.bits = h.bitmap;
    a.values = h.values;
    a.values.resize(m_valuesPerPacket, 0);
    c.aggs.push_back(std::move(a));
    c.aggBits |= h.bitmap;
    if (h.bitmap != (m_fanIn == 32 ? 0xffffffffu : (1u << m_fanIn) - 1))
    {
        c.fallback = true;
    }
}

void
InaParameterServer::Complete(uint32_t seq, Chunk& c)
{
    NS_LOG_FUNCTION(this << seq << c.index);
    std::vector<int64_t> isum(m_valuesPerPacket, 0);
    for (const auto& a : c.aggs)
    {
        for (uint32_t i = 0; i < m_valuesPerPacket; ++i)
        {
            isum[i] += a.values[i];
        }
    }
    std::vector<double> fsum(m_valuesPerPacket, 0.0);
    for (const auto& [w, vals] : c.indiv)
    {
        uint32_t bit = 1u << w;
        if (c.aggBits & bit)
        {
            continue; // already inside a switch aggregate
        }
        for (uint32_t i = 0; i < m_valuesPerPacket && i < vals.size(); ++i)
        {
            if (c.floatBits & bit)
            {
                float f;
                std::memcpy(&f, &vals[i], sizeof(f));
                fsum[i] += f;
            }
            else
            {
                isum[i] += vals[i];
            }
        }
    }
    c.result.resize(m_valuesPerPacket);
    for (uint32_t i = 0; i < m_valuesPerPacket; ++i)
    {
        if (c.isFloat)
        {
            float f = static_cast<float>(static_cast<double>(isum[i]) / m_scale + fsum[i]);
            std::memcpy(&c.result[i], &f, sizeof(f));
        }
        else
        {
            c.result[i] = static_cast<int32_t>(isum[i]);
        }
    }
    c.remap = c.index;
    if (c.collided && m_policy->FollowsRemap())
    {
        // ATP's PS: a collided index moves to the next index of the free list this job has
        // not used, once; later collisions on it follow the same move. With no index left
        // the slot keeps its index.
        auto it = m_nextIndex.find(c.index);
        if (it != m_nextIndex.end())
        {
            c.remap = it->second;
        }
        else
        {
            uint32_t next = NextFreeIndex();
            if (next < m_slots.poolSize)
            {
                m_nextIndex[c.index] = next;
                c.remap = next;
                ++m_rehashes;
                NS_LOG_LOGIC("collided index " << c.index << " rehashed to " << next);
            }
        }
    }
    c.done = true;
    c.aggs.clear();
    c.aggs.shrink_to_fit();
    c.indiv.clear();
    ++m_completed;
    m_fallbackChunks += c.fallback ? 1 : 0;
    NS_LOG_LOGIC("seq " << seq << " complete" << (c.fallback ? " (fallback)" : "")
                        << ", result multicast, remap " << c.remap);
    SendResult(seq, c, InaHeader::MULTICAST_JOB);
    Prune(seq);
}

void
InaParameterServer::SendResult(uint32_t seq, const Chunk& c, uint16_t dst)
{
    NS_LOG_FUNCTION(this << seq << c.index << dst);
    InaHeader h;
    h.src = m_addr;
    h.dst = dst;
    h.job = m_job;
    h.seq = seq;
    h.fanIn = static_cast<uint8_t>(m_fanIn);
    h.bitmap = m_fanIn == 32 ? 0xffffffffu : (1u << m_fanIn) - 1;
    h.aggIndex = c.index;
    h.remap = c.remap;
    h.flags = InaHeader::FLAG_RESULT | (c.fallback ? InaHeader::FLAG_COLLISION : 0) |
              (c.isFloat ? InaHeader::FLAG_OVERFLOW : 0) | (c.ecn ? InaHeader::FLAG_ECN : 0);
    h.values = c.result;
    Ptr<Packet> p = Create<Packet>(m_pad);
    p->AddHeader(h);
    m_device->Send(p, m_device->GetBroadcast(), IPV4_PROTOCOL);
}

void
InaParameterServer::Prune(uint32_t seq)
{
    NS_LOG_FUNCTION(this << seq);
    // Workers are never more than one iteration apart, so results two iterations old are dead.
    uint64_t horizon = 2 * m_chunksPerIteration;
    if (seq < horizon)
    {
        return;
    }
    uint32_t limit = static_cast<uint32_t>(seq - horizon);
    m_pruned = std::max(m_pruned, limit);
    m_chunks.erase(m_chunks.begin(), m_chunks.lower_bound(limit));
}

uint32_t
InaParameterServer::NextFreeIndex()
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = m_slots.poolSize;
    while (m_freePos < n)
    {
        // Draw position m_freePos of a shuffle of [0, n): swap it with a seeded position in
        // [m_freePos, n) (Fisher-Yates, materialised lazily).
        uint64_t x = SplitMix64((static_cast<uint64_t>(m_job) << 32) ^ m_freePos);
        uint32_t j = m_freePos + static_cast<uint32_t>(x % (n - m_freePos));
        auto at = [&](uint32_t k) {
            auto it = m_perm.find(k);
            return it == m_perm.end() ? k : it->second;
        };
        uint32_t vi = at(m_freePos);
        uint32_t vj = at(j);
        m_perm[j] = vi;
        m_perm.erase(m_freePos);
        ++m_freePos;
        if (!m_declared[vj])
        {
            m_declared[vj] = true;
            return vj;
        }
    }
    return n;
}

uint64_t
InaParameterServer::GetRehashes() const
{
    NS_LOG_FUNCTION(this);
    return m_rehashes;
}

uint64_t
InaParameterServer::GetPacketsReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_rxPackets;
}

uint64_t
InaParameterServer::GetBytesReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_rxBytes;
}

uint64_t
InaParameterServer::GetFallbackBytesReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_fallbackBytes;
}

uint64_t
InaParameterServer::GetFallbackPacketsReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_fallbackPackets;
}

uint64_t
InaParameterServer::GetChunksCompleted() const
{
    NS_LOG_FUNCTION(this);
    return m_completed;
}

uint64_t
InaParameterServer::GetFallbackChunks() const
{
    NS_LOG_FUNCTION(this);
    return m_fallbackChunks;
}

uint64_t
InaParameterServer::GetEvictedReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_evicted;
}

} // namespace ns3
