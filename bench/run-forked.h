/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_BENCH_RUN_FORKED_H
#define AICLUSTER_BENCH_RUN_FORKED_H

// The benches run each configuration in a forked child, so that its peak memory is its own
// and one run's heap does not slow the next; the child's figures come back through a pipe.

#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <type_traits>
#include <unistd.h>

namespace ns3
{

/**
 * \brief Run work() in a forked child and read back what it returns.
 * \param label named in the error message if work() throws
 * \param work the run; its result is copied through a pipe byte for byte
 * \param out the child's result, if it succeeded
 * \param maxRssKiB if not null: the child's peak resident memory [KiB]
 * \return false if the child failed (threw, or could not report)
 */
template <typename Figures>
bool
RunForked(const std::string& label,
          const std::function<Figures()>& work,
          Figures& out,
          long* maxRssKiB = nullptr)
{
    static_assert(std::is_trivially_copyable_v<Figures>, "figures go through a pipe as bytes");
    int fds[2];
    if (pipe(fds) != 0)
    {
        perror("pipe");
        return false;
    }
    pid_t child = fork();
    if (child == 0)
    {
        close(fds[0]);
        int status = 1;
        try
        {
            Figures f = work();
            status = write(fds[1], &f, sizeof f) == sizeof f ? 0 : 1;
        }
        catch (const std::exception& e)
        {
            std::cerr << label << ": " << e.what() << std::endl;
        }
        _exit(status);
    }
    close(fds[1]);
    bool ok = read(fds[0], &out, sizeof out) == sizeof out;
    close(fds[0]);
    int status = 0;
    struct rusage usage;
    wait4(child, &status, 0, &usage);
    if (maxRssKiB)
    {
        *maxRssKiB = usage.ru_maxrss;
    }
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace ns3

#endif // AICLUSTER_BENCH_RUN_FORKED_H
