/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// LazyDatasetOrder, the order SiloD-like's and CBA's greedy prefixes read only as far as the
// cache lasts, against StorageAllocationPolicy::ReadDatasetsBy's full stable sort: the same
// datasets in the same positions, with many equal keys, datasets nobody reads and empty ones.

#include "uniform-random.h"

#include "ns3/storage-policy.h"

#include <catch2/catch.hpp>
#include <random>

using namespace ns3;

namespace
{

/** Reaches the protected ReadDatasetsBy. */
class OrderProbe : public StorageAllocationPolicy
{
  public:
    StorageAllocation Allocate(const StorageProblem& /* problem */) override
    {
        return StorageAllocation();
    }

    std::string Name() const override
    {
        return "probe";
    }

    /** \return ReadDatasetsBy's order */
    static std::vector<size_t> Full(const StorageProblem& problem,
                                    const std::vector<double>& demand,
                                    const std::vector<double>& key)
    {
        return ReadDatasetsBy(problem, demand, key);
    }
};

} // namespace

TEST_CASE("LazyDatasetOrder reads ReadDatasetsBy's order position by position", "[storage][cba]")
{
    std::mt19937_64 rng(42);
    LazyDatasetOrder lazy; // reused, as the policies keep theirs
    size_t deep = 0;
    for (int trial = 0; trial < 2000; ++trial)
    {
        StorageProblem p;
        size_t nd = 1 + rng() % 600;
        std::vector<double> demand(nd);
        std::vector<double> key(nd);
        size_t distinct = 1 + rng() % 8; // few distinct keys: ties everywhere
        for (size_t k = 0; k < nd; ++k)
        {
            p.datasetBytes.push_back(rng() % 10 == 0 ? 0.0 : 1e9 * (1 + U01(rng)));
            demand[k] = rng() % 10 == 0 ? 0.0 : 1e8 * U01(rng);
            key[k] = (rng() % 3 == 0) ? double(rng() % distinct) : U01(rng);
        }
        std::vector<size_t> full = OrderProbe::Full(p, demand, key);
        lazy.Reset(p, demand, key);
        // Read as a greedy prefix does: to a random depth, sometimes past the end.
        size_t depth = rng() % 4 == 0 ? nd + 1 : rng() % (1 + nd / 8);
        INFO("instance " << trial << ", depth " << depth);
        for (size_t i = 0; i < depth; ++i)
        {
            REQUIRE(lazy.Has(i) == (i < full.size()));
            if (i >= full.size())
            {
                break;
            }
            REQUIRE(lazy.At(i) == full[i]);
        }
        deep += depth > full.size();
    }
    CHECK(deep > 300); // whole orders are read too, not only prefixes
}
