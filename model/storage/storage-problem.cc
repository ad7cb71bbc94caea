/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-problem.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Relative slack for capacity checks: rounding of sums of doubles, not a model parameter.
constexpr double kSlack = 1e-9;
/// The solver's own feasibility slack, tighter than kSlack so that its answers pass Violation().
constexpr double kSolverSlack = 1e-11;

void
RequireFinite(double x, const std::string& field, bool positive)
{
    if (!std::isfinite(x) || x < 0 || (positive && x <= 0))
    {
        throw std::invalid_argument("storage problem: " + field + " expected a finite number " +
                                    (positive ? "> 0" : ">= 0") + ", got " + std::to_string(x));
    }
}

bool
Within(double used, double capacity)
{
    return used <= capacity * (1 + kSlack) + 1e-12;
}

/// \return whether the two vectors hold the same bytes (no padding in T; NaN and -0 as bits)
template <class T>
bool
SameBits(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/** A job's share of a fill: its hit ratio and remote bandwidth. */
struct FilledJob
{
    bool empty;       //!< its dataset has no bytes (nothing to read)
    double hit;       //!< min(1, x_k) of its dataset (1 for an empty dataset)
    double bandwidth; //!< alpha x target x (1 - hit) [bytes/s] (0 for an empty dataset)
};

/**
 * \brief The one rule by which CbaSolver::Fill gives job j its hit and bandwidth, and by
 *        which MinCostTotals sums them without building the allocation (the same bits).
 * \param problem the problem \param j a job \param target its target [bytes/s]
 * \param alpha the scale \param x cached fraction per dataset
 * \return the job's hit and bandwidth
 */
FilledJob
FillJob(const StorageProblem& problem,
        size_t j,
        double target,
        double alpha,
        const std::vector<double>& x)
{
    uint32_t k = problem.jobs[j].dataset;
    if (problem.datasetBytes[k] <= 0)
    {
        return {true, 1.0, 0.0};
    }
    double hit = std::min(1.0, x[k]);
    return {false, hit, alpha * target * (1 - hit)};
}

} // namespace

void
StorageProblem::Validate() const
{
    for (size_t k = 0; k < datasetBytes.size(); ++k)
    {
        RequireFinite(datasetBytes[k], "datasetBytes[" + std::to_string(k) + "]", false);
    }
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        RequireFinite(jobs[j].demand, "jobs[" + std::to_string(j) + "].demand", false);
        if (jobs[j].count < 1)
        {
            throw std::invalid_argument("storage problem: jobs[" + std::to_string(j) +
                                        "].count expected >= 1, got 0");
        }
        if (jobs[j].dataset >= datasetBytes.size())
        {
            throw std::invalid_argument(
                "storage problem: jobs[" + std::to_string(j) + "].dataset expected < " +
                std::to_string(datasetBytes.size()) + ", got " + std::to_string(jobs[j].dataset));
        }
    }
    RequireFinite(cacheCapacity, "cacheCapacity", false);
    RequireFinite(bandwidthCapacity, "bandwidthCapacity", true);
    RequireFinite(clientBandwidth, "clientBandwidth", false);
    RequireFinite(bandwidthPrice, "bandwidthPrice", false);
    RequireFinite(cachePrice, "cachePrice", false);
}

std::vector<double>
StorageProblem::DatasetDemand() const
{
    std::vector<double> total;
    DatasetDemand(total);
    return total;
}

void
StorageProblem::DatasetDemand(std::vector<double>& total) const
{
    total.assign(datasetBytes.size(), 0.0);
    for (const StorageDemand& job : jobs)
    {
        total[job.dataset] += job.count * job.demand;
    }
}

uint64_t
StorageProblem::JobCount() const
{
    uint64_t count = 0;
    for (const StorageDemand& job : jobs)
    {
        count += job.count;
    }
    return count;
}

double
StorageAllocation::TotalRate(const StorageProblem& problem) const
{
    double total = 0;
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        total += problem.jobs[j].count * Rate(problem, j);
    }
    return total;
}

double
StorageAllocation::CostRate(const StorageProblem& problem) const
{
    return problem.bandwidthPrice * TotalBandwidth(problem) + problem.cachePrice * TotalCache();
}

