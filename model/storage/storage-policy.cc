/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "storage-policy.h"

#include "ns3/component-registry.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/ns3-compat.h"

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

bool
StorageAllocationPolicy::UsesCache() const
{
    return true;
}

std::string
StorageAllocationPolicy::TypeNameOf(const std::string& name)
{
    if (const ComponentAlias* a = ComponentRegistry::Lookup("storage", name, GetTypeId()))
    {
        return a->typeId;
    }
    throw std::invalid_argument("unknown storage policy '" + name + "'; known: " + NameList());
}

std::string
StorageAllocationPolicy::NameList()
{
    return ComponentRegistry::Join(Names(), ", ");
}

std::vector<std::string>
StorageAllocationPolicy::Names()
{
    return ComponentRegistry::Names("storage", GetTypeId());
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

bool
NoCachePolicy::UsesCache() const
{
    return false;
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
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute(
                "Scarcity",
                "Rule when the capacities or the budget cannot serve every job at its "
                "compute rate: Throughput (the most delivered throughput, every job "
                "at least at its no-cache max-min fair rate, then the least IO cost "
                "for those rates) or Common (the largest common fraction of every "
                "demand at least cost).",
                EnumValue(CbaPolicy::THROUGHPUT),
                MakeAiclusterEnumAccessor(&CbaPolicy::m_scarcity),
                MakeEnumChecker(CbaPolicy::THROUGHPUT, "Throughput", CbaPolicy::COMMON, "Common"));
    return tid;
}

CbaPolicy::CbaPolicy()
    : m_budgetPerHour(0),
      m_scarcity(THROUGHPUT),
      m_silod(CreateObject<SiloDLikePolicy>())
{
}

StorageAllocation
CbaPolicy::Allocate(const StorageProblem& problem)
{
    const double budget = BudgetPerSecond();
    StorageAllocation common = CbaSolver::MaxScale(problem, budget);
    if (common.scale >= 1 || m_scarcity == COMMON)
    {
        return common; // every job at its compute rate (or the common slowdown asked for)
    }
    // The plan without a budget: every demand at least cost if the capacities allow,
    // else the throughput-first plan.
    StorageAllocation plan = budget > 0 ? CbaSolver::MaxScale(problem, 0) : common;
    if (plan.scale < 1)
    {
        plan = ThroughputFirst(problem, plan);
    }
    if (budget <= 0 || plan.CostRate(problem) <= budget * (1 + 1e-11))
    {
        return plan;
    }
    return WithinBudget(problem, plan, common);
}

StorageAllocation
CbaPolicy::WithinBudget(const StorageProblem& problem,
                        const StorageAllocation& plan,
                        const StorageAllocation& common) const
{
    NS_LOG_FUNCTION(this);
    // Keep the cache and the cached datasets' readers as planned; the readers of uncached
    // data pay p_b per byte at any speed, so throttling them (max-min fair on the bandwidth
    // the budget leaves) lowers the cost rate without raising any job's cost per byte.
    const double budget = BudgetPerSecond();
    size_t n = problem.jobs.size();
    double fixed = problem.cachePrice * plan.TotalCache();
    std::vector<size_t> flexible;
    for (size_t j = 0; j < n; ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        if (plan.cache[k] > 0 || problem.datasetBytes[k] <= 0)
        {
            fixed += problem.bandwidthPrice * problem.jobs[j].count * plan.bandwidth[j];
        }
        else
        {
            flexible.push_back(j);
        }
    }
    if (flexible.empty() || problem.bandwidthPrice <= 0 || fixed > budget)
    {
        return common; // the cached part alone is over budget: every job slows together
    }
    std::vector<double> wants;
    std::vector<StorageDemand> entries;
    for (size_t j : flexible)
    {
        wants.push_back(plan.bandwidth[j]);
        entries.push_back(problem.jobs[j]);
    }
    WaterFill(wants, (budget - fixed) / problem.bandwidthPrice, entries);
    StorageAllocation out = plan;
    double served = 0;
    double total = 0;
    for (size_t i = 0; i < flexible.size(); ++i)
    {
        out.bandwidth[flexible[i]] = wants[i];
        // Never starve a throttled reader below what the common fraction gives it (a job
        // left (nearly) without bandwidth would never finish): then every job slows together.
        if (out.Rate(problem, flexible[i]) < common.Rate(problem, flexible[i]))
        {
            return common;
        }
    }
    for (size_t j = 0; j < n; ++j)
    {
        served += problem.jobs[j].count * out.Rate(problem, j);
        total += problem.jobs[j].count * problem.jobs[j].demand;
    }
    out.scale = total > 0 ? std::min(1.0, served / total) : 1.0;
    out.level = std::numeric_limits<double>::infinity();
    return out;
}

namespace
{

/// Sum over jobs of their served fraction rate / demand (1 for a job that demands nothing).
double
ServedFractions(const StorageProblem& problem, const StorageAllocation& alloc)
{
    double total = 0;
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        double demand = problem.jobs[j].demand;
        total += problem.jobs[j].count * (demand > 0 ? alloc.Rate(problem, j) / demand : 1.0);
    }
    return total;
}

} // namespace

