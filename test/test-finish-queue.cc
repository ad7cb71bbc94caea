/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The engine's finish queue (FinishQueue): jobs timed on their own finish in time order,
// ties in the order their finishes were last set (as ns-3 orders events scheduled for the
// same time step), moved and removed finishes never fire early or twice.

#include "running-job.h"

#include "ns3/cluster-job.h"
#include "ns3/finish-queue.h"
#include "ns3/simulator.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// A finish as it fired: time step and job id.
struct Fired
{
    int64_t at;
    uint64_t id;
};

/// Jobs 0..n-1 and a queue that records (and takes out) each finish as it fires.
struct Fixture
{
    std::vector<Ptr<ClusterJob>> jobs;
    std::vector<Fired> fired;
    std::function<void()> onDue; //!< called after each finish is recorded, if set
    FinishQueue queue{MakeCallback(&Fixture::OnDue, this)};

    explicit Fixture(size_t n)
    {
        for (size_t i = 0; i < n; ++i)
        {
            jobs.push_back(Create<ClusterJob>(RecordWithId(i)));
        }
    }

    ~Fixture()
    {
        queue.Clear();
        Simulator::Destroy();
    }

    void OnDue(ClusterJob* job)
    {
        fired.push_back({Simulator::Now().GetTimeStep(), job->record.id});
        queue.Remove(*job);
        if (onDue)
        {
            onDue();
        }
    }
};

/**
 * Random sets and removes of a fixture's finishes, with what must then fire: each job's
 * expected time step and the sequence number of its last Set.
 */
struct Churn
{
    /** \param fixture the queue and its jobs \param seed of the random draws */
    Churn(Fixture& fixture, uint64_t seed)
        : f(fixture),
          rng(seed),
          due(fixture.jobs.size(), -1),
          order(fixture.jobs.size(), 0)
    {
    }

    /**
     * \brief Remove job j's finish (removeIn times in outOf), else set it a random delay
     *        from now, on a grid of 1 / perSecond seconds below steps of it (ties happen).
     */
    void Touch(size_t j, uint64_t removeIn, uint64_t outOf, uint64_t steps, double perSecond)
    {
        double now = Simulator::Now().GetSeconds();
        if (rng() % outOf < removeIn)
        {
            f.queue.Remove(*f.jobs[j]);
            due[j] = -1;
            return;
        }
        double after = double(rng() % steps) / perSecond;
        f.queue.Set(*f.jobs[j], after);
        due[j] = (Seconds(now) + Seconds(after)).GetTimeStep();
        order[j] = ++seq;
    }

    /** \return the finishes that must fire, in (time step, last Set) order */
    std::vector<Fired> Expected() const
    {
        std::vector<Fired> expected;
        for (size_t j = 0; j < due.size(); ++j)
        {
            if (due[j] >= 0)
            {
                expected.push_back({due[j], j});
            }
        }
        std::sort(expected.begin(), expected.end(), [&](const Fired& a, const Fired& b) {
            return a.at < b.at || (a.at == b.at && order[a.id] < order[b.id]);
        });
        return expected;
    }

    Fixture& f;                  //!< the queue and its jobs
    std::mt19937_64 rng;         //!< the draws
    std::vector<int64_t> due;    //!< per job: expected time step, -1 = not queued
    std::vector<uint64_t> order; //!< per job: sequence of its last Set
    uint64_t seq{0};             //!< Sets so far
};

} // namespace

TEST_CASE("finish queue fires in time order, ties by the last Set", "[engine]")
{
    Fixture f(4);
    f.queue.Set(*f.jobs[0], 3.0);
    f.queue.Set(*f.jobs[1], 1.0);
    f.queue.Set(*f.jobs[2], 2.0);
    f.queue.Set(*f.jobs[3], 2.0); // same time as job 2, set later: after it
    f.queue.Set(*f.jobs[2], 2.0); // set again: now after job 3
    CHECK(f.queue.Contains(*f.jobs[0]));
    Simulator::Run();
    REQUIRE(f.fired.size() == 4);
    CHECK(f.fired[0].id == 1);
    CHECK(f.fired[1].id == 3);
    CHECK(f.fired[2].id == 2);
    CHECK(f.fired[3].id == 0);
    CHECK(f.fired[0].at == Seconds(1.0).GetTimeStep());
    CHECK(f.fired[3].at == Seconds(3.0).GetTimeStep());
    CHECK_FALSE(f.queue.Contains(*f.jobs[0]));
}

