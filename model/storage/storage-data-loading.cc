/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-data-loading.h"

#include "cba-policy.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StorageDataLoading");
NS_OBJECT_ENSURE_REGISTERED(StorageDataLoading);

TypeId
StorageDataLoading::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StorageDataLoading")
            .SetParent<ReportingTermModel>()
            .SetGroupName("Aicluster")
            .AddConstructor<StorageDataLoading>()
            .AddAttribute(
                "Policy",
                "The cache/bandwidth allocation policy.",
                PointerValue(),
                MakePointerAccessor(&StorageDataLoading::SetPolicy, &StorageDataLoading::GetPolicy),
                MakePointerChecker<StorageAllocationPolicy>())
            .AddAttribute("Backend",
                          "The remote storage cluster.",
                          PointerValue(),
                          MakePointerAccessor(&StorageDataLoading::SetBackend,
                                              &StorageDataLoading::GetBackend),
                          MakePointerChecker<StorageBackend>())
            .AddAttribute("CacheTier",
                          "The compute-side cache tier.",
                          PointerValue(),
                          MakePointerAccessor(&StorageDataLoading::SetCacheTier,
                                              &StorageDataLoading::GetCacheTier),
                          MakePointerChecker<CacheTier>())
            .AddAttribute("Prefetch",
                          "Fill a grown cache by prefetching at PrefetchBandwidth (charged at the "
                          "bandwidth price) instead of lazily during the readers' next epoch.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&StorageDataLoading::m_prefetch),
                          MakeBooleanChecker())
            .AddAttribute("SharedPace",
                          "Hand the engine the jobs bottlenecked at the common max-min level of "
                          "the remote bandwidth as one pace group (one virtual clock, see "
                          "PacedGroup), so a level change does not re-time each of them. Same "
                          "results either way (to rounding); false re-times them one by one.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StorageDataLoading::m_sharedPace),
                          MakeBooleanChecker())
            .AddAttribute("GroupIdenticalJobs",
                          "Hand the policy one problem entry per kind of running job (same "
                          "dataset, demand and GPU count: every policy answers them alike) "
                          "instead of one per job. Same results either way (to rounding); "
                          "false is the per-job reference, slower.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StorageDataLoading::m_groupJobs),
                          MakeBooleanChecker())
            .AddAttribute("KeepHitRatios",
                          "Keep each dataset's hit ratio while its effective cache bytes stay "
                          "(a fill completing changes one dataset). Same results either way, "
                          "bit for bit; false computes every ratio afresh at every pass, the "
                          "reference.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StorageDataLoading::m_keepHitRatios),
                          MakeBooleanChecker())
            .AddAttribute("IncrementalFills",
                          "When a fill completes, re-rate only the entries it can move: its "
                          "dataset's readers, and the readers behind their plan if the share of "
                          "the leftover bandwidth moved. Same results either way, bit for bit; "
                          "false re-rates every entry at every fill, the reference.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StorageDataLoading::m_incrementalFills),
                          MakeBooleanChecker())
            .AddAttribute("PrefetchBandwidth",
                          "Remote bandwidth of one dataset's prefetch, on top of the jobs' "
                          "[bit/s].",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&StorageDataLoading::m_prefetchRate),
                          MakeDataRateChecker())
            .AddAttribute("Checkpoints",
                          "Jobs whose workload writes checkpoints (catalog checkpointBytes > 0) "
                          "write them to the remote storage synchronously, stopped until the "
                          "write is done, sharing the remote bandwidth with the reads "
                          "(doc/llm.md). False: no checkpoint writes.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StorageDataLoading::m_checkpoints),
                          MakeBooleanChecker())
            .AddAttribute("CheckpointInterval",
                          "Running time between the end of a job's checkpoint write (or its "
                          "start) and its next checkpoint [s]; 0 = the workload's catalog "
                          "checkpointIntervalSeconds.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&StorageDataLoading::m_checkpointInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ModelLoading",
                          "Jobs whose workload starts from trained weights (catalog "
                          "loadsWeights: fine-tuning, evaluation) read parameters x "
                          "WeightBytesPerParameter bytes from the storage at every start and "
                          "resume, stopped until read: from the remote storage at a checkpoint "
                          "writer's share of its bandwidth, or from the cache tier if the "
                          "policy keeps one and holds them from an earlier load (doc/llm.md). "
                          "False: no loads.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&StorageDataLoading::m_modelLoading),
                          MakeBooleanChecker())
            .AddAttribute("WeightBytesPerParameter",
                          "Bytes of stored model weights per parameter [bytes/parameter]. "
                          "Default 2: bf16 weights, as Llama 2's released checkpoints.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&StorageDataLoading::m_weightBytesPerParameter),
                          MakeDoubleChecker<double>(0.0, 64.0))
            .AddAttribute("WeightsCacheBandwidth",
                          "Read bandwidth of one job loading weights from the cache tier "
                          "[bit/s]. Default 56 Gb/s = 7 GB/s, the sequential read of one PCIe "
                          "4.0 NVMe SSD (Samsung PM9A3 datasheet: 6,900 MB/s).",
                          DataRateValue(DataRate("56Gbps")),
                          MakeDataRateAccessor(&StorageDataLoading::m_weightsCacheRate),
                          MakeDataRateChecker())
            .AddTraceSource("Allocation",
                            "A new allocation: time [s], IO cost rate [$/s], bandwidth bought "
                            "[bytes/s], cache reserved [bytes].",
                            MakeTraceSourceAccessor(&StorageDataLoading::m_allocationTrace),
                            "ns3::StorageDataLoading::AllocationTracedCallback");
    return tid;
}

StorageDataLoading::StorageDataLoading()
    : m_prefetch(false),
      m_prefetchRate("10Gbps"),
      m_weightsCacheRate("56Gbps")
{
    m_policy = CreateObject<CbaPolicy>();
    m_backend = CreateObject<StorageBackend>();
    m_cacheTier = CreateObject<CacheTier>();
}

StorageDataLoading::~StorageDataLoading() = default;

void
StorageDataLoading::DoDispose()
{
    for (uint32_t k : m_globalOf)
    {
        Simulator::Cancel(m_caches[k].fillEvent);
    }
    for (auto& [id, state] : m_checkpointState)
    {
        Simulator::Cancel(state.event);
    }
    m_checkpointState.clear();
    m_weights.clear();
    m_weightsBytes = 0;
    m_jobs.clear();
    m_policy = nullptr;
    m_backend = nullptr;
    m_cacheTier = nullptr;
    IterationTermModel::DoDispose();
}

void
StorageDataLoading::AddDataset(const DatasetSpec& spec)
{
    if (m_datasets.Add(spec))
    {
        m_caches.emplace_back();
    }
}

