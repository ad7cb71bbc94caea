/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// MaxMinSolver's shortcuts: the solve skipped when every demand fits equals the full fill
// bit for bit; demands and the overloaded count follow flows as they come and go; the loads
// computed in one pass equal weight x rate summed flow by flow; IsFull, read from the fill's
// leftovers, answers as the loads do; a solve refills the components its changes touch, or
// everything once they hold a quarter of the classes, whether it walks or counts them.

#include "max-min-reference-solver.h"

#include "ns3/max-min-solver.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

using namespace ns3;

namespace
{

using Spec = MaxMinFlowSpec;

/// A random flow over caps.size() resources; caps are low enough that some instances fit.
Spec
RandomSpec(std::mt19937& rng, std::size_t resources)
{
    Spec s;
    for (uint32_t k = 0; k < 1 + rng() % 4; ++k)
    {
        s.usage.emplace_back(static_cast<uint32_t>(rng() % resources), 0.5 + (rng() % 3) * 0.25);
    }
    for (uint32_t k = 0; k < rng() % 3; ++k)
    {
        s.priority.emplace_back(static_cast<uint32_t>(rng() % resources), 0.01 * (1 + rng() % 5));
    }
    s.cap = 0.5 + (rng() % 40) * 0.25;
    return s;
}

/// 5 to 19 resources of capacities 10 to 99, in whole units
std::vector<double>
RandomCaps(std::mt19937& rng)
{
    std::vector<double> caps(5 + rng() % 15);
    for (auto& c : caps)
    {
        c = 10 + rng() % 90;
    }
    return caps;
}

} // namespace

TEST_CASE("max-min: a solve skipped when every demand fits equals the full fill", "[rdma]")
{
    // Two solvers fed the same flows, one allowed to skip the fill: every rate equal bit for
    // bit and the same flows refilled, through phases where everything fits and phases where
    // some resource is overloaded. Merged and unmerged classes both.
    for (bool merge : {true, false})
    {
        uint32_t skippedSteps = 0;
        uint32_t overloadedSteps = 0;
        for (uint32_t seed = 1; seed <= 8; ++seed)
        {
            std::mt19937 rng(seed);
            std::vector<double> caps(6 + rng() % 20);
            for (auto& c : caps)
            {
                c = 10 + rng() % 90;
            }
            MaxMinSolver skip(caps);
            MaxMinSolver full(caps);
            skip.SetMergeIdenticalFlows(merge);
            full.SetMergeIdenticalFlows(merge);
            full.SetSkipFillWhenFeasible(false);
            std::vector<std::pair<uint32_t, uint32_t>> handles;
            std::vector<Spec> pool;
            for (int i = 0; i < 12; ++i)
            {
                pool.push_back(RandomSpec(rng, caps.size()));
            }
            for (int step = 0; step < 200; ++step)
            {
                // Grow towards overload, then drain, then grow again.
                bool grow = (step / 50) % 2 == 0;
                for (uint32_t b = 0; b < 1 + rng() % 3; ++b)
                {
                    if (handles.empty() || (grow ? rng() % 4 != 0 : rng() % 4 == 0))
                    {
                        const Spec& s = pool[rng() % pool.size()];
                        handles.emplace_back(skip.AddFlow(s.usage, s.cap, s.priority),
                                             full.AddFlow(s.usage, s.cap, s.priority));
                    }
                    else
                    {
                        std::size_t i = rng() % handles.size();
                        skip.RemoveFlow(handles[i].first);
                        full.RemoveFlow(handles[i].second);
                        handles.erase(handles.begin() + i);
                    }
                }
                uint64_t before = skip.GetNSkippedFills();
                skip.Solve();
                full.Solve();
                skippedSteps += skip.GetNSkippedFills() > before ? 1 : 0;
                overloadedSteps += skip.GetNOverloaded() > 0 ? 1 : 0;
                REQUIRE(skip.GetNOverloaded() == full.GetNOverloaded());
                CHECK(skip.GetLastComponent() == full.GetLastComponent());
                for (const auto& [a, b] : handles)
                {
                    REQUIRE(skip.GetRate(a) == full.GetRate(b)); // bit for bit
                }
                for (uint32_t r = 0; r < caps.size(); ++r)
                {
                    REQUIRE(skip.GetLoad(r) == full.GetLoad(r));
                }
            }
        }
        INFO("merge " << merge);
        CHECK(skippedSteps > 100);    // the shortcut was taken
        CHECK(overloadedSteps > 100); // and the full fill was needed too
    }
}

