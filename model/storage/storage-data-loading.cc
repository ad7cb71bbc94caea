/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "storage-data-loading.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
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
            .SetParent<IterationTermModel>()
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
            .AddAttribute("PrefetchBandwidth",
                          "Remote bandwidth of one dataset's prefetch, on top of the jobs' "
                          "[bit/s].",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&StorageDataLoading::m_prefetchRate),
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
      m_prefetchRate("10Gbps")
{
    m_policy = CreateObject<CbaPolicy>();
    m_backend = CreateObject<StorageBackend>();
    m_cacheTier = CreateObject<CacheTier>();
}

StorageDataLoading::~StorageDataLoading() = default;

void
StorageDataLoading::DoDispose()
{
    for (uint32_t k : m_active)
    {
        Simulator::Cancel(m_caches[k].fillEvent);
    }
    m_jobs.clear();
    m_policy = nullptr;
    m_backend = nullptr;
    m_cacheTier = nullptr;
    IterationTermModel::DoDispose();
}

void
StorageDataLoading::AddDataset(const DatasetSpec& spec)
{
    if (!(spec.bytes >= 0) || !std::isfinite(spec.bytes) || !(spec.bytesPerSample >= 0) ||
        !std::isfinite(spec.bytesPerSample))
    {
        throw std::invalid_argument(
            "dataset '" + spec.name + "': expected size and bytes per sample >= 0, got " +
            std::to_string(spec.bytes) + " and " + std::to_string(spec.bytesPerSample));
    }
    auto it = m_index.find(spec.name);
    if (it != m_index.end())
    {
        const DatasetSpec& known = m_datasets[it->second];
        if (known.bytes != spec.bytes || known.bytesPerSample != spec.bytesPerSample)
        {
            throw std::invalid_argument("dataset '" + spec.name +
                                        "' registered twice with "
                                        "different numbers (" +
                                        std::to_string(known.bytes) + " vs " +
                                        std::to_string(spec.bytes) + " bytes)");
        }
        return;
    }
    m_index[spec.name] = m_datasets.size();
    m_datasets.push_back(spec);
    m_caches.emplace_back();
}

void
StorageDataLoading::AddDatasetsOf(const std::vector<JobRecord>& jobs,
                                  const TraceAnnotator& annotator)
{
    for (const JobRecord& job : jobs)
    {
        if (!m_index.count(job.dataset))
        {
            AddDataset(annotator.Dataset(job));
        }
    }
}

bool
StorageDataLoading::HasDataset(const std::string& name) const
{
    return m_index.count(name) > 0;
}