void
StorageDataLoading::AddDatasetsOf(const std::vector<JobRecord>& jobs,
                                  const TraceAnnotator& annotator)
{
    for (const JobRecord& job : jobs)
    {
        if (!m_datasets.Has(job.dataset))
        {
            AddDataset(annotator.Dataset(job));
        }
    }
}

bool
StorageDataLoading::HasDataset(const std::string& name) const
{
    return m_datasets.Has(name);
}

void
StorageDataLoading::SetPolicy(Ptr<StorageAllocationPolicy> policy)
{
    m_policy = policy;
    for (CacheState& state : m_caches)
    {
        state.hitFor = -1; // HitOf's ratio depends on the policy (IsLru)
    }
    m_extrasKept = false; // every dataset's hit may move: the next fill re-rates all entries
}

Ptr<StorageAllocationPolicy>
StorageDataLoading::GetPolicy() const
{
    return m_policy;
}

void
StorageDataLoading::SetBackend(Ptr<StorageBackend> backend)
{
    m_backend = backend;
}

Ptr<StorageBackend>
StorageDataLoading::GetBackend() const
{
    return m_backend;
}

void
StorageDataLoading::SetCacheTier(Ptr<CacheTier> cache)
{
    m_cacheTier = cache;
}

Ptr<CacheTier>
StorageDataLoading::GetCacheTier() const
{
    return m_cacheTier;
}

std::string
StorageDataLoading::Bottleneck(const ClusterJob& job) const
{
    uint64_t id = job.record.id;
    if (id < m_jobInfo.size() && m_jobInfo[id].checkpointGpuSeconds > 0 &&
        m_jobInfo[id].checkpointGpuSeconds >= 0.5 * job.stallData)
    {
        return "storage-checkpoint";
    }
    if (id < m_jobInfo.size() && m_jobInfo[id].loadGpuSeconds > 0 &&
        m_jobInfo[id].loadGpuSeconds >= 0.5 * job.stallData)
    {
        return "storage-model-load";
    }
    return "storage-remote";
}

bool
StorageDataLoading::DependsOnOtherJobs() const
{
    return true;
}

double
StorageDataLoading::DemandOf(const ClusterJob& job, uint32_t gpus) const
{
    const DatasetSpec& spec = m_datasets.At(m_datasets.IndexOf(job.record.dataset));
    return job.profile->SamplesPerSecond(std::max<uint32_t>(1, gpus)) * spec.bytesPerSample;
}

StorageDataLoading::JobInfo&
StorageDataLoading::InfoOf(const ClusterJob& job) const
{
    uint64_t id = job.record.id;
    if (id >= m_jobInfo.size())
    {
        m_jobInfo.resize(std::max<size_t>(id + 1, 2 * m_jobInfo.size()));
    }
    JobInfo& info = m_jobInfo[id];
    uint32_t gpus = job.gpus > 0 ? job.gpus : job.placement.TotalGpus();
    if (info.gpus == 0)
    {
        if (!m_datasets.Find(job.record.dataset, info.dataset))
        {
            throw std::invalid_argument(
                "job " + std::to_string(id) + " (" + job.record.source.Text() +
                ") reads dataset '" + job.record.dataset +
                "', which the storage model does not know; register it with AddDataset or "
                "AddDatasetsOf");
        }
    }
    if (info.gpus != gpus)
    {
        info.gpus = gpus;
        info.demand = DemandOf(job, gpus);
    }
    return info;
}

StorageProblem
StorageDataLoading::BuildProblem(const std::vector<Ptr<const ClusterJob>>& running,
                                 std::vector<uint32_t>* datasets) const
{
    // Datasets get their problem index through a stamped array, not a map.
    StorageProblem problem;
    std::vector<uint32_t> globals;
    problem.jobs.reserve(running.size());
    if (m_localStamp.size() < m_datasets.Size())
    {
        m_localStamp.resize(m_datasets.Size(), 0);
        m_localIndex.resize(m_datasets.Size(), 0);
    }
    ++m_stamp;
    for (const Ptr<const ClusterJob>& job : running)
    {
        const JobInfo& info = InfoOf(*job);
        uint32_t g = info.dataset;
        if (m_localStamp[g] != m_stamp)
        {
            m_localStamp[g] = m_stamp;
            m_localIndex[g] = uint32_t(globals.size());
            globals.push_back(g);
            problem.datasetBytes.push_back(m_datasets.At(g).bytes);
        }
        StorageDemand demand;
        demand.id = job->record.id;
        demand.dataset = m_localIndex[g];
        demand.gpus = info.gpus;
        demand.demand = info.demand;
        problem.jobs.push_back(demand);
    }
    SetCapacities(problem);
    if (datasets)
    {
        *datasets = std::move(globals);
    }
    return problem;
}

void
StorageDataLoading::SetCapacities(StorageProblem& problem) const
{
    problem.cacheCapacity = m_cacheTier->Capacity();
    problem.bandwidthCapacity = m_backend->AggregateBandwidth();
    problem.clientBandwidth = m_backend->ClientBandwidth();
    problem.bandwidthPrice = m_backend->BandwidthPricePerByte();
    problem.cachePrice = m_cacheTier->PricePerByteSecond();
}

StorageProblem
StorageDataLoading::ProblemWith(const ClusterJob& job) const
{
    StorageProblem problem;
    SetCapacities(problem); // as set now
    problem.datasetBytes = m_problem.datasetBytes;
    problem.jobs.reserve(m_demands.size() + 1);
    problem.jobs = m_demands;
    const JobInfo& info = InfoOf(job);
    StorageDemand demand;
    demand.id = job.record.id;
    demand.gpus = info.gpus;
    demand.demand = info.demand;
    if (info.dataset < m_localOf.size() && m_localOf[info.dataset] >= 0)
    {
        demand.dataset = uint32_t(m_localOf[info.dataset]);
    }
    else
    {
        demand.dataset = uint32_t(problem.datasetBytes.size());
        problem.datasetBytes.push_back(m_datasets.At(info.dataset).bytes);
    }
    problem.jobs.push_back(demand);
    return problem;
}

void
StorageDataLoading::Settle()
{
    SettleWrites();
    double now = NowSeconds(); // every evaluation and stop: converted once per time step
    double dt = now - m_lastSettle;
    m_lastSettle = now;
    if (dt <= 0)
    {
        return;
    }
    // Cached weights stay (and are charged) whether or not a job runs.
    m_totals.weightsCacheByteSeconds += m_weightsBytes * dt;
    m_totals.cacheByteSeconds += m_weightsBytes * dt;
    m_totals.cacheCost += m_cacheTier->PricePerByteSecond() * m_weightsBytes * dt;
    if (m_jobs.empty())
    {
        return;
    }
    m_totals.bytesRead += m_sumRate * dt;
    m_totals.bytesHit += m_sumHitRate * dt;
    m_totals.bytesRemote += (m_sumRate - m_sumHitRate) * dt;
    m_totals.bandwidthSeconds += m_sumBandwidth * dt;
    m_totals.cacheByteSeconds += m_sumCache * dt;
    m_totals.bandwidthCost += m_problem.bandwidthPrice * m_sumBandwidth * dt;
    m_totals.cacheCost += m_problem.cachePrice * m_sumCache * dt;
    m_totals.activeSeconds += dt;
}

