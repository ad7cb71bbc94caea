/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "provisioning-data-loading.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProvisioningDataLoading");
NS_OBJECT_ENSURE_REGISTERED(ProvisioningDataLoading);

TypeId
ProvisioningDataLoading::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProvisioningDataLoading")
            .SetParent<ReportingTermModel>()
            .SetGroupName("Aicluster")
            .AddConstructor<ProvisioningDataLoading>()
            .AddAttribute("PaceGroups",
                          "Keep the running jobs between passes and, while the stage every "
                          "flow shares (the pool's cores, or the storage backend for loaders "
                          "without a pool) alone binds, give every job's data term one shared "
                          "pace (the level of ProvisioningLevel), so that a pass costs what "
                          "changed; false: solve every running job at every pass.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ProvisioningDataLoading::m_paceGroups),
                          MakeBooleanChecker())
            .AddTraceSource("Solved",
                            "Per-job loader results after each evaluation.",
                            MakeTraceSourceAccessor(&ProvisioningDataLoading::m_solved),
                            "ns3::ProvisioningDataLoading::SolvedTracedCallback");
    return tid;
}

ProvisioningDataLoading::ProvisioningDataLoading()
    : m_model(CreateObject<ProvisioningModel>())
{
    // whole-cluster replays: one flow per (job, node); exact under rail affinity
    m_model->SetAttribute("AggregatePerNode", BooleanValue(true));
    // a replay solves at every scheduling pass with fixed attributes: reuse each flow's usage
    m_model->SetAttribute("ReuseUsages", BooleanValue(true));
}

void
ProvisioningDataLoading::Configure(const std::string& loader, Ptr<StorageBackend> storage)
{
    if (!storage)
    {
        throw std::invalid_argument("ProvisioningDataLoading::Configure: storage is null");
    }
    m_model->SetLoader(ProvisioningLoader::Create(loader));
    m_storage = storage;
    m_builtNodes = 0;
}

void
ProvisioningDataLoading::Configure(Ptr<ProvisioningLoader> loader, Ptr<StorageBackend> storage)
{
    NS_LOG_FUNCTION(this << loader << storage);
    if (!storage || !loader)
    {
        throw std::invalid_argument(
            "ProvisioningDataLoading::Configure: loader or storage is null");
    }
    m_model->SetLoader(loader);
    m_storage = storage;
    m_builtNodes = 0;
}

const std::vector<ProvisioningJobResult>&
ProvisioningDataLoading::LastResults() const
{
    return m_lastResults;
}

void
ProvisioningDataLoading::SetNodeTemplate(const RailClusterConfig& node)
{
    m_template = node;
    m_builtNodes = 0;
}

Ptr<ProvisioningModel>
ProvisioningDataLoading::GetModel() const
{
    return m_model;
}

bool
ProvisioningDataLoading::DependsOnOtherJobs() const
{
    return true;
}

namespace
{
/// \param job a running job \param rate samples/s its slowest GPU receives
/// \param keepsUp the loader keeps up with the GPU \return its data term [s per iteration]
double
TermOf(const ClusterJob& job, double rate, bool keepsUp)
{
    if (job.computeTime > 0 && keepsUp)
    {
        // The loader keeps up (the solver's rate is the GPU's demand to within its
        // tolerance): the GPU's own pace, exactly. batch / rate is an ulp or so above the
        // compute time and would show as data stall.
        return job.computeTime;
    }
    return rate > 0 ? job.profile->localBatch / rate : 1e30;
}

/// \param profile a workload \return the dataset it reads (its own name if none is named)
const std::string&
DatasetOf(const WorkloadProfile& profile)
{
    return !profile.dataset.empty() ? profile.dataset : profile.name;
}

/// \param a a plan \param b another \return true if they differ
bool
PlanMoved(const CachePlan& a, const CachePlan& b)
{
    return a.rawHit != b.rawHit || a.decodedHit != b.decodedHit || a.bytes != b.bytes;
}
} // namespace

