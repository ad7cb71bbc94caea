/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rdma-packet-fabric.h"

#include "lossless-channel.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPacketFabric");
NS_OBJECT_ENSURE_REGISTERED(RdmaPacketFabric);

TypeId
RdmaPacketFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPacketFabric")
            .SetParent<RdmaFabric>()
            .SetGroupName("Aicluster")
            .AddConstructor<RdmaPacketFabric>()
            .AddAttribute("NicPolicy",
                          "How an endpoint picks its NIC: rail affinity (GPU i on NIC i) or "
                          "hashing the flow over the node's NICs.",
                          EnumValue(static_cast<int>(NicPolicy::RAIL_AFFINITY)),
                          MakeAiclusterEnumAccessor(&RdmaPacketFabric::m_nicPolicy),
                          MakeEnumChecker(static_cast<int>(NicPolicy::RAIL_AFFINITY),
                                          "RailAffinity",
                                          static_cast<int>(NicPolicy::HASH),
                                          "Hash"))
            .AddAttribute("EcnFabric",
                          "Leaf and spine egress ports mark ECN.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaPacketFabric::m_ecnFabric),
                          MakeBooleanChecker())
            .AddAttribute("EcnInNode",
                          "PCIe switches, root complexes and NICs also mark ECN (real ones "
                          "do not; off by default).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaPacketFabric::m_ecnInNode),
                          MakeBooleanChecker())
            .AddAttribute("EcnKminPer25G",
                          "ECN Kmin per 25 Gbit/s of port rate (bytes). HPCC run.py: 100 KB.",
                          DoubleValue(100e3),
                          MakeDoubleAccessor(&RdmaPacketFabric::m_kminPer25G),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("EcnKmaxPer25G",
                          "ECN Kmax per 25 Gbit/s of port rate (bytes). HPCC run.py: 400 KB.",
                          DoubleValue(400e3),
                          MakeDoubleAccessor(&RdmaPacketFabric::m_kmaxPer25G),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("EcnPmax",
                          "ECN marking probability at Kmax. HPCC run.py: 0.2.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&RdmaPacketFabric::m_pmax),
                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

RdmaPacketFabric::RdmaPacketFabric()
{
    NS_LOG_FUNCTION(this);
}

RdmaPacketFabric::~RdmaPacketFabric()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaPacketFabric::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_records.clear();
    m_endpoints.clear();
    m_switches.clear();
    m_linkDev.clear();
    m_nodes.clear();
    RdmaFabric::DoDispose();
}

void
RdmaPacketFabric::Build(const RailClusterConfig& config)
{
    NS_LOG_FUNCTION(this << config.nodes);
    NS_ABORT_MSG_IF(m_topology, "RdmaPacketFabric::Build called twice");
    m_topology = std::make_unique<RailTopology>(config);
    const RailTopology& t = *m_topology;
    uint32_t nv = t.GetNVertices();
    m_nodes.resize(nv);
    m_endpoints.resize(nv);
    m_switches.resize(nv);
    for (uint32_t v = 0; v < nv; ++v)
    {
        m_nodes[v] = CreateObject<Node>();
        if (t.IsEndpoint(v))
        {
            m_endpoints[v] = CreateObject<RdmaEndpoint>();
            m_nodes[v]->AggregateObject(m_endpoints[v]);
        }
        else
        {
            m_switches[v] = CreateObject<RdmaSwitch>();
            m_switches[v]->Setup(m_topology.get(), v);
            m_nodes[v]->AggregateObject(m_switches[v]);
        }
    }
    const auto& links = t.GetLinks();
    m_linkDev.resize(2 * links.size());
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        const RailTopology::Link& link = links[l];
        auto channel = CreateObject<LosslessChannel>();
        channel->SetAttribute("Delay", TimeValue(Seconds(link.delay)));
        uint32_t ends[2] = {link.a, link.b};
        for (uint32_t side = 0; side < 2; ++side)
        {
            uint32_t v = ends[side];
            auto dev = CreateObject<LosslessNetDevice>();
            dev->SetDataRate(DataRate(static_cast<uint64_t>(link.bytesPerSec * 8)));
            dev->SetPfcXoff(link.xoff);
            dev->SetAddress(Mac48Address::Allocate());
            RailVertexKind k = t.GetVertex(v).kind;
            bool fabricSwitch = k == RailVertexKind::LEAF || k == RailVertexKind::SPINE;
            bool ecn = t.IsEndpoint(v) ? false : (fabricSwitch ? m_ecnFabric : m_ecnInNode);
            if (ecn)
            {
                double per25 = link.bytesPerSec * 8 / 25e9;
                dev->SetAttribute("EcnKmin", UintegerValue(uint64_t(m_kminPer25G * per25)));
                dev->SetAttribute("EcnKmax", UintegerValue(uint64_t(m_kmaxPer25G * per25)));
                dev->SetAttribute("EcnPmax", DoubleValue(m_pmax));
                dev->SetEcnEnabled(true);
            }
            m_nodes[v]->AddDevice(dev);
            dev->Attach(channel);
            m_linkDev[2 * l + side] = dev;
            if (m_endpoints[v])
            {
                m_endpoints[v]->Setup(v, dev);
            }
            else
            {
                m_switches[v]->AddPort(l, dev);
            }
        }
    }
    for (uint32_t v = 0; v < nv; ++v)
    {
        if (!m_endpoints[v])
        {
            continue;
        }
        m_endpoints[v]->SetHooks([this](uint32_t qp, uint64_t) { OnDelivered(qp); },
                                 [this](uint32_t qp) { OnAcked(qp); });
        // A READ response is sent at the responder's line rate towards the requester.
        m_endpoints[v]->SetReadResponseRate([this, v](uint32_t requester, uint32_t myNic) {
            return m_topology->QpLineRate(v, requester, myNic);
        });
    }
    NS_LOG_INFO("built " << nv << " vertices, " << links.size() << " links");
}

const RailTopology&
RdmaPacketFabric::GetTopology() const
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_topology, "RdmaPacketFabric: Build() first");
    return *m_topology;
}

