/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "storage-policy.h"

#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StorageAllocationPolicy");
NS_OBJECT_ENSURE_REGISTERED(StorageAllocationPolicy);
NS_OBJECT_ENSURE_REGISTERED(NoCachePolicy);
NS_OBJECT_ENSURE_REGISTERED(CacheAllPolicy);
NS_OBJECT_ENSURE_REGISTERED(FairSharePolicy);
NS_OBJECT_ENSURE_REGISTERED(SharedLruPolicy);
NS_OBJECT_ENSURE_REGISTERED(BenefitRankedPolicy);
NS_OBJECT_ENSURE_REGISTERED(SiloDLikePolicy);
NS_OBJECT_ENSURE_REGISTERED(CbaPolicy);

namespace
{

const std::vector<std::pair<std::string, std::string>> kPolicies = {
    {"none", "ns3::NoCachePolicy"},
    {"cache-all", "ns3::CacheAllPolicy"},
    {"fair", "ns3::FairSharePolicy"},
    {"lru", "ns3::SharedLruPolicy"},
    {"quiver", "ns3::BenefitRankedPolicy"},
    {"silod", "ns3::SiloDLikePolicy"},
    {"cba", "ns3::CbaPolicy"},
};

/// order = datasets with at least one reader (demand: R_k), by decreasing key (ties by index).
void
ReadDatasetsBy(const StorageProblem& problem,
               const std::vector<double>& demand,
               const std::vector<double>& key,
               std::vector<size_t>& order)
{
    order.clear();
    for (size_t k = 0; k < problem.datasetBytes.size(); ++k)
    {
        if (demand[k] > 0 && problem.datasetBytes[k] > 0)
        {
            order.push_back(k);
        }
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return key[a] > key[b];
    });
}

/// ReadDatasetsBy, returned.
std::vector<size_t>
ReadDatasetsBy(const StorageProblem& problem,
               const std::vector<double>& demand,
               const std::vector<double>& key)
{
    std::vector<size_t> order;
    ReadDatasetsBy(problem, demand, key, order);
    return order;
}

double
MissOf(const StorageProblem& problem, const StorageAllocation& alloc, size_t j)
{
    return problem.datasetBytes[problem.jobs[j].dataset] > 0 ? 1.0 - alloc.hit[j] : 0.0;
}

} // namespace

// ---- StorageAllocationPolicy --------------------------------------------------------------

TypeId
StorageAllocationPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StorageAllocationPolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

bool
StorageAllocationPolicy::IsLru() const
{
    return false;
}

std::string
StorageAllocationPolicy::TypeNameOf(const std::string& name)
{
    for (const auto& [shortName, type] : kPolicies)
    {
        if (shortName == name)
        {
            return type;
        }
    }
    std::string known;
    for (const auto& entry : kPolicies)
    {
        known += (known.empty() ? "" : ", ") + entry.first;
    }
    throw std::invalid_argument("unknown storage policy '" + name + "'; known: " + known);
}

std::vector<std::string>
StorageAllocationPolicy::Names()
{
    std::vector<std::string> names;
    for (const auto& entry : kPolicies)
    {
        names.push_back(entry.first);
    }
    return names;
}

void
StorageAllocationPolicy::CompleteWithFairBandwidth(const StorageProblem& problem,
                                                   StorageAllocation& alloc)
{
    size_t n = problem.jobs.size();
    bool haveHit = alloc.hit.size() == n;
    if (!haveHit)
    {
        alloc.hit.resize(n);
    }
    // One pass: each job's remote need (capped per client); if they all fit in the aggregate
    // bandwidth that is the max-min fair answer, else water-fill.
    const double cap = problem.clientBandwidth;
    alloc.bandwidth.resize(n);
    double total = 0;
    for (size_t j = 0; j < n; ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        if (!haveHit)
        {
            // Uniform cache: every reader of a dataset hits its cached fraction.
            double d = problem.datasetBytes[k];
            alloc.hit[j] = d > 0 ? std::min(1.0, alloc.cache[k] / d) : 1.0;
        }
        double need = problem.jobs[j].demand * MissOf(problem, alloc, j);
        double want = cap > 0 ? std::min(need, cap) : need;
        alloc.bandwidth[j] = want;
        total += problem.jobs[j].count * want;
    }
    if (total > problem.bandwidthCapacity)
    {
        alloc.level = WaterFill(alloc.bandwidth, problem.bandwidthCapacity, problem.jobs);
    }
    else
    {
        alloc.level = std::numeric_limits<double>::infinity();
    }
}

StorageAllocation
StorageAllocationPolicy::CacheWholeDatasets(const StorageProblem& problem,
                                            const std::vector<size_t>& order)
{
    StorageAllocation alloc;
    alloc.cache.assign(problem.datasetBytes.size(), 0.0);
    double left = problem.cacheCapacity;
    for (size_t k : order)
    {
        if (problem.datasetBytes[k] <= left)
        {
            alloc.cache[k] = problem.datasetBytes[k];
            left -= problem.datasetBytes[k];
        }
    }
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

// ---- NoCachePolicy ------------------------------------------------------------------------

TypeId
NoCachePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NoCachePolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<NoCachePolicy>();
    return tid;
}