void
ProvisioningDataLoading::Describe(const ClusterJob& j, ProvisioningJob& pj)
{
    pj.name = std::to_string(j.record.id);
    pj.profile = j.profile;
    pj.gpusOnNode.assign(j.placement.gpusOnNode.begin(), j.placement.gpusOnNode.end());
    pj.gpuRate = -1;
    // GPUs consume at the engine's compute pace on this placement (catalog otherwise)
    if (j.computeTime > 0 && j.profile)
    {
        pj.gpuRate = j.profile->localBatch / j.computeTime;
    }
}

bool
ProvisioningDataLoading::EnsureCluster(const ClusterTopology& topology)
{
    if (m_builtNodes == topology.numNodes && m_builtGpus == topology.gpusPerNode)
    {
        return false;
    }
    RailClusterConfig c = m_template;
    c.nodes = topology.numNodes;
    c.node.gpus = topology.gpusPerNode;
    c.node.nics = topology.gpusPerNode;
    c.node.pcieSwitches = std::min(c.node.pcieSwitches, topology.gpusPerNode);
    m_model->SetCluster(c, m_storage);
    m_builtNodes = topology.numNodes;
    m_builtGpus = topology.gpusPerNode;
    return true;
}

void
ProvisioningDataLoading::Evaluate(const ClusterTopology& topology,
                                  const std::vector<Ptr<const ClusterJob>>& running,
                                  std::vector<double>& seconds)
{
    NS_LOG_FUNCTION(this << running.size());
    if (!m_storage || !m_model->GetLoader())
    {
        throw std::logic_error("ProvisioningDataLoading: call Configure(loader, storage) first");
    }
    bool rebuilt = EnsureCluster(topology);
    if (!ReportsChanges())
    {
        if (rebuilt)
        {
            m_gpuIndices.Reset(topology.numNodes, topology.gpusPerNode);
        }
        EvaluateAll(running, seconds);
        return;
    }
    if (rebuilt || m_onNode.size() != topology.numNodes)
    {
        uint32_t statics = m_model->StaticCount();
        const auto& caps = m_model->Capacities();
        m_levelResource = m_model->LevelResource();
        m_level.Reset(std::vector<double>(caps.begin(), caps.begin() + statics), m_levelResource);
        // each resource's utilisation class, numbered (GetUtilization)
        m_classSlots.clear();
        std::vector<uint8_t> classOf(statics, 0);
        for (uint32_t r = 0; r < statics; ++r)
        {
            auto slot = m_model->UtilizationSlot(r);
            auto it = std::find(m_classSlots.begin(), m_classSlots.end(), slot);
            classOf[r] = uint8_t(it - m_classSlots.begin());
            if (it == m_classSlots.end())
            {
                m_classSlots.push_back(slot);
            }
        }
        m_level.SetClasses(classOf, uint32_t(m_classSlots.size()));
        m_railClass = uint32_t(
            std::find(m_classSlots.begin(), m_classSlots.end(), &ProvisioningUtilization::rail) -
            m_classSlots.begin()); // past the classes if there are no rails (UsedInClass: 0)
        m_onNode.assign(topology.numNodes, {});
        m_gpuIndices.Reset(topology.numNodes, topology.gpusPerNode);
        std::vector<Ptr<const ClusterJob>> kept;
        for (const auto& [id, r] : m_running)
        {
            kept.push_back(r.job);
        }
        m_running.clear();
        m_syncReserve.Clear();
        m_profileSlots.clear();
        m_readers.clear();
        m_profiles.clear();
        m_marked.clear();
        m_notLevelable = 0;
        m_levelValid = false;
        for (const auto& job : kept)
        {
            Admit(job);
        }
        m_plansStale = true;
    }
    for (const auto& job : running)
    {
        Admit(job);
    }
    bool all = !m_levelValid;
    Ptr<LinkShare> links = GetLinkShare();
    if (links)
    {
        ApplyRailReserve(*links);
    }
    if (m_plansStale)
    {
        Replan();
    }
    std::vector<uint64_t> moved(m_marked.begin(), m_marked.end());
    DescribeMarked();
    // The level is the max-min allocation when every job's flows are kept and no other
    // resource than the one that gave it (LevelResource(), or a resource exactly their flows
    // use) is over capacity at it.
    double level = m_level.Level();
    if (m_notLevelable == 0 && m_level.OtherResourcesFit())
    {
        LevelPass(all, moved, level);
    }
    else
    {
        FullPass(moved);
    }
    if (links)
    {
        ShareRailLoads(*links);
    }
    m_lastResults.clear();
    for (size_t k = 0; k < running.size(); ++k)
    {
        const Running& r = m_running.at(running[k]->record.id);
        ProvisioningJobResult res;
        res.name = r.spec.name;
        res.gpus = r.spec.TotalGpus();
        res.gpuDemand = r.spec.GpuDemand();
        res.perGpu = m_levelValid ? LevelRate(r) : r.fullRate;
        res.stallFraction = std::isfinite(res.gpuDemand) && res.gpuDemand > 0
                                ? std::max(0.0, 1 - res.perGpu / res.gpuDemand)
                                : 0.0;
        res.bottleneck = Bottleneck(*r.job);
        res.cache = r.plan;
        seconds[k] = r.reportedGroup >= 0 ? r.reportedWork * m_pace : r.reportedSeconds;
        m_lastResults.push_back(std::move(res));
    }
    ++m_evaluations;
    if (m_setMoved && !m_running.empty())
    {
        // as a full evaluation would be made: when the running set moved, for jobs running
        m_solved(m_lastResults);
    }
    m_setMoved = false;
}