StorageAllocation
CbaPolicy::ThroughputFirst(const StorageProblem& problem, const StorageAllocation& common)
{
    NS_LOG_FUNCTION(this);
    size_t nd = problem.datasetBytes.size();
    std::vector<double> demand = problem.DatasetDemand();
    // The floor: no cache, bandwidth max-min fair. Caching under the same water-filling only
    // lowers the jobs' remote needs, so the level rises and every job's rate
    // min(T, b / (1 - x)) stays at or above its floor: every plan below but the common
    // fraction keeps every job at or above it.
    StorageAllocation none;
    none.cache.assign(nd, 0.0);
    CompleteWithFairBandwidth(problem, none);
    std::vector<StorageAllocation> plans;
    plans.push_back(none);
    plans.push_back(m_silod->Allocate(problem));
    std::vector<double> rho(nd, 0.0);
    for (size_t k = 0; k < nd; ++k)
    {
        rho[k] = problem.datasetBytes[k] > 0 ? demand[k] / problem.datasetBytes[k] : 0.0;
    }
    std::vector<size_t> order = ReadDatasetsBy(problem, demand, rho);
    plans.push_back(CacheWholeDatasets(problem, order)); // whole datasets by density
    StorageAllocation prefix;                            // a density prefix, the last in part
    prefix.cache.assign(nd, 0.0);
    double left = problem.cacheCapacity;
    for (size_t k : order)
    {
        prefix.cache[k] = std::min(left, problem.datasetBytes[k]);
        left -= prefix.cache[k];
    }
    CompleteWithFairBandwidth(problem, prefix);
    plans.push_back(prefix);
    // The common fraction competes only where it gives every job its floor too.
    const double slack = 1e-12;
    bool commonAboveFloor = true;
    for (size_t j = 0; j < problem.jobs.size() && commonAboveFloor; ++j)
    {
        commonAboveFloor = common.Rate(problem, j) >= none.Rate(problem, j) * (1 - slack);
    }
    if (commonAboveFloor)
    {
        plans.push_back(common);
    }
    // Each plan's per-job rates at least cost (the same rates or more: CbaSolver::MaxScale
    // with targets); the most throughput wins, ties to the larger sum of served fractions,
    // then to the lower cost.
    StorageAllocation best;
    double bestRate = -1;
    double bestServed = -1;
    double bestCost = 0;
    std::vector<double> targets(problem.jobs.size());
    for (const StorageAllocation& plan : plans)
    {
        for (size_t j = 0; j < problem.jobs.size(); ++j)
        {
            targets[j] = plan.Rate(problem, j);
        }
        StorageAllocation a = CbaSolver::MaxScale(problem, targets, 0);
        // Rounding may leave the least-cost plan a hair short of the targets: the plan
        // itself serves them.
        if (a.scale < 1)
        {
            a = plan;
        }
        double rate = a.TotalRate(problem);
        double served = ServedFractions(problem, a);
        double cost = a.CostRate(problem);
        bool better = rate > bestRate * (1 + slack) ||
                      (rate >= bestRate * (1 - slack) &&
                       (served > bestServed * (1 + slack) ||
                        (served >= bestServed * (1 - slack) && cost < bestCost)));
        if (better)
        {
            best = a;
            bestRate = rate;
            bestServed = served;
            bestCost = cost;
        }
    }
    double total = 0;
    for (const StorageDemand& job : problem.jobs)
    {
        total += job.count * job.demand;
    }
    best.scale = total > 0 ? std::min(1.0, bestRate / total) : 1.0;
    best.level = std::numeric_limits<double>::infinity();
    return best;
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