double
StorageAllocation::TotalBandwidth(const StorageProblem& problem) const
{
    double total = 0;
    for (size_t j = 0; j < bandwidth.size(); ++j)
    {
        total += problem.jobs[j].count * bandwidth[j];
    }
    return total;
}

double
StorageAllocation::TotalCache() const
{
    return std::accumulate(cache.begin(), cache.end(), 0.0);
}

std::string
StorageAllocation::Violation(const StorageProblem& problem) const
{
    if (cache.size() != problem.datasetBytes.size() || bandwidth.size() != problem.jobs.size() ||
        hit.size() != problem.jobs.size())
    {
        return "allocation sizes do not match the problem";
    }
    for (size_t k = 0; k < cache.size(); ++k)
    {
        if (cache[k] < 0 || !Within(cache[k], problem.datasetBytes[k]))
        {
            return "cache of dataset " + std::to_string(k) + " outside [0, size]";
        }
    }
    if (!Within(TotalCache(), problem.cacheCapacity))
    {
        return "cache total " + std::to_string(TotalCache()) + " over capacity " +
               std::to_string(problem.cacheCapacity);
    }
    if (!Within(TotalBandwidth(problem), problem.bandwidthCapacity))
    {
        return "bandwidth total " + std::to_string(TotalBandwidth(problem)) + " over capacity " +
               std::to_string(problem.bandwidthCapacity);
    }
    for (size_t j = 0; j < bandwidth.size(); ++j)
    {
        if (bandwidth[j] < 0 ||
            (problem.clientBandwidth > 0 && !Within(bandwidth[j], problem.clientBandwidth)))
        {
            return "bandwidth of job " + std::to_string(j) + " outside [0, client cap]";
        }
    }
    return "";
}

double
LruShuffledHitRatio(double x)
{
    x = std::clamp(x, 0.0, 1.0);
    if (x >= 1)
    {
        return 1;
    }
    return std::max(0.0, x + (1 - x) * std::log1p(-x));
}

double
WaterFill(std::vector<double>& wants, double capacity, const std::vector<StorageDemand>& jobs)
{
    return WeightedWaterFill(wants, capacity, [&jobs](size_t i) { return double(jobs[i].count); });
}

void
CbaSolver::LoadsOf(const StorageProblem& problem, const std::vector<double>* targets, Loads& loads)
{
    loads.demand.assign(problem.datasetBytes.size(), 0.0);
    loads.peak.assign(problem.datasetBytes.size(), 0.0);
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        double target = targets ? (*targets)[j] : problem.jobs[j].demand;
        loads.demand[k] += problem.jobs[j].count * target;
        loads.peak[k] = std::max(loads.peak[k], target);
    }
}

CbaSolver::Scratch&
CbaSolver::ScratchBuffers()
{
    // The policies solve at every job start and finish: the per-dataset buffers are kept
    // between solves instead of allocated each time (per thread, as solves may run in any).
    static thread_local Scratch scratch;
    return scratch;
}

bool
CbaSolver::Denser(const std::vector<double>& rho, size_t a, size_t b)
{
    // Ties by index: a strict total order, so the order is unique and a dataset whose
    // density changes can be moved to its place instead of sorting again.
    return rho[a] > rho[b] || (rho[a] == rho[b] && a < b);
}

void
CbaSolver::DensityOrder(const StorageProblem& problem,
                        const Loads& loads,
                        std::vector<double>& rho,
                        std::vector<size_t>& order)
{
    // Divided once per dataset, not per comparison; sorted as (-density, index) pairs held
    // side by side (Denser's strict order: the same unique order, fewer cache misses).
    static thread_local std::vector<std::pair<double, size_t>> keyed;
    rho.assign(loads.demand.size(), 0.0);
    keyed.clear();
    for (size_t k = 0; k < loads.demand.size(); ++k)
    {
        if (problem.datasetBytes[k] > 0 && loads.demand[k] > 0)
        {
            rho[k] = loads.demand[k] / problem.datasetBytes[k];
            keyed.emplace_back(-rho[k], k);
        }
    }
    std::sort(keyed.begin(), keyed.end());
    order.resize(keyed.size());
    for (size_t i = 0; i < keyed.size(); ++i)
    {
        order[i] = keyed[i].second;
    }
}