void
ProvisioningDataLoading::Admit(Ptr<const ClusterJob> job)
{
    if (m_running.count(job->record.id) > 0)
    {
        return; // a repeat
    }
    Running& r = KeepRunning(job->record.id);
    r.job = job;
    m_setMoved = true;
    Describe(*job, r.spec);
    for (const auto& [node, g] : r.spec.gpusOnNode)
    {
        if (node >= m_onNode.size())
        {
            throw std::invalid_argument(
                "ProvisioningDataLoading: job " + r.spec.name + " is placed on node " +
                std::to_string(node) + ", beyond the cluster's " + std::to_string(m_onNode.size()));
        }
        std::vector<uint64_t>& ids = m_onNode[node];
        if (std::find(ids.begin(), ids.end(), job->record.id) == ids.end())
        {
            ids.push_back(job->record.id); // once, if the placement names the node twice
        }
    }
    if (r.spec.gpusOnNode.size() > 1)
    {
        m_syncReserve.Add(job); // its sync may cross the rails
    }
    TakeGpus(job->record.id, r.spec);
    m_marked.insert(job->record.id);
    m_plansStale = CountProfile(r.spec.profile, job->record.id, +1) || m_plansStale;
}

void
ProvisioningDataLoading::TakeGpus(uint64_t id, ProvisioningJob& spec)
{
    // The job keeps these GPUs (so rails and PCIe switches) while it runs. Others move only
    // where its node's free GPUs were split: they are described again.
    std::vector<uint64_t>& moved = m_gpusMoved;
    moved.clear();
    m_gpuIndices.Take(id, spec.gpusOnNode, moved);
    spec.firstGpu = m_gpuIndices.FirstGpus(id);
    for (uint64_t other : moved)
    {
        auto it = m_running.find(other);
        if (it != m_running.end())
        {
            it->second.spec.firstGpu = m_gpuIndices.FirstGpus(other);
            m_marked.insert(other);
        }
    }
}

bool
ProvisioningDataLoading::CountProfile(const WorkloadProfile* profile, uint64_t id, int sign)
{
    if (!profile)
    {
        throw std::invalid_argument("ProvisioningDataLoading: job " + std::to_string(id) +
                                    " has no workload profile");
    }
    // Plans depend on the running profiles, and per dataset on its last reader's profile (in
    // id order, as PlanCaches sees the jobs).
    auto slots = m_profileSlots.find(profile);
    if (slots == m_profileSlots.end())
    {
        slots = m_profileSlots
                    .emplace(profile,
                             ProfileSlots{&m_readers[DatasetOf(*profile)], &m_profiles[profile]})
                    .first;
    }
    auto& readers = *slots->second.readers;
    const WorkloadProfile* before = readers.empty() ? nullptr : readers.rbegin()->second;
    if (sign > 0)
    {
        readers[id] = profile;
    }
    else
    {
        readers.erase(id);
    }
    const WorkloadProfile* after = readers.empty() ? nullptr : readers.rbegin()->second;
    uint32_t& n = *slots->second.running;
    bool setMoved = sign > 0 ? n++ == 0 : --n == 0;
    return before != after || setMoved;
}

