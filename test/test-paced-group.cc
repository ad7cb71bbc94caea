/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Pace groups (PacedGroup): a data model that hands the engine its bottlenecked jobs as one
// group with a shared pace must give the same schedule as re-timing every job, including the
// jobs that compute binds at some paces and not at others.

#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/paced-group.h"
#include "ns3/simulator.h"

#include <catch2/catch.hpp>
#include <map>

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
                  const std::vector<Ptr<ClusterJob>>& subjects,
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
    std::map<uint64_t, Ptr<ClusterJob>> m_running;
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
