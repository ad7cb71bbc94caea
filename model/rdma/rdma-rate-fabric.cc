/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-rate-fabric.h"

#include "rdma-endpoint.h"
#include "rdma-header.h"
#include "rdma-packet-fabric.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRateFabric");
NS_OBJECT_ENSURE_REGISTERED(RdmaRateFabric);

TypeId
RdmaRateFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRateFabric")
                            .SetParent<RdmaFabric>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<RdmaRateFabric>();
    return tid;
}

RdmaRateFabric::RdmaRateFabric() = default;
RdmaRateFabric::~RdmaRateFabric() = default;

void
RdmaRateFabric::DoDispose()
{
    m_event.Cancel();
    m_pending.Cancel();
    m_flows.clear();
    RdmaFabric::DoDispose();
}

void
RdmaRateFabric::Build(const RailClusterConfig& config)
{
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
    EnumValue policy;
    packetFabric->GetAttribute("NicPolicy", policy);
    m_nicPolicy = static_cast<NicPolicy>(policy.Get());

    std::vector<double> caps;
    for (const auto& link : m_topology->GetLinks())
    {
        caps.push_back(link.bytesPerSec); // direction a->b
        caps.push_back(link.bytesPerSec); // direction b->a
    }
    m_solver = std::make_unique<MaxMinSolver>(caps);
}

const RailTopology&
RdmaRateFabric::GetTopology() const
{
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

    Flow& f = m_flows[id];
    f.result = RdmaTransferResult{id,
                                  src,
                                  dst,
                                  srcNic,
                                  dstNic,
                                  bytes,
                                  read,
                                  Simulator::Now(),
                                  Time(0),
                                  Time(0)};
    f.done = std::move(done);
    f.solverId = m_solver->AddFlow(usage, cap, acks);
    f.remaining = static_cast<double>(bytes);
    f.lastUpdate = Simulator::Now().GetSeconds();
    f.latency = latency;
    m_bySolverId[f.solverId] = id;
    return id;
}

uint32_t
RdmaRateFabric::Write(uint32_t src,
                      uint32_t dst,
                      uint64_t bytes,
                      RdmaCompletion done,
                      RdmaTransferOptions options)
{
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
    uint32_t id = AddTransfer(remote, local, bytes, true, std::move(done), options);
    ScheduleReallocation();
    return id;
}

void
RdmaRateFabric::ScheduleReallocation()
{
    // Transfers posted at the same instant (a collective, a batch of loads) share one solve.
    if (!m_pending.IsRunning())
    {
        m_pending = Simulator::ScheduleNow(&RdmaRateFabric::Reallocate, this);
    }
}

void
RdmaRateFabric::Reallocate()
{
    m_pending.Cancel();
    double now = Simulator::Now().GetSeconds();
    double eff = static_cast<double>(m_mtu) / (m_mtu + RdmaHeader::kWireSize);
    m_solver->Solve();
    ++m_reallocations;
    for (uint32_t sid : m_solver->GetLastComponent())
    {
        Flow& f = m_flows.at(m_bySolverId.at(sid));
        f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.lastUpdate));
        f.lastUpdate = now;
        f.rate = m_solver->GetRate(sid) * eff;
        ++f.version;
        if (f.rate > 0)
        {
            m_finish.emplace(now + f.remaining / f.rate, f.result.id, f.version);
        }
    }
    ScheduleNext();
}

void
RdmaRateFabric::ScheduleNext()
{
    while (!m_finish.empty())
    {
        auto [at, id, version] = m_finish.top();
        auto it = m_flows.find(id);
        if (it != m_flows.end() && it->second.version == version)
        {
            break;
        }
        m_finish.pop();
    }
    m_event.Cancel();
    if (m_finish.empty())
    {
        return;
    }
    double at = std::get<0>(m_finish.top());
    Time when = NanoSeconds(static_cast<int64_t>(std::ceil(at * 1e9 - 1e-6)));
    m_event = Simulator::Schedule(std::max(Time(0), when - Simulator::Now()),
                                  &RdmaRateFabric::OnFinish,
                                  this);
}

void
RdmaRateFabric::OnFinish()
{
    double now = Simulator::Now().GetSeconds();
    std::vector<Flow> finished;
    while (!m_finish.empty())
    {
        auto [at, id, version] = m_finish.top();
        auto it = m_flows.find(id);
        if (it == m_flows.end() || it->second.version != version)
        {
            m_finish.pop();
            continue;
        }
        if (at > now + 1e-9)
        {
            break;
        }
        m_finish.pop();
        m_solver->RemoveFlow(it->second.solverId);
        m_bySolverId.erase(it->second.solverId);
        finished.push_back(std::move(it->second));
        m_flows.erase(it);
    }
    Reallocate();
    for (Flow& f : finished)
    {
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

double
RdmaRateFabric::GetRate(uint32_t id) const
{
    auto it = m_flows.find(id);
    return it == m_flows.end() ? 0.0 : it->second.rate;
}

double
RdmaRateFabric::GetLinkLoad(uint32_t directedLink) const
{
    return m_solver->GetLoad(directedLink);
}

} // namespace ns3