void
DatasetOrderHint::Sort(const std::vector<double>& bytes,
                       std::vector<std::pair<double, size_t>>& keyed)
{
    // The same pairs over the same sizes as last time (CbaPolicy sorts the demands' densities
    // twice per pass, for MaxScale and for its density prefix): the kept answer. Compared bit
    // for bit, so an equal input is the very same input.
    if (SameBits(bytes, m_bytes) && SameAsKept(keyed))
    {
        keyed = m_output;
        return;
    }
    // Line the kept datasets up with the new indices: the new sizes are the kept ones with some
    // erased and some appended, so one forward walk matches them (a dataset taken for another
    // of the same size only costs sorting time below). An empty slot has index SIZE_MAX.
    const std::pair<double, size_t> empty(0.0, std::numeric_limits<size_t>::max());
    m_slot.assign(m_kept, empty);
    m_rest.clear();
    size_t kept = 0; // next kept dataset to match
    size_t next = 0; // next new index to match
    for (const auto& pair : keyed)
    {
        int64_t position = -1;
        for (; next <= pair.second; ++next)
        {
            while (kept < m_bytes.size() && m_bytes[kept] != bytes[next])
            {
                ++kept;
            }
            if (kept < m_bytes.size())
            {
                position = next == pair.second ? m_rank[kept] : -1;
                ++kept;
            }
        }
        if (position >= 0 && m_slot[position].second == empty.second)
        {
            m_slot[position] = pair;
        }
        else
        {
            m_rest.push_back(pair);
        }
    }
    // The pairs in the kept order, new datasets last, then an insertion sort: a few moves when
    // the order changed little; a full sort once the moves pass a few per pair.
    keyed.clear();
    for (const auto& slot : m_slot)
    {
        if (slot.second != empty.second)
        {
            keyed.push_back(slot);
        }
    }
    keyed.insert(keyed.end(), m_rest.begin(), m_rest.end());
    size_t moves = 0;
    const size_t budget = 4 * keyed.size() + 64;
    for (size_t i = 1; i < keyed.size(); ++i)
    {
        if (!(keyed[i] < keyed[i - 1]))
        {
            continue;
        }
        auto at = std::upper_bound(keyed.begin(), keyed.begin() + i, keyed[i]);
        moves += size_t(keyed.begin() + i - at);
        if (moves > budget)
        {
            std::sort(keyed.begin(), keyed.end());
            break;
        }
        std::rotate(at, keyed.begin() + i, keyed.begin() + i + 1);
    }
    m_output = keyed;
    m_bytes = bytes;
    m_rank.assign(bytes.size(), -1);
    for (size_t p = 0; p < keyed.size(); ++p)
    {
        m_rank[keyed[p].second] = int64_t(p);
    }
    m_kept = keyed.size();
}

bool
DatasetOrderHint::SameAsKept(const std::vector<std::pair<double, size_t>>& keyed) const
{
    // Each pair where the kept order put it, with the same key bits (so the same sort).
    if (keyed.size() != m_kept)
    {
        return false;
    }
    for (const auto& pair : keyed)
    {
        int64_t position = m_rank[pair.second];
        if (position < 0 || m_output[position].second != pair.second ||
            std::memcmp(&m_output[position].first, &pair.first, sizeof(double)) != 0)
        {
            return false;
        }
    }
    return true;
}