TEST_CASE("finish queue: Clear takes every job out, and the queue serves them again", "[engine]")
{
    Fixture f(3);
    f.queue.Set(*f.jobs[0], 2.0);
    f.queue.Set(*f.jobs[1], 1.0);
    f.queue.Set(*f.jobs[2], 3.0);
    f.queue.Clear();
    for (const auto& job : f.jobs)
    {
        CHECK_FALSE(f.queue.Contains(*job));
    }
    f.queue.Set(*f.jobs[2], 1.0);
    f.queue.Set(*f.jobs[0], 2.0);
    Simulator::Run();
    REQUIRE(f.fired.size() == 2);
    CHECK(f.fired[0].id == 2);
    CHECK(f.fired[1].id == 0);
}

TEST_CASE("finish queue: a finish beyond the end of simulated time waits there, not earlier",
          "[engine]")
{
    // 1e12 s is past what a ns Time holds (about 9.2e9 s): Seconds(1e12) wraps to an earlier
    // time (about 3.9e9 s) in an optimized ns-3 and asserts in a debug one.
    Fixture f(2);
    CHECK(EventTimeAfter(5.0) == Seconds(5.0)); // within the range: as Seconds() gives it
    CHECK(EventTimeAfter(1e12) == Time::Max());
    f.queue.Set(*f.jobs[0], 1e12);
    f.queue.Set(*f.jobs[1], 5.0);
    Simulator::Run();
    REQUIRE(f.fired.size() == 2);
    CHECK(f.fired[0].id == 1);
    CHECK(f.fired[1].id == 0);
    CHECK(f.fired[1].at == Time::Max().GetTimeStep());
}

TEST_CASE("finish queue: moved and removed finishes, while the simulation runs", "[engine]")
{
    Fixture f(3);
    f.queue.Set(*f.jobs[0], 5.0);
    f.queue.Set(*f.jobs[1], 2.0);
    f.queue.Set(*f.jobs[2], 4.0);
    // At t = 1: job 1 (the earliest) moves later, job 2 is removed, job 0 moves earlier.
    Simulator::Schedule(Seconds(1.0), [&f]() {
        f.queue.Set(*f.jobs[1], 6.0); // due at 7
        f.queue.Remove(*f.jobs[2]);
        f.queue.Set(*f.jobs[0], 0.5); // due at 1.5
        CHECK_FALSE(f.queue.Contains(*f.jobs[2]));
    });
    Simulator::Run();
    REQUIRE(f.fired.size() == 2);
    CHECK(f.fired[0].id == 0);
    CHECK(f.fired[0].at == Seconds(1.5).GetTimeStep());
    CHECK(f.fired[1].id == 1);
    CHECK(f.fired[1].at == Seconds(7.0).GetTimeStep());
}