void
RdmaPacketFabric::CheckEndpoints(uint32_t a, uint32_t b, uint64_t bytes, const char* op) const
{
    NS_LOG_FUNCTION(this << a << b << bytes << op);
    const RailTopology& t = GetTopology();
    std::string where = std::string("RdmaPacketFabric::") + op + ": ";
    if (a >= t.GetNVertices() || b >= t.GetNVertices() || !t.IsEndpoint(a) || !t.IsEndpoint(b))
    {
        throw std::invalid_argument(where + "expected GPU or host-memory vertices, got " +
                                    std::to_string(a) + " and " + std::to_string(b));
    }
    if (a == b)
    {
        throw std::invalid_argument(where + "source and destination are the same endpoint " +
                                    t.VertexName(a));
    }
    if (bytes == 0)
    {
        throw std::invalid_argument(where + "bytes: expected > 0");
    }
}

uint32_t
RdmaPacketFabric::PickNic(uint32_t endpoint, uint32_t peer, uint32_t id, int32_t forced) const
{
    NS_LOG_FUNCTION(this << endpoint << peer << id << forced);
    const RailTopology& t = GetTopology();
    if (forced < 0)
    {
        return t.SelectNic(endpoint, peer, id, static_cast<NicPolicy>(m_nicPolicy));
    }
    return t.Nic(static_cast<uint32_t>(t.GetVertex(endpoint).node), static_cast<uint32_t>(forced));
}

uint32_t
RdmaPacketFabric::Write(uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        RdmaCompletion done,
                        RdmaTransferOptions options)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << options.srcNic << options.dstNic);
    CheckEndpoints(src, dst, bytes, "Write");
    uint32_t id = m_nextId++;
    RdmaSendSpec spec;
    spec.qp = id;
    spec.dst = dst;
    spec.srcNic = PickNic(src, dst, id, options.srcNic);
    spec.dstNic = PickNic(dst, src, id, options.dstNic);
    spec.bytes = bytes;
    spec.lineRate = m_topology->QpLineRate(src, dst, spec.srcNic);
    Post(id, src, dst, spec.srcNic, spec.dstNic, bytes, false, std::move(done));
    m_endpoints[src]->StartSend(spec);
    return id;
}

uint32_t
RdmaPacketFabric::Read(uint32_t local,
                       uint32_t remote,
                       uint64_t bytes,
                       RdmaCompletion done,
                       RdmaTransferOptions options)
{
    NS_LOG_FUNCTION(this << local << remote << bytes << options.srcNic << options.dstNic);
    CheckEndpoints(local, remote, bytes, "Read");
    uint32_t id = m_nextId++;
    RdmaSendSpec spec;
    spec.qp = id;
    spec.dst = remote;
    spec.dstNic = PickNic(remote, local, id, options.srcNic);
    spec.srcNic = PickNic(local, remote, id, options.dstNic);
    spec.bytes = bytes;
    // The data flows from the remote (the result's source) to the local endpoint.
    Post(id, remote, local, spec.dstNic, spec.srcNic, bytes, true, std::move(done));
    m_endpoints[local]->StartRead(spec);
    return id;
}