StorageAllocation
NoCachePolicy::Allocate(const StorageProblem& problem)
{
    StorageAllocation alloc;
    alloc.cache.assign(problem.datasetBytes.size(), 0.0);
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

std::string
NoCachePolicy::Name() const
{
    return "none";
}

// ---- CacheAllPolicy -----------------------------------------------------------------------

TypeId
CacheAllPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CacheAllPolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<CacheAllPolicy>();
    return tid;
}

StorageAllocation
CacheAllPolicy::Allocate(const StorageProblem& problem)
{
    // First reader = lowest job id (ids follow submit order).
    std::vector<double> firstReader(problem.datasetBytes.size(), 0.0);
    std::vector<double> demand(problem.datasetBytes.size(), 0.0);
    std::vector<bool> seen(problem.datasetBytes.size(), false);
    for (const StorageDemand& job : problem.jobs)
    {
        double key = -static_cast<double>(job.id);
        if (!seen[job.dataset] || key > firstReader[job.dataset])
        {
            firstReader[job.dataset] = key;
            seen[job.dataset] = true;
        }
        demand[job.dataset] += job.count * job.demand;
    }
    return CacheWholeDatasets(problem, ReadDatasetsBy(problem, demand, firstReader));
}

std::string
CacheAllPolicy::Name() const
{
    return "cache-all";
}

// ---- FairSharePolicy ----------------------------------------------------------------------

TypeId
FairSharePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FairSharePolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<FairSharePolicy>();
    return tid;
}

StorageAllocation
FairSharePolicy::Allocate(const StorageProblem& problem)
{
    StorageAllocation alloc;
    alloc.cache.assign(problem.datasetBytes.size(), 0.0);
    if (!problem.jobs.empty())
    {
        double share = problem.cacheCapacity / double(problem.JobCount());
        for (const StorageDemand& job : problem.jobs)
        {
            alloc.cache[job.dataset] += job.count * share;
        }
        for (size_t k = 0; k < alloc.cache.size(); ++k)
        {
            alloc.cache[k] = std::min(alloc.cache[k], problem.datasetBytes[k]);
        }
    }
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

std::string
FairSharePolicy::Name() const
{
    return "fair";
}

// ---- SharedLruPolicy ----------------------------------------------------------------------

TypeId
SharedLruPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SharedLruPolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<SharedLruPolicy>();
    return tid;
}

StorageAllocation
SharedLruPolicy::Allocate(const StorageProblem& problem)
{
    size_t nd = problem.datasetBytes.size();
    std::vector<double> demand = problem.DatasetDemand();
    StorageAllocation alloc;
    alloc.cache.assign(nd, 0.0);
    double readBytes = 0;
    for (size_t k = 0; k < nd; ++k)
    {
        if (demand[k] > 0)
        {
            readBytes += problem.datasetBytes[k];
        }
    }
    if (readBytes <= problem.cacheCapacity)
    {
        // Everything read fits: the LRU keeps it all.
        for (size_t k = 0; k < nd; ++k)
        {
            alloc.cache[k] = demand[k] > 0 ? problem.datasetBytes[k] : 0.0;
        }
    }
    else
    {
        // A shared LRU holds what was read in the last T seconds (every read, hit or miss,
        // moves an item to the front): dataset k occupies min(d_k, R_k T), and T fills C.
        // Water-fill T over the datasets in increasing order of d_k / R_k (time to hold it all).
        std::vector<size_t> order;
        for (size_t k = 0; k < nd; ++k)
        {
            if (demand[k] > 0 && problem.datasetBytes[k] > 0)
            {
                order.push_back(k);
            }
        }
        std::vector<double> holdAll(nd, 0.0); // d_k / R_k, divided once
        for (size_t k : order)
        {
            holdAll[k] = problem.datasetBytes[k] / demand[k];
        }
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return holdAll[a] < holdAll[b];
        });
        double left = problem.cacheCapacity;
        double rateLeft = 0;
        for (size_t k : order)
        {
            rateLeft += demand[k];
        }
        size_t i = 0;
        for (; i < order.size(); ++i)
        {
            size_t k = order[i];
            double holdAll = problem.datasetBytes[k] / demand[k];
            if (holdAll * rateLeft > left)
            {
                break; // T is shorter than the time to hold this dataset whole
            }
            alloc.cache[k] = problem.datasetBytes[k];
            left -= problem.datasetBytes[k];
            rateLeft -= demand[k];
        }
        double window = rateLeft > 0 ? left / rateLeft : 0.0;
        for (; i < order.size(); ++i)
        {
            alloc.cache[order[i]] = demand[order[i]] * window;
        }
    }
    // Shuffled epochs: the hit fraction of an LRU holding x of a dataset, once per dataset.
    std::vector<double> datasetHit(nd);
    for (size_t k = 0; k < nd; ++k)
    {
        double d = problem.datasetBytes[k];
        datasetHit[k] = d > 0 ? LruShuffledHitRatio(alloc.cache[k] / d) : 1.0;
    }
    alloc.hit.resize(problem.jobs.size());
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        alloc.hit[j] = datasetHit[problem.jobs[j].dataset];
    }
    CompleteWithFairBandwidth(problem, alloc);
    return alloc;
}

