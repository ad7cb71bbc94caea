/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rdma-rate-fabric.h"

#include "rdma-endpoint.h"
#include "rdma-header.h"
#include "rdma-packet-fabric.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRateFabric");
NS_OBJECT_ENSURE_REGISTERED(RdmaRateFabric);

TypeId
RdmaRateFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRateFabric")
            .SetParent<RdmaFabric>()
            .SetGroupName("Aicluster")
            .AddConstructor<RdmaRateFabric>()
            .AddAttribute("MergeIdenticalFlows",
                          "Solve transfers with the same path, ACK path and "
                          "line rate as one max-min class with a multiplicity "
                          "(same rates; false: one solver entry per transfer)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaRateFabric::m_mergeIdentical),
                          MakeBooleanChecker())
            .AddAttribute("DcqcnUtilization",
                          "Share of its max-min rate a DCQCN-controlled flow averages: "
                          "one whose bottleneck is at or after an ECN-marking port whose "
                          "ingress PFC thresholds let its queue pass Kmin (DCQCN on, "
                          "ns3::RdmaEndpoint::DcqcnEnabled). DCQCN's onset (cuts from "
                          "alpha = 1 while the burst's queue drains below Kmin, then "
                          "recovery by the byte counter and timer) costs 5-15% of such "
                          "an incast at the packet level with the default parameters, "
                          "the steady state ~0 (doc/rdma.md); 1 = plain max-min.",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&RdmaRateFabric::m_dcqcnUtilization),
                          MakeDoubleChecker<double>(0.01, 1.0));
    return tid;
}

RdmaRateFabric::RdmaRateFabric()
{
    NS_LOG_FUNCTION(this);
}

RdmaRateFabric::~RdmaRateFabric()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaRateFabric::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    m_pending.Cancel();
    m_flows.clear();
    m_info.clear();
    m_paths.clear();
    m_pathsDead = 0;
    m_byId.clear();
    m_finish.clear();
    m_finishHeaped = true;
    RdmaFabric::DoDispose();
}

void
RdmaRateFabric::Build(const RailClusterConfig& config)
{
    NS_LOG_FUNCTION(this << config.nodes);
    NS_ABORT_MSG_IF(m_topology, "RdmaRateFabric::Build called twice");
    m_topology = std::make_unique<RailTopology>(config);
    // One set of parameters for both granularities: read the packet level's defaults.
    auto endpoint = CreateObject<RdmaEndpoint>();
    UintegerValue mtu;
    UintegerValue ackInterval;
    endpoint->GetAttribute("Mtu", mtu);
    endpoint->GetAttribute("AckInterval", ackInterval);
    m_mtu = static_cast<uint32_t>(mtu.Get());
    m_ackInterval = static_cast<uint32_t>(ackInterval.Get());
    auto packetFabric = CreateObject<RdmaPacketFabric>();
    AiclusterEnumValue<int> policy;
    packetFabric->GetAttribute("NicPolicy", policy);
    m_nicPolicy = static_cast<NicPolicy>(policy.Get());

    BooleanValue dcqcn;
    endpoint->GetAttribute("DcqcnEnabled", dcqcn);
    BooleanValue ecnFabric;
    BooleanValue ecnInNode;
    DoubleValue kminPer25G;
    packetFabric->GetAttribute("EcnFabric", ecnFabric);
    packetFabric->GetAttribute("EcnInNode", ecnInNode);
    packetFabric->GetAttribute("EcnKminPer25G", kminPer25G);

    std::vector<double> caps;
    const RailTopology& t = *m_topology;
    m_kmin.assign(2 * t.GetLinks().size(), 0.0);
    for (uint32_t l = 0; l < t.GetLinks().size(); ++l)
    {
        const auto& link = t.GetLinks()[l];
        caps.push_back(link.bytesPerSec); // direction a->b
        caps.push_back(link.bytesPerSec); // direction b->a
        // the packet level marks on the transmit queue of switch ports (as RdmaPacketFabric)
        for (uint32_t from : {link.a, link.b})
        {
            RailVertexKind k = t.GetVertex(from).kind;
            bool fabricSwitch = k == RailVertexKind::LEAF || k == RailVertexKind::SPINE;
            bool ecn = !t.IsEndpoint(from) && (fabricSwitch ? ecnFabric.Get() : ecnInNode.Get());
            if (ecn && dcqcn.Get())
            {
                m_kmin[t.DirectedLink(from, l)] = kminPer25G.Get() * link.bytesPerSec * 8 / 25e9;
                m_dcqcn = true;
            }
        }
    }
    m_upstream.assign(m_dcqcn ? m_kmin.size() : 0, {});
    m_marking.assign(m_upstream.size(), -1);
    m_saturated.assign(m_upstream.size(), -1);
    m_solver = std::make_unique<MaxMinSolver>(caps);
    m_solver->SetMergeIdenticalFlows(m_mergeIdentical);
    NS_LOG_INFO("built " << t.GetNVertices() << " vertices, " << t.GetLinks().size()
                         << " links, DCQCN " << (m_dcqcn ? "on" : "off"));
}