template <class Key>
void
LazyDatasetOrder::Start(const StorageProblem& problem,
                        const std::vector<double>& demand,
                        Key key,
                        DatasetOrderHint* hint)
{
    // ReadDatasetsBy's stable sort by decreasing key is the order of (-key, index): the pairs
    // are distinct, so popping the least first yields exactly that order, and so does any
    // sort of them (a hinted one).
    // Written in place, then cut to what was written; a hinted sort has a buffer of its own,
    // since an empty m_heap is what says the order is complete.
    std::vector<std::pair<double, size_t>>& pairs = hint ? m_keyed : m_heap;
    size_t nd = problem.datasetBytes.size();
    pairs.resize(nd);
    size_t n = 0;
    for (size_t k = 0; k < nd; ++k)
    {
        if (demand[k] > 0 && problem.datasetBytes[k] > 0)
        {
            pairs[n++] = std::make_pair(-key(k), k);
        }
    }
    pairs.resize(n);
    m_sorted.clear();
    if (hint)
    {
        m_heap.clear();
        hint->Sort(problem.datasetBytes, m_keyed);
        m_sorted.resize(n);
        for (size_t i = 0; i < n; ++i)
        {
            m_sorted[i] = m_keyed[i].second;
        }
        return;
    }
    std::make_heap(m_heap.begin(), m_heap.end(), std::greater<>());
}

void
LazyDatasetOrder::Reset(const StorageProblem& problem,
                        const std::vector<double>& demand,
                        const std::vector<double>& key,
                        DatasetOrderHint* hint)
{
    Start(
        problem,
        demand,
        [&key](size_t k) { return key[k]; },
        hint);
}

void
LazyDatasetOrder::ResetByDensity(const StorageProblem& problem,
                                 const std::vector<double>& demand,
                                 DatasetOrderHint* hint)
{
    // Divided once per dataset, not per comparison, as DensityOrder does: the same keys.
    Start(
        problem,
        demand,
        [&](size_t k) { return demand[k] / problem.datasetBytes[k]; },
        hint);
}

bool
LazyDatasetOrder::Extend(size_t i)
{
    while (m_sorted.size() <= i && !m_heap.empty())
    {
        if (m_sorted.size() >= 32 + m_heap.size() / 4)
        {
            // Read far: sort the rest at once.
            std::sort(m_heap.begin(), m_heap.end());
            for (const auto& keyed : m_heap)
            {
                m_sorted.push_back(keyed.second);
            }
            m_heap.clear();
            break;
        }
        std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
        m_sorted.push_back(m_heap.back().second);
        m_heap.pop_back();
    }
    return i < m_sorted.size();
}

namespace
{

/// A fully sorted order read as CacheFractionsIn reads a lazy one.
struct ListedOrder
{
    const std::vector<size_t>& sorted; //!< the order

    bool Has(size_t i) const
    {
        return i < sorted.size();
    }

    size_t At(size_t i) const
    {
        return sorted[i];
    }
};

} // namespace

bool
CbaSolver::CacheFractions(const StorageProblem& problem,
                          const Loads& loads,
                          double alpha,
                          const std::vector<size_t>& sorted,
                          std::vector<double>& x,
                          bool outcomeOnly)
{
    ListedOrder order{sorted};
    return CacheFractionsIn(problem, loads, alpha, order, x, outcomeOnly);
}