void
ProvisioningDataLoading::Replan()
{
    NS_LOG_FUNCTION(this);
    // One job per running profile, each dataset's last reader after the others: the plans
    // PlanCaches gives them are those it gives every running job of that profile.
    std::vector<ProvisioningJob> jobs;
    std::set<const WorkloadProfile*> last;
    for (const auto& [dataset, readers] : m_readers)
    {
        if (!readers.empty()) // a dataset no running job reads stays listed (CountProfile)
        {
            last.insert(readers.rbegin()->second);
        }
    }
    auto add = [&jobs](const WorkloadProfile* p) {
        ProvisioningJob j;
        j.name = p->name;
        j.profile = p;
        jobs.push_back(std::move(j));
    };
    for (const auto& [p, n] : m_profiles)
    {
        if (n > 0 && !last.count(p)) // a profile no job runs stays listed, at 0
        {
            add(p);
        }
    }
    for (const auto& [dataset, readers] : m_readers)
    {
        if (!readers.empty())
        {
            add(readers.rbegin()->second);
        }
    }
    std::vector<CachePlan> plans = m_model->PlanCaches(jobs);
    std::map<const WorkloadProfile*, CachePlan> before;
    before.swap(m_planOf);
    for (size_t k = 0; k < jobs.size(); ++k)
    {
        m_planOf[jobs[k].profile] = plans[k];
    }
    // A running job was described with its profile's plan of the last Replan (a job admitted
    // since is marked already): the jobs to describe again are those of the profiles whose
    // plan moved, found through their dataset's readers rather than a walk over every job.
    for (const auto& [profile, plan] : m_planOf)
    {
        auto old = before.find(profile);
        if (old != before.end() && !PlanMoved(plan, old->second))
        {
            continue;
        }
        for (const auto& [id, reader] : m_readers.at(DatasetOf(*profile)))
        {
            if (reader == profile)
            {
                m_running.at(id).plan = plan;
                m_marked.insert(id);
            }
        }
    }
    m_plansStale = false;
}

void
ProvisioningDataLoading::DescribeMarked()
{
    std::vector<ProvisioningLevel::Flow> flows;
    for (uint64_t id : m_marked)
    {
        auto it = m_running.find(id);
        if (it == m_running.end())
        {
            continue;
        }
        Running& r = it->second;
        r.plan = m_planOf.at(r.spec.profile);
        if (DescriptionStands(id, r))
        {
            // Marked because a rail reserve on its nodes moved, but none of its flows' units
            // did: its kept flows, their sums and its threshold stand as they are, and are
            // those of a description now.
            continue;
        }
        if (r.described && !r.levelable)
        {
            --m_notLevelable;
        }
        m_byThreshold.erase({r.threshold, id});
        r.work = 0;
        r.threshold = 0;
        m_level.Remove(id);
        m_level.TakeSpareFlows(flows);
        r.levelable = m_model->DescribeJob(r.spec, r.plan, flows);
        r.described = true;
        r.describedPlan = r.plan;
        r.describedFirstGpu = r.spec.firstGpu;
        r.describedBuilds = m_model->GetNStaticBuilds();
        if (r.levelable)
        {
            m_level.Add(id, std::move(flows));
            double unit = m_level.SlowestUnit(id);
            if (std::isfinite(unit) && unit > 0)
            {
                // below this level its GPUs receive less than their demand
                r.work = r.spec.profile->localBatch / unit;
                r.threshold = std::min(r.spec.GpuDemand(), 1e18) / unit;
                m_byThreshold.emplace(r.threshold, id);
            }
        }
        else
        {
            ++m_notLevelable;
        }
    }
    m_marked.clear();
}