void
StorageDataLoading::SetPolicy(Ptr<StorageAllocationPolicy> policy)
{
    m_policy = policy;
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

void
StorageDataLoading::Attach(Ptr<ClusterEngine> engine)
{
    engine->TraceConnectWithoutContext("JobFinished",
                                       MakeCallback(&StorageDataLoading::OnJobLeft, this));
    engine->TraceConnectWithoutContext("JobPreempted",
                                       MakeCallback(&StorageDataLoading::OnJobLeft, this));
}

bool
StorageDataLoading::DependsOnOtherJobs() const
{
    return true;
}

double
StorageDataLoading::DemandOf(const ClusterJob& job, uint32_t gpus) const
{
    const DatasetSpec& spec = m_datasets[m_index.at(job.record.dataset)];
    return job.profile->SamplesPerSecond(std::max<uint32_t>(1, gpus)) * spec.bytesPerSample;
}

StorageProblem
StorageDataLoading::BuildProblem(const std::vector<Ptr<ClusterJob>>& running,
                                 std::vector<uint32_t>* datasets) const
{
    // Called on every scheduling pass with every running job: per-job lookups are cached by
    // job id, and datasets get their problem index through a stamped array, not a map.
    StorageProblem problem;
    std::vector<uint32_t> globals;
    problem.jobs.reserve(running.size());
    if (m_localStamp.size() < m_datasets.size())
    {
        m_localStamp.resize(m_datasets.size(), 0);
        m_localIndex.resize(m_datasets.size(), 0);
    }
    ++m_stamp;
    for (const Ptr<ClusterJob>& job : running)
    {
        uint64_t id = job->record.id;
        if (id >= m_jobInfo.size())
        {
            m_jobInfo.resize(std::max<size_t>(id + 1, 2 * m_jobInfo.size()));
        }
        JobInfo& info = m_jobInfo[id];
        uint32_t gpus = job->gpus > 0 ? job->gpus : job->placement.TotalGpus();
        if (info.gpus == 0)
        {
            auto it = m_index.find(job->record.dataset);
            if (it == m_index.end())
            {
                throw std::invalid_argument(
                    "job " + std::to_string(id) + " (" + job->record.source + ") reads dataset '" +
                    job->record.dataset +
                    "', which the storage model does not know; register it with AddDataset or "
                    "AddDatasetsOf");
            }
            info.dataset = it->second;
        }
        if (info.gpus != gpus)
        {
            info.gpus = gpus;
            info.demand = DemandOf(*job, gpus);
        }
        uint32_t g = info.dataset;
        if (m_localStamp[g] != m_stamp)
        {
            m_localStamp[g] = m_stamp;
            m_localIndex[g] = uint32_t(globals.size());
            globals.push_back(g);
            problem.datasetBytes.push_back(m_datasets[g].bytes);
        }
        StorageDemand demand;
        demand.id = id;
        demand.dataset = m_localIndex[g];
        demand.gpus = gpus;
        demand.demand = info.demand;
        problem.jobs.push_back(demand);
    }
    problem.cacheCapacity = m_cacheTier->Capacity();
    problem.bandwidthCapacity = m_backend->AggregateBandwidth();
    problem.clientBandwidth = m_backend->ClientBandwidth();
    problem.bandwidthPrice = m_backend->BandwidthPricePerByte();
    problem.cachePrice = m_cacheTier->PricePerByteSecond();
    if (datasets)
    {
        *datasets = std::move(globals);
    }
    return problem;
}

void
StorageDataLoading::Settle()
{
    double now = Simulator::Now().GetSeconds();
    double dt = now - m_lastSettle;
    m_lastSettle = now;
    if (dt <= 0 || m_jobs.empty())
    {
        return;
    }
    double bandwidth = 0;
    for (size_t j = 0; j < m_jobs.size(); ++j)
    {
        bandwidth += m_bandwidth[j];
        m_totals.bytesRead += m_rates[j] * dt;
        m_totals.bytesHit += m_rates[j] * m_hits[j] * dt;
        m_totals.bytesRemote += m_rates[j] * (1 - m_hits[j]) * dt;
    }
    double cache = 0;
    for (uint32_t k : m_active)
    {
        cache += m_caches[k].target;
    }
    m_totals.bandwidthSeconds += bandwidth * dt;
    m_totals.cacheByteSeconds += cache * dt;
    m_totals.bandwidthCost += m_problem.bandwidthPrice * bandwidth * dt;
    m_totals.cacheCost += m_problem.cachePrice * cache * dt;
    m_totals.activeSeconds += dt;
}

double
StorageDataLoading::HitOf(uint32_t dataset) const
{
    double d = m_datasets[dataset].bytes;
    if (d <= 0)
    {
        return 1.0;
    }
    double x = m_caches[dataset].effective / d;
    return m_policy->IsLru() ? LruShuffledHitRatio(x) : std::min(1.0, x);
}

void
StorageDataLoading::Release(uint32_t dataset)
{
    CacheState& state = m_caches[dataset];
    Simulator::Cancel(state.fillEvent);
    state = CacheState();
}

void
StorageDataLoading::UpdateCaches()
{
    const StorageProblem& problem = m_problem;
    // Datasets no running job reads any more are released (BuildProblem just stamped the
    // ones it read, so this costs the active datasets only, not all registered ones).
    for (uint32_t g : m_active)
    {
        if (m_localStamp[g] != m_stamp)
        {
            Release(g);
        }
    }
    m_active = m_globalOf;
    m_newFills.clear();
    for (uint32_t local = 0; local < problem.datasetBytes.size(); ++local)
    {
        uint32_t k = m_globalOf[local];
        CacheState& state = m_caches[k];
        double target = m_alloc.cache[local];
        state.target = target;
        if (target <= state.effective)
        {
            // Shrinking is immediate (eviction needs no reads).
            Simulator::Cancel(state.fillEvent);
            state.effective = target;
            state.filling = -1;
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
        m_newFills.push_back(local); // scheduled by StartFills, once the rates are known
    }
}

void
StorageDataLoading::StartFills()
{
    std::vector<double> readRate(m_problem.datasetBytes.size(), 0.0);
    for (size_t j = 0; j < m_problem.jobs.size(); ++j)
    {
        readRate[m_problem.jobs[j].dataset] += m_rates[j];
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
            delay = readRate[local] > 0 ? m_datasets[k].bytes / readRate[local] : 0.0;
        }
        NS_LOG_LOGIC("t=" << now << " dataset " << m_datasets[k].name << " fills to "
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
    ++m_totals.fills;
    RecomputeRates();
    NotifyChanged();
}

void
StorageDataLoading::RecomputeRates()
{
    size_t n = m_jobs.size();
    m_rates.assign(n, 0.0);
    m_hits.assign(n, 0.0);
    m_bandwidth.assign(n, 0.0);
    double cap = m_problem.clientBandwidth > 0 ? m_problem.clientBandwidth
                                               : std::numeric_limits<double>::infinity();
    // A job whose dataset is still filling misses more than planned: it wants the extra
    // bandwidth that keeps it at its planned rate. Extras share what the plan leaves of the
    // aggregate bandwidth; a filling job gets at least an equal share B / n of it.
    std::vector<double> extra(n, 0.0);
    double planned = 0;
    double wanted = 0;
    for (size_t j = 0; j < n; ++j)
    {
        m_hits[j] = HitOf(m_globalOf[m_problem.jobs[j].dataset]);
        m_bandwidth[j] = m_alloc.bandwidth[j];
        planned += m_bandwidth[j];
        if (m_hits[j] < m_alloc.hit[j])
        {
            double want = std::min(cap, m_alloc.Rate(m_problem, j) * (1 - m_hits[j]));
            extra[j] = std::max(0.0, want - m_bandwidth[j]);
            wanted += extra[j];
        }
    }
    double left = std::max(0.0, m_problem.bandwidthCapacity - planned);
    double share = wanted > left ? left / wanted : 1.0;
    double floor = n > 0 ? m_problem.bandwidthCapacity / n : 0.0;
    for (size_t j = 0; j < n; ++j)
    {
        if (extra[j] > 0)
        {
            double full = m_bandwidth[j] + extra[j];
            m_bandwidth[j] = std::max(m_bandwidth[j] + extra[j] * share, std::min(full, floor));
        }
        double miss = 1 - m_hits[j];
        double demand = m_problem.jobs[j].demand;
        m_rates[j] = miss > 0 ? std::min(demand, m_bandwidth[j] / miss) : demand;
    }
}

void
StorageDataLoading::Evaluate(const ClusterTopology& /* topology */,
                             const std::vector<Ptr<ClusterJob>>& running,
                             std::vector<double>& seconds)
{
    Settle();
    m_problem = BuildProblem(running, &m_globalOf);
    m_alloc = m_policy->Allocate(m_problem);
    ++m_totals.solves;
    m_jobs = running;
    UpdateCaches();
    RecomputeRates();
    StartFills();
    for (size_t j = 0; j < running.size(); ++j)
    {
        const ClusterJob& job = *running[j];
        const DatasetSpec& spec = m_datasets[m_globalOf[m_problem.jobs[j].dataset]];
        double miss = 1 - m_hits[j];
        double perIteration =
            double(job.profile->localBatch) * m_problem.jobs[j].gpus * spec.bytesPerSample * miss;
        if (perIteration <= 0)
        {
            seconds[j] = 0;
            continue;
        }
        NS_ABORT_MSG_IF(!(m_bandwidth[j] > 0),
                        "storage policy " << m_policy->Name() << " gave job " << job.record.id
                                          << " no remote bandwidth but it misses the cache");
        seconds[j] = perIteration / m_bandwidth[j];
    }
    double cache = 0;
    for (uint32_t k : m_active)
    {
        cache += m_caches[k].target;
    }
    double bandwidth = 0;
    for (double b : m_bandwidth)
    {
        bandwidth += b;
    }
    m_totals.peakBandwidth = std::max(m_totals.peakBandwidth, bandwidth);
    m_totals.peakCache = std::max(m_totals.peakCache, cache);
    m_allocationTrace(Simulator::Now().GetSeconds(),
                      m_problem.bandwidthPrice * bandwidth + m_problem.cachePrice * cache,
                      bandwidth,
                      cache);
}

void
StorageDataLoading::OnJobLeft(Ptr<const ClusterJob> job)
{
    Settle();
    for (size_t j = 0; j < m_jobs.size(); ++j)
    {
        if (m_jobs[j]->record.id != job->record.id)
        {
            continue;
        }
        uint32_t dataset = m_problem.jobs[j].dataset;
        m_jobs.erase(m_jobs.begin() + j);
        m_problem.jobs.erase(m_problem.jobs.begin() + j);
        m_alloc.bandwidth.erase(m_alloc.bandwidth.begin() + j);
        m_bandwidth.erase(m_bandwidth.begin() + j);
        m_alloc.hit.erase(m_alloc.hit.begin() + j);
        m_rates.erase(m_rates.begin() + j);
        m_hits.erase(m_hits.begin() + j);
        bool stillRead = false;
        for (const StorageDemand& other : m_problem.jobs)
        {
            stillRead = stillRead || other.dataset == dataset;
        }
        if (!stillRead)
        {
            Release(m_globalOf[dataset]);
        }
        return;
    }
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

const std::vector<Ptr<ClusterJob>>&
StorageDataLoading::LastJobs() const
{
    return m_jobs;
}

double
StorageDataLoading::EffectiveCache(const std::string& name) const
{
    auto it = m_index.find(name);
    return it == m_index.end() ? 0.0 : m_caches[it->second].effective;
}

} // namespace ns3
