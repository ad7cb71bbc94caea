/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "provisioning-loader.h"

#include "ns3/component-registry.h"
#include "ns3/split-mix.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

namespace
{
/**
 * \param sum a running sum \param weight a weight \param times additions
 * \return sum + weight + weight + ... (times additions, one after the other, rounded each
 * time: the bits a loop gives). KSpeed repeats each weight once per pool node (880 on the
 * tenfold trace), with few distinct (sum, weight, times): their results are kept.
 */
double
AddedOver(double sum, double weight, uint32_t times)
{
    struct Key
    {
        uint64_t sum;    //!< bits of the running sum
        uint64_t weight; //!< bits of the weight
        uint32_t times;  //!< additions

        bool operator==(const Key& o) const
        {
            return sum == o.sum && weight == o.weight && times == o.times;
        }
    };

    struct KeyHash
    {
        std::size_t operator()(const Key& k) const
        {
            return SplitMixFinal(k.sum ^ SplitMixFinal(k.weight ^ (uint64_t{k.times} << 40)));
        }
    };

    thread_local std::unordered_map<Key, double, KeyHash> known;
    Key key{0, 0, times};
    std::memcpy(&key.sum, &sum, sizeof sum);
    std::memcpy(&key.weight, &weight, sizeof weight);
    auto it = known.find(key);
    if (it != known.end())
    {
        return it->second;
    }
    for (uint32_t i = 0; i < times; ++i)
    {
        sum += weight;
    }
    if (known.size() >= (1u << 16))
    {
        known.clear(); // bounded: a long replay's plans move
    }
    known.emplace(key, sum);
    return sum;
}

/**
 * Sorts distinct ids below `bound` ascending. An Alluxio usage lists thousands of them (every
 * peer node's resources): there one pass over a bitmap of the ids costs less than a
 * comparison sort (which took 6% of an Alluxio replay of Philly). The same order either way;
 * few ids are sorted.
 * \param ids distinct ids, each below bound \param bound above every id
 * \param bits scratch: all 0, and left so
 */
void
SortIds(std::vector<uint32_t>& ids, size_t bound, std::vector<uint64_t>& bits)
{
    const size_t words = (bound + 63) / 64;
    if (ids.size() * 8 < words)
    {
        std::sort(ids.begin(), ids.end());
        return;
    }
    bits.resize(std::max(bits.size(), words), 0);
    for (uint32_t id : ids)
    {
        bits[id / 64] |= uint64_t{1} << (id % 64);
    }
    ids.clear();
    for (size_t w = 0; w < words; ++w)
    {
        for (uint64_t word = bits[w]; word != 0; word &= word - 1)
        {
            ids.push_back(static_cast<uint32_t>(w * 64 + __builtin_ctzll(word)));
        }
        bits[w] = 0;
    }
}

/**
 * UsageBuilder::Take's scratch. One per process, as ns-3's simulator is (the same reasoning as
 * finish-queue.cc's clock): a thread_local of this shared library is a __tls_get_addr call per
 * use, which GCC repeats in Take's loop rather than keep the address (3.8% of an Alluxio
 * replay of Philly).
 */
struct TakeScratch
{
    std::vector<double> sums;   //!< per resource id: its sum so far (0: not seen)
    std::vector<uint32_t> seen; //!< the ids seen, in the order first seen
    std::vector<uint64_t> bits; //!< SortIds' bitmap, all 0 between calls
};

TakeScratch g_takeScratch; //!< see TakeScratch

/**
 * Take's work.
 * \param usage the entries, in the order added \param repeats AddAgain's entries added
 * more than once (entry, times), by entry \param s the scratch
 * \return ascending resource ids with their summed weights
 */
std::vector<MaxMinSolver::Usage>
SumByResource(const std::vector<MaxMinSolver::Usage>& usage,
              const std::vector<std::pair<size_t, uint32_t>>& repeats,
              TakeScratch& s)
{
    std::vector<double>& sums = s.sums;
    std::vector<uint32_t>& seen = s.seen;
    seen.clear();
    size_t repeat = 0; // next entry of repeats
    for (size_t i = 0; i < usage.size(); ++i)
    {
        const auto& [r, w] = usage[i];
        if (r >= sums.size())
        {
            sums.resize(std::max<size_t>(r + 1, 2 * sums.size()), 0.0);
        }
        if (sums[r] == 0)
        {
            seen.push_back(r);
        }
        if (repeat < repeats.size() && repeats[repeat].first == i)
        {
            sums[r] = AddedOver(sums[r], w, repeats[repeat++].second);
        }
        else
        {
            sums[r] += w;
        }
    }
    SortIds(seen, sums.size(), s.bits);
    std::vector<MaxMinSolver::Usage> out;
    out.reserve(seen.size());
    for (uint32_t r : seen)
    {
        out.emplace_back(r, sums[r]);
        sums[r] = 0;
    }
    return out;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(ProvisioningLoader);

uint32_t
ProvisioningJob::TotalGpus() const
{
    uint32_t n = 0;
    for (const auto& [node, g] : gpusOnNode)
    {
        n += g;
    }
    return n;
}

double
ProvisioningJob::GpuDemand() const
{
    uint32_t g = std::max(1u, TotalGpus());
    return gpuRate >= 0 ? gpuRate : profile->SamplesPerSecond(g) / g;
}

std::string
ProvisioningJob::Dataset() const
{
    return profile && !profile->dataset.empty() ? profile->dataset
                                                : (profile ? profile->name : name);
}

void
UsageBuilder::Add(uint32_t resource, double weight)
{
    if (weight > 0)
    {
        m_usage.emplace_back(resource, weight);
    }
}

void
UsageBuilder::AddTransfer(const Transfer& t)
{
    if (t.bytes > 0)
    {
        m_transfers.push_back(t);
    }
}

void
UsageBuilder::AddAgain(size_t from, uint32_t times, const std::function<bool(uint32_t)>& keep)
{
    size_t end = m_usage.size();
    if (times == 0 || from >= end)
    {
        return;
    }
    // how many times entry e is added (1 unless an earlier AddAgain repeated it)
    auto timesOf = [&](size_t e) -> uint32_t {
        auto at =
            std::lower_bound(m_repeats.begin(), m_repeats.end(), std::make_pair(e, uint32_t{0}));
        return at != m_repeats.end() && at->first == e ? at->second : 1;
    };
    thread_local std::vector<uint32_t> kept;
    kept.clear();
    for (size_t e = from; e < end; ++e)
    {
        if (keep(m_usage[e].first))
        {
            kept.push_back(m_usage[e].first);
        }
    }
    std::sort(kept.begin(), kept.end());
    bool once = std::adjacent_find(kept.begin(), kept.end()) == kept.end();
    for (uint32_t k = 0; k < (once ? 1 : times); ++k)
    {
        for (size_t e = from; e < end; ++e)
        {
            MaxMinSolver::Usage entry = m_usage[e];
            if (keep(entry.first))
            {
                uint32_t n = timesOf(e) * (once ? times : 1);
                m_usage.push_back(entry);
                if (n > 1)
                {
                    m_repeats.emplace_back(m_usage.size() - 1, n);
                }
            }
        }
    }
}

std::vector<MaxMinSolver::Usage>
UsageBuilder::Take()
{
    // Ascending resource ids, a resource's weights summed from 0 in the order they were added:
    // the same list, to the bit, as a std::map<resource, weight> with += would give. Summed
    // in a dense array by resource id and only the distinct ids sorted (a KSpeed flow over 88
    // pool nodes adds thousands of weights on a few hundred resources; a stable sort of all
    // of them was most of the cost). Add keeps only weights > 0, so a sum of 0 marks a
    // resource not seen yet.
    std::vector<MaxMinSolver::Usage> out = SumByResource(m_usage, m_repeats, g_takeScratch);
    m_repeats.clear();
    m_usage.clear();
    return out;
}

// ---- ProvisioningLoader -------------------------------------------------------------------

TypeId
ProvisioningLoader::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProvisioningLoader").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

std::vector<CachePlan>
ProvisioningLoader::PlanCaches(const ProvisioningModel&,
                               const std::vector<ProvisioningJob>& jobs) const
{
    return std::vector<CachePlan>(jobs.size());
}

bool
ProvisioningLoader::ReadsThroughPool(const ProvisioningModel&) const
{
    return false;
}

Ptr<ProvisioningLoader>
ProvisioningLoader::Create(const std::string& name)
{
    if (const ComponentAlias* a = ComponentRegistry::Lookup("provisioning", name, GetTypeId()))
    {
        return ComponentRegistry::Factory(*a).Create<ProvisioningLoader>();
    }
    throw std::invalid_argument(
        "provisioning loader: unknown name '" + name + "', expected " +
        ComponentRegistry::Join(ComponentRegistry::Names("provisioning", GetTypeId()), " or "));
}

} // namespace ns3