const RailTopology&
RdmaRateFabric::GetTopology() const
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_topology, "RdmaRateFabric: Build() first");
    return *m_topology;
}

uint32_t
RdmaRateFabric::AddTransfer(uint32_t src,
                            uint32_t dst,
                            uint64_t bytes,
                            bool read,
                            RdmaCompletion done,
                            RdmaTransferOptions options)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << read << options.srcNic << options.dstNic);
    const RailTopology& t = GetTopology();
    std::string where = read ? "RdmaRateFabric::Read: " : "RdmaRateFabric::Write: ";
    if (src >= t.GetNVertices() || dst >= t.GetNVertices() || !t.IsEndpoint(src) ||
        !t.IsEndpoint(dst) || src == dst)
    {
        throw std::invalid_argument(where +
                                    "expected two distinct GPU or host-memory "
                                    "vertices, got " +
                                    std::to_string(src) + " and " + std::to_string(dst));
    }
    if (bytes == 0)
    {
        throw std::invalid_argument(where + "bytes: expected > 0");
    }
    uint32_t id = m_nextId++;
    auto pick = [&](uint32_t endpoint, uint32_t peer, int32_t forced) {
        return forced < 0 ? t.SelectNic(endpoint, peer, id, m_nicPolicy)
                          : t.Nic(static_cast<uint32_t>(t.GetVertex(endpoint).node),
                                  static_cast<uint32_t>(forced));
    };
    uint32_t srcNic = pick(src, dst, options.srcNic);
    uint32_t dstNic = pick(dst, src, options.dstNic);

    double wire = m_mtu + RdmaHeader::kWireSize;
    double ackWeight = RdmaHeader::kWireSize / (wire * m_ackInterval);
    std::vector<MaxMinSolver::Usage> usage;
    std::vector<MaxMinSolver::Usage> acks; // ACKs ride the high-priority class
    double latency = 0;
    for (uint32_t d : t.Path(src, dst, srcNic, dstNic, id))
    {
        usage.emplace_back(d, 1.0);
        acks.emplace_back(d ^ 1u, ackWeight);
        const auto& link = t.GetLinks()[d / 2];
        latency += link.delay + wire / link.bytesPerSec; // store-and-forward per hop
    }
    double cap = t.QpLineRate(src, dst, srcNic);
    uint64_t pathAt = m_paths.size();
    if (m_dcqcn)
    {
        for (const auto& [d, w] : usage)
        {
            m_paths.push_back(d);
        }
        CountUpstream(m_paths.data() + pathAt, static_cast<uint32_t>(usage.size()), +1);
    }

    uint32_t sid = m_solver->AddFlow(usage, cap, acks);
    if (sid >= m_flows.size())
    {
        m_flows.resize(sid + 1);
        m_info.resize(sid + 1);
    }
    Flow& f = m_flows[sid];
    uint32_t version = f.version; // a reused slot keeps counting: stale finish entries stay stale
    f = Flow{};
    f.version = version + 1;
    f.active = true;
    f.pathAt = pathAt;
    f.pathLen = static_cast<uint32_t>(m_paths.size() - pathAt);
    FlowInfo& info = m_info[sid];
    info.result = RdmaTransferResult{id,
                                     src,
                                     dst,
                                     srcNic,
                                     dstNic,
                                     bytes,
                                     read,
                                     Simulator::Now(),
                                     Time(0),
                                     Time(0)};
    info.done = std::move(done);
    info.latency = latency;
    f.remaining = static_cast<double>(bytes);
    f.lastUpdate = Simulator::Now().GetSeconds();
    m_byId[id] = sid;
    NS_LOG_LOGIC("transfer " << id << ": " << (read ? "READ " : "WRITE ") << bytes << " bytes "
                             << src << " -> " << dst << " over NICs " << srcNic << ", " << dstNic
                             << ", line rate " << cap << " B/s");
    return id;
}