template <class Order>
bool
CbaSolver::CacheFractionsIn(const StorageProblem& problem,
                            const Loads& loads,
                            double alpha,
                            Order& sorted,
                            std::vector<double>& x,
                            bool outcomeOnly,
                            const Uncapped* live)
{
    // Per dataset only: the jobs enter through R_k (their summed targets) and the largest
    // target, which sets the fraction the per-job cap u forces, l_k = 1 - u / max_j r_j.
    double cacheLeft = problem.cacheCapacity;
    double excess = -problem.bandwidthCapacity; // E: remote demand beyond B at the lower bounds
    if (live)
    {
        // No cap binds: every l_k is 0, so the cache left stays C (C - 0 d_k is C) and each
        // term alpha R_k (1 - 0) is alpha R_k: the same sum in the same order, without x.
        for (double demand : live->demand)
        {
            excess += alpha * demand;
        }
    }
    else
    {
        size_t nd = problem.datasetBytes.size();
        const double u = problem.clientBandwidth;
        x.assign(nd, 0.0);
        for (size_t k = 0; k < nd; ++k)
        {
            double d = problem.datasetBytes[k];
            if (d <= 0)
            {
                continue;
            }
            double peak = alpha * loads.peak[k];
            x[k] = u > 0 && peak > u ? 1.0 - u / peak : 0.0;
            cacheLeft -= x[k] * d;
            excess += alpha * loads.demand[k] * (1 - x[k]);
        }
    }
    const double excessAllowed = kSolverSlack * problem.bandwidthCapacity;
    if (cacheLeft < -kSolverSlack * problem.cacheCapacity - 1e-9)
    {
        return false;
    }
    cacheLeft = std::max(0.0, cacheLeft);
    for (size_t i = 0; sorted.Has(i); ++i)
    {
        size_t k = sorted.At(i);
        if (cacheLeft == 0)
        {
            // Every later take is min(..., 0) = 0 and leaves x, the cache and the excess as
            // they are (a full cache with a long paying prefix was most of a small-cache solve).
            break;
        }
        if (outcomeOnly && excess <= excessAllowed)
        {
            break; // takes only lower the excess: feasible whatever the rest of the loop does
        }
        double d = problem.datasetBytes[k];
        double rho = alpha * loads.demand[k] / d;
        bool pays = problem.bandwidthPrice * rho > problem.cachePrice;
        double room = (1 - (live ? 0.0 : x[k])) * d; // each dataset comes once: x_k is l_k
        double needed = excess > 0 ? excess / rho : 0.0;
        if (!pays && needed <= 0)
        {
            break; // the rest of the prefix neither pays for itself nor is needed
        }
        double take = std::min({pays ? room : std::min(room, needed), cacheLeft});
        if (!live)
        {
            x[k] += take / d;
        }
        cacheLeft -= take;
        excess -= rho * take;
    }
    return excess <= excessAllowed;
}

double
CbaSolver::CostRate(const StorageProblem& problem,
                    const Loads& loads,
                    double alpha,
                    const std::vector<double>& x)
{
    double bandwidth = 0;
    double cache = 0;
    for (size_t k = 0; k < x.size(); ++k)
    {
        double d = problem.datasetBytes[k];
        if (d > 0)
        {
            double hit = std::min(1.0, x[k]);
            bandwidth += alpha * loads.demand[k] * (1 - hit);
            cache += hit * d;
        }
    }
    return problem.bandwidthPrice * bandwidth + problem.cachePrice * cache;
}

void
CbaSolver::Fill(const StorageProblem& problem,
                const std::vector<double>* targets,
                double alpha,
                const std::vector<double>& x,
                StorageAllocation& out)
{
    size_t nd = problem.datasetBytes.size();
    out.cache.assign(nd, 0.0);
    for (size_t k = 0; k < nd; ++k)
    {
        out.cache[k] = std::min(1.0, x[k]) * problem.datasetBytes[k];
    }
    out.bandwidth.assign(problem.jobs.size(), 0.0);
    out.hit.assign(problem.jobs.size(), 0.0);
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        double target = targets ? (*targets)[j] : problem.jobs[j].demand;
        FilledJob filled = FillJob(problem, j, target, alpha, x);
        out.hit[j] = filled.hit;
        out.bandwidth[j] = filled.bandwidth;
    }
}

void
CbaSolver::LiveLoads(const StorageProblem& problem, const Loads& loads, Uncapped& live)
{
    live.demand.clear();
    live.peak = 0;
    for (size_t k = 0; k < problem.datasetBytes.size(); ++k)
    {
        if (problem.datasetBytes[k] > 0)
        {
            live.demand.push_back(loads.demand[k]);
            live.peak = std::max(live.peak, loads.peak[k]);
        }
    }
}

double
CbaSolver::ScaleOf(const StorageProblem& problem,
                   const Loads& loads,
                   const std::vector<size_t>& sorted,
                   double budget,
                   std::vector<double>& x)
{
    ListedOrder order{sorted};
    return ScaleOfIn(problem, loads, order, budget, x);
}

