/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ina-helper.h"

#include "ina-switchml-policy.h"

#include "ns3/abort.h"
#include "ns3/component-registry.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaHelper");

InaHelper::InaHelper()
    : m_rate("100Gbps"),
      m_delay(NanoSeconds(500)),
      m_loss(0),
      m_queuePackets(100000),
      m_valuesPerPacket(62),
      m_window(256),
      m_racks(1),
      m_uplinkRate("400Gbps"),
      m_hierarchical(true)
{
    NS_LOG_FUNCTION(this);
    m_switchFactory.SetTypeId(InaSwitch::GetTypeId());
    m_workerFactory.SetTypeId(InaWorker::GetTypeId());
    m_psFactory.SetTypeId(InaParameterServer::GetTypeId());
    SetPolicy("atp");
}

void
InaHelper::SetPolicy(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    const ComponentAlias* policy =
        ComponentRegistry::Lookup("ina-policy", name, InaAllocationPolicy::GetTypeId());
    if (!policy)
    {
        throw std::invalid_argument(
            "INA policy '" + name + "' unknown: expected " +
            ComponentRegistry::Join(
                ComponentRegistry::Names("ina-policy", InaAllocationPolicy::GetTypeId()),
                " or "));
    }
    m_policyFactory.SetTypeId(policy->typeId);
    if (m_policyFactory.GetTypeId() == SwitchMlPolicy::GetTypeId())
    {
        m_valuesPerPacket = 64;
        m_workerFactory.Set("Timeout", TimeValue(MilliSeconds(10)));
        m_workerFactory.Set("FirstTimeout", TimeValue(MilliSeconds(10)));
        m_switchFactory.Set("PipelinePasses", UintegerValue(1)); // 64 values in one pass
        m_workerFactory.Set("Retransmit", EnumValue(InaWorker::SLOT));
    }
    else // ATP and ESA: ATP's packet format and retransmission
    {
        m_valuesPerPacket = 62;
        m_workerFactory.Set("Timeout", TimeValue(MicroSeconds(200)));
        m_workerFactory.Set("FirstTimeout", TimeValue(MilliSeconds(50)));
        // Tofino processes 31 of ATP's 62 values per pass: the packet is resubmitted once.
        m_switchFactory.Set("PipelinePasses", UintegerValue(2));
        m_workerFactory.Set("Retransmit", EnumValue(InaWorker::WINDOW));
    }
    m_policyName = name;
}

void
InaHelper::SetPolicyAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_policyFactory.Set(name, value);
}

void
InaHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_switchFactory.Set(name, value);
}

void
InaHelper::SetWorkerAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_workerFactory.Set(name, value);
}

void
InaHelper::SetLinkRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_rate = rate;
}

void
InaHelper::SetLinkDelay(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    m_delay = delay;
}

void
InaHelper::SetLossRate(double rate)
{
    NS_LOG_FUNCTION(this << rate);
    NS_ABORT_MSG_IF(rate < 0 || rate >= 1, "InaHelper: loss rate " << rate << " not in [0, 1)");
    m_loss = rate;
}

void
InaHelper::SetQueuePackets(uint32_t packets)
{
    NS_LOG_FUNCTION(this << packets);
    m_queuePackets = packets;
}

void
InaHelper::SetValuesPerPacket(uint32_t values)
{
    NS_LOG_FUNCTION(this << values);
    m_valuesPerPacket = values;
}

void
InaHelper::SetWindow(uint32_t window)
{
    NS_LOG_FUNCTION(this << window);
    m_window = window;
}

uint32_t
InaHelper::AddJob(const InaJobSpec& job)
{
    NS_LOG_FUNCTION(this << job.workers << job.gradientValues << job.iterations);
    if (job.workers < 1 || job.workers > 32)
    {
        throw std::invalid_argument("InaHelper: job " + std::to_string(m_specs.size()) + " has " +
                                    std::to_string(job.workers) +
                                    " workers; expected 1 to 32 (bitmap width)");
    }
    if (job.gradientValues == 0 || job.iterations == 0)
    {
        throw std::invalid_argument("InaHelper: job " + std::to_string(m_specs.size()) +
                                    " needs gradientValues >= 1 and iterations >= 1");
    }
    m_specs.push_back(job);
    return static_cast<uint32_t>(m_specs.size() - 1);
}

