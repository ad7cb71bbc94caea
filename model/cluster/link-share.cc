/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "link-share.h"

#include "iteration-model.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkShare");
NS_OBJECT_ENSURE_REGISTERED(LinkShare);

TypeId
LinkShare::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LinkShare")
                            .SetParent<Object>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<LinkShare>();
    return tid;
}

LinkShare::LinkShare()
{
    NS_LOG_FUNCTION(this);
}

LinkShare::~LinkShare()
{
    NS_LOG_FUNCTION(this);
}

void
LinkShare::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sync = nullptr;
    m_used.clear();
    Object::DoDispose();
}

void
LinkShare::SetLinks(const ClusterTopology& topology,
                    double railBytesPerSecond,
                    uint32_t railsPerNode)
{
    NS_LOG_FUNCTION(this << railBytesPerSecond << railsPerNode);
    if (!(railBytesPerSecond > 0) || railsPerNode == 0)
    {
        throw std::invalid_argument("LinkShare::SetLinks: expected a rail rate > 0 [bytes/s] "
                                    "and at least one rail per node");
    }
    m_topology = topology;
    m_capacity = railBytesPerSecond * railsPerNode;
    m_dataOut.assign(topology.numNodes, 0.0);
    m_dataIn.assign(topology.numNodes, 0.0);
    m_dataMoved = true; // every share may move with the capacity
}

void
LinkShare::SetSyncModel(IterationTermModel* sync)
{
    NS_LOG_FUNCTION(this << sync);
    m_sync = sync;
}

uint32_t
LinkShare::NodeCount() const
{
    return m_topology.numNodes;
}

double
LinkShare::NodeCapacity() const
{
    return m_capacity;
}

const std::vector<double>&
LinkShare::DataOut() const
{
    return m_dataOut;
}

const std::vector<double>&
LinkShare::DataIn() const
{
    return m_dataIn;
}

std::vector<double>
LinkShare::SyncReserve(const std::vector<Ptr<const ClusterJob>>& running) const
{
    NS_LOG_FUNCTION(this << running.size());
    std::vector<double> demand(m_topology.numNodes, 0.0);
    std::vector<std::pair<uint32_t, double>> terms;
    for (const auto& job : running)
    {
        SyncTerms(*job, terms);
        for (const auto& [node, bytesPerSecond] : terms)
        {
            demand[node] += bytesPerSecond;
        }
    }
    for (double& d : demand)
    {
        d = ReserveOf(d);
    }
    return demand;
}

void
LinkShare::SyncTerms(const ClusterJob& job, std::vector<std::pair<uint32_t, double>>& terms) const
{
    terms.clear();
    if (!m_sync)
    {
        return;
    }
    std::vector<SyncLinkTraffic> traffic;
    m_sync->LinkTraffic(job, traffic);
    for (const SyncLinkTraffic& t : traffic)
    {
        if (t.node >= m_topology.numNodes || !(t.bytes > 0) || !(t.peak > 0))
        {
            continue;
        }
        // Its average over an iteration: compute, then the sync at its own peak rate.
        terms.emplace_back(t.node, t.bytes / (job.computeTime + t.bytes / t.peak));
    }
}

double
LinkShare::ReserveOf(double demand) const
{
    double d = std::min(demand, m_capacity / 2);
    m_figures.peakReserveShare = std::max(m_figures.peakReserveShare, d / m_capacity);
    return d;
}

void
LinkShare::SetDataLoad(const std::vector<double>& out, const std::vector<double>& in)
{
    NS_LOG_FUNCTION(this);
    // A remembered share moves only with the load of a node it crosses: CheckShares compares
    // them only if some load moved (with local loading, or before data crosses the rails,
    // none ever does)
    m_dataMoved = m_dataMoved || !SameLoad(out, m_dataOut) || !SameLoad(in, m_dataIn);
    // Copied into the kept vectors: taking the caller's by move freed these one pass late,
    // which left the heap fragmented (160 MB more peak RSS at ten times Philly).
    m_dataOut = out;
    m_dataIn = in;
    m_dataOut.resize(m_topology.numNodes, 0.0);
    m_dataIn.resize(m_topology.numNodes, 0.0);
    // The largest load gives the largest share: one division, not two per node. Division by
    // the capacity (> 0 once SetLinks gave nodes) keeps the order of the loads, its rounding
    // being monotone; std::max passes over NaN loads as it passed over their NaN shares.
    double most = 0.0; // the shares start from 0 too (an empty or idle cluster)
    for (size_t n = 0; n < m_dataOut.size(); ++n)
    {
        most = std::max({most, m_dataOut[n], m_dataIn[n]});
    }
    m_figures.peakDataShare = std::max(m_figures.peakDataShare, most / m_capacity);
    if (!m_used.empty() && !m_checkPending)
    {
        // After this scheduling pass: the sync model may have re-evaluated its jobs in it.
        m_checkPending = true;
        Simulator::ScheduleNow(&LinkShare::CheckShares, this);
    }
}

bool
LinkShare::SameLoad(const std::vector<double>& load, const std::vector<double>& kept)
{
    // kept as SetDataLoad keeps load: cut or padded with 0 to the nodes
    for (size_t n = 0; n < kept.size(); ++n)
    {
        if ((n < load.size() ? load[n] : 0.0) != kept[n])
        {
            return false; // (-0 and +0 give every share alike, so == is enough)
        }
    }
    return true;
}

double
LinkShare::BurstShare(double p, double d) const
{
    // Max-min of the burst (demand p) against the data traffic (rate d) on capacity C.
    double got = std::min(p, std::max(m_capacity - d, m_capacity / 2));
    return got / p;
}

