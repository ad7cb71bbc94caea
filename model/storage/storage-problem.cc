/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "storage-problem.h"

#include <algorithm>
#include <cmath>
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
    std::vector<double> total(datasetBytes.size(), 0.0);
    for (const StorageDemand& job : jobs)
    {
        total[job.dataset] += job.demand;
    }
    return total;
}

double
StorageAllocation::Rate(const StorageProblem& problem, size_t j) const
{
    double demand = problem.jobs[j].demand;
    double miss = 1.0 - hit[j];
    if (miss <= 0 || problem.datasetBytes[problem.jobs[j].dataset] <= 0)
    {
        return demand;
    }
    return std::min(demand, bandwidth[j] / miss);
}

double
StorageAllocation::TotalRate(const StorageProblem& problem) const
{
    double total = 0;
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        total += Rate(problem, j);
    }
    return total;
}

double
StorageAllocation::CostRate(const StorageProblem& problem) const
{
    return problem.bandwidthPrice * TotalBandwidth() + problem.cachePrice * TotalCache();
}

double
StorageAllocation::TotalBandwidth() const
{
    return std::accumulate(bandwidth.begin(), bandwidth.end(), 0.0);
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
    if (!Within(TotalBandwidth(), problem.bandwidthCapacity))
    {
        return "bandwidth total " + std::to_string(TotalBandwidth()) + " over capacity " +
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

std::vector<double>
MaxMinFair(const std::vector<double>& needs, double capacity, double cap)
{
    std::vector<double> share(needs.size());
    for (size_t i = 0; i < needs.size(); ++i)
    {
        share[i] = cap > 0 ? std::min(needs[i], cap) : needs[i];
    }
    WaterFill(share, capacity);
    return share;
}

double
WaterFill(std::vector<double>& wants, double capacity)
{
    double total = 0;
    for (double w : wants)
    {
        total += w;
    }
    if (total <= capacity)
    {
        return std::numeric_limits<double>::infinity(); // everyone fits: no level binds
    }
    // Newton on f(L) = sum min(w, L) - capacity from the left: L' = (capacity - sum of the
    // wants at or below L) / (number above L). Stops when a step no longer moves L.
    double level = capacity / double(wants.size());
    while (true)
    {
        double below = 0;
        size_t above = 0;
        for (double w : wants)
        {
            if (w <= level)
            {
                below += w;
            }
            else
            {
                ++above;
            }
        }
        double next = above > 0 ? (capacity - below) / double(above) : level;
        if (!(next > level))
        {
            break;
        }
        level = next;
    }
    for (double& w : wants)
    {
        w = std::min(w, level);
    }
    return level;
}

CbaSolver::Loads
CbaSolver::LoadsOf(const StorageProblem& problem, const std::vector<double>* targets)
{
    Loads loads;
    loads.demand.assign(problem.datasetBytes.size(), 0.0);
    loads.peak.assign(problem.datasetBytes.size(), 0.0);
    for (size_t j = 0; j < problem.jobs.size(); ++j)
    {
        uint32_t k = problem.jobs[j].dataset;
        double target = targets ? (*targets)[j] : problem.jobs[j].demand;
        loads.demand[k] += target;
        loads.peak[k] = std::max(loads.peak[k], target);
    }
    return loads;
}

std::vector<size_t>
CbaSolver::DensityOrder(const StorageProblem& problem, const Loads& loads)
{
    std::vector<size_t> order;
    for (size_t k = 0; k < loads.demand.size(); ++k)
    {
        if (problem.datasetBytes[k] > 0 && loads.demand[k] > 0)
        {
            order.push_back(k);
        }
    }
    // Decreasing read density rho_k = R_k / d_k (divided once, not per comparison); ties by
    // index for determinism.
    std::vector<double> rho(loads.demand.size(), 0.0);
    for (size_t k : order)
    {
        rho[k] = loads.demand[k] / problem.datasetBytes[k];
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return rho[a] > rho[b];
    });
    return order;
}

bool
CbaSolver::CacheFractions(const StorageProblem& problem,
                          const Loads& loads,
                          double alpha,
                          const std::vector<size_t>& sorted,
                          std::vector<double>& x)
{
    // Per dataset only: the jobs enter through R_k (their summed targets) and the largest
    // target, which sets the fraction the per-job cap u forces, l_k = 1 - u / max_j r_j.
    size_t nd = problem.datasetBytes.size();
    const double u = problem.clientBandwidth;
    x.assign(nd, 0.0);
    double cacheLeft = problem.cacheCapacity;
    double excess = -problem.bandwidthCapacity; // E: remote demand beyond B at the lower bounds
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
    if (cacheLeft < -kSolverSlack * problem.cacheCapacity - 1e-9)
    {
        return false;
    }
    cacheLeft = std::max(0.0, cacheLeft);
    for (size_t k : sorted)
    {
        double d = problem.datasetBytes[k];
        double rho = alpha * loads.demand[k] / d;
        bool pays = problem.bandwidthPrice * rho > problem.cachePrice;
        double room = (1 - x[k]) * d;
        double needed = excess > 0 ? excess / rho : 0.0;
        if (!pays && needed <= 0)
        {
            break; // the rest of the prefix neither pays for itself nor is needed
        }
        double take = std::min({pays ? room : std::min(room, needed), cacheLeft});
        x[k] += take / d;
        cacheLeft -= take;
        excess -= rho * take;
    }
    return excess <= kSolverSlack * problem.bandwidthCapacity;
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
        uint32_t k = problem.jobs[j].dataset;
        bool empty = problem.datasetBytes[k] <= 0;
        out.hit[j] = empty ? 1.0 : std::min(1.0, x[k]);
        double target = targets ? (*targets)[j] : problem.jobs[j].demand;
        out.bandwidth[j] = empty ? 0.0 : alpha * target * (1 - out.hit[j]);
    }
}

bool
CbaSolver::MinCost(const StorageProblem& problem,
                   const std::vector<double>& targets,
                   StorageAllocation& out)
{
    Loads loads = LoadsOf(problem, &targets);
    std::vector<double> x;
    if (!CacheFractions(problem, loads, 1.0, DensityOrder(problem, loads), x))
    {
        return false;
    }
    Fill(problem, &targets, 1.0, x, out);
    return true;
}

StorageAllocation
CbaSolver::MaxScale(const StorageProblem& problem, double budget)
{
    // Scaling every demand by alpha scales every R_k and density by alpha: one pass over the
    // jobs and one order serve every alpha, so each trial costs the datasets only.
    Loads loads = LoadsOf(problem, nullptr);
    std::vector<size_t> order = DensityOrder(problem, loads);
    std::vector<double> x;
    auto attempt = [&](double alpha) {
        return CacheFractions(problem, loads, alpha, order, x) &&
               (budget <= 0 || CostRate(problem, loads, alpha, x) <= budget * (1 + kSolverSlack));
    };
    StorageAllocation best;
    double alpha = 1;
    if (!attempt(1.0))
    {
        // Feasibility and the minimum cost are monotone in alpha (a solution for alpha serves
        // any smaller alpha with the same cache and less bandwidth): bisect.
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 50; ++i)
        {
            double mid = 0.5 * (lo + hi);
            (attempt(mid) ? lo : hi) = mid;
        }
        alpha = lo;
        attempt(alpha);
    }
    Fill(problem, nullptr, alpha, x, best);
    best.scale = alpha;
    return best;
}

} // namespace ns3