bool
ProvisioningDataLoading::DescriptionStands(uint64_t id, const Running& r) const
{
    if (!r.described || !r.levelable || PlanMoved(r.plan, r.describedPlan) ||
        r.spec.firstGpu != r.describedFirstGpu || r.describedBuilds != m_model->GetNStaticBuilds())
    {
        return false;
    }
    // The flows' units are dominant shares over the capacities they use and the job's own
    // storage clients (which stay): each flow must get the same unit from today's capacities,
    // bit for bit (its usage, and so its sums, stay). Where none of its capacities moved it
    // does; taking the share again costs about what finding out whether one moved would.
    const std::vector<ProvisioningLevel::Flow>* flows = m_level.FlowsOf(id);
    if (!flows || flows->size() != r.spec.gpusOnNode.size())
    {
        return false;
    }
    const double demand = r.spec.GpuDemand();
    for (size_t i = 0; i < flows->size(); ++i)
    {
        const ProvisioningLevel::Flow& f = (*flows)[i];
        if (!(m_model->KeptFlowUnit(f, r.spec.gpusOnNode[i].second, demand, r.spec) == f.unit))
        {
            return false;
        }
    }
    return true;
}

bool
ProvisioningDataLoading::Starved(const Running& r) const
{
    // a full pass's test: slower than demand (finite, as the solver caps it) beyond its margin
    return r.work > 0 && LevelRate(r) < std::min(r.spec.GpuDemand(), 1e18) * (1 - 1e-9);
}

double
ProvisioningDataLoading::LevelRate(const Running& r) const
{
    double demand = r.spec.GpuDemand();
    double unit = m_level.SlowestUnit(r.job->record.id);
    return std::isfinite(unit) ? std::min(demand, m_levelNow * unit) : demand;
}

void
ProvisioningDataLoading::LevelPass(bool all, const std::vector<uint64_t>& moved, double level)
{
    double before = m_levelNow;
    m_levelNow = level;
    if (std::isfinite(level) && level > 0 && 1.0 / level != m_pace)
    {
        m_pace = 1.0 / level;
        m_paceChanges.push_back({m_paceGroup, m_pace});
    }
    // A job whose GPUs the level starves (rate below demand, as a full pass decides) is on
    // the group's pace; one that keeps up has its compute time as data term, as in a full
    // pass. Only the jobs whose threshold the level crossed change sides.
    auto report = [this](Running& r, bool force) {
        if (Starved(r))
        {
            Report(r, r.work * m_pace, int32_t(m_paceGroup), r.work, force);
            return;
        }
        Report(r, TermOf(*r.job, LevelRate(r), true), -1, 0, force);
    };
    if (all)
    {
        for (auto& [id, r] : m_running)
        {
            report(r, true);
        }
    }
    else
    {
        for (uint64_t id : moved)
        {
            auto it = m_running.find(id);
            if (it != m_running.end())
            {
                report(it->second, true);
            }
        }
        double lo = std::min(before, level) * (1 - 1e-12);
        double hi = std::max(before, level) * (1 + 1e-12);
        for (auto it = m_byThreshold.lower_bound({lo, 0});
             it != m_byThreshold.end() && it->first <= hi;
             ++it)
        {
            report(m_running.at(it->second), false);
        }
    }
    m_levelValid = true;
    m_util = ProvisioningUtilization{}; // computed when asked (GetUtilization)
    m_utilClasses = 0;
    ++m_levelPasses;
}

void
ProvisioningDataLoading::FullPass(const std::vector<uint64_t>& moved)
{
    NS_LOG_FUNCTION(this << m_running.size());
    m_jobs.clear();
    for (const auto& [id, r] : m_running)
    {
        m_jobs.push_back(r.spec);
    }
    auto results = m_model->Solve(m_jobs);
    std::set<uint64_t> force(moved.begin(), moved.end());
    size_t k = 0;
    for (auto& [id, r] : m_running)
    {
        const ProvisioningJobResult& res = results[k++];
        bool keepsUp = res.bottleneck == "gpu";
        r.fullRate = res.perGpu;
        Report(r, TermOf(*r.job, res.perGpu, keepsUp), -1, 0, force.count(id) > 0);
        m_bottleneck[id] = res.bottleneck;
    }
    m_levelValid = false;
    ++m_fullPasses;
}

