/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Pace groups (PacedGroup): a data model that hands the engine its bottlenecked jobs as one
// group with a shared pace must give the same schedule as re-timing every job, including the
// jobs that compute binds at some paces and not at others.

#include "running-job.h"
#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/paced-group.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>

using namespace ns3;

namespace
{

/// Units job id reads per iteration: 0.25 to 1, so with few jobs running the smaller readers
/// are compute-bound (data term w * n below the 1 s of compute) and with more they are not.
double
WorkOf(uint64_t id)
{
    return 0.25 * double(1 + id % 4);
}

/// A pool of 1 unit/s shared equally by the running jobs: a job's data term is w * n.
/// How it tells the engine is the variant under test.
class SharedPool : public ReportingTermModel
{
  public:
    enum Mode
    {
        COUPLED, //!< left to the engine: every running job re-evaluated on every change
        PER_JOB, //!< reports each job whose term moved
        PACED,   //!< one pace group: reports the pace n, and each job once, on joining
    };

    explicit SharedPool(Mode mode)
        : m_mode(mode)
    {
    }

    void Evaluate(const ClusterTopology&,
                  const std::vector<Ptr<const ClusterJob>>& subjects,
                  std::vector<double>& seconds) override
    {
        if (m_mode == COUPLED)
        {
            for (size_t i = 0; i < subjects.size(); ++i)
            {
                seconds[i] = WorkOf(subjects[i]->record.id) * double(subjects.size());
            }
            return;
        }
        for (const auto& job : subjects)
        {
            if (!m_term.count(job->record.id))
            {
                m_running[job->record.id] = job;
                m_term[job->record.id] = -1;
            }
        }
        Report();
        for (size_t i = 0; i < subjects.size(); ++i)
        {
            seconds[i] = m_term[subjects[i]->record.id];
        }
    }

    bool ReportsChanges() const override
    {
        return m_mode != COUPLED;
    }

    void TakeChanges(std::vector<TermChange>& changes) override
    {
        changes.insert(changes.end(), m_changes.begin(), m_changes.end());
        m_changes.clear();
    }

    void TakePaceChanges(std::vector<PaceChange>& changes) override
    {
        changes.insert(changes.end(), m_paces.begin(), m_paces.end());
        m_paces.clear();
    }

    void OnLeft(Ptr<const ClusterJob> job)
    {
        m_running.erase(job->record.id);
        m_term.erase(job->record.id);
    }

    uint64_t reported{0}; //!< job changes reported

  private:
    void Report()
    {
        double n = double(m_running.size());
        if (m_mode == PACED && n > 0 && n != m_pace)
        {
            m_pace = n;
            m_paces.push_back({0, n});
        }
        for (const auto& [id, job] : m_running)
        {
            double& term = m_term[id];
            double now = WorkOf(id) * n;
            if (m_mode == PACED ? term < 0 : term != now)
            {
                m_changes.emplace_back(job, now, m_mode == PACED ? 0 : -1, WorkOf(id));
                ++reported;
            }
            term = now;
        }
    }

    Mode m_mode;
    double m_pace{0};
    std::map<uint64_t, Ptr<const ClusterJob>> m_running;
    std::map<uint64_t, double> m_term;
    std::vector<TermChange> m_changes;
    std::vector<PaceChange> m_paces;
};

struct Schedule
{
    std::map<uint64_t, double> finish;
    double busyGpuSeconds{0}; //!< integral of the utilization series' busy GPUs
    uint64_t reported{0};
};

Schedule
Replay(SharedPool::Mode mode, const std::vector<JobRecord>& jobs, uint32_t gpus)
{
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 1;
    topology.gpusPerNode = gpus;
    helper.SetTopology(topology);
    Ptr<ClusterEngine> engine = helper.Create(jobs, UnitCatalog());
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    auto model = CreateObject<SharedPool>(mode);
    engine->SetDataLoadingModel(model);
    for (const char* source : {"JobFinished", "JobPreempted"})
    {
        engine->TraceConnectWithoutContext(source, MakeCallback(&SharedPool::OnLeft, model));
    }
    engine->Run();
    Schedule s;
    for (const auto& job : engine->Jobs())
    {
        s.finish[job->record.id] = job->finishTime;
    }
    const auto& u = engine->Utilization();
    for (size_t i = 1; i < u.size(); ++i)
    {
        s.busyGpuSeconds += u[i - 1].busy * (u[i].time - u[i - 1].time);
    }
    s.reported = model->reported;
    Simulator::Destroy();
    return s;
}

} // namespace