double
StorageDataLoading::HitOf(uint32_t dataset) const
{
    const CacheState& state = m_caches[dataset];
    if (m_keepHitRatios && state.hitFor == state.effective)
    {
        return state.hit; // the same effective bytes: the same ratio, bit for bit
    }
    double d = m_datasets.At(dataset).bytes;
    if (d <= 0)
    {
        state.hit = 1.0;
    }
    else
    {
        double x = state.effective / d;
        state.hit = m_policy->IsLru() ? LruShuffledHitRatio(x) : std::min(1.0, x);
    }
    state.hitFor = state.effective;
    return state.hit;
}

void
StorageDataLoading::Release(uint32_t dataset)
{
    CacheState& state = m_caches[dataset];
    Simulator::Remove(state.fillEvent); // not Cancel: it would stay queued until its time
    m_fillsUnderWay -= state.filling >= 0 ? 1 : 0;
    state = CacheState();
}

void
StorageDataLoading::AddJob(const Ptr<const ClusterJob>& job)
{
    JobInfo& info = InfoOf(*job);
    uint32_t local = LocalDataset(info.dataset);
    ++m_readers[local];
    uint32_t slot = uint32_t(m_jobs.size());
    info.slot = slot;
    m_jobs.push_back(job);
    StorageDemand demand;
    demand.id = job->record.id;
    demand.dataset = local;
    demand.gpus = info.gpus;
    demand.demand = info.demand;
    m_demands.push_back(demand);
    m_entryOf.push_back(0);
    m_memberAt.push_back(0);
    m_seconds.push_back(-1); // the engine has no term yet
    m_pacedWork.push_back(0);
    m_iterationBytes.push_back(double(job->profile->localBatch) * info.gpus *
                               m_datasets.At(info.dataset).bytesPerSample);
    uint64_t own = m_groupJobs ? 0 : job->record.id;
    JoinEntry(slot, EntryKey(info.dataset, info.demand, info.gpus, own), local);
    m_dirty = true;
    if (!StartLoad(slot))
    {
        ScheduleCheckpoint(*job); // else after its load
    }
}

uint32_t
StorageDataLoading::LocalDataset(uint32_t dataset)
{
    if (m_localOf.size() < m_datasets.Size())
    {
        m_localOf.resize(m_datasets.Size(), -1);
    }
    if (m_localOf[dataset] < 0)
    {
        m_localOf[dataset] = int64_t(m_globalOf.size());
        m_globalOf.push_back(dataset);
        m_readers.push_back(0);
        m_problem.datasetBytes.push_back(m_datasets.At(dataset).bytes);
        m_alloc.cache.push_back(0);
    }
    return uint32_t(m_localOf[dataset]);
}

void
StorageDataLoading::JoinEntry(uint32_t slot, const EntryKey& key, uint32_t local)
{
    uint64_t id = m_demands[slot].id;
    auto [it, added] = m_entryIndex.emplace(key, uint32_t(m_problem.jobs.size()));
    uint32_t e = it->second;
    if (added)
    {
        // A new kind of job: nothing planned for it until the next solve.
        StorageDemand entry;
        entry.id = id;
        entry.dataset = local;
        entry.demand = std::get<1>(key);
        entry.gpus = std::get<2>(key);
        entry.count = 0;
        m_problem.jobs.push_back(entry);
        m_alloc.bandwidth.push_back(0);
        m_alloc.hit.push_back(0);
        m_members.emplace_back();
        m_atLevel.push_back(0);
        m_rates.push_back(0);
        m_hits.push_back(0);
        m_bandwidth.push_back(0);
    }
    StorageDemand& entry = m_problem.jobs[e];
    ++entry.count;
    entry.id = std::min(entry.id, id);
    m_entryOf[slot] = e;
    m_memberAt[slot] = uint32_t(m_members[e].size());
    m_members[e].push_back(slot);
    m_fresh.push_back(id); // termed by the next RecomputeRates
    AddToSums(e, +1);      // at its entry's rate, as it will read until the next solve
}

StorageDataLoading::EntryKey
StorageDataLoading::KeyOf(const StorageDemand& entry) const
{
    // Ungrouped, an entry is one job, and its id is that job's.
    return EntryKey(m_globalOf[entry.dataset],
                    entry.demand,
                    entry.gpus,
                    m_groupJobs ? 0 : entry.id);
}

void
StorageDataLoading::AddToSums(size_t e, double jobs)
{
    m_sumBandwidth += jobs * m_bandwidth[e];
    m_sumRate += jobs * m_rates[e];
    m_sumHitRate += jobs * m_rates[e] * m_hits[e];
}

void
StorageDataLoading::RemoveJob(uint32_t slot)
{
    uint32_t local = m_problem.jobs[m_entryOf[slot]].dataset;
    LeaveEntry(slot);
    // The last job takes the slot (O(1)): policies decide by entries and dataset order, and
    // their answers do not depend on the jobs' order.
    m_jobInfo[m_jobs[slot]->record.id].slot = -1;
    uint32_t last = uint32_t(m_jobs.size() - 1);
    if (slot != last)
    {
        m_members[m_entryOf[last]][m_memberAt[last]] = slot;
        m_jobInfo[m_jobs[last]->record.id].slot = int64_t(slot);
    }
    auto fill = [slot](auto& v) {
        v[slot] = std::move(v.back());
        v.pop_back();
    };
    fill(m_jobs);
    fill(m_demands);
    fill(m_entryOf);
    fill(m_memberAt);
    fill(m_seconds);
    fill(m_pacedWork);
    fill(m_iterationBytes);
    if (--m_readers[local] == 0)
    {
        RemoveDataset(local);
    }
    if (m_jobs.empty())
    {
        m_sumBandwidth = m_sumRate = m_sumHitRate = m_sumCache = 0; // no rounding residue
    }
    m_dirty = true;
}

