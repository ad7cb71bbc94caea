/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// HugePagePooled: objects of a pooled class get slots of their own, whole and apart, over
// several 2 MiB blocks; freed slots are reused; a derived class of another size goes to the
// global heap. And RecordSource, which keeps a trace's file name once for all its records.

#include "ns3/cluster-job.h"
#include "ns3/huge-pages.h"
#include "ns3/job-record.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <set>
#include <type_traits>
#include <vector>

using namespace ns3;

namespace
{

/// An object of an odd size (not a multiple of 8), that can tell whether its bytes are its own.
struct Pooled : public HugePagePooled<Pooled>
{
    explicit Pooled(uint32_t id)
        : id(id)
    {
        for (auto& b : bytes)
        {
            b = static_cast<unsigned char>(id * 31 + 7);
        }
    }

    bool Intact() const
    {
        for (auto b : bytes)
        {
            if (b != static_cast<unsigned char>(id * 31 + 7))
            {
                return false;
            }
        }
        return true;
    }

    uint32_t id;
    unsigned char bytes[357];
};

/// Bigger than Pooled: must not be placed in Pooled's slots.
struct DerivedPooled : public Pooled
{
    explicit DerivedPooled(uint32_t id)
        : Pooled(id)
    {
    }

    double more[8]{};
};

} // namespace

TEST_CASE("HugePagePooled gives every object a whole slot of its own, over several blocks",
          "[huge-pages]")
{
    // Over three 2 MiB blocks of about 5,800 slots each.
    const uint32_t n = 20000;
    std::vector<std::unique_ptr<Pooled>> objects;
    for (uint32_t i = 0; i < n; ++i)
    {
        objects.emplace_back(new Pooled(i));
    }
    std::set<std::uintptr_t> starts;
    for (const auto& o : objects)
    {
        const auto address = reinterpret_cast<std::uintptr_t>(o.get());
        CHECK(address % alignof(Pooled) == 0);
        starts.insert(address);
    }
    REQUIRE(starts.size() == n);
    // No two slots overlap: consecutive starts are at least an object apart.
    std::uintptr_t previous = 0;
    uint32_t overlaps = 0;
    for (std::uintptr_t s : starts)
    {
        overlaps += previous != 0 && s - previous < sizeof(Pooled);
        previous = s;
    }
    CHECK(overlaps == 0);
    uint32_t broken = 0;
    for (const auto& o : objects)
    {
        broken += !o->Intact();
    }
    CHECK(broken == 0);

    // Freed slots serve the next objects of the class.
    std::set<std::uintptr_t> freed;
    for (uint32_t i = 0; i < 100; ++i)
    {
        freed.insert(reinterpret_cast<std::uintptr_t>(objects[i].get()));
        objects[i].reset();
    }
    uint32_t reused = 0;
    for (uint32_t i = 0; i < 100; ++i)
    {
        objects[i].reset(new Pooled(i));
        reused += freed.count(reinterpret_cast<std::uintptr_t>(objects[i].get()));
    }
    CHECK(reused == 100);
}

TEST_CASE("HugePagePooled leaves a derived class of another size to the global heap",
          "[huge-pages]")
{
    std::unique_ptr<Pooled> small(new Pooled(1));
    std::unique_ptr<DerivedPooled> derived(new DerivedPooled(2));
    CHECK(small->Intact());
    CHECK(derived->Intact());
    derived.reset();
    std::unique_ptr<DerivedPooled> again(new DerivedPooled(3));
    CHECK(again->Intact());
    CHECK(std::is_base_of_v<HugePagePooled<ClusterJob>, ClusterJob>);
}

TEST_CASE("RecordSource says file:line, and keeps one file name for many records", "[trace]")
{
    CHECK(RecordSource().Text().empty());
    CHECK(RecordSource("trace.csv", 7).Text() == "trace.csv:7");
    CHECK(RecordSource("trace.csv", 0).Text() == "trace.csv");
    auto file = std::make_shared<const std::string>("philly.csv");
    RecordSource a(file, 2);
    RecordSource b(file, 82248);
    CHECK(&a.File() == &b.File());
    CHECK(b.Text() == "philly.csv:82248");
}