template <class Order>
double
CbaSolver::ScaleOfIn(const StorageProblem& problem,
                     const Loads& loads,
                     Order& sorted,
                     double budget,
                     std::vector<double>& x)
{
    // Scaling every demand by alpha scales every R_k and density by alpha: one order serves
    // every alpha, so each attempt costs the datasets only.
    const Uncapped* live = nullptr; // set once the bisection starts
    auto attempt = [&](double alpha, bool outcomeOnly) {
        // Without a budget a step needs the feasibility only, not the fractions; while no
        // per-job cap binds (alpha * peak <= u for the largest peak, so for every peak)
        // it needs only the loads of the non-empty datasets.
        bool only = outcomeOnly && budget <= 0;
        bool uncapped =
            only && live &&
            !(problem.clientBandwidth > 0 && alpha * live->peak > problem.clientBandwidth);
        return CacheFractionsIn(problem,
                                loads,
                                alpha,
                                sorted,
                                x,
                                only,
                                uncapped ? live : nullptr) &&
               (budget <= 0 || CostRate(problem, loads, alpha, x) <= budget * (1 + kSolverSlack));
    };
    if (attempt(1.0, false))
    {
        return 1.0;
    }
    static thread_local Uncapped gathered; // kept between solves, as the Scratch buffers
    LiveLoads(problem, loads, gathered);
    live = &gathered;
    // Feasibility and the minimum cost are monotone in alpha (a solution for alpha serves
    // any smaller alpha with the same cache and less bandwidth): bisect. Without a budget,
    // the steps far from the answer are decided by StepBound, the same way.
    StepBound bound;
    if (budget <= 0 && s_useStepBound)
    {
        bound.Reset(problem, loads, sorted);
    }
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 50; ++i)
    {
        double mid = 0.5 * (lo + hi);
        int known = bound.Outcome(mid);
        bool feasible = known >= 0 ? known == 1 : attempt(mid, true);
        (feasible ? lo : hi) = mid;
    }
    attempt(lo, false);
    return lo;
}

bool CbaSolver::s_useStepBound = true;

void
CbaSolver::UseStepBound(bool use)
{
    s_useStepBound = use;
}

template <class Order>
void
CbaSolver::StepBound::Reset(const StorageProblem& problem, const Loads& loads, Order& sorted)
{
    m_valid = false;
    const double capacity = problem.bandwidthCapacity;
    const double cache = problem.cacheCapacity;
    const double u = problem.clientBandwidth;
    if (!(capacity > 0) || !std::isfinite(capacity) || !(cache >= 0) || !std::isfinite(cache))
    {
        return;
    }
    // CacheFractions' first loop: with no cap binding every x_k is 0, the cache left is C and
    // the excess -B + sum_k alpha R_k over the non-empty datasets.
    double sum = 0;
    double alphaCap = std::numeric_limits<double>::infinity();
    size_t datasets = 0;
    for (size_t k = 0; k < problem.datasetBytes.size(); ++k)
    {
        if (problem.datasetBytes[k] <= 0)
        {
            continue;
        }
        ++datasets;
        sum += loads.demand[k];
        if (u > 0 && loads.peak[k] > 0)
        {
            alphaCap = std::min(alphaCap, u / loads.peak[k]);
        }
    }
    // Its second loop in exact arithmetic: the greedy by density takes whole rooms (d_k)
    // until the cache is full, unless the excess reaches 0 first (then alpha is feasible and
    // so is the line's verdict), so what it removes is alpha R, R that of the full cache.
    double left = cache;
    double removed = 0;
    double rhoMax = 0;
    size_t taken = 0;
    for (size_t i = 0; left > 0 && sorted.Has(i); ++i)
    {
        size_t k = sorted.At(i);
        double d = problem.datasetBytes[k];
        double rho = loads.demand[k] / d;
        double take = std::min(d, left);
        rhoMax = std::max(rhoMax, rho);
        removed += rho * take;
        left -= take;
        ++taken;
    }
    if (!std::isfinite(sum) || !std::isfinite(removed) || !std::isfinite(rhoMax * cache))
    {
        return;
    }
    m_valid = true;
    // Margins: the cap's own rounding (alpha * peak against u) and the 1e-9 the bound leaves.
    m_alphaCap = alphaCap * (1 - 1e-9);
    m_sum = sum;
    m_slope = sum - removed;
    m_bandwidth = capacity;
    m_allowed = kSolverSlack * capacity;
    m_rhoCache = rhoMax * cache;
    m_terms = double(datasets + taken + 16);
}