void
InaHelper::Install()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_specs.empty(), "InaHelper: add jobs before Install");
    m_policy = m_policyFactory.Create<InaAllocationPolicy>();
    UintegerValue pool;
    MakeSwitch()->GetAttribute("PoolSize", pool);
    m_p2p = PointToPointHelper();
    m_p2p.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
    m_p2p.SetChannelAttribute("Delay", TimeValue(m_delay));
    m_p2p.SetQueue("ns3::DropTailQueue<Packet>",
                   "MaxSize",
                   QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, m_queuePackets)));
    BuildSwitches();
    // The PS speaks the workers' wire format. (Two prototypes, as before the split: every
    // worker draws an automatic RNG stream, and later streams follow from the count.)
    m_workerFactory.Create<InaWorker>()->GetAttribute("HeaderOverheadBytes", m_psOverhead);
    m_workerFactory.Create<InaWorker>()->GetAttribute("Scale", m_psScale);

    // Where each job aggregates (switch r < m_racks: ToR r; m_racks: the spine): its rack's
    // ToR; a job spanning racks at the spine, and first at each of its ToRs if hierarchical.
    const uint32_t numJobs = static_cast<uint32_t>(m_specs.size());
    std::vector<std::vector<uint32_t>> levels(numJobs); //!< switches, the PS's one last
    std::map<uint32_t, std::vector<uint32_t>> jobsAt;
    for (uint32_t j = 0; j < numJobs; ++j)
    {
        levels[j] = AggregationLevels(WorkerRacks(j));
        for (uint32_t s : levels[j])
        {
            jobsAt[s].push_back(j);
        }
    }
    uint16_t nextAddr = 1;
    for (uint32_t j = 0; j < numJobs; ++j)
    {
        InstallJob(j, levels[j], Layouts(j, levels[j], jobsAt, pool.Get()), nextAddr);
    }
    for (uint32_t r = 0; r < m_racks; ++r)
    {
        m_tors[r]->Install(m_torNodes[r]);
        m_torNodes[r]->AggregateObject(m_tors[r]);
    }
    if (m_spine)
    {
        m_spine->Install(m_spineNode);
        m_spineNode->AggregateObject(m_spine);
    }
    AddLoss();
}

Ptr<InaSwitch>
InaHelper::MakeSwitch() const
{
    NS_LOG_FUNCTION(this);
    Ptr<InaSwitch> s = m_switchFactory.Create<InaSwitch>();
    s->SetAttribute("ValuesPerPacket", UintegerValue(m_valuesPerPacket));
    s->SetPolicy(m_policy);
    return s;
}

void
InaHelper::BuildSwitches()
{
    NS_LOG_FUNCTION(this);
    // One switch, or a ToR per rack under a spine.
    for (uint32_t r = 0; r < m_racks; ++r)
    {
        m_torNodes.push_back(CreateObject<Node>());
        m_tors.push_back(MakeSwitch());
        m_nodes.Add(m_torNodes.back());
    }
    if (m_racks > 1)
    {
        m_spineNode = CreateObject<Node>();
        m_nodes.Add(m_spineNode);
        m_spine = MakeSwitch();
        PointToPointHelper up = m_p2p;
        up.SetDeviceAttribute("DataRate", DataRateValue(m_uplinkRate));
        for (uint32_t r = 0; r < m_racks; ++r)
        {
            NetDeviceContainer d = up.Install(m_torNodes[r], m_spineNode);
            m_devices.push_back(d.Get(0));
            m_devices.push_back(d.Get(1));
            m_tors[r]->SetDefaultRoute(d.Get(0));
            m_spineDown.push_back(d.Get(1));
        }
    }
    m_switch = m_racks > 1 ? m_spine : m_tors.front();
}

