/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// GpuIndexAllocator: a running job keeps its GPUs; a newcomer takes the lowest free run; a
// node whose free GPUs are split is numbered again in id order (the old numbering).

#include "ns3/gpu-index-allocator.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

using Placement = GpuIndexAllocator::Placement;

/** \return the first GPUs of a job taken alone on an allocator's state, moved jobs cleared */
std::vector<uint32_t>
Take(GpuIndexAllocator& gpus,
     uint64_t id,
     const Placement& p,
     std::vector<uint64_t>* moved = nullptr)
{
    std::vector<uint64_t> m;
    gpus.Take(id, p, m);
    if (moved)
    {
        *moved = m;
    }
    return gpus.FirstGpus(id);
}

} // namespace

TEST_CASE("gpu indices: a departure moves no one, a newcomer takes the lowest free run",
          "[provisioning]")
{
    GpuIndexAllocator gpus;
    gpus.Reset(2, 8);
    std::vector<uint64_t> moved;
    CHECK(Take(gpus, 5, {{0, 2}}, &moved) == std::vector<uint32_t>{0});
    CHECK(Take(gpus, 3, {{0, 4}}, &moved) == std::vector<uint32_t>{2}); // a lower id: no repack
    CHECK(moved.empty());
    CHECK(Take(gpus, 9, {{0, 2}, {1, 8}}, &moved) == std::vector<uint32_t>{6, 0});
    gpus.Release(5); // GPUs 0-1 free; job 3 keeps 2-5, job 9 keeps 6-7
    CHECK(gpus.FirstGpus(3) == std::vector<uint32_t>{2});
    CHECK(gpus.FirstGpus(9) == std::vector<uint32_t>{6, 0});
    CHECK(!gpus.Holds(5));
    CHECK(Take(gpus, 7, {{0, 1}}, &moved) == std::vector<uint32_t>{0});
    CHECK(moved.empty());
    CHECK(gpus.HeldPlacement(5) == nullptr);
    REQUIRE(gpus.HeldPlacement(9) != nullptr);
    CHECK(*gpus.HeldPlacement(9) == Placement{{0, 2}, {1, 8}});
    std::vector<uint64_t> jobs = gpus.Jobs();
    std::sort(jobs.begin(), jobs.end());
    CHECK(jobs == std::vector<uint64_t>{3, 7, 9});
}

TEST_CASE("gpu indices: split free GPUs renumber the node in id order", "[provisioning]")
{
    GpuIndexAllocator gpus;
    gpus.Reset(1, 8);
    Take(gpus, 1, {{0, 2}}); // 0-1
    Take(gpus, 2, {{0, 2}}); // 2-3
    Take(gpus, 3, {{0, 2}}); // 4-5
    Take(gpus, 4, {{0, 2}}); // 6-7
    gpus.Release(1);
    gpus.Release(3); // free: 0-1 and 4-5, no run of 4
    std::vector<uint64_t> moved;
    CHECK(Take(gpus, 0, {{0, 4}}, &moved) == std::vector<uint32_t>{0}); // id 0 first
    CHECK(gpus.FirstGpus(2) == std::vector<uint32_t>{4});
    CHECK(gpus.FirstGpus(4) == std::vector<uint32_t>{6});
    CHECK(moved == std::vector<uint64_t>{2}); // job 4 stayed at 6
}

TEST_CASE("gpu indices: a node twice in one placement, and errors", "[provisioning]")
{
    GpuIndexAllocator gpus;
    gpus.Reset(2, 8);
    CHECK(Take(gpus, 1, {{0, 3}, {0, 2}}) == std::vector<uint32_t>{0, 3});
    CHECK_THROWS_AS(Take(gpus, 2, {{0, 4}}), std::invalid_argument); // 3 free
    CHECK(!gpus.Holds(2));
    CHECK_THROWS_AS(Take(gpus, 2, {{2, 1}}), std::invalid_argument); // no node 2
    CHECK(!gpus.Holds(2));
    gpus.Release(1);
    CHECK(Take(gpus, 2, {{0, 8}}) == std::vector<uint32_t>{0});
}

TEST_CASE("gpu indices: random starts and stops never overlap, and keep a job's GPUs",
          "[provisioning]")
{
    const uint32_t nodes = 4;
    const uint32_t perNode = 8;
    for (uint32_t seed = 1; seed <= 20; ++seed)
    {
        std::mt19937 rng(seed);
        GpuIndexAllocator gpus;
        gpus.Reset(nodes, perNode);
        std::map<uint64_t, Placement> running;
        std::map<uint64_t, std::vector<uint32_t>> firsts;
        std::vector<uint32_t> free(nodes, perNode);
        for (uint64_t id = 0; id < 400; ++id)
        {
            INFO("seed " << seed << ", job " << id);
            if (!running.empty() && rng() % 2)
            {
                auto it = std::next(running.begin(), rng() % running.size());
                for (const auto& [node, count] : it->second)
                {
                    free[node] += count;
                }
                gpus.Release(it->first);
                firsts.erase(it->first);
                running.erase(it);
            }
            uint32_t node = rng() % nodes;
            uint32_t count = 1 + rng() % 4;
            if (count > free[node])
            {
                continue;
            }
            std::vector<uint64_t> moved;
            firsts[id] = Take(gpus, id, {{node, count}}, &moved);
            running[id] = {{node, count}};
            free[node] -= count;
            std::set<uint64_t> movedSet(moved.begin(), moved.end());
            // every other job keeps its GPUs unless reported moved; none overlap
            std::vector<std::vector<int>> owner(nodes, std::vector<int>(perNode, -1));
            for (const auto& [other, placement] : running)
            {
                const auto& now = gpus.FirstGpus(other);
                if (other != id && !movedSet.count(other))
                {
                    CHECK(now == firsts[other]);
                }
                firsts[other] = now;
                for (size_t e = 0; e < placement.size(); ++e)
                {
                    for (uint32_t g = now[e]; g < now[e] + placement[e].second; ++g)
                    {
                        REQUIRE(g < perNode);
                        REQUIRE(owner[placement[e].first][g] == -1);
                        owner[placement[e].first][g] = int(other);
                    }
                }
            }
        }
    }
}

TEST_CASE("gpu indices: a released job's entry serves the next job whole", "[provisioning]")
{
    // Release keeps the freed entry (its vectors' storage) for the next Take: the next job
    // must get its own id, placement and first GPUs, of whatever length, and the released
    // job none of them.
    GpuIndexAllocator gpus;
    gpus.Reset(3, 8);
    CHECK(Take(gpus, 1, {{0, 2}, {1, 8}, {2, 4}}) == std::vector<uint32_t>{0, 0, 0});
    gpus.Release(1);
    CHECK(!gpus.Holds(1));
    CHECK(Take(gpus, 2, {{2, 3}}) == std::vector<uint32_t>{0});
    CHECK(!gpus.Holds(1));
    REQUIRE(gpus.HeldPlacement(2) != nullptr);
    CHECK(*gpus.HeldPlacement(2) == Placement{{2, 3}});
    CHECK(gpus.Jobs() == std::vector<uint64_t>{2});
    CHECK(Take(gpus, 1, {{1, 4}, {2, 2}}) == std::vector<uint32_t>{0, 3});
    gpus.Release(2);
    gpus.Release(1);
    CHECK(gpus.Jobs().empty());
    CHECK(Take(gpus, 3, {{0, 8}, {1, 8}, {2, 8}}) == std::vector<uint32_t>{0, 0, 0});
    CHECK(*gpus.HeldPlacement(3) == Placement{{0, 8}, {1, 8}, {2, 8}});
}