TEST_CASE("max-min: demands, overloaded resources and one-pass loads follow the flows", "[rdma]")
{
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        std::mt19937 rng(100 + seed);
        std::vector<double> caps = RandomCaps(rng);
        MaxMinSolver s(caps);
        std::vector<std::pair<uint32_t, Spec>> live;
        for (int step = 0; step < 300; ++step)
        {
            if (live.empty() || rng() % 5 < 3)
            {
                Spec spec = RandomSpec(rng, caps.size());
                live.emplace_back(s.AddFlow(spec.usage, spec.cap, spec.priority), spec);
            }
            else
            {
                std::size_t i = rng() % live.size();
                s.RemoveFlow(live[i].first);
                live.erase(live.begin() + i);
            }
            if (rng() % 2 == 0)
            {
                s.Solve();
            }
            std::vector<double> demand(caps.size(), 0.0);
            std::vector<double> load(caps.size(), 0.0);
            for (const auto& [h, spec] : live)
            {
                for (const auto* list : {&spec.usage, &spec.priority})
                {
                    for (const auto& [r, w] : *list)
                    {
                        demand[r] += w * spec.cap;
                        load[r] += w * s.GetRate(h); // 0 for flows added since the last solve
                    }
                }
            }
            uint32_t overloaded = 0;
            for (uint32_t r = 0; r < caps.size(); ++r)
            {
                INFO("seed " << seed << " step " << step << " resource " << r);
                REQUIRE(s.GetDemand(r) == Approx(demand[r]).epsilon(1e-12).margin(1e-9));
                REQUIRE(s.GetLoad(r) == Approx(load[r]).epsilon(1e-12).margin(1e-9));
                overloaded += demand[r] > caps[r] * (1 - 1e-9) ? 1 : 0;
            }
            REQUIRE(s.GetNOverloaded() == overloaded);
        }
    }
}

TEST_CASE("max-min: IsFull answers as the loads do after fills, skipped fills and changes",
          "[rdma]")
{
    // IsFull reads the leftover of the last fill where it is current: the answers must equal
    // GetLoad's comparison through fills, skipped fills (growth, then a drain until every
    // demand fits) and flows added or removed since the last solve.
    uint32_t full = 0;
    uint32_t notFull = 0;
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        std::mt19937 rng(200 + seed);
        std::vector<double> caps = RandomCaps(rng);
        MaxMinSolver s(caps);
        std::vector<uint32_t> live;
        for (int step = 0; step < 300; ++step)
        {
            bool grow = (step / 50) % 2 == 0;
            if (live.empty() || (grow ? rng() % 4 != 0 : rng() % 4 == 0))
            {
                Spec spec = RandomSpec(rng, caps.size());
                live.push_back(s.AddFlow(spec.usage, spec.cap, spec.priority));
            }
            else
            {
                std::size_t i = rng() % live.size();
                s.RemoveFlow(live[i]);
                live.erase(live.begin() + i);
            }
            if (rng() % 3 != 0)
            {
                s.Solve();
            }
            for (uint32_t r = 0; r < caps.size(); ++r)
            {
                INFO("seed " << seed << " step " << step << " resource " << r);
                bool loaded = s.GetLoad(r) >= caps[r] * (1 - 1e-6);
                REQUIRE(s.IsFull(r, 1e-6) == loaded);
                full += loaded ? 1 : 0;
                notFull += loaded ? 0 : 1;
            }
        }
    }
    CHECK(full > 1000); // both answers were given many times
    CHECK(notFull > 1000);
}

