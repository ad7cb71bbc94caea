/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// MaxMinSolver's fill keeps the reference solver's arithmetic in its order: on a wide random
// fabric its rates equal MaxMinReferenceSolver's bit for bit, from scratch and under churn. The
// other solver tests allow 1e-9; this one is what catches a speed-up of the fill (the order
// in which classes freeze, i.e. in which each resource's capacity is drawn down) that moves a
// rate by an ulp, as the rate level's results must stay byte-identical (doc/rdma.md).

#include "max-min-reference-solver.h"

#include "ns3/max-min-solver.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <random>

using namespace ns3;

namespace
{

using Spec = MaxMinFlowSpec;

/**
 * A random flow as the rate fabric makes them: a path of 2 to 8 resources at weight 1 (now and
 * then one resource twice) and priority usages on the paired resources (r ^ 1, its ACKs) at a
 * weight that is a power of two, so that the solvers' weight sums are exact whatever the order
 * they add them in (they differ there: component order and class order) and only the fill's
 * order of freezes decides the bits. One flow in five has a cap within the range of the rates.
 * \param rng generator \param resources how many \return the flow
 */
Spec
RandomSpec(std::mt19937& rng, uint32_t resources)
{
    Spec s;
    uint32_t hops = 2 + rng() % 7;
    for (uint32_t k = 0; k < hops; ++k)
    {
        uint32_t r = rng() % resources;
        s.usage.emplace_back(r, 1.0);
        s.priority.emplace_back(r ^ 1u, 0.0625);
    }
    if (rng() % 16 == 0)
    {
        s.usage.push_back(s.usage.front()); // listed twice: frozen once, charged twice
    }
    s.cap = rng() % 5 == 0 ? 0.05 + (rng() % 1000) * 0.0013 : 1e9;
    return s;
}

/// \param rng generator \param n resources \return capacities from 1 to about 138, uneven
std::vector<double>
RandomCapacities(std::mt19937& rng, std::size_t n)
{
    std::vector<double> caps(n);
    for (auto& c : caps)
    {
        c = 1 + (rng() % 10000) * 0.0137;
    }
    return caps;
}

/// \param x a rate \param y another \return 1 if they differ in any bit, else 0
uint32_t
BitsDiffer(double x, double y)
{
    return std::memcmp(&x, &y, sizeof x) != 0 ? 1 : 0;
}

/// \return how many flows' rates differ in any bit between the two solvers
uint32_t
CountDifferent(const MaxMinSolver& s,
               const MaxMinReferenceSolver& ref,
               const std::vector<std::pair<uint32_t, uint32_t>>& handles)
{
    uint32_t different = 0;
    for (const auto& [a, b] : handles)
    {
        different += BitsDiffer(s.GetRate(a), ref.GetRate(b));
    }
    return different;
}

} // namespace

TEST_CASE("max-min: rates equal the reference solver's bit for bit on a wide random fabric",
          "[rdma]")
{
    for (uint32_t seed = 1; seed <= 3; ++seed)
    {
        std::mt19937 rng(seed);
        // 600 resources and 4,000 flows of ~5 hops: ~35 classes per resource list, so the
        // order in which a saturated resource's classes freeze shows in the low bits.
        std::vector<double> caps = RandomCapacities(rng, 600);
        MaxMinSolver s(caps);
        s.SetMergeIdenticalFlows(false); // one class per flow, as the reference
        MaxMinReferenceSolver ref(caps);
        std::vector<std::pair<uint32_t, uint32_t>> handles; // (solver, reference)
        auto add = [&]() {
            Spec f = RandomSpec(rng, static_cast<uint32_t>(caps.size()));
            handles.emplace_back(s.AddFlow(f.usage, f.cap, f.priority),
                                 ref.AddFlow(f.usage, f.cap, f.priority));
        };
        for (int i = 0; i < 4000; ++i)
        {
            add();
        }
        s.Solve();
        ref.Solve();
        CHECK(CountDifferent(s, ref, handles) == 0);
        // Churn: flows end and start between solves, both solvers refill incrementally.
        for (int step = 0; step < 12; ++step)
        {
            for (int k = 0; k < 40; ++k)
            {
                std::size_t i = rng() % handles.size();
                s.RemoveFlow(handles[i].first);
                ref.RemoveFlow(handles[i].second);
                handles.erase(handles.begin() + static_cast<std::ptrdiff_t>(i));
            }
            for (int k = 0; k < 40; ++k)
            {
                add();
            }
            s.Solve();
            ref.Solve();
            CHECK(CountDifferent(s, ref, handles) == 0);
        }
    }
}