void
ProvisioningDataLoading::Report(Running& r, double seconds, int32_t group, double work, bool force)
{
    bool same = group >= 0 ? r.reportedGroup == group && r.reportedWork == work
                           : r.reportedGroup == -1 && r.reportedSeconds == seconds;
    if (same && !force)
    {
        return;
    }
    r.reportedGroup = group;
    r.reportedSeconds = seconds;
    r.reportedWork = work;
    m_changes.emplace_back(r.job, seconds, group, work);
}

void
ProvisioningDataLoading::JobStopped(const ClusterJob& job)
{
    NS_LOG_FUNCTION(this << job.record.id);
    auto it = m_running.find(job.record.id);
    if (it == m_running.end())
    {
        return;
    }
    Running& r = it->second;
    m_gpuIndices.Release(job.record.id); // no one else's GPUs move
    for (const auto& [node, g] : r.spec.gpusOnNode)
    {
        std::vector<uint64_t>& ids = m_onNode[node];
        auto at = std::find(ids.begin(), ids.end(), job.record.id);
        if (at != ids.end())
        {
            *at = ids.back(); // their order is not used
            ids.pop_back();
        }
    }
    m_plansStale = CountProfile(r.spec.profile, job.record.id, -1) || m_plansStale;
    if (r.described && !r.levelable)
    {
        --m_notLevelable;
    }
    m_level.Remove(job.record.id);
    m_byThreshold.erase({r.threshold, job.record.id});
    m_syncReserve.Remove(job.record.id);
    m_marked.erase(job.record.id);
    DropRunning(it);
    m_setMoved = true;
}

ProvisioningDataLoading::Running&
ProvisioningDataLoading::KeepRunning(uint64_t id)
{
    return m_spareRunning.Insert(m_running, id);
}

void
ProvisioningDataLoading::DropRunning(std::map<uint64_t, Running>::iterator it)
{
    m_spareRunning.Erase(m_running, it, [](Running& r) {
        // every field as a new Running's, the three vectors' storage kept (emptied)
        std::vector<std::pair<uint32_t, uint32_t>> gpusOnNode;
        std::vector<uint32_t> firstGpu;
        std::vector<uint32_t> describedFirstGpu;
        gpusOnNode.swap(r.spec.gpusOnNode);
        firstGpu.swap(r.spec.firstGpu);
        describedFirstGpu.swap(r.describedFirstGpu);
        r = Running{};
        gpusOnNode.clear();
        firstGpu.clear();
        describedFirstGpu.clear();
        r.spec.gpusOnNode.swap(gpusOnNode);
        r.spec.firstGpu.swap(firstGpu);
        r.describedFirstGpu.swap(describedFirstGpu);
    });
}

void
ProvisioningDataLoading::ApplyRailReserve(LinkShare& links)
{
    // What gradient sync keeps of each node's rails: from the jobs that span nodes (the
    // others' sync stays on NVLink). Their traffic is fixed while they run, so the reserve
    // moves only on the nodes of a job that started or stopped.
    std::vector<uint32_t>& movedNodes = m_reserveMoved;
    const std::vector<double>& reserve = m_syncReserve.Update(links, movedNodes);
    while (!movedNodes.empty() && movedNodes.back() >= m_onNode.size())
    {
        movedNodes.pop_back(); // beyond this model's nodes (sorted: at the end)
    }
    if (movedNodes.empty())
    {
        return;
    }
    m_model->SetRailReserve(reserve);
    m_model->StaticCount(); // the static capacities with the new reserve
    m_capsMoved.clear();
    for (uint32_t n : movedNodes)
    {
        m_model->ReserveResources(n, m_capsMoved);
    }
    m_level.SetCapacities(m_model->Capacities(), m_capsMoved);
    bool railsUsed = false;
    for (uint32_t res : m_capsMoved)
    {
        railsUsed = railsUsed || m_level.UsersOf(res) > 0;
    }
    // The jobs on those nodes are marked to be described again (a rail may be a flow's
    // dominant resource; DescribeMarked keeps those whose units stand), but where no kept flow
    // uses a moved rail (local loading) a kept job's flows stand.
    for (uint32_t n : movedNodes)
    {
        for (uint64_t id : m_onNode[n])
        {
            const Running& r = m_running.at(id);
            if (railsUsed || !r.described || !r.levelable)
            {
                m_marked.insert(id);
            }
        }
    }
}

