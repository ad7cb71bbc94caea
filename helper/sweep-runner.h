/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_SWEEP_RUNNER_H
#define AICLUSTER_SWEEP_RUNNER_H

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief How a parameter sweep runs: where, how many points at a time, and Slurm's resources.
 *
 * Set from the sweep's own command-line options (doc/sweeps.md): `-j N` (or `--jobs=N`),
 * `--executor=local|slurm`, `--dry-run`, `--slurm-partition`, `--slurm-time`,
 * `--slurm-cpus-per-task`, `--slurm-mem`.
 */
struct SweepOptions
{
    uint32_t parallel{1};              //!< points run at a time by the local executor
    std::string executor{"local"};     //!< local (child processes) or slurm (one job array)
    bool dryRun{false};                //!< slurm: print the batch script, submit nothing
    std::string slurmPartition;        //!< partition; "" = the cluster's default
    std::string slurmTime{"01:00:00"}; //!< time limit per array task (Slurm's time format)
    uint32_t slurmCpusPerTask{1};      //!< CPUs per array task
    std::string slurmMemory;           //!< memory per array task (e.g. 4G); "" = default
    double pollInterval{2.0};          //!< slurm: seconds between progress polls
};

/**
 * \ingroup aicluster
 * \brief One point of a sweep: a value for every swept option.
 */
struct SweepPoint
{
    std::vector<std::pair<std::string, std::string>>
        values;            //!< option name -> value, in axis order
    std::string directory; //!< its result directory, inside the sweep's output
};

/**
 * \ingroup aicluster
 * \brief Runs an example once per point of a parameter grid and gathers the points' summaries.
 *
 * Any option written `--name=v1,v2,...` (other than the example's own list options and
 * `--ns3::` attributes) and any entry of a scenario file's `sweep` block is an axis; the cross
 * product of the axes runs as separate processes of the same program, each point writing into
 * `<output>/<name>=<value>_...`. A point whose directory holds `point.done` is skipped, so a
 * rerun of an interrupted sweep resumes where it stopped. `<output>/sweep.csv` gets one row per
 * point and policy: the point's values, then the numbers of its `summary.json` "summary" block.
 */
class StrictCommandLine;

class SweepRunner
{
  public:
    /**
     * \param experiment the example's name (for messages and the Slurm job name)
     * \param argc argument count, as main() got it
     * \param argv the arguments
     * \param listOptions options whose value is a list by nature (never an axis), e.g. policy
     * \param defaultOutput the example's default --output
     * \throws std::invalid_argument naming the option or scenario field on a bad sweep option
     */
    SweepRunner(std::string experiment,
                int argc,
                char* argv[],
                std::set<std::string> listOptions,
                std::string defaultOutput);

    /**
     * \brief Declare the sweep options (-j/--jobs, --executor, --dry-run, --slurm-*) on the
     * experiment's command line, so that --help lists them. The sweep runner parses them before
     * the experiment does; reaching the experiment's parser, they are a usage error.
     * \param cmd the experiment's command line
     */
    static void DescribeOptions(StrictCommandLine& cmd);

    /** \return true if the command line or the scenario file asks for a sweep */
    bool IsSweep() const;

    /**
     * \brief Run every point not yet done, with progress on stderr, then write sweep.csv.
     * \return the exit code: 0 when every point succeeded, 1 otherwise
     * \throws std::runtime_error naming the file on an unwritable output or a failed submission
     */
    int Run();

    /** \return the points, in the order they run */
    const std::vector<SweepPoint>& Points() const;

    /** \return the Slurm batch script that runs the points not yet done (one array task each) */
    std::string SlurmScript() const;

  private:
    void ParseArguments(int argc, char* argv[], const std::set<std::string>& listOptions);
    void ReadScenarioAxes(const std::string& path);
    void BuildPoints();
    std::vector<std::string> PointArguments(const SweepPoint& point) const;
    std::vector<size_t> PendingPoints() const;
    void CheckOrRecordSweep() const;
    int RunLocal(const std::vector<size_t>& pending);
    int RunSlurm(const std::vector<size_t>& pending);
    void WriteSweepCsv() const;

    std::string m_experiment;         //!< example name
    std::string m_program;            //!< absolute path of the binary
    std::string m_workDir;            //!< directory points run in
    std::vector<std::string> m_fixed; //!< arguments every point gets
    std::vector<std::pair<std::string, std::vector<std::string>>> m_axes; //!< swept options
    std::string m_output;                                                 //!< the sweep's directory
    SweepOptions m_options;                                               //!< how it runs
    bool m_sweepOptionGiven{false};   //!< -j, --executor ... seen
    std::vector<SweepPoint> m_points; //!< the cross product
};

} // namespace ns3

#endif // AICLUSTER_SWEEP_RUNNER_H
