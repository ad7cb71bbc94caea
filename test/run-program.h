/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_RUN_PROGRAM_H
#define AICLUSTER_TEST_RUN_PROGRAM_H

// Run one of the project's programs (an example, a bench) as a user would, with a time limit, and
// keep its exit code and output: the tests of what a program prints on bad options.

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <system_error>

namespace ns3
{

/**
 * \param name an example's name (examples/examples.cmake)
 * \return its program: build/examples/<name> beside the suite's build/test (standalone), or in
 *         an ns-3 tree the program ns-3 built for it, <output>/contrib/aicluster/
 *         ns3<version>-<name>-<profile>; the standalone path if neither is there (callers
 *         report it as not built)
 */
inline std::filesystem::path
ExampleProgram(const std::string& name)
{
    namespace fs = std::filesystem;
    const fs::path standalone =
        fs::canonical("/proc/self/exe").parent_path().parent_path() / "examples" / name;
    if (fs::exists(standalone))
    {
        return standalone;
    }
#ifdef AICLUSTER_INTREE_EXAMPLES_DIR
    // ns-3 names it ns3-dev-trace-replay-default, ns3.37-trace-replay-optimized, ...: the name
    // between a prefix starting "ns3" and a profile with no dash (so "ina" is not
    // "ina-shared-aggregation").
    const std::string middle = "-" + name + "-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(AICLUSTER_INTREE_EXAMPLES_DIR, ec))
    {
        const std::string file = entry.path().filename().string();
        const size_t at = file.find(middle);
        if (file.rfind("ns3", 0) == 0 && at != std::string::npos &&
            file.find('-', at + middle.size()) == std::string::npos)
        {
            return entry.path();
        }
    }
#endif
    return standalone;
}

/** What a program run gave. */
struct ProgramOutcome
{
    int code{-1};       //!< exit code; 124: the time limit (a hang); >= 128: 128 + a signal
    std::string output; //!< stdout and stderr
};

/**
 * \param program the program's path
 * \param args its arguments, as one shell word list
 * \param dir the folder to run it in (its relative output lands there)
 * \return its exit code and output
 */
inline ProgramOutcome
RunProgram(const std::string& program, const std::string& args, const std::string& dir)
{
    std::string cmd = "cd '" + dir + "' && timeout 60 " + program + " " + args + " 2>&1";
    ProgramOutcome o;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p)
    {
        o.output = "popen failed: " + cmd;
        return o;
    }
    std::array<char, 4096> buf{};
    while (fgets(buf.data(), buf.size(), p))
    {
        o.output += buf.data();
    }
    int status = pclose(p);
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return o;
}

} // namespace ns3

#endif // AICLUSTER_TEST_RUN_PROGRAM_H
