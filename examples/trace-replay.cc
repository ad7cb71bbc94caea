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
 * The main whole-cluster experiment: replay a production job trace through a
 * simulated GPU cluster under one or more scheduling policies, write per-job
 * and summary result files, and print a comparison table.
 *
 *   ./ns3 run trace-replay                       # bundled sample, 16 x 8 GPUs, fifo/sjf/tiresias
 *   ./ns3 run "trace-replay --trace=../shared/traces/philly/philly.csv --nodes=352
 * --policy=tiresias"
 *   ./ns3 run "trace-replay --scenario=examples/scenarios/philly-full.json"
 *
 * Options come from a JSON scenario file (--scenario, documented in
 * doc/scenario.md) and the command line, which wins. Any ns-3 attribute can
 * be set too, e.g. --ns3::TiresiasPolicy::Thresholds=3600,36000.
 */

#include "ns3/cluster-replay.h"
#include "ns3/replay-process.h"
#include "ns3/strict-options.h"
#include "ns3/sweep-runner.h"

#include <iostream>

using namespace ns3;

namespace
{

/// The replay itself lives in helper/cluster-replay.cc, so that tests run exactly this path.
int
Replay(int argc, char* argv[])
{
    return RunTraceReplay(argc, argv, __FILE__, std::cout);
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("trace-replay", argc, argv, [](int argc, char* argv[]) {
        // An option with a list of values (or a scenario's sweep block) makes this a sweep:
        // one child process per point (doc/sweeps.md).
        SweepRunner sweep("trace-replay", argc, argv, {"policy", "vc"}, "results/trace-replay");
        if (sweep.IsSweep())
        {
            return sweep.Run();
        }
        PrepareReplayProcess(); // one replay in this process: its event queue
        return Replay(argc, argv);
    });
}
