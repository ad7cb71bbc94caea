/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The benches on bad options: one clear line naming the option and exit 2 (an unwritable
// result file: one line and exit 1), never a wrapped negative count that hangs, nor a page of
// help. Benches are built beside the examples only in the standalone build (not in an ns-3
// tree), so these cases exist only there.

#include "run-program.h"
#include "temp-dir.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#ifdef AICLUSTER_BENCH_DIR

namespace
{

/// Runs a bench with bad arguments and checks the one-line error.
void
ExpectClearError(const std::string& bench,
                 const std::string& args,
                 const std::string& named,
                 int code = 2)
{
    ns3::ProgramOutcome o = ns3::RunProgram(std::string(AICLUSTER_BENCH_DIR) + "/" + bench,
                                            args,
                                            ns3::TestTempDir("bench-options"));
    INFO(bench << " " << args << " -> exit " << o.code << ":\n" << o.output);
    CHECK(o.code == code);
    CHECK(o.output.find(named) != std::string::npos);
    CHECK(std::count(o.output.begin(), o.output.end(), '\n') == 1);
}

} // namespace

TEST_CASE("benches: a bad option is one line naming it, exit 2", "[bench][hostile]")
{
    ExpectClearError("rdma-bench", "--repeats=-1", "--repeats");
    ExpectClearError("rdma-bench", "--repeats=abc", "--repeats");
    ExpectClearError("rdma-bench", "--parts=", "--parts");
    ExpectClearError("rdma-bench", "--parts=packet,bogus", "'bogus'");
    ExpectClearError("rdma-bench", "--nodes=0", "--nodes");
    ExpectClearError("rdma-bench", "--bogus=1", "--bogus");
    ExpectClearError("ina-bench", "--policy=fast", "--policy");
    ExpectClearError("ina-bench", "--jobs=-3", "--jobs");
    ExpectClearError("provisioning-bench", "--gpus=12", "--gpus");
    ExpectClearError("provisioning-bench", "--window=-1", "--window");
    ExpectClearError("philly-replay-bench", "--runs=-1", "--runs");
    ExpectClearError("philly-replay-bench", "--solver-sizes=16,x", "--solver-sizes");
    ExpectClearError("philly-replay-bench", "--configs=bogus", "bogus");
}

TEST_CASE("benches: an unwritable result file is one line naming it, exit 1", "[bench][hostile]")
{
    ExpectClearError("rdma-bench", "--parts=same-rail --json=/dev/null/x.json", "/dev/null", 1);
    ExpectClearError("provisioning-bench", "--json=/proc/x/y.json", "/proc/x", 1);
}

#endif // AICLUSTER_BENCH_DIR