bool
SharedLruPolicy::IsLru() const
{
    return true;
}

std::string
SharedLruPolicy::Name() const
{
    return "lru";
}

// ---- BenefitRankedPolicy ------------------------------------------------------------------

TypeId
BenefitRankedPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BenefitRankedPolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<BenefitRankedPolicy>();
    return tid;
}

StorageAllocation
BenefitRankedPolicy::Allocate(const StorageProblem& problem)
{
    // Remote bytes saved per second per cached byte, if the dataset were cached: R_k / d_k.
    std::vector<double> demand = problem.DatasetDemand();
    std::vector<double> rho(demand.size(), 0.0);
    for (size_t k = 0; k < rho.size(); ++k)
    {
        rho[k] = problem.datasetBytes[k] > 0 ? demand[k] / problem.datasetBytes[k] : 0.0;
    }
    return CacheWholeDatasets(problem, ReadDatasetsBy(problem, demand, rho));
}

std::string
BenefitRankedPolicy::Name() const
{
    return "quiver";
}

// ---- SiloDLikePolicy ----------------------------------------------------------------------

TypeId
SiloDLikePolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SiloDLikePolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<SiloDLikePolicy>();
    return tid;
}

StorageAllocation
SiloDLikePolicy::Allocate(const StorageProblem& problem)
{
    // Called at every start and finish: the work vectors are members, kept between calls.
    size_t n = problem.jobs.size();
    size_t nd = problem.datasetBytes.size();
    m_share.resize(n);
    for (size_t j = 0; j < n; ++j)
    {
        const StorageDemand& job = problem.jobs[j];
        double demand = problem.datasetBytes[job.dataset] > 0 ? job.demand : 0.0;
        m_share[j] =
            problem.clientBandwidth > 0 ? std::min(demand, problem.clientBandwidth) : demand;
    }
    WaterFill(m_share, problem.bandwidthCapacity, problem.jobs); // the max-min fair shares b_j
    // Per dataset: cached fraction that saturates all its readers, and the throughput gained.
    m_saturate.assign(nd, 0.0);
    m_gain.assign(nd, 0.0);
    for (size_t j = 0; j < n; ++j)
    {
        const StorageDemand& job = problem.jobs[j];
        if (problem.datasetBytes[job.dataset] > 0 && job.demand > 0)
        {
            m_saturate[job.dataset] =
                std::max(m_saturate[job.dataset], 1.0 - m_share[j] / job.demand);
            m_gain[job.dataset] += job.count * (job.demand - m_share[j]);
        }
    }
    m_perByte.assign(nd, 0.0);
    for (size_t k = 0; k < nd; ++k)
    {
        double bytes = m_saturate[k] * problem.datasetBytes[k];
        m_perByte[k] = bytes > 0 ? m_gain[k] / bytes : 0.0;
    }
    StorageAllocation alloc;
    alloc.cache.assign(nd, 0.0);
    double left = problem.cacheCapacity;
    problem.DatasetDemand(m_demand);
    ReadDatasetsBy(problem, m_demand, m_perByte, m_order);
    for (size_t k : m_order)
    {
        if (m_perByte[k] <= 0 || left <= 0)
        {
            break;
        }
        alloc.cache[k] = std::min(left, m_saturate[k] * problem.datasetBytes[k]);
        left -= alloc.cache[k];
    }
    CompleteWithFairBandwidth(problem, alloc); // re-water-fills what saturated jobs freed
    return alloc;
}

std::string
SiloDLikePolicy::Name() const
{
    return "silod";
}

// ---- CbaPolicy ----------------------------------------------------------------------------

TypeId
CbaPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CbaPolicy")
            .SetParent<StorageAllocationPolicy>()
            .SetGroupName("Aicluster")
            .AddConstructor<CbaPolicy>()
            .AddAttribute("Budget",
                          "IO budget for cache plus remote bandwidth [$ per hour]; 0 = none "
                          "(serve every job at its compute rate at minimum cost).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&CbaPolicy::m_budgetPerHour),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

CbaPolicy::CbaPolicy()
    : m_budgetPerHour(0)
{
}

StorageAllocation
CbaPolicy::Allocate(const StorageProblem& problem)
{
    return CbaSolver::MaxScale(problem, BudgetPerSecond());
}

double
CbaPolicy::BudgetPerSecond() const
{
    return m_budgetPerHour / 3600.0;
}

std::string
CbaPolicy::Name() const
{
    return "cba";
}

} // namespace ns3