uint32_t
RdmaRateFabric::Write(uint32_t src,
                      uint32_t dst,
                      uint64_t bytes,
                      RdmaCompletion done,
                      RdmaTransferOptions options)
{
    NS_LOG_FUNCTION(this << src << dst << bytes);
    uint32_t id = AddTransfer(src, dst, bytes, false, std::move(done), options);
    ScheduleReallocation();
    return id;
}

uint32_t
RdmaRateFabric::Read(uint32_t local,
                     uint32_t remote,
                     uint64_t bytes,
                     RdmaCompletion done,
                     RdmaTransferOptions options)
{
    NS_LOG_FUNCTION(this << local << remote << bytes);
    uint32_t id = AddTransfer(remote, local, bytes, true, std::move(done), options);
    ScheduleReallocation();
    return id;
}

void
RdmaRateFabric::ScheduleReallocation()
{
    // Transfers posted at the same instant (a collective, a batch of loads) share one solve.
    if (m_pending.IsExpired())
    {
        m_pending = Simulator::ScheduleNow(&RdmaRateFabric::Reallocate, this);
    }
}

void
RdmaRateFabric::Reallocate()
{
    NS_LOG_FUNCTION(this);
    m_pending.Cancel();
    double now = Simulator::Now().GetSeconds();
    double eff = static_cast<double>(m_mtu) / (m_mtu + RdmaHeader::kWireSize);
    m_solver->Solve();
    ++m_reallocations;
    std::fill(m_saturated.begin(), m_saturated.end(), -1); // loads changed: ask again
    const std::vector<uint32_t>& component = m_solver->GetLastComponent();
    NS_LOG_LOGIC("reallocation " << m_reallocations << ": " << component.size() << " of "
                                 << m_byId.size() << " transfers get new rates");
    for (uint32_t sid : component)
    {
        Flow& f = m_flows[sid];
        f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.lastUpdate));
        f.lastUpdate = now;
        f.rate = m_solver->GetRate(sid) * eff * (m_dcqcn ? DcqcnFactor(sid) : 1.0);
        ++f.version;
    }
    // Every rate change leaves a stale entry behind: when the refilled component is most of
    // the fabric (or stale entries dominate), rebuild the heap in linear time instead.
    if (2 * component.size() >= m_byId.size() || m_finish.size() > 2 * m_byId.size() + 1024)
    {
        m_finish.clear();
        for (uint32_t sid = 0; sid < m_flows.size(); ++sid)
        {
            if (m_flows[sid].active)
            {
                PushFinish(sid);
            }
        }
        m_finishHeaped = false;
    }
    else
    {
        if (!m_finishHeaped)
        {
            std::make_heap(m_finish.begin(), m_finish.end(), std::greater<>());
            m_finishHeaped = true;
        }
        for (uint32_t sid : component)
        {
            PushFinish(sid);
            std::push_heap(m_finish.begin(), m_finish.end(), std::greater<>());
        }
    }
    ScheduleNext();
}