Ptr<NetDevice>
InaHelper::Connect(Ptr<Node> host, uint16_t addr, uint32_t rack)
{
    NS_LOG_FUNCTION(this << host << addr << rack);
    // A host in rack r hangs off ToR r; rack == m_racks means the spine.
    Ptr<Node> sw = rack < m_racks ? m_torNodes[rack] : m_spineNode;
    NetDeviceContainer d = m_p2p.Install(host, sw);
    m_devices.push_back(d.Get(0));
    m_devices.push_back(d.Get(1));
    if (rack < m_racks)
    {
        m_tors[rack]->AddRoute(addr, d.Get(1));
        if (m_spine)
        {
            m_spine->AddRoute(addr, m_spineDown[rack]);
        }
    }
    else
    {
        m_spine->AddRoute(addr, d.Get(1));
    }
    return d.Get(0);
}

std::vector<uint32_t>
InaHelper::AggregationLevels(std::vector<uint32_t> racks) const
{
    NS_LOG_FUNCTION(this << racks.size());
    std::sort(racks.begin(), racks.end());
    racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
    if (racks.size() == 1)
    {
        return racks;
    }
    if (m_hierarchical)
    {
        racks.push_back(m_racks);
        return racks;
    }
    return {m_racks};
}

void
InaHelper::InstallJob(uint32_t j,
                      const std::vector<uint32_t>& levels,
                      std::map<uint32_t, InaJobSlots> slots,
                      uint16_t& nextAddr)
{
    NS_LOG_FUNCTION(this << j << levels.size() << nextAddr);
    const InaJobSpec& spec = m_specs[j];
    const std::vector<uint32_t> workerRacks = WorkerRacks(j);
    const uint32_t top = levels.back();
    const bool twoLevel = levels.size() > 1;
    uint16_t psAddr = nextAddr++;
    InstallParameterServer(j, psAddr, top, slots[top]);

    std::vector<uint16_t> workerAddrs;
    std::map<uint32_t, std::vector<uint16_t>> byRack;
    std::vector<Ptr<InaWorker>> workers;
    for (uint32_t w = 0; w < spec.workers; ++w)
    {
        uint16_t addr = nextAddr++;
        const InaJobSlots& layout = slots[twoLevel ? workerRacks[w] : top];
        workers.push_back(InstallWorker(j, w, addr, psAddr, workerRacks[w], layout));
        workerAddrs.push_back(addr);
        byRack[workerRacks[w]].push_back(addr);
    }
    m_workers.push_back(workers);
    const auto job = static_cast<uint16_t>(j);
    if (!twoLevel && top < m_racks)
    {
        m_tors[top]->AddJob(job, psAddr, workerAddrs);
        return;
    }
    if (!twoLevel)
    {
        m_spine->AddJob(job, psAddr, workerAddrs);
        for (const auto& [r, members] : byRack)
        {
            m_tors[r]->AddTransitJob(job, members);
        }
        return;
    }
    // The rack's rank among the job's racks is its contributor bit at the spine.
    uint8_t bit = 0;
    for (const auto& [r, members] : byRack)
    {
        m_tors[r]->AddFirstLevelJob(job, psAddr, members, bit++, slots[r]);
    }
    m_spine->AddSecondLevelJob(job,
                               psAddr,
                               workerAddrs,
                               static_cast<uint8_t>(byRack.size()),
                               slots[top]);
}

void
InaHelper::InstallParameterServer(uint32_t j,
                                  uint16_t psAddr,
                                  uint32_t top,
                                  const InaJobSlots& slots)
{
    NS_LOG_FUNCTION(this << j);
    const InaJobSpec& spec = m_specs[j];
    Ptr<Node> psNode = CreateObject<Node>();
    m_nodes.Add(psNode);
    Ptr<NetDevice> psDev = Connect(psNode, psAddr, top);
    uint64_t chunks = (spec.gradientValues + m_valuesPerPacket - 1) / m_valuesPerPacket;
    Ptr<InaParameterServer> ps = m_psFactory.Create<InaParameterServer>();
    ps->SetAttribute("Job", UintegerValue(j));
    ps->SetAttribute("Address", UintegerValue(psAddr));
    ps->SetAttribute("FanIn", UintegerValue(spec.workers));
    ps->SetAttribute("ValuesPerPacket", UintegerValue(m_valuesPerPacket));
    ps->SetAttribute("HeaderOverheadBytes", m_psOverhead);
    ps->SetAttribute("ChunksPerIteration", UintegerValue(chunks));
    ps->SetAttribute("Scale", m_psScale);
    ps->SetPolicy(m_policy, slots);
    ps->SetDevice(psDev);
    psNode->AddApplication(ps);
    ps->SetStartTime(Seconds(0));
    m_ps.push_back(ps);
}