int
CbaSolver::StepBound::Outcome(double alpha) const
{
    if (!m_valid || !(alpha < m_alphaCap))
    {
        return -1;
    }
    double scaled = alpha * m_sum;
    if (scaled > 1e3 * m_bandwidth)
    {
        // A take of just what is needed leaves an excess of the order of the rounding of the
        // loads, which must stay below the slack for the line's verdict to hold.
        return -1;
    }
    // Each of the sums (CacheFractions' excess and cache left, and this line's S and R)
    // rounds at most once per term by at most the unit roundoff times the magnitudes it
    // adds: B, alpha S, alpha R <= alpha S, and the cache's rounding times the densest rate.
    // A factor 8 over that covers both computations and the products within each term.
    constexpr double unit = std::numeric_limits<double>::epsilon() / 2;
    double bound = 8 * m_terms * unit * (m_bandwidth + scaled + 2 * alpha * m_rhoCache);
    double line = alpha * m_slope - m_bandwidth - m_allowed;
    if (line > bound)
    {
        return 0;
    }
    if (line < -bound)
    {
        return 1;
    }
    return -1;
}

bool
CbaSolver::MinCost(const StorageProblem& problem,
                   const std::vector<double>& targets,
                   StorageAllocation& out,
                   DatasetOrderHint* hint)
{
    Scratch& s = ScratchBuffers();
    if (!MinCostFractions(problem, targets, s.x, hint))
    {
        return false;
    }
    FillMinCost(problem, targets, s.x, out);
    return true;
}

bool
CbaSolver::MinCostFractions(const StorageProblem& problem,
                            const std::vector<double>& targets,
                            std::vector<double>& x,
                            DatasetOrderHint* hint)
{
    Scratch& s = ScratchBuffers();
    LoadsOf(problem, &targets, s.loads);
    s.lazy.ResetByDensity(problem, s.loads.demand, hint);
    return CacheFractionsIn(problem, s.loads, 1.0, s.lazy, x, false);
}

void
CbaSolver::FillMinCost(const StorageProblem& problem,
                       const std::vector<double>& targets,
                       const std::vector<double>& x,
                       StorageAllocation& out)
{
    Fill(problem, &targets, 1.0, x, out);
}

CbaSolver::Totals
CbaSolver::MinCostTotals(const StorageProblem& problem,
                         const std::vector<double>& targets,
                         const std::vector<double>& x)
{
    // Fill at alpha = 1 (1.0 * target is target), then TotalRate, the served fractions and
    // CostRate (TotalBandwidth over the jobs, TotalCache over the datasets), term by term.
    Totals totals;
    double bandwidth = 0;
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        const StorageDemand& job = problem.jobs[j];
        FilledJob filled = FillJob(problem, j, targets[j], 1.0, x);
        double rate = ReadRate(job.demand, filled.hit, filled.bandwidth, filled.empty);
        totals.rate += job.count * rate;
        totals.served += job.count * (job.demand > 0 ? rate / job.demand : 1.0);
        bandwidth += job.count * filled.bandwidth;
    }
    double cache = 0;
    for (size_t k = 0; k < problem.datasetBytes.size(); ++k)
    {
        cache += std::min(1.0, x[k]) * problem.datasetBytes[k];
    }
    totals.cost = problem.bandwidthPrice * bandwidth + problem.cachePrice * cache;
    return totals;
}

StorageAllocation
CbaSolver::MaxScale(const StorageProblem& problem, double budget, DatasetOrderHint* hint)
{
    Scratch& s = ScratchBuffers();
    LoadsOf(problem, nullptr, s.loads);
    s.lazy.ResetByDensity(problem, s.loads.demand, hint);
    double alpha = ScaleOfIn(problem, s.loads, s.lazy, budget, s.x);
    StorageAllocation best;
    Fill(problem, nullptr, alpha, s.x, best);
    best.scale = alpha;
    return best;
}

StorageAllocation
CbaSolver::MaxScale(const StorageProblem& problem,
                    const std::vector<double>& targets,
                    double budget,
                    DatasetOrderHint* hint)
{
    Scratch& s = ScratchBuffers();
    LoadsOf(problem, &targets, s.loads);
    s.lazy.ResetByDensity(problem, s.loads.demand, hint);
    double beta = ScaleOfIn(problem, s.loads, s.lazy, budget, s.x);
    StorageAllocation best;
    Fill(problem, &targets, beta, s.x, best);
    best.scale = beta;
    return best;
}