void
ProvisioningDataLoading::ShareRailLoads(LinkShare& links)
{
    // Kept from pass to pass: a fresh pair each pass cost a page fault as often as not.
    std::vector<double>& out = m_railOut;
    std::vector<double>& in = m_railIn;
    // The loads at the level of the last pass that read them stand while the level's sums
    // and the level itself keep their bits (a pass that starts and stops nothing: half of
    // Philly's FIFO passes with DPP beside ring all-reduce).
    const bool same = m_railLoadsAtLevel && m_level.SumsMoves() == m_railSumsMoves &&
                      std::memcmp(&m_levelNow, &m_railLevel, sizeof m_railLevel) == 0;
    m_railLoadsAtLevel = false;
    if (!m_levelValid)
    {
        m_model->RailLoads(out, in); // the full pass's
    }
    else if (m_level.UsedInClass(m_railClass) == 0 && !std::isnan(m_levelNow))
    {
        // No kept flow crosses a rail (local loading): every uplink's sums are +0, and so is
        // each node's load at any level L but a NaN (L x 0), without reading them
        out.assign(m_onNode.size(), 0.0);
        in.assign(m_onNode.size(), 0.0);
    }
    else if (same)
    {
        m_railLoadsAtLevel = true;
    }
    else
    {
        m_railLoadsAtLevel = true;
        m_railSumsMoves = m_level.SumsMoves();
        m_railLevel = m_levelNow;
        // every node's rail load at the level: its uplinks out, their reverses in
        out.assign(m_onNode.size(), 0.0);
        in.assign(m_onNode.size(), 0.0);
        const ProvisioningModel::RailUplinks uplinks = m_model->GetRailUplinks();
        if (m_onNode.size() > uplinks.nodes)
        {
            throw std::logic_error("ProvisioningDataLoading: the links' topology has more "
                                   "nodes than the provisioning model's");
        }
        for (uint32_t n = 0; n < m_onNode.size(); ++n)
        {
            if (m_onNode[n].empty())
            {
                continue; // no flow reaches its GPUs
            }
            auto [first, last] = uplinks.Of(n);
            m_level.UplinkLoads(first, last, out[n], in[n]);
        }
    }
    links.SetDataLoad(out, in);
}

double
ProvisioningDataLoading::MissOf(uint64_t id) const
{
    auto it = m_running.find(id);
    if (it == m_running.end())
    {
        return 1.0;
    }
    const CachePlan& c = it->second.plan;
    return std::clamp(1.0 - c.rawHit - c.decodedHit, 0.0, 1.0);
}

bool
ProvisioningDataLoading::ReportsChanges() const
{
    return m_paceGroups;
}

void
ProvisioningDataLoading::TakeChanges(std::vector<TermChange>& changes)
{
    HandOver(m_changes, changes);
}

void
ProvisioningDataLoading::TakePaceChanges(std::vector<PaceChange>& changes)
{
    HandOver(m_paceChanges, changes);
}