void
StorageDataLoading::LeaveEntry(uint32_t slot)
{
    uint32_t e = m_entryOf[slot];
    AddToSums(e, -1);
    std::vector<uint32_t>& members = m_members[e];
    uint32_t moved = members.back();
    members[m_memberAt[slot]] = moved;
    m_memberAt[moved] = m_memberAt[slot];
    members.pop_back();
    StorageDemand& entry = m_problem.jobs[e];
    --entry.count;
    if (entry.count > 0)
    {
        if (entry.id == m_demands[slot].id)
        {
            // Its lowest id left: the next lowest (cache-all orders datasets by it).
            entry.id = std::numeric_limits<uint64_t>::max();
            for (uint32_t j : members)
            {
                entry.id = std::min(entry.id, m_demands[j].id);
            }
        }
        return;
    }
    // Its last job left: the last entry takes its place.
    m_entryIndex.erase(KeyOf(entry));
    uint32_t last = uint32_t(m_problem.jobs.size() - 1);
    if (e != last)
    {
        const StorageDemand& moving = m_problem.jobs[last];
        m_entryIndex[KeyOf(moving)] = e;
        for (uint32_t j : m_members[last])
        {
            m_entryOf[j] = e;
        }
    }
    auto fill = [e](auto& v) {
        v[e] = std::move(v.back());
        v.pop_back();
    };
    fill(m_problem.jobs);
    fill(m_alloc.bandwidth);
    fill(m_alloc.hit);
    fill(m_members);
    fill(m_atLevel);
    fill(m_rates);
    fill(m_hits);
    fill(m_bandwidth);
}

void
StorageDataLoading::RemoveDataset(uint32_t local)
{
    // Its last reader left: the cache is released now, not at the next solve.
    uint32_t k = m_globalOf[local];
    m_sumCache -= m_caches[k].target;
    Release(k);
    m_localOf[k] = -1;
    m_globalOf.erase(m_globalOf.begin() + local);
    m_readers.erase(m_readers.begin() + local);
    m_problem.datasetBytes.erase(m_problem.datasetBytes.begin() + local);
    m_alloc.cache.erase(m_alloc.cache.begin() + local);
    for (size_t i = local; i < m_globalOf.size(); ++i)
    {
        m_localOf[m_globalOf[i]] = int64_t(i);
    }
    for (StorageDemand& entry : m_problem.jobs)
    {
        entry.dataset -= entry.dataset > local ? 1 : 0;
    }
    for (StorageDemand& job : m_demands)
    {
        job.dataset -= job.dataset > local ? 1 : 0;
    }
}

void
StorageDataLoading::UpdateCaches()
{
    const StorageProblem& problem = m_problem;
    m_newFills.clear();
    m_sumCache = 0;
    for (uint32_t local = 0; local < problem.datasetBytes.size(); ++local)
    {
        uint32_t k = m_globalOf[local];
        CacheState& state = m_caches[k];
        double target = m_alloc.cache[local];
        state.target = target;
        m_sumCache += target;
        if (target <= state.effective)
        {
            // Shrinking is immediate (eviction needs no reads).
            if (state.filling >= 0)
            {
                Simulator::Remove(state.fillEvent);
                state.filling = -1;
                --m_fillsUnderWay;
            }
            state.effective = target;
            continue;
        }
        if (state.filling >= 0)
        {
            // A fill is under way: the pass over the dataset that fills it fills the new
            // target too (re-solves on every start and finish must not restart the clock).
            if (m_prefetch && target > state.filling)
            {
                double extra = target - state.filling; // prefetched by the same fill
                m_totals.prefetchBytes += extra;
                m_totals.bytesRemote += extra;
                m_totals.prefetchCost += problem.bandwidthPrice * extra;
            }
            state.filling = target;
            continue;
        }
        state.filling = target;
        ++m_fillsUnderWay;
        m_newFills.push_back(local); // scheduled by StartFills, once the rates are known
    }
}

void
StorageDataLoading::StartFills()
{
    if (m_newFills.empty())
    {
        return;
    }
    std::vector<double>& readRate = m_datasetRate;
    readRate.assign(m_problem.datasetBytes.size(), 0.0);
    for (size_t e = 0; e < m_problem.jobs.size(); ++e)
    {
        readRate[m_problem.jobs[e].dataset] += m_problem.jobs[e].count * m_rates[e];
    }
    double now = Simulator::Now().GetSeconds();
    for (uint32_t local : m_newFills)
    {
        uint32_t k = m_globalOf[local];
        CacheState& state = m_caches[k];
        double grow = state.filling - state.effective;
        double delay;
        if (m_prefetch)
        {
            delay = grow / (m_prefetchRate.GetBitRate() / 8.0);
            m_totals.prefetchBytes += grow;
            m_totals.bytesRemote += grow;
            m_totals.prefetchCost += m_problem.bandwidthPrice * grow;
        }
        else
        {
            // Lazy: the bytes read from now on fill the cache, and serve hits once the readers
            // come back to them, one pass over the dataset later (at their current rates).
            delay = readRate[local] > 0 ? m_datasets.At(k).bytes / readRate[local] : 0.0;
        }
        NS_LOG_LOGIC("t=" << now << " dataset " << m_datasets.At(k).name << " fills to "
                          << state.filling << " bytes in " << delay << " s");
        state.fillEvent =
            Simulator::Schedule(Seconds(delay), &StorageDataLoading::OnFillDone, this, k);
    }
    m_newFills.clear();
}

void
StorageDataLoading::OnFillDone(uint32_t dataset)
{
    Settle();
    CacheState& state = m_caches[dataset];
    state.effective = state.filling;
    state.filling = -1;
    --m_fillsUnderWay;
    ++m_totals.fills;
    // The running set and the plan are as at the last re-rating (no job came or went since):
    // only this dataset's hit moved.
    if (m_incrementalFills && !m_dirty && m_extrasKept)
    {
        RerateAfterFill(uint32_t(m_localOf[dataset]));
    }
    else
    {
        RecomputeRates();
    }
    RateWriters();
    if (!m_changes.empty() || !m_paceChanges.empty())
    {
        NotifyJobsChanged(); // else no term moved: the engine has nothing to re-time
    }
}

void
StorageDataLoading::SetTerm(uint32_t j, bool atLevel)
{
    if (m_writers > 0 && m_jobInfo[m_jobs[j]->record.id].writing)
    {
        return; // stopped for its checkpoint: OnCheckpointDone gives it its term again
    }
    uint32_t e = m_entryOf[j];
    double miss = 1 - m_hits[e];
    double demand = m_problem.jobs[e].demand;
    double perIteration = m_iterationBytes[j] * miss;
    if (atLevel && perIteration > 0)
    {
        // Bottlenecked at the common level: its term is its missed bytes times the pace
        // 1 / level. The engine hears of it when it joins or its bytes change, not when the
        // level moves (that is one PaceChange for all of them).
        double seconds = perIteration * m_pace;
        if (perIteration != m_pacedWork[j])
        {
            m_changes.emplace_back(m_jobs[j], seconds, kRemoteGroup, perIteration);
        }
        m_pacedWork[j] = perIteration;
        m_seconds[j] = seconds;
        return;
    }
    // The engine re-times only the jobs whose term moved. A job that reads at its compute
    // rate takes the time of an iteration at that rate, whatever its bandwidth and hits: a
    // re-plan that leaves it unthrottled moves nothing (not even the last bit).
    double seconds = 0;
    if (perIteration > 0)
    {
        if (!(m_bandwidth[e] > 0))
        {
            AbortNoBandwidth(j);
        }
        seconds =
            m_rates[e] < demand ? perIteration / m_bandwidth[e] : m_iterationBytes[j] / demand;
    }
    if (seconds != m_seconds[j] || m_pacedWork[j] > 0)
    {
        m_seconds[j] = seconds;
        m_pacedWork[j] = 0;
        m_changes.emplace_back(m_jobs[j], seconds);
    }
}

