/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The RDMA and provisioning examples on bad or degenerate options: one clear line naming the
// option and a non-zero exit, never an uncaught exception, a wrapped negative count or a hang;
// and degenerate but valid inputs print a result, never "nan".

#include "run-program.h"
#include "temp-dir.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace
{

/// The example's program (ExampleProgram: standalone or in an ns-3 tree).
std::string
Example(const std::string& name)
{
    auto path = ns3::ExampleProgram(name);
    INFO("example binary " << path << " (./ns3 build " << name << ")");
    REQUIRE(std::filesystem::exists(path));
    return path.string();
}

/// Run with a time limit (a hang fails), from a fresh scratch directory (result files land
/// there).
ns3::ProgramOutcome
RunExample(const std::string& name, const std::string& args)
{
    const std::string dir = ns3::TestTempDir("ex");
    std::string output = name == "kspeed-provisioning" ? dir + "/out" : dir + "/out.json";
    return ns3::RunProgram(Example(name), args + " --output=" + output, dir);
}

void
ExpectClearError(const std::string& name, const std::string& args, const std::string& option)
{
    ns3::ProgramOutcome o = RunExample(name, args);
    INFO(name << " " << args << " -> exit " << o.code << ":\n" << o.output);
    // 2: a usage error (#18; 1 is for bad input files); 124: timeout (hang), >= 128: a signal
    CHECK(o.code == 2);
    CHECK(o.output.find(option) != std::string::npos);
    CHECK(o.output.find("terminate") == std::string::npos);
    CHECK(std::count(o.output.begin(), o.output.end(), '\n') <= 2);
}

} // namespace

TEST_CASE("rdma examples: bad options give one clear line and exit 2", "[rdma][examples]")
{
    ExpectClearError("rail-incast", "--pcie-gen=7", "--pcie-gen");
    ExpectClearError("rail-incast", "--memory-gbps=0", "--memory-gbps");
    ExpectClearError("rail-incast", "--senders=-1", "--senders");
    ExpectClearError("rail-incast", "--rail-gbps=0", "--rail-gbps");
    ExpectClearError("rail-incast", "--bytes=-1", "--bytes");
    ExpectClearError("rail-scaling", "--max-nodes=-1", "--max-nodes");
    ExpectClearError("kspeed-provisioning", "--mode=scaling --max-gpus=4", "--max-gpus");
    ExpectClearError("kspeed-provisioning", "--nodes=-1", "--nodes");
}

TEST_CASE("provisioning example: a workload without data prints no nan", "[provisioning][examples]")
{
    ns3::ProgramOutcome o =
        RunExample("kspeed-provisioning", "--mode=table --nodes=2 --workloads=a3c-pong-gavel");
    INFO(o.output);
    CHECK(o.code == 0);
    CHECK(o.output.find("nan") == std::string::npos);
    CHECK(o.output.find("unbounded") != std::string::npos);
}
