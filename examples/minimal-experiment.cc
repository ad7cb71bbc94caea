/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

/**
 * \file
 * \ingroup aicluster
 * The smallest whole-cluster experiment, as the README shows it: replay the
 * bundled sample on 32 nodes under Tiresias with three queue levels, count
 * preemptions through a trace source, write the result files.
 *
 *   ./ns3 run minimal-experiment
 */

#include "ns3/cluster-builder.h"
#include "ns3/cluster-results.h"
#include "ns3/cluster-scenario.h"
#include "ns3/core-module.h"
#include "ns3/strict-options.h"
#include "ns3/trace-reader.h"

#include <iostream>

using namespace ns3;

namespace
{
uint32_t g_preemptions = 0;

void
OnJobPreempted(Ptr<const ClusterJob> /* job */)
{
    ++g_preemptions;
}
} // namespace

int
Experiment(int argc, char* argv[])
{
    std::string output = "results/minimal-experiment";
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("output", "Result directory", output);
    cmd.Parse(argc, argv);

    // One description of the cluster (doc/cluster.md): the defaults of trace-replay, with 32
    // nodes and Tiresias with three queue levels.
    Config::SetDefault("ns3::TiresiasPolicy::Thresholds", StringValue("3600,36000"));
    Ptr<ClusterBuilder> cluster = CreateObject<ClusterBuilder>();
    cluster->SetAttribute("Nodes", UintegerValue(32));
    cluster->SetAttribute("Scheduler", StringValue("tiresias"));

    std::vector<JobRecord> jobs = ReadTrace(ClusterScenario::DefaultTracePath());
    cluster->Annotate(jobs, WorkloadCatalog::Default());
    Ptr<ClusterEngine> engine = cluster->Build(jobs, WorkloadCatalog::Default());
    engine->TraceConnectWithoutContext("JobPreempted", MakeCallback(&OnJobPreempted));
    engine->Run();
    ClusterResults::Write(output, engine, RunInfo());
    std::cout << "mean JCT " << ClusterResults::Summarize(engine).meanJct / 3600 << " h, "
              << g_preemptions << " preemptions; results in " << output << std::endl;
    Simulator::Destroy();
    return 0;
}

int
main(int argc, char* argv[])
{
    return RunMain("minimal-experiment", argc, argv, Experiment);
}
