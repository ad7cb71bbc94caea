/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_REPLAY_H
#define AICLUSTER_CLUSTER_REPLAY_H

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The whole-cluster trace replay behind examples/trace-replay.cc, callable in-process.
 *
 * Reads the scenario (--scenario file, then the command line), the trace and the catalog,
 * annotates the jobs, and for each scheduling policy builds the engine with ClusterBuilder
 * (every chosen component on one cluster), runs it and writes
 * <output>/<policy>/{jobs.csv,utilization.csv,summary.json}; prints the trace report, the
 * cluster line, the JCT table and each component's figures.
 *
 * \param argc argument count, as main() got it
 * \param argv the arguments (argv[0] is the program)
 * \param program the program's source file for --help (CommandLine's argument)
 * \param out where the report goes
 * \return 0 (errors are thrown)
 * \throws std::exception with one line naming the file, field or option on bad input
 */
int RunTraceReplay(int argc, char* argv[], const std::string& program, std::ostream& out);

} // namespace ns3

#endif // AICLUSTER_CLUSTER_REPLAY_H