void
RdmaRateFabric::CountUpstream(const uint32_t* path, uint32_t n, int delta)
{
    for (uint32_t i = 1; i < n; ++i)
    {
        if (m_kmin[path[i]] > 0)
        {
            m_marking[path[i]] = -1; // its ingress set may change: computed anew when asked
            uint32_t& n = m_upstream[path[i]][path[i - 1]];
            n = static_cast<uint32_t>(static_cast<int>(n) + delta);
            if (n == 0)
            {
                m_upstream[path[i]].erase(path[i - 1]);
            }
        }
    }
}

void
RdmaRateFabric::CompactPaths()
{
    NS_LOG_FUNCTION(this << m_paths.size() << m_pathsDead);
    std::vector<uint32_t> paths;
    paths.reserve(m_paths.size() - m_pathsDead);
    for (Flow& f : m_flows)
    {
        if (f.active)
        {
            uint64_t at = paths.size();
            paths.insert(paths.end(),
                         m_paths.begin() + f.pathAt,
                         m_paths.begin() + f.pathAt + f.pathLen);
            f.pathAt = at;
        }
    }
    m_paths.swap(paths);
    m_pathsDead = 0;
}

double
RdmaRateFabric::DcqcnFactor(uint32_t sid) const
{
    // A queue builds at a marking port when a saturated link at or after it holds its flows
    // back; it reaches Kmin (DCQCN engages) only if the ingress links feeding it may hold more
    // than Kmin before PFC pauses them (XOFF per ingress).
    const Flow& f = m_flows[sid];
    const auto& links = m_topology->GetLinks();
    bool marking = false;
    for (uint64_t j = f.pathAt; j < f.pathAt + f.pathLen; ++j)
    {
        uint32_t d = m_paths[j];
        if (!marking && m_kmin[d] > 0)
        {
            // Depends on the link's ingress set only: summed once per change of that set,
            // not once per flow and reallocation.
            if (m_marking[d] < 0)
            {
                double held = 0;
                for (const auto& [in, n] : m_upstream[d])
                {
                    held += static_cast<double>(links[in / 2].xoff);
                }
                m_marking[d] = held > m_kmin[d] ? 1 : 0;
            }
            marking = m_marking[d] == 1;
        }
        if (marking)
        {
            if (m_saturated[d] < 0)
            {
                m_saturated[d] = m_solver->IsFull(d, 1e-6);
            }
            if (m_saturated[d] == 1)
            {
                return m_dcqcnUtilization;
            }
        }
    }
    return 1.0;
}

void
RdmaRateFabric::PushFinish(uint32_t sid)
{
    const Flow& f = m_flows[sid];
    if (f.rate > 0)
    {
        m_finish.emplace_back(f.lastUpdate + f.remaining / f.rate, sid, f.version);
    }
}

bool
RdmaRateFabric::IsCurrent(const Finish& entry) const
{
    const Flow& f = m_flows[std::get<1>(entry)];
    return f.active && f.version == std::get<2>(entry);
}

void
RdmaRateFabric::ScheduleNext()
{
    m_event.Cancel();
    // the earliest current projection: the top of the heap once the stale entries above it
    // are dropped, or the smallest time in the plain list
    double at = std::numeric_limits<double>::infinity();
    if (m_finishHeaped)
    {
        while (!m_finish.empty() && !IsCurrent(m_finish.front()))
        {
            std::pop_heap(m_finish.begin(), m_finish.end(), std::greater<>());
            m_finish.pop_back();
        }
        if (!m_finish.empty())
        {
            at = std::get<0>(m_finish.front());
        }
    }
    else
    {
        for (const Finish& entry : m_finish)
        {
            if (std::get<0>(entry) < at && IsCurrent(entry))
            {
                at = std::get<0>(entry);
            }
        }
    }
    if (std::isinf(at))
    {
        return;
    }
    Time when = NanoSeconds(static_cast<int64_t>(std::ceil(at * 1e9 - 1e-6)));
    m_event = Simulator::Schedule(std::max(Time(0), when - Simulator::Now()),
                                  &RdmaRateFabric::OnFinish,
                                  this);
}