void
StorageDataLoading::RecomputeRates()
{
    size_t entries = m_problem.jobs.size();
    m_datasetHit.resize(m_globalOf.size());
    bool filling = false;
    for (size_t local = 0; local < m_globalOf.size(); ++local)
    {
        m_datasetHit[local] = HitOf(m_globalOf[local]);
        filling = filling || m_caches[m_globalOf[local]].filling >= 0;
    }
    NS_ASSERT_MSG(filling == (m_fillsUnderWay > 0), "the count of fills under way drifted");
    if (filling)
    {
        FillExtras();
    }
    m_extrasKept = filling;
    // An entry whose bandwidth and hit fraction are what it had keeps its rate, and its jobs
    // their terms: only the others are recomputed, and the sums move by their differences.
    // A first, branch-free pass lists them. Raw pointers: the vectors do not change size here,
    // and through the members the compiler would reload every base pointer in the loop.
    const StorageDemand* jobs = m_problem.jobs.data();
    const double* datasetHit = m_datasetHit.data();
    const double* bandwidthNow = filling ? m_extra.data() : m_alloc.bandwidth.data();
    const double* hits = m_hits.data();
    const double* bandwidths = m_bandwidth.data();
    m_moved.resize(entries);
    uint32_t* moved = m_moved.data();
    size_t count = 0;
    for (size_t e = 0; e < entries; ++e)
    {
        moved[count] = uint32_t(e);
        count += (datasetHit[jobs[e].dataset] != hits[e]) | (bandwidthNow[e] != bandwidths[e]);
    }
    m_moved.resize(count);
    RerateMoved(filling);
}

void
StorageDataLoading::RerateAfterFill(uint32_t local)
{
    IndexReaders();
    m_datasetHit[local] = HitOf(m_globalOf[local]);
    bool filling = m_fillsUnderWay > 0;
    // The candidates, in entry order (RecomputeRates'): the dataset's readers (their hit
    // moved), and, if the share of the leftover moved or this was the last fill (every entry
    // back on its plan), every reader behind its plan. Any other entry has the hit and the
    // bandwidth it had, so RecomputeRates' pass would not list it.
    const uint32_t* readers = m_readerEntries.data() + m_readersStart[local];
    const uint32_t* readersEnd = m_readerEntries.data() + m_readersStart[local + 1];
    bool allBehind = filling ? UpdateExtrasAfterFill(local) : true;
    m_extrasKept = filling;
    m_moved.clear();
    if (allBehind)
    {
        m_behindEntries.clear();
        for (const auto& [e, more] : m_behind)
        {
            m_behindEntries.push_back(e);
        }
        std::set_union(readers,
                       readersEnd,
                       m_behindEntries.begin(),
                       m_behindEntries.end(),
                       std::back_inserter(m_moved));
    }
    else
    {
        m_moved.assign(readers, readersEnd);
    }
    const double* bandwidthNow = filling ? m_extra.data() : m_alloc.bandwidth.data();
    auto stands = [this, bandwidthNow](uint32_t e) {
        return m_datasetHit[m_problem.jobs[e].dataset] == m_hits[e] &&
               bandwidthNow[e] == m_bandwidth[e];
    };
    m_moved.erase(std::remove_if(m_moved.begin(), m_moved.end(), stands), m_moved.end());
    RerateMoved(filling);
}

void
StorageDataLoading::RerateMoved(bool filling)
{
    if (m_sharedPace && std::isfinite(m_alloc.level) && m_alloc.level > 0 &&
        1.0 / m_alloc.level != m_pace)
    {
        m_pace = 1.0 / m_alloc.level; // [s per byte]
        m_paceChanges.push_back({kRemoteGroup, m_pace});
    }
    const double level = m_sharedPace ? m_alloc.level : -1.0; // -1: no job is "at" it
    const StorageDemand* jobs = m_problem.jobs.data();
    const double* datasetHit = m_datasetHit.data();
    const double* bandwidthNow = filling ? m_extra.data() : m_alloc.bandwidth.data();
    for (uint32_t e : m_moved)
    {
        double members = jobs[e].count;
        double oldHit = m_hits[e];
        double oldRate = m_rates[e];
        AddToSums(e, -members);
        m_hits[e] = datasetHit[jobs[e].dataset];
        m_bandwidth[e] = bandwidthNow[e];
        m_rates[e] = ReadRate(jobs[e].demand,
                              m_hits[e],
                              m_bandwidth[e],
                              m_problem.datasetBytes[jobs[e].dataset] <= 0);
        AddToSums(e, members);
        bool atLevel = bandwidthNow[e] == level && !(filling && m_onExtra[e]);
        if (TermsStand(e, oldHit, oldRate, atLevel))
        {
            continue;
        }
        m_atLevel[e] = atLevel;
        for (uint32_t j : m_members[e])
        {
            SetTerm(j, atLevel);
        }
    }
    // Jobs that joined an entry whose jobs' terms stand have none yet.
    for (uint64_t id : m_fresh)
    {
        int64_t slot = m_jobInfo[id].slot;
        if (slot >= 0 && m_seconds[slot] < 0)
        {
            SetTerm(uint32_t(slot), m_atLevel[m_entryOf[slot]]);
        }
    }
    m_fresh.clear();
}

void
StorageDataLoading::IndexReaders()
{
    if (m_readersIndexed)
    {
        return;
    }
    // A counting sort of the entries by dataset, each dataset's in entry order.
    const std::vector<StorageDemand>& jobs = m_problem.jobs;
    m_readersStart.assign(m_globalOf.size() + 1, 0);
    for (const StorageDemand& entry : jobs)
    {
        ++m_readersStart[entry.dataset + 1];
    }
    for (size_t local = 0; local < m_globalOf.size(); ++local)
    {
        m_readersStart[local + 1] += m_readersStart[local];
    }
    m_readerEntries.resize(jobs.size());
    m_readerCursor.assign(m_readersStart.begin(), m_readersStart.end() - 1);
    for (size_t e = 0; e < jobs.size(); ++e)
    {
        m_readerEntries[m_readerCursor[jobs[e].dataset]++] = uint32_t(e);
    }
    m_readersIndexed = true;
}