void
RdmaPacketFabric::Post(uint32_t id,
                       uint32_t src,
                       uint32_t dst,
                       uint32_t srcNic,
                       uint32_t dstNic,
                       uint64_t bytes,
                       bool read,
                       RdmaCompletion done)
{
    NS_LOG_FUNCTION(this << id << src << dst << srcNic << dstNic << bytes << read);
    NS_LOG_LOGIC("transfer " << id << ": " << (read ? "READ " : "WRITE ") << bytes << " bytes "
                             << src << " -> " << dst << " over NICs " << srcNic << ", " << dstNic);
    m_bytesPosted += bytes;
    ++m_posted;
    Record& r = m_records[id];
    r.result = RdmaTransferResult{id,
                                  src,
                                  dst,
                                  srcNic,
                                  dstNic,
                                  bytes,
                                  read,
                                  Simulator::Now(),
                                  Time(0),
                                  Time(0)};
    r.done = std::move(done);
}

void
RdmaPacketFabric::OnDelivered(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_records.find(qp);
    if (it == m_records.end())
    {
        return;
    }
    it->second.result.delivered = Simulator::Now();
    if (it->second.result.read)
    {
        it->second.result.completed = Simulator::Now();
        Complete(qp);
    }
}

void
RdmaPacketFabric::OnAcked(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_records.find(qp);
    if (it == m_records.end() || it->second.result.read)
    {
        return; // READ responses complete at the requester
    }
    it->second.result.completed = Simulator::Now();
    Complete(qp);
}

void
RdmaPacketFabric::Complete(uint32_t qp)
{
    NS_LOG_FUNCTION(this << qp);
    auto it = m_records.find(qp);
    Record rec = std::move(it->second);
    m_records.erase(it);
    ++m_completed;
    NS_LOG_INFO("transfer " << qp << " done: " << rec.result.bytes << " bytes in "
                            << (rec.result.completed - rec.result.start).GetSeconds() << " s");
    if (rec.done)
    {
        rec.done(rec.result);
    }
}

Ptr<LosslessNetDevice>
RdmaPacketFabric::GetLinkDevice(uint32_t directedLink) const
{
    NS_LOG_FUNCTION(this << directedLink);
    return m_linkDev.at(directedLink);
}

Ptr<RdmaEndpoint>
RdmaPacketFabric::GetEndpoint(uint32_t vertex) const
{
    NS_LOG_FUNCTION(this << vertex);
    Ptr<RdmaEndpoint> e = m_endpoints.at(vertex);
    NS_ABORT_MSG_IF(!e, "RdmaPacketFabric: vertex " << vertex << " is not an endpoint");
    return e;
}

Ptr<Node>
RdmaPacketFabric::GetNode(uint32_t vertex) const
{
    NS_LOG_FUNCTION(this << vertex);
    return m_nodes.at(vertex);
}

void
RdmaPacketFabric::SetLinkErrorModel(uint32_t directedLink, Ptr<ErrorModel> em)
{
    NS_LOG_FUNCTION(this << directedLink << em);
    // The receiving end of the directed link applies the model.
    m_linkDev.at(directedLink ^ 1u)->SetReceiveErrorModel(em);
}

double
RdmaPacketFabric::GetLinkUtilization(uint32_t directedLink) const
{
    NS_LOG_FUNCTION(this << directedLink);
    double now = Simulator::Now().GetSeconds();
    double cap = m_topology->GetLinks().at(directedLink / 2).bytesPerSec;
    return now > 0 ? m_linkDev.at(directedLink)->GetTxBytes() / (cap * now) : 0.0;
}

RdmaPacketFabric::Stats
RdmaPacketFabric::GetStats() const
{
    NS_LOG_FUNCTION(this);
    Stats s;
    s.transfersPosted = m_posted;
    s.transfersCompleted = m_completed;
    s.bytesPosted = m_bytesPosted;
    for (const auto& dev : m_linkDev)
    {
        s.pauseFrames += dev->GetPausesSent();
        s.headroomViolations += dev->GetHeadroomViolations();
        s.ecnMarks += dev->GetEcnMarks();
        s.errorDrops += dev->GetErrorDrops();
    }
    for (const auto& e : m_endpoints)
    {
        if (e)
        {
            s.bytesDelivered += e->GetDeliveredBytes();
            s.retransmittedPackets += e->GetRetransmittedPackets();
            s.cnps += e->GetCnpsReceived();
            s.rateDecreases += e->GetRateDecreases();
        }
    }
    return s;
}

int64_t
RdmaPacketFabric::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t used = 0;
    for (const auto& dev : m_linkDev)
    {
        used += dev->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