ProvisioningUtilization
ProvisioningDataLoading::GetUtilization(const std::vector<UtilizationField>& fields) const
{
    if (!ReportsChanges() || !m_levelValid)
    {
        return OnlyFields(m_model->GetUtilization(), fields);
    }
    uint64_t asked = fields.empty() ? ProvisioningLevel::kAllClasses : 0;
    for (size_t c = 0; c < m_classSlots.size(); ++c)
    {
        if (std::find(fields.begin(), fields.end(), m_classSlots[c]) != fields.end())
        {
            asked |= uint64_t(1) << c;
        }
    }
    uint64_t missing = asked & ~m_utilClasses;
    if (missing != 0)
    {
        m_level.BusiestShares(m_busiest, missing);
        for (size_t c = 0; c < m_classSlots.size(); ++c)
        {
            if ((missing >> c) & 1)
            {
                m_util.*m_classSlots[c] = m_busiest[c];
            }
        }
        m_utilClasses |= missing;
    }
    return OnlyFields(m_util, fields);
}

ProvisioningUtilization
ProvisioningDataLoading::OnlyFields(const ProvisioningUtilization& util,
                                    const std::vector<UtilizationField>& fields)
{
    if (fields.empty())
    {
        return util;
    }
    ProvisioningUtilization only;
    for (UtilizationField f : fields)
    {
        only.*f = util.*f;
    }
    return only;
}

void
ProvisioningDataLoading::EvaluateAll(const std::vector<Ptr<const ClusterJob>>& running,
                                     std::vector<double>& seconds)
{
    std::vector<ProvisioningJob>& jobs = m_jobs;
    jobs.resize(running.size());
    for (size_t k = 0; k < running.size(); ++k)
    {
        Describe(*running[k], jobs[k]);
    }
    HoldGpus(running, jobs);
    Ptr<LinkShare> links = GetLinkShare();
    if (links)
    {
        // Gradient sync crosses the same rails: the loader gets what its demand leaves.
        m_model->SetRailReserve(links->SyncReserve(running));
    }
    auto results = m_model->Solve(jobs);
    if (links)
    {
        std::vector<double> out;
        std::vector<double> in;
        m_model->RailLoads(out, in);
        links->SetDataLoad(out, in);
    }
    for (size_t k = 0; k < running.size(); ++k)
    {
        seconds[k] = TermOf(*running[k], results[k].perGpu, results[k].bottleneck == "gpu");
    }
    for (size_t k = 0; k < running.size() && k < results.size(); ++k)
    {
        m_bottleneck[running[k]->record.id] = results[k].bottleneck;
    }
    ++m_evaluations;
    m_solved(results);
    m_lastResults = std::move(results);
}

void
ProvisioningDataLoading::HoldGpus(const std::vector<Ptr<const ClusterJob>>& running,
                                  std::vector<ProvisioningJob>& jobs)
{
    // As the kept jobs hold theirs: the departed free their GPUs first, then the newcomers
    // take theirs in the engine's order (a job re-placed counts as both).
    std::set<uint64_t> now;
    for (size_t k = 0; k < running.size(); ++k)
    {
        uint64_t id = running[k]->record.id;
        now.insert(id);
        const auto* held = m_gpuIndices.HeldPlacement(id);
        if (held && *held != jobs[k].gpusOnNode)
        {
            m_gpuIndices.Release(id);
        }
    }
    for (uint64_t id : m_gpuIndices.Jobs())
    {
        if (!now.count(id))
        {
            m_gpuIndices.Release(id);
        }
    }
    for (size_t k = 0; k < running.size(); ++k)
    {
        uint64_t id = running[k]->record.id;
        if (!m_gpuIndices.Holds(id))
        {
            m_gpusMoved.clear(); // the moved are solved with the others
            m_gpuIndices.Take(id, jobs[k].gpusOnNode, m_gpusMoved);
        }
    }
    for (size_t k = 0; k < running.size(); ++k)
    {
        jobs[k].firstGpu = m_gpuIndices.FirstGpus(running[k]->record.id);
    }
}

std::string
ProvisioningDataLoading::Bottleneck(const ClusterJob& job) const
{
    if (ReportsChanges() && m_levelValid)
    {
        auto r = m_running.find(job.record.id);
        if (r != m_running.end())
        {
            return Starved(r->second) ? m_model->ResourceKind(m_level.Binding()) : "gpu";
        }
    }
    auto it = m_bottleneck.find(job.record.id);
    return it == m_bottleneck.end() || it->second.empty() ? "loader" : it->second;
}

} // namespace ns3