Ptr<InaWorker>
InaHelper::InstallWorker(uint32_t j,
                         uint32_t rank,
                         uint16_t addr,
                         uint16_t psAddr,
                         uint32_t rack,
                         const InaJobSlots& slots)
{
    NS_LOG_FUNCTION(this << j);
    const InaJobSpec& spec = m_specs[j];
    Ptr<Node> node = CreateObject<Node>();
    m_nodes.Add(node);
    Ptr<NetDevice> dev = Connect(node, addr, rack);
    Ptr<InaWorker> worker = m_workerFactory.Create<InaWorker>();
    worker->SetAttribute("Job", UintegerValue(j));
    worker->SetAttribute("Rank", UintegerValue(rank));
    worker->SetAttribute("FanIn", UintegerValue(spec.workers));
    worker->SetAttribute("Address", UintegerValue(addr));
    worker->SetAttribute("PsAddress", UintegerValue(psAddr));
    worker->SetAttribute("GradientValues", UintegerValue(spec.gradientValues));
    worker->SetAttribute("Iterations", UintegerValue(spec.iterations));
    worker->SetAttribute("ComputeTime", TimeValue(spec.computeTime));
    worker->SetAttribute("ValuesPerPacket", UintegerValue(m_valuesPerPacket));
    worker->SetAttribute("Priority", UintegerValue(spec.priority));
    worker->SetPolicy(m_policy, slots);
    worker->SetDevice(dev);
    node->AddApplication(worker);
    worker->SetStartTime(spec.startTime);
    return worker;
}

void
InaHelper::AddLoss()
{
    NS_LOG_FUNCTION(this);
    if (m_loss <= 0)
    {
        return;
    }
    for (auto& dev : m_devices)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(m_loss));
        dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
}

std::vector<uint32_t>
InaHelper::WorkerRacks(uint32_t j) const
{
    NS_LOG_FUNCTION(this << j);
    const InaJobSpec& spec = m_specs[j];
    std::vector<uint32_t> racks = spec.workerRacks.empty()
                                      ? std::vector<uint32_t>(spec.workers, j % m_racks)
                                      : spec.workerRacks;
    if (racks.size() != spec.workers)
    {
        throw std::invalid_argument("InaHelper: job " + std::to_string(j) + " lists " +
                                    std::to_string(racks.size()) + " worker racks for " +
                                    std::to_string(spec.workers) + " workers");
    }
    for (uint32_t r : racks)
    {
        if (r >= m_racks)
        {
            throw std::invalid_argument("InaHelper: job " + std::to_string(j) +
                                        " places a worker in rack " + std::to_string(r) +
                                        "; expected 0 to " + std::to_string(m_racks - 1));
        }
    }
    return racks;
}

std::map<uint32_t, InaJobSlots>
InaHelper::Layouts(uint32_t j,
                   const std::vector<uint32_t>& levels,
                   const std::map<uint32_t, std::vector<uint32_t>>& jobsAt,
                   uint64_t poolSize) const
{
    NS_LOG_FUNCTION(this << j);
    std::map<uint32_t, InaJobSlots> slots;
    uint32_t window = m_window;
    for (uint32_t s : levels)
    {
        const auto& peers = jobsAt.at(s);
        uint32_t rank =
            static_cast<uint32_t>(std::find(peers.begin(), peers.end(), j) - peers.begin());
        slots[s] = m_policy->Layout(static_cast<uint32_t>(poolSize),
                                    static_cast<uint32_t>(peers.size()),
                                    rank,
                                    m_window);
        window = std::min(window, slots[s].window);
    }
    // One window for every level: a worker's slot (chunk mod window) must mean the same chunk
    // at its ToR and at the spine (SwitchML's self-clocked reuse relies on it).
    for (auto& [s, sl] : slots)
    {
        sl.window = window;
    }
    return slots;
}

int64_t
InaHelper::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    int64_t used = 0;
    for (auto& job : m_workers)
    {
        for (auto& w : job)
        {
            used += w->AssignStreams(stream + used);
        }
    }
    for (auto& dev : m_devices)
    {
        PointerValue pv;
        dev->GetAttribute("ReceiveErrorModel", pv);
        Ptr<RateErrorModel> em = pv.Get<RateErrorModel>();
        if (em)
        {
            used += em->AssignStreams(stream + used);
        }
    }
    return used;
}