void
RdmaRateFabric::OnFinish()
{
    NS_LOG_FUNCTION(this);
    double now = Simulator::Now().GetSeconds();
    std::vector<FlowInfo> finished;
    for (const Finish& entry : TakeDue(now))
    {
        uint32_t sid = std::get<1>(entry);
        Flow& f = m_flows[sid];
        m_solver->RemoveFlow(sid);
        if (m_dcqcn)
        {
            CountUpstream(m_paths.data() + f.pathAt, f.pathLen, -1);
            m_pathsDead += f.pathLen;
        }
        m_byId.erase(m_info[sid].result.id);
        finished.push_back(std::move(m_info[sid]));
        m_info[sid].done = nullptr;
        f.active = false;
        ++f.version;
    }
    if (m_pathsDead > 4096 && 2 * m_pathsDead > m_paths.size())
    {
        CompactPaths();
    }
    Reallocate();
    // Same-instant completions are reported in transfer order (solver handles are reused).
    std::sort(finished.begin(), finished.end(), [](const FlowInfo& a, const FlowInfo& b) {
        return a.result.id < b.result.id;
    });
    for (FlowInfo& f : finished)
    {
        NS_LOG_INFO("transfer " << f.result.id << " done: " << f.result.bytes << " bytes in "
                                << Simulator::Now().GetSeconds() - f.result.start.GetSeconds()
                                << " s (fluid)");
        // The fluid left the bottleneck now; the last byte lands one path latency later and,
        // for a WRITE, its ACK returns after another.
        f.result.delivered = Simulator::Now() + Seconds(f.latency);
        f.result.completed =
            f.result.read ? f.result.delivered : f.result.delivered + Seconds(f.latency);
        if (f.done)
        {
            Simulator::Schedule(f.result.completed - Simulator::Now(),
                                [done = std::move(f.done), result = f.result]() { done(result); });
        }
    }
}

std::vector<RdmaRateFabric::Finish>
RdmaRateFabric::TakeDue(double now)
{
    std::vector<Finish> due;
    if (m_finishHeaped)
    {
        // pop until the top is a current entry not yet due (stale ones go on the way)
        while (!m_finish.empty())
        {
            const Finish& top = m_finish.front();
            bool current = IsCurrent(top);
            if (current && std::get<0>(top) > now + 1e-9)
            {
                break;
            }
            if (current)
            {
                due.push_back(top);
            }
            std::pop_heap(m_finish.begin(), m_finish.end(), std::greater<>());
            m_finish.pop_back();
        }
        return due;
    }
    // The plain list: the same entries, sorted as the heap would pop them; the stale ones are
    // dropped and the rest stays a plain list.
    std::size_t kept = 0;
    for (const Finish& entry : m_finish)
    {
        if (!IsCurrent(entry))
        {
            continue;
        }
        if (std::get<0>(entry) > now + 1e-9)
        {
            m_finish[kept++] = entry;
        }
        else
        {
            due.push_back(entry);
        }
    }
    m_finish.resize(kept);
    std::sort(due.begin(), due.end());
    return due;
}

// CountUpstream, DcqcnFactor, PushFinish and ScheduleNext run per flow or per link of a
// reallocation, GetRate and GetLinkLoad per flow or link a caller reads: they do not log.

double
RdmaRateFabric::GetRate(uint32_t id) const
{
    auto it = m_byId.find(id);
    return it == m_byId.end() ? 0.0 : m_flows[it->second].rate;
}

double
RdmaRateFabric::GetLinkLoad(uint32_t directedLink) const
{
    return m_solver->GetLoad(directedLink);
}

} // namespace ns3
