/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// LazyRemovalScheduler gives events back in the same order as ns-3's MapScheduler under any
// mix of inserts, removals and pops, never gives back a removed event, and keeps the removed
// ones it holds bounded by the live ones.

#include "ns3/lazy-removal-scheduler.h"
#include "ns3/map-scheduler.h"
#include "ns3/object.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// A key of a random time among a few (so that ties in time are common) and the next uid.
Scheduler::Event
MakeEvent(std::mt19937_64& rng, uint64_t now, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = nullptr; // schedulers never look at it
    ev.key.m_ts = now + rng() % 8;
    ev.key.m_uid = uid;
    ev.key.m_context = 0;
    return ev;
}

} // namespace

TEST_CASE("LazyRemovalScheduler pops in MapScheduler's order under inserts, removals and pops",
          "[engine]")
{
    Ptr<LazyRemovalScheduler> lazy = CreateObject<LazyRemovalScheduler>();
    Ptr<MapScheduler> map = CreateObject<MapScheduler>();
    std::mt19937_64 rng(7);
    std::vector<Scheduler::Event> pending; // live events, in no order
    uint32_t uid = 0;
    uint64_t now = 0;
    std::vector<uint32_t> lazyPopped; // uids in the order each scheduler gave them
    std::vector<uint32_t> mapPopped;
    std::size_t removals = 0;
    for (int step = 0; step < 200000; ++step)
    {
        const uint64_t dice = rng() % 10;
        if (dice < 5 || pending.empty())
        {
            Scheduler::Event ev = MakeEvent(rng, now, uid++);
            lazy->Insert(ev);
            map->Insert(ev);
            pending.push_back(ev);
        }
        else if (dice < 8)
        {
            // Remove a random pending event, as Simulator::Remove does.
            const std::size_t i = rng() % pending.size();
            lazy->Remove(pending[i]);
            map->Remove(pending[i]);
            pending[i] = pending.back();
            pending.pop_back();
            ++removals;
        }
        else
        {
            REQUIRE(!lazy->IsEmpty());
            const Scheduler::Event peeked = lazy->PeekNext();
            const Scheduler::Event next = lazy->RemoveNext();
            const Scheduler::Event expected = map->RemoveNext();
            REQUIRE(peeked.key.m_uid == next.key.m_uid);
            REQUIRE(next.key.m_uid == expected.key.m_uid);
            lazyPopped.push_back(next.key.m_uid);
            mapPopped.push_back(expected.key.m_uid);
            now = next.key.m_ts;
            for (auto& p : pending)
            {
                if (p.key.m_uid == next.key.m_uid)
                {
                    p = pending.back();
                    pending.pop_back();
                    break;
                }
            }
        }
        REQUIRE(lazy->IsEmpty() == pending.empty());
        // Removed events held never outnumber the live ones.
        REQUIRE(lazy->GetNHeld() <= 2 * pending.size());
    }
    while (!map->IsEmpty())
    {
        REQUIRE(!lazy->IsEmpty());
        lazyPopped.push_back(lazy->RemoveNext().key.m_uid);
        mapPopped.push_back(map->RemoveNext().key.m_uid);
    }
    CHECK(lazy->IsEmpty());
    CHECK(removals > 50000);
    CHECK(lazyPopped.size() == mapPopped.size());
    CHECK(lazyPopped == mapPopped);
}

TEST_CASE("LazyRemovalScheduler drops a removed event at the top at once", "[engine]")
{
    Ptr<LazyRemovalScheduler> lazy = CreateObject<LazyRemovalScheduler>();
    std::mt19937_64 rng(1);
    Scheduler::Event first = MakeEvent(rng, 0, 0);
    first.key.m_ts = 1;
    Scheduler::Event second = MakeEvent(rng, 0, 1);
    second.key.m_ts = 2;
    Scheduler::Event third = MakeEvent(rng, 0, 2);
    third.key.m_ts = 3;
    lazy->Insert(first);
    lazy->Insert(second);
    lazy->Insert(third);
    lazy->Remove(second); // not at the top: held until it surfaces
    CHECK(lazy->GetNHeld() == 3);
    lazy->Remove(first); // at the top: dropped, and the removed second with it
    CHECK(lazy->GetNHeld() == 1);
    CHECK(lazy->PeekNext().key.m_uid == 2);
    lazy->Remove(third);
    CHECK(lazy->IsEmpty());
}