bool
StorageDataLoading::TermsStand(uint32_t e, double oldHit, double oldRate, bool atLevel) const
{
    if (atLevel != bool(m_atLevel[e]))
    {
        return false;
    }
    if (atLevel)
    {
        return m_hits[e] == oldHit; // the same missed bytes on the pace: only the pace moved
    }
    // SetTerm's cases: nothing missed (term 0), or missing but unthrottled (the time of an
    // iteration at the compute rate); throttled jobs' terms follow the bandwidth.
    double demand = m_problem.jobs[e].demand;
    bool missed = oldHit < 1;
    bool misses = m_hits[e] < 1;
    if (!missed && !misses)
    {
        return true;
    }
    return missed && misses && oldRate == demand && m_rates[e] == demand;
}

double
StorageDataLoading::MoreWanted(size_t e, double hit) const
{
    const StorageDemand& entry = m_problem.jobs[e];
    double plan = m_alloc.bandwidth[e];
    double planHit = m_alloc.hit[e];
    if (!(hit < planHit))
    {
        return 0;
    }
    double cap = m_problem.clientBandwidth > 0 ? m_problem.clientBandwidth
                                               : std::numeric_limits<double>::infinity();
    // Its planned rate (StorageAllocation::Rate) times what it misses now.
    double rate = ReadRate(entry.demand, planHit, plan, m_problem.datasetBytes[entry.dataset] <= 0);
    return std::min(cap, rate * (1 - hit)) - plan;
}

void
StorageDataLoading::SetExtra(size_t e, double more)
{
    double plan = m_alloc.bandwidth[e];
    m_extra[e] = std::max(plan + more * m_extrasShare, std::min(plan + more, m_extrasFloor));
    m_onExtra[e] = 1;
}

double
StorageDataLoading::ShareOfLeftover() const
{
    if (m_extrasLeft == 0)
    {
        // The plan takes all the bandwidth: 0 / wanted for any reader behind (wanted > 0, as
        // a sum of positive wants), bit for bit, without the sum.
        return m_behind.empty() ? 1.0 : 0.0;
    }
    double wanted = 0;
    for (const auto& [e, more] : m_behind)
    {
        wanted += m_problem.jobs[e].count * more;
    }
    return wanted > m_extrasLeft ? m_extrasLeft / wanted : 1.0;
}

void
StorageDataLoading::FillExtras()
{
    // A job whose dataset is still filling misses more than planned: it wants the extra
    // bandwidth that keeps it at its planned rate. Extras share what the plan leaves of the
    // aggregate bandwidth; a filling job gets at least an equal share B / n of it. m_extra[e]
    // ends as every entry's bandwidth now (its plan, plus its extra if m_onExtra[e]).
    size_t entries = m_problem.jobs.size();
    const StorageDemand* jobs = m_problem.jobs.data();
    const double* plan = m_alloc.bandwidth.data();
    const double* datasetHit = m_datasetHit.data();
    m_extra.resize(entries);
    m_onExtra.assign(entries, 0);
    m_behind.clear();
    double planned = 0;
    for (size_t e = 0; e < entries; ++e)
    {
        planned += jobs[e].count * plan[e];
        m_extra[e] = plan[e];
        double more = MoreWanted(e, datasetHit[jobs[e].dataset]);
        if (more > 0)
        {
            m_behind.push_back({uint32_t(e), more});
        }
    }
    m_extrasLeft = std::max(0.0, m_problem.bandwidthCapacity - planned);
    m_extrasFloor = m_jobs.empty() ? 0.0 : m_problem.bandwidthCapacity / double(m_jobs.size());
    m_extrasShare = ShareOfLeftover();
    for (const auto& [e, more] : m_behind)
    {
        SetExtra(e, more);
    }
}

bool
StorageDataLoading::UpdateExtrasAfterFill(uint32_t local)
{
    // FillExtras' answer with one dataset's hit moved: only its readers' wants move, and with
    // them the share of the leftover that every reader behind its plan gets. The plan, the
    // leftover and the floor are as FillExtras left them (no job came or went since).
    const uint32_t* readers = m_readerEntries.data() + m_readersStart[local];
    const uint32_t* readersEnd = m_readerEntries.data() + m_readersStart[local + 1];
    // m_behind stays in entry order (the order of FillExtras' sum of the wants).
    m_refilled.clear();
    for (const uint32_t* r = readers; r != readersEnd; ++r)
    {
        m_extra[*r] = m_alloc.bandwidth[*r];
        m_onExtra[*r] = 0;
        double more = MoreWanted(*r, m_datasetHit[local]);
        auto at = std::lower_bound(m_behind.begin(),
                                   m_behind.end(),
                                   *r,
                                   [](const auto& behind, uint32_t e) { return behind.first < e; });
        bool was = at != m_behind.end() && at->first == *r;
        if (more > 0)
        {
            m_refilled.push_back({*r, more});
            if (was)
            {
                at->second = more;
            }
            else
            {
                m_behind.insert(at, {*r, more});
            }
        }
        else if (was)
        {
            m_behind.erase(at); // caught up with its plan
        }
    }
    double share = ShareOfLeftover();
    bool shareMoved = share != m_extrasShare;
    m_extrasShare = share;
    for (const auto& [e, more] : shareMoved ? m_behind : m_refilled)
    {
        SetExtra(e, more);
    }
    return shareMoved;
}

void
StorageDataLoading::AbortNoBandwidth(uint32_t j) const
{
    NS_FATAL_ERROR("storage policy " << m_policy->Name() << " gave job " << m_jobs[j]->record.id
                                     << " no remote bandwidth but it misses the cache");
}

void
StorageDataLoading::Resolve()
{
    m_dirty = false;
    m_readersIndexed = false; // the entries may have moved since the last index
    m_alloc = m_policy->Allocate(m_problem);
    ++m_totals.solves;
    m_totals.jobsSolved += m_jobs.size();
    m_totals.entriesSolved += m_problem.jobs.size();
    UpdateCaches();
    FitWeights();
    RecomputeRates();
    StartFills();
    RateWriters();
    m_totals.peakBandwidth = std::max(m_totals.peakBandwidth, m_sumBandwidth);
    m_totals.peakCache = std::max(m_totals.peakCache, m_sumCache);
    m_allocationTrace(Simulator::Now().GetSeconds(),
                      m_problem.bandwidthPrice * m_sumBandwidth + m_problem.cachePrice * m_sumCache,
                      m_sumBandwidth,
                      m_sumCache);
}

