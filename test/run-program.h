/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AICLUSTER_TEST_RUN_PROGRAM_H
#define AICLUSTER_TEST_RUN_PROGRAM_H

// Run one of the project's programs (an example, a bench) as a user would, with a time limit, and
// keep its exit code and output: the tests of what a program prints on bad options.

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace ns3
{

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
