/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Issue #21: progress of long runs goes through one reporter (ProgressReporter), which --quiet
// silences; model events go to NS_LOG, which prints when a component is enabled (in a build
// that compiles logs in: debug profile or --enable-logs) and nothing once it is disabled.

#include "unit-workload.h"

#include "ns3/cluster-engine-helper.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/progress-reporter.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Sends the reporter's lines to a string for the scope of a test, then back to stderr.
class CapturedProgress
{
  public:
    CapturedProgress()
    {
        ProgressReporter::SetStream(&m_text);
        ProgressReporter::SetQuiet(false);
    }

    ~CapturedProgress()
    {
        ProgressReporter::SetStream(nullptr);
        ProgressReporter::SetQuiet(false);
    }

    std::string Text() const
    {
        return m_text.str();
    }

  private:
    std::ostringstream m_text;
};

/// Sends std::clog (NS_LOG's stream) to a string for the scope of a test.
class CapturedLog
{
  public:
    CapturedLog()
        : m_old(std::clog.rdbuf(m_text.rdbuf()))
    {
    }

    ~CapturedLog()
    {
        std::clog.rdbuf(m_old);
    }

    std::string Text() const
    {
        return m_text.str();
    }

  private:
    std::ostringstream m_text;
    std::streambuf* m_old;
};

/// Two jobs on one 4-GPU node: job 1 waits for job 0's GPUs.
void
RunTwoJobs(double progressInterval)
{
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 1;
    topology.gpusPerNode = 4;
    helper.SetTopology(topology);
    Ptr<ClusterEngine> engine =
        helper.Create({UnitJob(0, 0, 4, 100), UnitJob(1, 1, 4, 10)}, UnitCatalog());
    engine->SetAttribute("ProgressInterval", DoubleValue(progressInterval));
    engine->Run();
    REQUIRE(engine->FinishedJobs() == 2);
    Simulator::Destroy();
}

} // namespace

TEST_CASE("ProgressReporter writes one prefixed line per report and none of them when quiet",
          "[progress]")
{
    CapturedProgress progress;
    ProgressReporter::Report("sweep", "1/4 done");
    ProgressReporter::Notice("sweep", "point a failed");
    ProgressReporter::SetQuiet(true);
    CHECK(ProgressReporter::IsQuiet());
    ProgressReporter::Report("sweep", "2/4 done");       // silenced
    ProgressReporter::Notice("sweep", "point b failed"); // a quiet run still shows a failure
    CHECK(progress.Text() == "[sweep] 1/4 done\n"
                             "[sweep] point a failed\n"
                             "[sweep] point b failed\n");
}

TEST_CASE("The engine reports its progress through ProgressReporter, and nothing when quiet",
          "[progress]")
{
    {
        CapturedProgress progress;
        RunTwoJobs(5);
        // Only the closing line: the periodic ones come every 4096 passes at the earliest.
        std::string text = progress.Text();
        CHECK(text.rfind("[aicluster] done: 2 of 2 jobs, simulated ", 0) == 0);
        CHECK(std::count(text.begin(), text.end(), '\n') == 1);
    }
    {
        CapturedProgress progress;
        ProgressReporter::SetQuiet(true);
        RunTwoJobs(5);
        CHECK(progress.Text().empty());
    }
    {
        CapturedProgress progress;
        RunTwoJobs(0); // the engine's own switch
        CHECK(progress.Text().empty());
    }
}

TEST_CASE("NS_LOG: an enabled ClusterEngine logs its decisions, a disabled one nothing",
          "[progress][logging]")
{
    std::string enabled;
    {
        CapturedLog log;
        LogComponentEnable("ClusterEngine", LOG_LEVEL_LOGIC);
        RunTwoJobs(0);
        LogComponentDisable("ClusterEngine", LOG_LEVEL_ALL);
        enabled = log.Text();
    }
    std::string disabled;
    {
        CapturedLog log;
        RunTwoJobs(0);
        disabled = log.Text();
    }
    CHECK(disabled.empty());
#ifdef NS3_LOG_ENABLE
    // LOGIC: each start and finish with its reason; INFO: the run's summary; FUNCTION: entries.
    CHECK_THAT(enabled, Catch::Matchers::Contains("t=0 start job 0 on "));
    CHECK_THAT(enabled, Catch::Matchers::Contains("t=100 finish job 0, compute, JCT 100 s"));
    CHECK_THAT(enabled, Catch::Matchers::Contains("t=100 start job 1 on "));
    CHECK_THAT(enabled, Catch::Matchers::Contains("done: 2 of 2 jobs finished at t=110 s"));
    CHECK_THAT(enabled, Catch::Matchers::Contains("ClusterEngine:StartJob("));
#else
    // The optimized profile compiles NS_LOG out (doc/building.md): enabling prints nothing.
    CHECK(enabled.empty());
#endif
}