void
StorageDataLoading::Evaluate(const ClusterTopology& /* topology */,
                             const std::vector<Ptr<const ClusterJob>>& running,
                             std::vector<double>& seconds)
{
    Settle();
    if (m_problem.jobs.empty())
    {
        // Capacities and prices are read when the running set starts from empty, so attribute
        // changes between runs (or before the first job) take effect.
        SetCapacities(m_problem);
        m_alloc = StorageAllocation();
    }
    for (const Ptr<const ClusterJob>& job : running)
    {
        if (InfoOf(*job).slot < 0)
        {
            AddJob(job);
        }
    }
    if (m_dirty)
    {
        Resolve();
    }
    for (size_t i = 0; i < running.size(); ++i)
    {
        seconds[i] = m_seconds[m_jobInfo[running[i]->record.id].slot];
    }
}

bool
StorageDataLoading::ReportsChanges() const
{
    return true;
}

void
StorageDataLoading::TakeChanges(std::vector<TermChange>& changes)
{
    HandOver(m_changes, changes);
}

void
StorageDataLoading::TakePaceChanges(std::vector<PaceChange>& changes)
{
    HandOver(m_paceChanges, changes);
}

void
StorageDataLoading::JobStopped(const ClusterJob& job)
{
    if (job.record.id >= m_jobInfo.size() || m_jobInfo[job.record.id].slot < 0)
    {
        return;
    }
    Settle();
    DropCheckpoint(job.record.id);
    RemoveJob(uint32_t(m_jobInfo[job.record.id].slot));
    RateWriters(); // one client fewer: the writers' floor B / n moved
}

const StorageTotals&
StorageDataLoading::Totals() const
{
    return m_totals;
}

const StorageProblem&
StorageDataLoading::LastProblem() const
{
    return m_problem;
}

const StorageAllocation&
StorageDataLoading::LastAllocation() const
{
    return m_alloc;
}

const std::vector<Ptr<const ClusterJob>>&
StorageDataLoading::LastJobs() const
{
    return m_jobs;
}

// ---- Checkpoint writes ---------------------------------------------------------------------

namespace
{
/// A stopped job's iteration takes this long over all its remaining iterations: it makes no
/// progress to speak of (1e-9 of what is left per second) while its checkpoint is written.
constexpr double kStoppedHorizon = 1e9; // [s]
} // namespace

double
StorageDataLoading::CheckpointIntervalOf(const ClusterJob& job) const
{
    if (!m_checkpoints || !job.profile || !(job.profile->checkpointBytes > 0))
    {
        return 0;
    }
    double interval = m_checkpointInterval.GetSeconds();
    return interval > 0 ? interval : job.profile->checkpointInterval;
}

double
StorageDataLoading::CheckpointTerm(uint64_t id) const
{
    if (m_writers == 0 || id >= m_jobInfo.size() || !m_jobInfo[id].writing)
    {
        return 0;
    }
    return m_checkpointState.at(id).stopped;
}

void
StorageDataLoading::ScheduleCheckpoint(const ClusterJob& job)
{
    double interval = CheckpointIntervalOf(job);
    if (!(interval > 0))
    {
        return;
    }
    CheckpointState& state = m_checkpointState[job.record.id];
    Simulator::Remove(state.event);
    state.event = Simulator::Schedule(Seconds(interval),
                                      &StorageDataLoading::OnCheckpointStart,
                                      this,
                                      job.record.id);
}

void
StorageDataLoading::OnCheckpointStart(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    Settle();
    JobInfo& info = m_jobInfo[id];
    NS_ASSERT(info.slot >= 0 && !info.writing);
    uint32_t j = uint32_t(info.slot);
    const Ptr<const ClusterJob>& job = m_jobs[j];
    double now = Simulator::Now().GetSeconds();
    CheckpointState& state = m_checkpointState[id];
    state.bytesLeft = job->profile->checkpointBytes;
    state.rate = 0; // RateWriters schedules its end
    state.last = now;
    state.start = now;
    state.stopped = kStoppedHorizon / std::max(1.0, job->RemainingIterationsAt(now));
    state.kind = CHECKPOINT_WRITE;
    info.writing = true;
    ++m_writers;
    ++m_remoteTransfers;
    // Its data term stops it; the read term it had comes back with OnCheckpointDone.
    m_seconds[j] = state.stopped;
    m_pacedWork[j] = 0;
    m_changes.emplace_back(job, state.stopped);
    RateWriters();
    NotifyJobsChanged();
}

void
StorageDataLoading::OnCheckpointDone(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    if (m_checkpointState[id].kind != CHECKPOINT_WRITE)
    {
        OnLoadDone(id);
        return;
    }
    Settle();
    JobInfo& info = m_jobInfo[id];
    CheckpointState& state = m_checkpointState[id];
    uint32_t j = uint32_t(info.slot);
    double now = Simulator::Now().GetSeconds();
    double gpuSeconds = (now - state.start) * info.gpus;
    info.writing = false;
    info.checkpointGpuSeconds += gpuSeconds;
    --m_writers;
    --m_remoteTransfers;
    ++m_totals.checkpoints;
    m_totals.checkpointStallGpuSeconds += gpuSeconds;
    state.bytesLeft = 0;
    state.rate = 0;
    m_seconds[j] = -1; // the engine has the stopped term: SetTerm reports the read term
    m_pacedWork[j] = 0;
    SetTerm(j, m_atLevel[m_entryOf[j]]);
    ScheduleCheckpoint(*m_jobs[j]);
    RateWriters();
    NotifyJobsChanged();
}

void
StorageDataLoading::DropCheckpoint(uint64_t id)
{
    auto it = m_checkpointState.find(id);
    if (it == m_checkpointState.end())
    {
        return;
    }
    Simulator::Remove(it->second.event);
    JobInfo& info = m_jobInfo[id];
    if (info.writing)
    {
        // Left while writing or loading (preempted): the transfer is abandoned, its stall
        // counted.
        double gpuSeconds = (Simulator::Now().GetSeconds() - it->second.start) * info.gpus;
        if (it->second.kind == CHECKPOINT_WRITE)
        {
            info.checkpointGpuSeconds += gpuSeconds;
            m_totals.checkpointStallGpuSeconds += gpuSeconds;
        }
        else
        {
            info.loadGpuSeconds += gpuSeconds;
            m_totals.modelLoadStallGpuSeconds += gpuSeconds;
        }
        info.writing = false;
        --m_writers;
        m_remoteTransfers -= it->second.kind == LOAD_CACHE ? 0 : 1;
    }
    m_checkpointState.erase(it);
}

void
StorageDataLoading::SettleWrites()
{
    if (m_writers == 0)
    {
        return;
    }
    double now = Simulator::Now().GetSeconds();
    for (auto& [id, state] : m_checkpointState)
    {
        if (!m_jobInfo[id].writing || !(now > state.last))
        {
            continue;
        }
        double written = std::min(state.bytesLeft, state.rate * (now - state.last));
        state.bytesLeft -= written;
        state.last = now;
        if (state.kind == LOAD_CACHE)
        {
            m_totals.modelLoadBytesCached += written;
            continue;
        }
        (state.kind == CHECKPOINT_WRITE ? m_totals.checkpointBytes
                                        : m_totals.modelLoadBytesRemote) += written;
        m_totals.bandwidthCost += m_backend->BandwidthPricePerByte() * written;
    }
}