TEST_CASE("finish queue matches a sorted reference under random moves", "[engine]")
{
    // Every job's finish is set, moved and sometimes removed at random instants; what fires
    // must be exactly the finishes still set, each at its time step, in (time, last Set) order.
    const size_t n = 200;
    Fixture f(n);
    Churn churn(f, 7);
    auto touch = [&churn](size_t j) { churn.Touch(j, 1, 5, 1000, 100.0); }; // 10 ms grid
    for (size_t j = 0; j < n; ++j)
    {
        touch(j);
    }
    // 300 rounds of changes at t = 0.01, 0.02, ...: only jobs not yet due are touched.
    std::vector<Fired> expected;
    for (int round = 1; round <= 300; ++round)
    {
        Simulator::Schedule(Seconds(0.01 * round), [&]() {
            int64_t now = Simulator::Now().GetTimeStep();
            for (int k = 0; k < 5; ++k)
            {
                size_t j = churn.rng() % n;
                if (churn.due[j] > now)
                {
                    touch(j);
                }
            }
        });
    }
    Simulator::Run();
    // The reference: every finish that was queued and due, by (time, last Set), except the
    // ones touched at their own instant after firing (excluded above by due[j] > now).
    expected = churn.Expected();
    REQUIRE(f.fired.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
    {
        INFO("finish " << i);
        CHECK(f.fired[i].id == expected[i].id);
        CHECK(f.fired[i].at == expected[i].at);
    }
}

TEST_CASE("finish queue matches a sorted reference under many sets and removes", "[engine]")
{
    // A deep heap churned before the run: removals anywhere in it and moves both ways, each
    // of which must put the entries it displaces back in order.
    const size_t n = 500;
    Fixture f(n);
    Churn churn(f, 11);
    for (int op = 0; op < 20000; ++op)
    {
        churn.Touch(churn.rng() % n, 3, 10, 100000, 1000.0); // 1 ms grid
    }
    Simulator::Run();
    std::vector<Fired> expected = churn.Expected();
    REQUIRE(f.fired.size() == expected.size());
    size_t wrong = 0;
    for (size_t i = 0; i < expected.size(); ++i)
    {
        wrong += f.fired[i].id != expected[i].id || f.fired[i].at != expected[i].at;
    }
    CHECK(wrong == 0);
}

TEST_CASE("finish queue hands out every finish due at a time step before what they schedule",
          "[engine]")
{
    // The engine's finish asks for a scheduling pass (ScheduleNow). With an event per job,
    // every finish due at that instant came before the pass; the queue's one event keeps
    // that, also when another event of the same instant (an arrival, scheduled before the
    // later finishes became the earliest) falls between them.
    Fixture f(3);
    std::vector<size_t> passes; // finishes seen by each pass
    bool passPending = false;
    auto requestPass = [&]() {
        if (!passPending)
        {
            passPending = true;
            Simulator::ScheduleNow([&]() {
                passPending = false;
                passes.push_back(f.fired.size());
            });
        }
    };
    f.onDue = requestPass;
    f.queue.Set(*f.jobs[0], 2.0);
    Simulator::Schedule(Seconds(2.0), requestPass); // the arrival, after job 0's finish
    Simulator::Schedule(Seconds(1.0), [&f]() {
        f.queue.Set(*f.jobs[1], 1.0); // due at 2 too, set later
        f.queue.Set(*f.jobs[2], 1.0);
    });
    Simulator::Run();
    REQUIRE(f.fired.size() == 3);
    CHECK(f.fired[0].id == 0);
    CHECK(f.fired[1].id == 1);
    CHECK(f.fired[2].id == 2);
    CHECK(passes == std::vector<size_t>{3}); // one pass, after all three
}

TEST_CASE("finish queue: the range check's shortcut gives the exact check's answer on both sides",
          "[engine]")
{
    // EventTimeAfter decides "far inside the range" from integer steps and leaves the rest to
    // the exact test: delays around half the range (the shortcut's edge) and around the end
    // itself must come out as the exact test says.
    Fixture f(1);
    const double left = (Time::Max() - Simulator::Now()).GetSeconds() - 1;
    for (double seconds : {left / 2 - 2, left / 2, left / 2 + 2, left - 1e3, left - 2})
    {
        CHECK(EventTimeAfter(seconds) == Simulator::Now() + Seconds(seconds));
    }
    for (double seconds : {left,
                           left + 1,
                           left * 2,
                           std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()})
    {
        CHECK(EventTimeAfter(seconds) == Time::Max());
    }
}

TEST_CASE("SecondsExact gives Seconds' time step, bit for bit, on and off its fast range",
          "[engine]")
{
    // The fast range's edges (2^-12 and 2^62) and what lies just beyond them, the halves where
    // ns-3's +0.5 ties, the last fraction bits, and values log-uniform over 1 ns to 8e9 s.
    std::vector<double> values = {0.0,
                                  1e-9,
                                  1.0 / 4096,
                                  std::nextafter(1.0 / 4096, 0.0),
                                  std::nextafter(1.0 / 4096, 1.0),
                                  0.5,
                                  std::nextafter(0.5, 0.0),
                                  std::nextafter(0.5, 1.0),
                                  std::nextafter(1.0, 0.0),
                                  1.0,
                                  1.5e-9,
                                  2.5e-9,
                                  0.1,
                                  1e6 + 0.1,
                                  4503599627370496.5,    // 2^52 + 1/2
                                  9007199254740993.0,    // 2^53 + 1 (rounds to 2^53)
                                  4611686018427387904.0, // 2^62
                                  std::nextafter(4611686018427387904.0, 0.0),
                                  9.2e18,
                                  -1.0,
                                  std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN()};
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> exponent(-9, 9.9);
    std::uniform_int_distribution<uint64_t> bits;
    for (int i = 0; i < 200000; ++i)
    {
        values.push_back(std::pow(10.0, exponent(rng)));
        // Every fraction bit set at random, in the range where they all count.
        values.push_back(std::ldexp(double(bits(rng) >> 11), -52 + int(i % 40) - 12));
    }
    size_t differing = 0;
    for (double seconds : values)
    {
        if (std::isnan(seconds) || std::fabs(seconds) > 9.2e9)
        {
            // Beyond what Time holds in ns: both overflow alike, but only compare in range.
            continue;
        }
        differing += SecondsExact(seconds).GetTimeStep() != Seconds(seconds).GetTimeStep();
    }
    CHECK(differing == 0);
}

TEST_CASE("NowSeconds is Simulator::Now().GetSeconds() at every time step, asked again or not",
          "[engine]")
{
    // Kept per time step: asked twice at one step, then at the next steps (one a step apart,
    // where a stale answer would be off by a nanosecond only).
    std::vector<double> times = {0.0, 1e-9, 2e-9, 0.25, 0.25 + 1e-9, 3600.5, 86400.0 * 365};
    size_t checked = 0;
    for (double t : times)
    {
        Simulator::Schedule(Seconds(t), [&checked]() {
            double first = NowSeconds();
            CHECK(first == Simulator::Now().GetSeconds());
            CHECK(NowSeconds() == first);
            ++checked;
        });
    }
    Simulator::Run();
    Simulator::Destroy();
    CHECK(checked == times.size());
    // A new run starts again at 0.
    CHECK(NowSeconds() == 0.0);
}

TEST_CASE("PinnedTimeStep answers as ns-3 does within its event, and the next event reads anew",
          "[engine]")
{
    // One pin per event, a nested one inside it: NowSeconds, EventTimeAfter and SecondsExact
    // give what ns-3 gives at that step, and the finish queue's event lands where an event
    // scheduled then would. Events a nanosecond apart catch a pin kept from the step before.
    Fixture f(1);
    std::vector<double> times = {0.0, 1e-9, 2e-9, 0.25, 0.25 + 1e-9, 3600.5};
    size_t checked = 0;
    for (double t : times)
    {
        Simulator::Schedule(Seconds(t), [&checked, &f]() {
            PinnedTimeStep pin;
            CHECK(NowSeconds() == Simulator::Now().GetSeconds());
            CHECK(EventTimeAfter(1.5) == Simulator::Now() + Seconds(1.5));
            {
                PinnedTimeStep inner;
                CHECK(NowSeconds() == Simulator::Now().GetSeconds());
                CHECK(EventTimeAfter(1e12) == Time::Max());
            }
            CHECK(SecondsExact(0.1) == Seconds(0.1));
            f.queue.Set(*f.jobs[0], 1e-9);
            ++checked;
        });
    }
    Simulator::Run();
    CHECK(checked == times.size());
    // Each Set moved the one job's finish to 1 ns after its event; those not moved again by
    // an event at that very step fired there.
    REQUIRE(f.fired.size() == 3);
    CHECK(f.fired[0].at == NanoSeconds(3).GetTimeStep());
    CHECK(f.fired[1].at == (Seconds(0.25) + NanoSeconds(2)).GetTimeStep());
    CHECK(f.fired[2].at == (Seconds(3600.5) + NanoSeconds(1)).GetTimeStep());
    // Released: read from ns-3 again.
    CHECK(NowSeconds() == Simulator::Now().GetSeconds());
}