double
LinkShare::ShareOf(const std::vector<SyncLinkTraffic>& traffic, uint32_t* node) const
{
    double share = 1.0;
    for (const SyncLinkTraffic& t : traffic)
    {
        if (t.node < m_dataOut.size() && t.peak > 0)
        {
            double here = std::min(BurstShare(t.peak, m_dataOut[t.node]),
                                   BurstShare(t.peak, m_dataIn[t.node]));
            if (here < share)
            {
                share = here;
                if (node)
                {
                    *node = t.node;
                }
            }
        }
    }
    return share;
}

double
LinkShare::SyncShare(Ptr<const ClusterJob> job,
                     const std::vector<SyncLinkTraffic>& traffic,
                     uint32_t* node)
{
    double share = ShareOf(traffic, node);
    if (share < 1)
    {
        ++m_figures.slowedSyncs;
        m_figures.minSyncShare = std::min(m_figures.minSyncShare, share);
    }
    m_used[job->record.id] = Used{job, traffic, share};
    return share;
}

const LinkShare::Figures&
LinkShare::GetFigures() const
{
    return m_figures;
}

void
LinkShare::CheckShares()
{
    NS_LOG_FUNCTION(this);
    m_checkPending = false;
    // Every remembered share was taken at the loads of its SyncShare or found unmoved at
    // those of the last check: with the same loads since, none moved, and the walk only
    // drops the jobs no longer running (which decides whether the next SetDataLoad schedules
    // a check). A share found moved is compared again at the next check, until the sync
    // model has taken it.
    const bool compare = m_dataMoved;
    bool moved = false;
    for (auto it = m_used.begin(); it != m_used.end();)
    {
        Used& u = it->second;
        if (u.job->state != ClusterJob::RUNNING)
        {
            it = m_used.erase(it);
            continue;
        }
        moved = moved || (compare && ShareOf(u.traffic) != u.share);
        ++it;
    }
    m_dataMoved = moved;
    if (moved && m_sync)
    {
        NS_LOG_LOGIC("data load moved a sync share: re-evaluate the sync terms");
        m_sync->NotifyChanged();
    }
}

void
KeptSyncReserve::Clear()
{
    m_jobs.clear();
    m_untaken.clear();
    m_nodesOf.clear();
    m_termsOn.clear();
    m_dirty.clear();
    m_isDirty.clear();
    m_reserve.clear();
    m_from = nullptr;
}

void
KeptSyncReserve::Add(Ptr<const ClusterJob> job)
{
    if (m_jobs.emplace(job->record.id, job).second)
    {
        m_untaken.push_back(job->record.id);
    }
}

void
KeptSyncReserve::Remove(uint64_t id)
{
    if (m_jobs.erase(id) == 0)
    {
        return;
    }
    auto it = m_nodesOf.find(id);
    if (it == m_nodesOf.end())
    {
        return; // its terms were never taken (m_untaken skips it)
    }
    for (uint32_t node : it->second)
    {
        m_termsOn[node].erase(id);
        MarkNode(node);
    }
    m_nodesOf.erase(it);
}

void
KeptSyncReserve::MarkNode(uint32_t node)
{
    if (!m_isDirty[node])
    {
        m_isDirty[node] = 1;
        m_dirty.push_back(node);
    }
}

void
KeptSyncReserve::TakeTerms(uint64_t id)
{
    m_from->SyncTerms(*m_jobs.at(id), m_scratch);
    std::vector<uint32_t>& nodes = m_nodesOf[id];
    for (const auto& [node, bytesPerSecond] : m_scratch)
    {
        NodeTerms& terms = m_termsOn[node][id];
        if (terms.empty())
        {
            nodes.push_back(node);
        }
        terms.push_back(bytesPerSecond);
        MarkNode(node);
    }
}

const std::vector<double>&
KeptSyncReserve::Update(const LinkShare& links, std::vector<uint32_t>& moved)
{
    moved.clear();
    const uint32_t nodes = links.NodeCount();
    const bool resized = m_reserve.size() != nodes; // every node reported, as all are new
    if (resized)
    {
        m_reserve.assign(nodes, 0.0);
    }
    if (resized || PeekPointer(m_from) != &links)
    {
        // every job's terms from these links, every node summed again
        m_from = Ptr<const LinkShare>(&links);
        m_nodesOf.clear();
        m_termsOn.assign(nodes, {});
        m_isDirty.assign(nodes, 0);
        m_dirty.clear();
        m_untaken.clear();
        for (const auto& [id, job] : m_jobs)
        {
            TakeTerms(id);
        }
        for (uint32_t n = 0; n < nodes; ++n)
        {
            MarkNode(n);
        }
    }
    for (uint64_t id : m_untaken)
    {
        // kept still, and not taken yet (a job added, removed and added again is listed twice)
        if (m_jobs.count(id) > 0 && m_nodesOf.count(id) == 0)
        {
            TakeTerms(id);
        }
    }
    m_untaken.clear();
    std::sort(m_dirty.begin(), m_dirty.end()); // moved in node order
    for (uint32_t n : m_dirty)
    {
        m_isDirty[n] = 0;
        double demand = 0.0;
        for (const auto& [id, terms] : m_termsOn[n])
        {
            for (double t : terms)
            {
                demand += t;
            }
        }
        double reserve = links.ReserveOf(demand);
        if (resized || reserve != m_reserve[n])
        {
            moved.push_back(n);
        }
        m_reserve[n] = reserve;
    }
    m_dirty.clear();
    return m_reserve;
}

} // namespace ns3
