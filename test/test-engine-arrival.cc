/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Arrivals at submit times finer than the simulator's time resolution (a trace replayed with
// --load-scale divides inter-arrival times, so submit times get digits below a nanosecond).

#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

using namespace ns3;

TEST_CASE("a submit time that the simulator's time rounds down still arrives", "[engine]")
{
    // This submit time, as ns-3 Time, lies below the double: the arrival event fires at that
    // Time, earlier than the job's submit time in seconds.
    const double submit = 3401629.9320375985;
    REQUIRE(Seconds(submit).GetSeconds() < submit);

    // The replay runs in a child process with an alarm, so a replay that never ends (the
    // arrival event rescheduling itself at the same instant forever) fails the test instead
    // of hanging the suite.
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0)
    {
        alarm(20);
        ClusterTopology t;
        t.numNodes = 1;
        t.gpusPerNode = 4;
        t.nodesPerRack = 1;
        ClusterEngineHelper helper;
        helper.SetTopology(t);
        Ptr<ClusterEngine> engine =
            helper.Create({UnitJob(0, 10, 1, 100), UnitJob(1, submit, 2, 50)}, UnitCatalog());
        engine->SetAttribute("ProgressInterval", DoubleValue(0));
        engine->Run();
        bool ok = engine->Jobs().size() == 2;
        for (const auto& job : engine->Jobs())
        {
            // it starts at its submission (an idle GPU), never before it
            ok = ok && job->state == ClusterJob::FINISHED &&
                 job->startTime >= job->record.submitTime &&
                 job->startTime <= job->record.submitTime + 1e-6;
        }
        Simulator::Destroy();
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    INFO("child status " << status
                         << (WIFSIGNALED(status) ? " (killed by a signal: the replay "
                                                   "did not end within 20 s)"
                                                 : ""));
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