TEST_CASE("max-min: a refill takes every flow exactly when its components hold a quarter of the "
          "classes",
          "[rdma]")
{
    // The flows a solve refills are those of the components its changes touch, or every flow
    // once those components hold more than a quarter of the classes (one class per flow here).
    // Checked against components found flow by flow, through phases of arrivals only (where
    // the solver tracks its components as they merge), departures (which may split them) and
    // drains to empty, on a sparse fabric of many small components.
    uint32_t everything = 0;
    uint32_t part = 0;
    for (uint32_t seed = 1; seed <= 6; ++seed)
    {
        std::mt19937 rng(300 + seed);
        const uint32_t resources = 80;
        MaxMinSolver s(std::vector<double>(resources, 10.0));
        s.SetMergeIdenticalFlows(false);
        std::map<uint32_t, Spec> live;
        for (int step = 0; step < 400; ++step)
        {
            std::set<uint32_t> touched;
            uint32_t phase = (step / 40) % 3; // arrivals only, churn, drain
            for (uint32_t b = 0; b < 1 + rng() % 2; ++b)
            {
                bool add = live.empty() || phase == 0 || (phase == 1 && rng() % 2 == 0);
                Spec spec;
                uint32_t h;
                if (add)
                {
                    uint32_t r = rng() % resources;
                    spec.usage.emplace_back(r, 1.0);
                    if (rng() % 3 == 0)
                    {
                        spec.usage.emplace_back((r + 1 + rng() % 3) % resources, 1.0);
                    }
                    spec.priority.emplace_back(r ^ 1u, 0.0625);
                    spec.cap = 1 + rng() % 5;
                    h = s.AddFlow(spec.usage, spec.cap, spec.priority);
                    live[h] = spec;
                }
                else
                {
                    auto it = std::next(live.begin(), rng() % live.size());
                    h = it->first;
                    spec = it->second;
                    s.RemoveFlow(h);
                    live.erase(it);
                }
                for (const auto* list : {&spec.usage, &spec.priority})
                {
                    for (const auto& [r, w] : *list)
                    {
                        touched.insert(r);
                    }
                }
            }
            s.Solve();
            // The touched components, flow by flow: grow the resource set until no live flow
            // joins it.
            std::set<uint32_t> reached = touched;
            std::vector<uint32_t> component;
            for (bool grew = true; grew;)
            {
                grew = false;
                component.clear();
                for (const auto& [h, spec] : live)
                {
                    bool in = false;
                    for (const auto* list : {&spec.usage, &spec.priority})
                    {
                        for (const auto& [r, w] : *list)
                        {
                            in = in || reached.count(r) > 0;
                        }
                    }
                    if (!in)
                    {
                        continue;
                    }
                    component.push_back(h);
                    for (const auto* list : {&spec.usage, &spec.priority})
                    {
                        for (const auto& [r, w] : *list)
                        {
                            grew = reached.insert(r).second || grew;
                        }
                    }
                }
            }
            if (4 * component.size() > live.size())
            {
                component.clear();
                for (const auto& [h, spec] : live)
                {
                    component.push_back(h);
                }
                ++everything;
            }
            else
            {
                ++part;
            }
            std::vector<uint32_t> refilled = s.GetLastComponent();
            std::sort(refilled.begin(), refilled.end());
            INFO("seed " << seed << " step " << step << ", " << live.size() << " flows");
            REQUIRE(refilled == component);
        }
    }
    CHECK(everything > 100); // both outcomes were checked
    CHECK(part > 100);
}

TEST_CASE("max-min: a solver Reset and refilled equals a new one bit for bit", "[rdma]")
{
    // The provisioning model reuses one solver from pass to pass: after Reset, whatever it
    // held before (more or fewer resources, classes, settings, merged flows), the rates and
    // loads of the same flows equal those of a solver constructed anew.
    std::mt19937 rng(11);
    MaxMinSolver reused({1.0});
    for (int round = 0; round < 40; ++round)
    {
        INFO("round " << round);
        std::size_t n = 3 + rng() % 12;
        std::vector<double> caps(n);
        for (double& c : caps)
        {
            c = 1.0 + (rng() % 20) * 0.5;
        }
        std::vector<Spec> specs;
        for (uint32_t f = 0; f < 2 + rng() % 30; ++f)
        {
            specs.push_back(RandomSpec(rng, n));
            if (rng() % 4 == 0)
            {
                specs.push_back(specs.back()); // a flow alike: merged into one class
            }
        }
        reused.Reset(caps);
        MaxMinSolver fresh(caps);
        std::vector<uint32_t> a;
        std::vector<uint32_t> b;
        for (const Spec& s : specs)
        {
            a.push_back(fresh.AddFlow(s.usage, s.cap, s.priority));
            b.push_back(reused.AddFlow(s.usage, s.cap, s.priority));
        }
        fresh.SolveAll();
        reused.SolveAll();
        for (std::size_t f = 0; f < specs.size(); ++f)
        {
            CHECK(reused.GetRate(b[f]) == fresh.GetRate(a[f]));
        }
        for (uint32_t r = 0; r < n; ++r)
        {
            CHECK(reused.GetLoad(r) == fresh.GetLoad(r));
            CHECK(reused.GetDemand(r) == fresh.GetDemand(r));
        }
        CHECK(reused.GetNOverloaded() == fresh.GetNOverloaded());
        CHECK(reused.GetNClasses() == fresh.GetNClasses());
        // leave state behind for the next Reset: removed flows, another setting
        for (std::size_t f = 0; f < specs.size(); f += 3)
        {
            reused.RemoveFlow(b[f]);
        }
        reused.Solve();
        if (reused.GetNActiveFlows() == 0)
        {
            reused.SetMergeIdenticalFlows(false);
        }
        reused.SetSkipFillWhenFeasible(round % 2 == 0);
    }
}