TEST_CASE("a pace group by hand: the clock, and a job compute binds", "[engine][paced]")
{
    // Job 0 reads 0.25 units per iteration, job 1 reads 1 (WorkOf). Together (pace 2 s per
    // unit): job 1 takes 2 s per iteration and does its 4 in 8 s; job 0's data term, 0.5 s, is
    // under its 1 s of compute, so compute times it: 8 of its 10 iterations by 8 s. Alone
    // (pace 1) it is still compute-bound: done at 10 s. Job 1 on the clock: 8 s.
    std::vector<JobRecord> jobs = {UnitJob(0, 0, 1, 10), UnitJob(1, 0, 1, 4)};
    jobs[1].id = 3; // WorkOf(3) = 1
    Schedule paced = Replay(SharedPool::PACED, jobs, 2);
    CHECK(paced.finish[0] == Approx(10));
    CHECK(paced.finish[3] == Approx(8));
}

TEST_CASE("a pace group gives the schedule of re-timing every job", "[engine][paced]")
{
    // Staggered arrivals and finishes: 1 to 8 jobs share the pool, so jobs cross between
    // data-bound (on the clock) and compute-bound (timed alone) as the pace moves.
    std::vector<JobRecord> jobs;
    for (uint64_t i = 0; i < 24; ++i)
    {
        jobs.push_back(UnitJob(i, 2.5 * i, 1 + i % 2, 4.0 + 3.0 * ((i * 7) % 13)));
    }
    Schedule coupled = Replay(SharedPool::COUPLED, jobs, 8);
    Schedule perJob = Replay(SharedPool::PER_JOB, jobs, 8);
    Schedule paced = Replay(SharedPool::PACED, jobs, 8);
    for (const auto& [id, time] : coupled.finish)
    {
        INFO("job " << id);
        CHECK(perJob.finish[id] == Approx(time).epsilon(1e-12));
        CHECK(paced.finish[id] == Approx(time).epsilon(1e-12));
    }
    // The GPUs' busy time (compute / iteration time, summed) comes out the same too.
    CHECK(paced.busyGpuSeconds == Approx(coupled.busyGpuSeconds).epsilon(1e-12));
    // Each paced job is named once, on joining; per job, every change of n names them all.
    CHECK(paced.reported == jobs.size());
    CHECK(perJob.reported > 3 * jobs.size());
}

namespace ns3
{

/// Sets and reads what the engine keeps on a pace group's member (test access).
struct PacedGroupProbe
{
    /// \param job a job \param threshold the pace it binds at
    static void SetThreshold(ClusterJob& job, double threshold)
    {
        job.pacedWork = 1.0;
        job.pacedThreshold = threshold;
    }

    /// \param job a job \return the pace it binds at
    static double Threshold(const ClusterJob& job)
    {
        return job.pacedThreshold;
    }

    /// \param job a clocked job \return its mark (set by PacedGroup::Clock)
    static double Mark(const ClusterJob& job)
    {
        return job.pacedMark;
    }
};

} // namespace ns3

namespace
{

/// \param entries members \param descending order \return their jobs in (key, id) order
std::vector<ClusterJob*>
Sorted(std::vector<PacedGroup::Entry> entries, bool descending)
{
    std::sort(entries.begin(), entries.end());
    if (descending)
    {
        std::reverse(entries.begin(), entries.end());
    }
    std::vector<ClusterJob*> jobs;
    for (const auto& e : entries)
    {
        jobs.push_back(e.job);
    }
    return jobs;
}

} // namespace