Ptr<InaSwitch>
InaHelper::GetSwitch() const
{
    NS_LOG_FUNCTION(this);
    return m_switch;
}

std::vector<Ptr<InaSwitch>>
InaHelper::GetSwitches() const
{
    NS_LOG_FUNCTION(this);
    std::vector<Ptr<InaSwitch>> all = m_tors;
    if (m_spine)
    {
        all.push_back(m_spine);
    }
    return all;
}

void
InaHelper::SetRacks(uint32_t racks, DataRate uplinkRate)
{
    NS_LOG_FUNCTION(this << racks << uplinkRate);
    NS_ABORT_MSG_IF(racks < 1, "InaHelper: racks must be >= 1");
    m_racks = racks;
    m_uplinkRate = uplinkRate;
}

void
InaHelper::SetHierarchical(bool twoLevel)
{
    NS_LOG_FUNCTION(this << twoLevel);
    m_hierarchical = twoLevel;
}

Ptr<InaAllocationPolicy>
InaHelper::GetPolicy() const
{
    NS_LOG_FUNCTION(this);
    return m_policy;
}

const std::vector<Ptr<InaWorker>>&
InaHelper::GetWorkers(uint32_t job) const
{
    NS_LOG_FUNCTION(this << job);
    return m_workers.at(job);
}

Ptr<InaParameterServer>
InaHelper::GetParameterServer(uint32_t job) const
{
    NS_LOG_FUNCTION(this << job);
    return m_ps.at(job);
}

uint32_t
InaHelper::GetNJobs() const
{
    NS_LOG_FUNCTION(this);
    return static_cast<uint32_t>(m_specs.size());
}

const InaJobSpec&
InaHelper::GetJobSpec(uint32_t job) const
{
    NS_LOG_FUNCTION(this << job);
    return m_specs.at(job);
}

uint32_t
InaHelper::GetValuesPerPacket() const
{
    NS_LOG_FUNCTION(this);
    return m_valuesPerPacket;
}

uint32_t
InaHelper::GetPacketBytes() const
{
    NS_LOG_FUNCTION(this);
    UintegerValue overhead;
    m_workerFactory.Create<InaWorker>()->GetAttribute("HeaderOverheadBytes", overhead);
    return m_valuesPerPacket * 4 + static_cast<uint32_t>(overhead.Get());
}

InaJobResult
InaHelper::GetResult(uint32_t job) const
{
    NS_LOG_FUNCTION(this << job);
    InaJobResult r;
    const auto& workers = m_workers.at(job);
    double finish = 0;
    bool allDone = true;
    uint32_t minIters = UINT32_MAX;
    for (const auto& w : workers)
    {
        minIters = std::min(minIters, w->GetIterationsDone());
        if (w->GetFinishTime().IsNegative())
        {
            allDone = false;
        }
        finish = std::max(finish, w->GetFinishTime().GetSeconds());
        r.valuesChecked += w->GetValuesChecked();
        r.valuesWrong += w->GetValuesWrong();
        r.maxErrorRatio = std::max(r.maxErrorRatio, w->GetMaxErrorRatio());
        r.resends += w->GetResends();
        r.overflowChunks += w->GetOverflowChunks();
    }
    r.iterationsDone = minIters;
    r.fallbackResults = workers.front()->GetFallbackResults();
    r.ecnDecreases = workers.front()->GetEcnDecreases();
    double start = m_specs.at(job).startTime.GetSeconds();
    r.jct = allDone ? finish - start : -1;
    if (allDone && minIters > 0)
    {
        r.meanIterationTime = r.jct / minIters;
    }
    Ptr<InaParameterServer> ps = m_ps.at(job);
    r.psPackets = ps->GetPacketsReceived();
    r.psBytes = ps->GetBytesReceived();
    r.psFallbackBytes = ps->GetFallbackBytesReceived();
    r.psFallbackPackets = ps->GetFallbackPacketsReceived();
    r.psEvicted = ps->GetEvictedReceived();
    return r;
}

} // namespace ns3