void
StorageDataLoading::RateWriters()
{
    if (m_writers == 0)
    {
        return;
    }
    SettleWrites();
    // The remote transfers (checkpoint writes, weight loads) split what the reads' plan leaves
    // of the aggregate bandwidth, each at least an equal share of it among the running jobs
    // (as FillExtras' filling readers) and at most the per-client cap. Loads from the cache
    // tier go at its read bandwidth.
    double aggregate = m_backend->AggregateBandwidth();
    double cap = m_backend->ClientBandwidth() > 0 ? m_backend->ClientBandwidth()
                                                  : std::numeric_limits<double>::infinity();
    double left = std::max(0.0, aggregate - m_sumBandwidth);
    double floor = aggregate / double(std::max<size_t>(1, m_jobs.size()));
    double remote = std::min(cap, std::max(left / std::max<uint32_t>(1, m_remoteTransfers), floor));
    if (m_remoteTransfers > 0 && !(remote > 0))
    {
        NS_FATAL_ERROR("storage: a checkpoint write or weights load got no remote bandwidth "
                       "(aggregate "
                       << aggregate << " B/s): set ns3::StorageBackend::AggregateBandwidth > 0");
    }
    double now = Simulator::Now().GetSeconds();
    for (auto& [id, state] : m_checkpointState)
    {
        double rate = state.kind == LOAD_CACHE ? m_weightsCacheRate.GetBitRate() / 8.0 : remote;
        if (!m_jobInfo[id].writing || rate == state.rate)
        {
            continue;
        }
        state.rate = rate;
        state.last = now;
        Simulator::Remove(state.event);
        state.event = Simulator::Schedule(Seconds(state.bytesLeft / rate),
                                          &StorageDataLoading::OnCheckpointDone,
                                          this,
                                          id);
    }
}

double
StorageDataLoading::EffectiveCache(const std::string& name) const
{
    uint32_t index = 0;
    return m_datasets.Find(name, index) ? m_caches[index].effective : 0.0;
}

} // namespace ns3

namespace ns3
{

// ---- Model loading at start ----------------------------------------------------------------

double
StorageDataLoading::WeightBytesOf(const ClusterJob& job) const
{
    if (!m_modelLoading || !job.profile || !job.profile->loadsWeights)
    {
        return 0;
    }
    return job.profile->parameters * m_weightBytesPerParameter;
}

bool
StorageDataLoading::StartLoad(uint32_t j)
{
    const Ptr<const ClusterJob>& job = m_jobs[j];
    double bytes = WeightBytesOf(*job);
    if (!(bytes > 0))
    {
        return false;
    }
    NS_LOG_FUNCTION(this << job->record.id << bytes);
    if (!(m_weightsCacheRate.GetBitRate() > 0))
    {
        throw std::invalid_argument(
            "ns3::StorageDataLoading::WeightsCacheBandwidth: expected a positive data rate, "
            "got 0bps");
    }
    uint64_t id = job->record.id;
    double now = Simulator::Now().GetSeconds();
    CheckpointState& state = m_checkpointState[id];
    Simulator::Remove(state.event);
    state.bytesLeft = bytes;
    state.rate = 0; // RateWriters (in the solve that follows its start) schedules its end
    state.last = now;
    state.start = now;
    state.stopped = kStoppedHorizon / std::max(1.0, job->RemainingIterationsAt(now));
    auto cached = m_weights.find(job->profile->name);
    if (cached != m_weights.end() && m_policy->UsesCache())
    {
        state.kind = LOAD_CACHE;
        cached->second.lastUse = now;
    }
    else
    {
        state.kind = LOAD_REMOTE;
        ++m_remoteTransfers;
    }
    JobInfo& info = m_jobInfo[id];
    info.writing = true;
    ++m_writers;
    // Called while the engine evaluates it: its stopped term goes back through Evaluate.
    m_seconds[j] = state.stopped;
    m_pacedWork[j] = 0;
    return true;
}

void
StorageDataLoading::OnLoadDone(uint64_t id)
{
    NS_LOG_FUNCTION(this << id);
    Settle();
    JobInfo& info = m_jobInfo[id];
    CheckpointState& state = m_checkpointState[id];
    uint32_t j = uint32_t(info.slot);
    const Ptr<const ClusterJob>& job = m_jobs[j];
    double now = Simulator::Now().GetSeconds();
    double gpuSeconds = (now - state.start) * info.gpus;
    info.writing = false;
    info.loadGpuSeconds += gpuSeconds;
    --m_writers;
    ++m_totals.modelLoads;
    m_totals.modelLoadStallGpuSeconds += gpuSeconds;
    if (state.kind == LOAD_CACHE)
    {
        ++m_totals.modelLoadsFromCache;
        m_weights[job->profile->name].lastUse = now;
    }
    else
    {
        --m_remoteTransfers;
        if (m_policy->UsesCache())
        {
            CacheWeights(job->profile->name, WeightBytesOf(*job));
        }
    }
    state.bytesLeft = 0;
    state.rate = 0;
    state.kind = CHECKPOINT_WRITE; // its next transfer, if any
    m_seconds[j] = -1;             // the engine has the stopped term: SetTerm reports the read term
    m_pacedWork[j] = 0;
    SetTerm(j, m_atLevel[m_entryOf[j]]);
    ScheduleCheckpoint(*job);
    RateWriters();
    NotifyJobsChanged();
}

void
StorageDataLoading::CacheWeights(const std::string& key, double bytes)
{
    double now = Simulator::Now().GetSeconds();
    auto it = m_weights.find(key);
    if (it != m_weights.end())
    {
        it->second.lastUse = now; // another job loaded them meanwhile
        return;
    }
    double room = m_cacheTier->Capacity() - m_sumCache; // what the reads' plan leaves
    if (!(bytes <= room))
    {
        return; // they do not fit even with every other model's weights evicted
    }
    m_weights[key] = CachedWeights{bytes, now};
    m_weightsBytes += bytes;
    FitWeights(); // least recently used first
}

void
StorageDataLoading::FitWeights()
{
    double room = std::max(0.0, m_cacheTier->Capacity() - m_sumCache);
    while (m_weightsBytes > room && !m_weights.empty())
    {
        auto oldest = m_weights.begin();
        for (auto it = m_weights.begin(); it != m_weights.end(); ++it)
        {
            if (it->second.lastUse < oldest->second.lastUse)
            {
                oldest = it;
            }
        }
        m_weightsBytes -= oldest->second.bytes;
        m_weights.erase(oldest);
    }
    if (m_weights.empty())
    {
        m_weightsBytes = 0; // no rounding residue
    }
}

} // namespace ns3