TEST_CASE("a pace group's unordered members give the orders of sorted sets", "[engine][paced]")
{
    // PacedGroup keeps its members unordered, the earliest mark up to date as they come and
    // go, and sorts only the members that cross the pace. Checked against the orders rebuilt
    // from scratch after every step of a random sequence; few distinct thresholds, marks and
    // paces, so ties (broken by job id) are common.
    std::mt19937_64 rng(13);
    std::vector<Ptr<ClusterJob>> jobs;
    for (uint64_t i = 0; i < 40; ++i)
    {
        // Sparse ids, not in creation order.
        Ptr<ClusterJob> job = Create<ClusterJob>(RecordWithId((i * 17) % 40 * 3 + 1));
        job->state = ClusterJob::RUNNING;
        job->placement.gpusOnNode = {{0, uint32_t(1 + i % 4)}};
        job->computeTime = 1;
        jobs.push_back(job);
    }
    PacedGroup group(7);
    std::map<const ClusterJob*, int> where; // 1 clocked, 2 parked
    double now = 0;
    group.SetPace(now, 1.0);
    size_t crossedUp = 0;
    size_t crossedDown = 0;
    size_t firstSeen = 0;
    for (int step = 0; step < 5000; ++step)
    {
        ClusterJob& job = *jobs[rng() % jobs.size()];
        if (rng() % 5 == 0)
        {
            now += double(rng() % 3);
            group.SetPace(now, 0.5 + 0.25 * double(rng() % 6));
        }
        else if (where[&job] == 1)
        {
            group.Unclock(job);
            where[&job] = 0;
        }
        else if (where[&job] == 2)
        {
            group.Unpark(job);
            where[&job] = 0;
        }
        else
        {
            PacedGroupProbe::SetThreshold(job, 0.5 * double(1 + rng() % 5));
            if (rng() % 2)
            {
                group.Clock(job, double(1 + rng() % 3), now);
                where[&job] = 1;
            }
            else
            {
                group.Park(job);
                where[&job] = 2;
            }
        }
        std::vector<PacedGroup::Entry> byMark;
        std::vector<PacedGroup::Entry> clockedAbove;
        std::vector<PacedGroup::Entry> parkedAt;
        for (const auto& j : jobs)
        {
            double threshold = PacedGroupProbe::Threshold(*j);
            if (where[PeekPointer(j)] == 1)
            {
                byMark.push_back({PacedGroupProbe::Mark(*j), j->record.id, PeekPointer(j)});
                if (threshold > group.Pace())
                {
                    clockedAbove.push_back({threshold, j->record.id, PeekPointer(j)});
                }
            }
            else if (where[PeekPointer(j)] == 2 && threshold <= group.Pace())
            {
                parkedAt.push_back({threshold, j->record.id, PeekPointer(j)});
            }
        }
        INFO("step " << step);
        std::vector<ClusterJob*> marks = Sorted(byMark, false);
        ClusterJob* first = marks.empty() ? nullptr : marks.front();
        REQUIRE(group.First() == first);
        if (first)
        {
            ++firstSeen;
            double until =
                std::max(0.0,
                         (PacedGroupProbe::Mark(*first) - group.VirtualTime(now)) * group.Pace());
            CHECK(group.UntilFirst(now) == until);
        }
        REQUIRE(group.ClockedAbovePace() == Sorted(clockedAbove, true));
        REQUIRE(group.ParkedAtPace() == Sorted(parkedAt, false));
        CHECK(group.Empty() ==
              (byMark.empty() &&
               std::none_of(jobs.begin(), jobs.end(), [&](const Ptr<ClusterJob>& j) {
                   return where[PeekPointer(j)] == 2;
               })));
        crossedUp += clockedAbove.size() > 1;
        crossedDown += parkedAt.size() > 1;
    }
    // The sequence did exercise the orders: several members crossing at once, many firsts.
    CHECK(crossedUp > 100);
    CHECK(crossedDown > 100);
    CHECK(firstSeen > 1000);
}