// ---- CbaSolver::Trials --------------------------------------------------------------------

void
CbaSolver::Trials::Reset(const StorageProblem& problem, size_t job, double budget)
{
    m_problem = &problem;
    m_job = job;
    m_budget = budget;
    size_t nd = problem.datasetBytes.size();
    uint32_t mine = problem.jobs[job].dataset;
    m_loads.demand.assign(nd, 0.0);
    m_loads.peak.assign(nd, 0.0);
    m_after.clear();
    // LoadsOf without the varying job; for its dataset, the part summed before it is kept
    // apart and the readers after it are listed, so UpdateLoads() adds in LoadsOf's order.
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        if (j == job || (k == mine && j > job))
        {
            if (j > job)
            {
                m_after.push_back(j);
            }
            continue;
        }
        m_loads.demand[k] += problem.jobs[j].count * problem.jobs[j].demand;
        m_loads.peak[k] = std::max(m_loads.peak[k], problem.jobs[j].demand);
    }
    m_before = m_loads.demand[mine];
    for (size_t j : m_after)
    {
        m_loads.peak[mine] = std::max(m_loads.peak[mine], problem.jobs[j].demand);
    }
    m_peakOthers = m_loads.peak[mine];
    UpdateLoads();
    DensityOrder(problem, m_loads, m_rho, m_order);
}

void
CbaSolver::Trials::UpdateLoads()
{
    const StorageProblem& problem = *m_problem;
    uint32_t mine = problem.jobs[m_job].dataset;
    double demand = problem.jobs[m_job].demand;
    double sum = m_before + problem.jobs[m_job].count * demand;
    for (size_t j : m_after)
    {
        sum += problem.jobs[j].count * problem.jobs[j].demand;
    }
    m_loads.demand[mine] = sum;
    // A maximum does not depend on the order it is taken in.
    m_loads.peak[mine] = std::max(m_peakOthers, demand);
}

void
CbaSolver::Trials::UpdateOrder()
{
    const StorageProblem& problem = *m_problem;
    size_t mine = problem.jobs[m_job].dataset;
    m_order.erase(std::remove(m_order.begin(), m_order.end(), mine), m_order.end());
    m_rho[mine] = 0.0;
    if (problem.datasetBytes[mine] > 0 && m_loads.demand[mine] > 0)
    {
        // As DensityOrder computes it; the rest of the order is unchanged and strict.
        m_rho[mine] = m_loads.demand[mine] / problem.datasetBytes[mine];
        auto place = std::find_if(m_order.begin(), m_order.end(), [&](size_t k) {
            return Denser(m_rho, mine, k);
        });
        m_order.insert(place, mine);
    }
}

void
CbaSolver::Trials::Solve()
{
    UpdateLoads();
    UpdateOrder();
    m_alpha = ScaleOf(*m_problem, m_loads, m_order, m_budget, m_x);
}

void
CbaSolver::Trials::SetBudget(double budget)
{
    m_budget = budget;
}

double
CbaSolver::Trials::Scale() const
{
    return m_alpha;
}

const std::vector<double>&
CbaSolver::Trials::Fractions() const
{
    return m_x;
}

double
CbaSolver::Trials::Rate(size_t j) const
{
    // Fill's hit and bandwidth, then StorageAllocation::Rate: the same operations in the same
    // order, so the same bits, without filling every job.
    const StorageDemand& job = m_problem->jobs[j];
    bool empty = m_problem->datasetBytes[job.dataset] <= 0;
    double hit = empty ? 1.0 : std::min(1.0, m_x[job.dataset]);
    double bandwidth = empty ? 0.0 : m_alpha * job.demand * (1 - hit);
    return ReadRate(job.demand, hit, bandwidth, empty);
}

void
CbaSolver::Trials::Fill(StorageAllocation& out) const
{
    CbaSolver::Fill(*m_problem, nullptr, m_alpha, m_x, out);
    out.scale = m_alpha;
}

} // namespace ns3