TEST_CASE("max-min: incremental fills equal a from-scratch fill bit for bit, weights not dyadic",
          "[rdma]")
{
    // The fill keeps each resource's weight sums from one fill of every class to the next and
    // re-sums only those a changed class uses, and lays the usage pool out in freeze order:
    // neither may move a bit. The oracle is a new solver given the same history of starts and
    // ends (so the same class ids), solved once. ACK weights as the fabric's (62/4158, whose
    // sums depend on their order), merged identical flows (a class's multiplicity changes),
    // over 4,096 classes (the pool is laid out again).
    for (uint32_t seed = 1; seed <= 2; ++seed)
    {
        std::mt19937 rng(seed);
        std::vector<double> caps = RandomCapacities(rng, 2000);
        const double ack = 62.0 / 4158.0;

        struct Op
        {
            bool add;
            Spec spec;
            std::size_t index; //!< of the flow ended, in the live list
        };

        std::vector<Op> history;
        std::vector<Spec> live;
        MaxMinSolver s(caps);
        std::vector<uint32_t> handles;
        auto add = [&]() {
            Spec f;
            if (!live.empty() && rng() % 8 == 0)
            {
                f = live[rng() % live.size()]; // a flow like another: its class grows
            }
            else
            {
                f = RandomSpec(rng, static_cast<uint32_t>(caps.size()));
                for (auto& [r, w] : f.priority)
                {
                    w = ack * (1 + rng() % 3);
                }
            }
            history.push_back({true, f, 0});
            live.push_back(f);
            handles.push_back(s.AddFlow(f.usage, f.cap, f.priority));
        };
        auto remove = [&]() {
            std::size_t i = rng() % live.size();
            history.push_back({false, {}, i});
            s.RemoveFlow(handles[i]);
            handles.erase(handles.begin() + static_cast<std::ptrdiff_t>(i));
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
        };
        auto compare = [&]() {
            MaxMinSolver fresh(caps);
            std::vector<uint32_t> freshHandles;
            for (const Op& op : history)
            {
                if (op.add)
                {
                    freshHandles.push_back(
                        fresh.AddFlow(op.spec.usage, op.spec.cap, op.spec.priority));
                }
                else
                {
                    fresh.RemoveFlow(freshHandles[op.index]);
                    freshHandles.erase(freshHandles.begin() +
                                       static_cast<std::ptrdiff_t>(op.index));
                }
            }
            fresh.Solve();
            uint32_t different = 0;
            for (std::size_t i = 0; i < handles.size(); ++i)
            {
                different += BitsDiffer(s.GetRate(handles[i]), fresh.GetRate(freshHandles[i]));
            }
            return different;
        };
        for (int i = 0; i < 6000; ++i)
        {
            add();
        }
        s.Solve();
        CHECK(compare() == 0);
        for (int step = 0; step < 10; ++step)
        {
            // starts only (the components are tracked), then ends and starts; a few (the
            // changed resources' sums are redone alone), then many (all are)
            for (int k = 0; k < (step < 3 ? 0 : step < 7 ? 3 : 40); ++k)
            {
                remove();
            }
            for (int k = 0; k < (step < 7 ? 2 : 40); ++k)
            {
                add();
            }
            s.Solve();
            CHECK(compare() == 0);
        }
        CHECK(s.GetNClasses() > 4096);
    }
}
