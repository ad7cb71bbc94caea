/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

#include "sweep-runner.h"

#include "strict-options.h"

#include "ns3/log.h"
#include "ns3/progress-reporter.h"
#include "ns3/strict-parse.h"
#include "ns3/trace-reader.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SweepRunner");

namespace
{

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// Set by SIGINT/SIGTERM: the local executor stops its children and leaves.
volatile std::sig_atomic_t g_interrupted = 0;

void
OnInterrupt(int)
{
    g_interrupted = 1;
}

std::vector<std::string>
SplitCommas(const std::string& text)
{
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
    {
        items.push_back(item);
    }
    if (!text.empty() && text.back() == ',')
    {
        items.emplace_back();
    }
    return items;
}

/// A value written into a directory name: path separators and shell-unfriendly bytes become '_'.
std::string
DirectorySafe(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                     c == '+' || c == '_';
        out += plain ? c : '_';
    }
    return out.empty() ? "_" : out;
}

/// `text` quoted for a POSIX shell.
std::string
ShellQuote(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
    {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

/// A scalar from a scenario's sweep block as command-line text.
std::string
ScalarText(const nlohmann::json& value, const std::string& where)
{
    if (value.is_string())
    {
        return value.get<std::string>();
    }
    if (value.is_number() || value.is_boolean())
    {
        return value.dump();
    }
    throw std::invalid_argument(where + ": expected a string, number or boolean, got " +
                                std::string(value.type_name()));
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
    {
        return text;
    }
    std::string out = "\"";
    for (char c : text)
    {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

/// Output of a shell command (stdout), and its exit status.
std::pair<std::string, int>
Capture(const std::string& command)
{
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        throw std::runtime_error("cannot run '" + command + "': " + std::strerror(errno));
    }
    std::string out;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    {
        out.append(buffer, n);
    }
    int status = pclose(pipe);
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : 128};
}

void
WriteFileOrThrow(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
    {
        throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    }
}

std::string
ReadFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Progress of a sweep, printed on stderr whenever a count changes.
class Progress
{
  public:
    Progress(std::string experiment, size_t total, size_t alreadyDone)
        : m_experiment(std::move(experiment)),
          m_total(total),
          m_alreadyDone(alreadyDone),
          m_start(Clock::now())
    {
    }

    void Update(size_t done, size_t running, size_t failed)
    {
        if (done == m_done && running == m_running && failed == m_failed && m_printed)
        {
            return;
        }
        m_done = done;
        m_running = running;
        m_failed = failed;
        m_printed = true;
        double elapsed = std::chrono::duration<double>(Clock::now() - m_start).count();
        size_t doneHere = done - m_alreadyDone + failed;
        size_t left = m_total - done - failed;
        std::ostringstream line;
        line << m_experiment << ": " << done << "/" << m_total << " done, " << running
             << " running, " << failed << " failed";
        if (doneHere > 0 && left > 0)
        {
            // The pace observed so far, parallelism included, carried over the points left.
            line << ", about " << static_cast<long>(elapsed / doneHere * left + 0.5) << " s left";
        }
        line << " (" << static_cast<long>(elapsed + 0.5) << " s)";
        ProgressReporter::Report("sweep", line.str());
    }

  private:
    std::string m_experiment;
    size_t m_total;
    size_t m_alreadyDone;
    Clock::time_point m_start;
    size_t m_done{0};
    size_t m_running{0};
    size_t m_failed{0};
    bool m_printed{false};
};

const char* const DONE_MARKER = "point.done";

/// A sweep option that reached an experiment's own parser: no sweep was asked for.
bool
RejectOutsideSweep(std::string name, std::string /* value */)
{
    throw UsageError("--" + name +
                     ": runs a sweep, so it needs at least one option with a "
                     "list of values (doc/sweeps.md)");
}

} // namespace

void
SweepRunner::DescribeOptions(StrictCommandLine& cmd)
{
    NS_LOG_FUNCTION(&cmd);

    struct Described
    {
        const char* name;
        const char* help;
    };

    static const Described options[] = {
        {"jobs", "Sweep: points run at once by the local executor (also -j N) [1-1024]"},
        {"executor", "Sweep: local (child processes) or slurm (one sbatch job array)"},
        {"dry-run", "Sweep: print the points (and the Slurm script) without running them"},
        {"slurm-partition", "Sweep, slurm executor: sbatch --partition"},
        {"slurm-time", "Sweep, slurm executor: sbatch --time per point (e.g. 00:30:00)"},
        {"slurm-cpus-per-task", "Sweep, slurm executor: sbatch --cpus-per-task [1-4096]"},
        {"slurm-mem", "Sweep, slurm executor: sbatch --mem per point (e.g. 4G)"},
    };
    for (const auto& option : options)
    {
        std::string name = option.name;
        // AiclusterCommandLineCallback: the parser's signature differs from ns-3.38 on.
        cmd.AddValue(option.name,
                     option.help,
                     AiclusterCommandLineCallback(
                         [name](std::string value) { return RejectOutsideSweep(name, value); }));
    }
}

SweepRunner::SweepRunner(std::string experiment,
                         int argc,
                         char* argv[],
                         std::set<std::string> listOptions,
                         std::string defaultOutput)
    : m_experiment(std::move(experiment)),
      m_output(std::move(defaultOutput))
{
    NS_LOG_FUNCTION(this << m_experiment << argc);
    ParseArguments(argc, argv, listOptions);
    if (m_sweepOptionGiven && m_axes.empty())
    {
        throw std::invalid_argument(
            "-j, --executor and the --slurm-* options run sweeps: give at least one option a "
            "list of values (e.g. --load-scale=1,2) or a scenario file a \"sweep\" block");
    }
    BuildPoints();
}

void
SweepRunner::ParseArguments(int argc, char* argv[], const std::set<std::string>& listOptions)
{
    NS_LOG_FUNCTION(this << argc);
    std::error_code error;
    fs::path self = fs::read_symlink("/proc/self/exe", error);
    m_program = error ? std::string(argv[0]) : self.string();
    m_workDir = fs::current_path().string();
    std::string scenario;
    std::vector<std::pair<std::string, std::vector<std::string>>> commandLineAxes;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        auto takeValue = [&](const std::string& name) -> std::string {
            if (i + 1 >= argc)
            {
                throw UsageError(name + ": expected a value after it");
            }
            return argv[++i];
        };
        bool attachedJ = arg.rfind("-j", 0) == 0 && arg.size() > 2 && arg[2] != '-';
        if (arg == "-j" || attachedJ || arg.rfind("--jobs=", 0) == 0)
        {
            std::string value = arg == "-j"                    ? takeValue("-j")
                                : arg.rfind("--jobs=", 0) == 0 ? arg.substr(7)
                                                               : arg.substr(2);
            m_options.parallel = strictopt::Unsigned("-j", value, 1, 1024);
            m_sweepOptionGiven = true;
            continue;
        }
        if (arg == "--dry-run")
        {
            m_options.dryRun = true;
            m_sweepOptionGiven = true;
            continue;
        }
        if (arg.rfind("--", 0) != 0 || arg.find('=') == std::string::npos)
        {
            m_fixed.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2, arg.find('=') - 2);
        std::string value = arg.substr(arg.find('=') + 1);
        if (name == "executor")
        {
            strictopt::Choice("--executor", value, {"local", "slurm"});
            m_options.executor = value;
            m_sweepOptionGiven = true;
        }
        else if (name == "slurm-partition" || name == "slurm-time" || name == "slurm-mem")
        {
            if (value.empty() || value.find_first_of(" \t\n'\"\\$`;") != std::string::npos)
            {
                throw UsageError("--" + name + ": expected one word as Slurm writes it, got '" +
                                 value + "'");
            }
            (name == "slurm-partition" ? m_options.slurmPartition
             : name == "slurm-time"    ? m_options.slurmTime
                                       : m_options.slurmMemory) = value;
            m_sweepOptionGiven = true;
        }
        else if (name == "slurm-cpus-per-task")
        {
            m_options.slurmCpusPerTask = strictopt::Unsigned("--" + name, value, 1, 4096);
            m_sweepOptionGiven = true;
        }
        else if (name == "output")
        {
            m_output = value; // each point gets a sub-directory of it
        }
        else if (name == "scenario")
        {
            scenario = value;
            m_fixed.push_back(arg);
        }
        else if (value.find(',') != std::string::npos && name.rfind("ns3::", 0) != 0 &&
                 listOptions.count(name) == 0)
        {
            std::vector<std::string> values = SplitCommas(value);
            for (const auto& v : values)
            {
                if (v.empty())
                {
                    throw UsageError("--" + name +
                                     ": a sweep needs a value between every comma, got '" + value +
                                     "'");
                }
            }
            commandLineAxes.push_back({name, values});
        }
        else
        {
            m_fixed.push_back(arg);
        }
    }
    if (!scenario.empty())
    {
        ReadScenarioAxes(scenario);
    }
    // The command line wins over the scenario file, axis by axis.
    for (auto& [name, values] : commandLineAxes)
    {
        auto same = std::find_if(m_axes.begin(), m_axes.end(), [&name = name](const auto& axis) {
            return axis.first == name;
        });
        if (same != m_axes.end())
        {
            same->second = values;
        }
        else
        {
            m_axes.push_back({name, values});
        }
    }
    // A fixed option that names an axis overrides it with one value.
    for (const auto& arg : m_fixed)
    {
        for (auto it = m_axes.begin(); it != m_axes.end();)
        {
            it = arg.rfind("--" + it->first + "=", 0) == 0 ? m_axes.erase(it) : it + 1;
        }
    }
}

void
SweepRunner::ReadScenarioAxes(const std::string& path)
{
    NS_LOG_FUNCTION(this << path);
    std::ifstream in(path);
    if (!in || fs::is_directory(path))
    {
        return; // the example's own scenario loader names the file and the problem
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nlohmann::json root;
    try
    {
        root = strict::ParseJson(path, text); // depth-checked: a hostile file never recurses
    }
    catch (const TraceError&)
    {
        return; // the example's own scenario loader names the file and the problem
    }
    if (!root.is_object() || !root.contains("sweep"))
    {
        return;
    }
    const nlohmann::json& sweep = root["sweep"];
    std::string where = path + ": field sweep";
    if (!sweep.is_object())
    {
        throw std::invalid_argument(where +
                                    ": expected an object of option name -> list of "
                                    "values, got " +
                                    std::string(sweep.type_name()));
    }
    for (const auto& [name, values] : sweep.items())
    {
        std::string field = where + "." + name;
        if (!values.is_array() || values.empty())
        {
            throw std::invalid_argument(field + ": expected a non-empty list of values");
        }
        std::vector<std::string> texts;
        for (const auto& value : values)
        {
            texts.push_back(ScalarText(value, field));
        }
        m_axes.push_back({name, texts});
    }
    if (root.contains("output") && root["output"].is_string())
    {
        m_output = root["output"].get<std::string>();
    }
}

void
SweepRunner::BuildPoints()
{
    NS_LOG_FUNCTION(this);
    m_points.clear();
    if (m_axes.empty())
    {
        return;
    }
    std::vector<size_t> index(m_axes.size(), 0);
    while (true)
    {
        SweepPoint point;
        std::string name;
        for (size_t a = 0; a < m_axes.size(); ++a)
        {
            const auto& [option, values] = m_axes[a];
            point.values.push_back({option, values[index[a]]});
            name += (a ? "_" : "") + DirectorySafe(option) + "=" + DirectorySafe(values[index[a]]);
        }
        point.directory = (fs::path(m_output) / name).string();
        m_points.push_back(point);
        size_t a = m_axes.size();
        while (a > 0 && ++index[a - 1] == m_axes[a - 1].second.size())
        {
            index[--a] = 0;
        }
        if (a == 0)
        {
            break;
        }
    }
}

bool
SweepRunner::IsSweep() const
{
    NS_LOG_FUNCTION(this);
    return !m_axes.empty();
}

const std::vector<SweepPoint>&
SweepRunner::Points() const
{
    NS_LOG_FUNCTION(this);
    return m_points;
}

std::vector<std::string>
SweepRunner::PointArguments(const SweepPoint& point) const
{
    NS_LOG_FUNCTION(this << point.directory);
    std::vector<std::string> args{m_program};
    args.insert(args.end(), m_fixed.begin(), m_fixed.end());
    for (const auto& [option, value] : point.values)
    {
        args.push_back("--" + option + "=" + value);
    }
    args.push_back("--output=" + point.directory);
    return args;
}

std::vector<size_t>
SweepRunner::PendingPoints() const
{
    NS_LOG_FUNCTION(this);
    std::vector<size_t> pending;
    for (size_t i = 0; i < m_points.size(); ++i)
    {
        if (!fs::exists(fs::path(m_points[i].directory) / DONE_MARKER))
        {
            pending.push_back(i);
        }
    }
    return pending;
}

void
SweepRunner::CheckOrRecordSweep() const
{
    NS_LOG_FUNCTION(this);
    // The sweep's description: a rerun resumes only the same sweep, never mixes two.
    nlohmann::json description;
    description["experiment"] = m_experiment;
    description["fixed_arguments"] = m_fixed;
    description["axes"] = nlohmann::json::array();
    for (const auto& [name, values] : m_axes)
    {
        description["axes"].push_back({{"option", name}, {"values", values}});
    }
    std::string text = description.dump(2) + "\n";
    fs::path file = fs::path(m_output) / "sweep.json";
    std::error_code error;
    fs::create_directories(m_output, error);
    if (error)
    {
        throw std::runtime_error("cannot create " + m_output + ": " + error.message());
    }
    if (fs::exists(file) && ReadFile(file) != text)
    {
        throw std::runtime_error(file.string() +
                                 " describes a different sweep: choose another --output, or "
                                 "remove that directory to start afresh");
    }
    WriteFileOrThrow(file, text);
}

int
SweepRunner::Run()
{
    NS_LOG_FUNCTION(this);
    std::vector<size_t> pending = PendingPoints();
    if (m_options.executor == "slurm" && m_options.dryRun)
    {
        std::cout << SlurmScript();
        return 0;
    }
    CheckOrRecordSweep();
    // The sweep's own lines stay on: a --quiet is an option of the points (test/sweep).
    ProgressReporter::Report("sweep",
                             m_experiment + ": " + std::to_string(m_points.size()) + " points (" +
                                 std::to_string(m_points.size() - pending.size()) +
                                 " already done) into " + m_output + ", " +
                                 (m_options.executor == "slurm"
                                      ? std::string("as one Slurm job array")
                                      : std::to_string(m_options.parallel) + " at a time"));
    int status = m_options.executor == "slurm" ? RunSlurm(pending) : RunLocal(pending);
    WriteSweepCsv();
    std::cout << "sweep: " << m_points.size() - PendingPoints().size() << " of " << m_points.size()
              << " points done; table " << m_output << "/sweep.csv" << std::endl;
    return status;
}

int
SweepRunner::RunLocal(const std::vector<size_t>& pending)
{
    NS_LOG_FUNCTION(this << pending.size());
    struct sigaction action = {};
    struct sigaction oldInt = {};
    struct sigaction oldTerm = {};
    action.sa_handler = OnInterrupt;
    sigaction(SIGINT, &action, &oldInt);
    sigaction(SIGTERM, &action, &oldTerm);
    g_interrupted = 0;

    std::map<pid_t, size_t> running; // child -> point
    size_t next = 0;
    size_t done = m_points.size() - pending.size();
    size_t failed = 0;
    Progress progress(m_experiment, m_points.size(), done);
    while ((next < pending.size() || !running.empty()) && !g_interrupted)
    {
        while (next < pending.size() && running.size() < m_options.parallel)
        {
            const SweepPoint& point = m_points[pending[next++]];
            fs::create_directories(point.directory);
            std::vector<std::string> args = PointArguments(point);
            std::vector<char*> argv;
            for (auto& a : args)
            {
                argv.push_back(a.data());
            }
            argv.push_back(nullptr);
            std::string log = (fs::path(point.directory) / "log.txt").string();
            posix_spawn_file_actions_t files;
            posix_spawn_file_actions_init(&files);
            posix_spawn_file_actions_addopen(&files,
                                             STDOUT_FILENO,
                                             log.c_str(),
                                             O_WRONLY | O_CREAT | O_TRUNC,
                                             0644);
            posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
            pid_t pid;
            int error = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
            posix_spawn_file_actions_destroy(&files);
            if (error != 0)
            {
                throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(error));
            }
            running[pid] = pending[next - 1];
        }
        progress.Update(done, running.size(), failed);
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0)
        {
            continue; // interrupted by a signal: the loop condition decides
        }
        auto it = running.find(pid);
        if (it == running.end())
        {
            continue;
        }
        const SweepPoint& point = m_points[it->second];
        running.erase(it);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        {
            WriteFileOrThrow(fs::path(point.directory) / DONE_MARKER, "");
            ++done;
        }
        else
        {
            ++failed;
            ProgressReporter::Notice("sweep",
                                     "point " + point.directory + " failed (" +
                                         (WIFEXITED(status)
                                              ? "exit " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status))) +
                                         "); its output: " + point.directory + "/log.txt");
        }
        progress.Update(done, running.size(), failed);
    }
    if (g_interrupted)
    {
        for (const auto& [pid, index] : running)
        {
            kill(pid, SIGTERM);
        }
        for (const auto& [pid, index] : running)
        {
            waitpid(pid, nullptr, 0);
        }
        ProgressReporter::Notice("sweep",
                                 "interrupted: " + std::to_string(done) + " of " +
                                     std::to_string(m_points.size()) +
                                     " points done; run the same command again to resume");
    }
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
    if (g_interrupted)
    {
        return 130;
    }
    return failed == 0 ? 0 : 1;
}

std::string
SweepRunner::SlurmScript() const
{
    NS_LOG_FUNCTION(this);
    std::vector<size_t> pending = PendingPoints();
    std::ostringstream script;
    script << "#!/bin/bash\n"
           << "# aicluster sweep: " << m_points.size() << " points of " << m_experiment
           << ", one array task per point not yet done\n"
           << "#SBATCH --job-name=aicluster-" << m_experiment << "\n";
    script << "#SBATCH --array=";
    for (size_t i = 0; i < pending.size(); ++i)
    {
        script << (i ? "," : "") << pending[i];
    }
    script << "\n#SBATCH --output=" << (fs::absolute(m_output) / "slurm-%A_%a.out").string()
           << "\n#SBATCH --chdir=" << m_workDir << "\n#SBATCH --ntasks=1\n"
           << "#SBATCH --cpus-per-task=" << m_options.slurmCpusPerTask << "\n"
           << "#SBATCH --time=" << m_options.slurmTime << "\n";
    if (!m_options.slurmPartition.empty())
    {
        script << "#SBATCH --partition=" << m_options.slurmPartition << "\n";
    }
    if (!m_options.slurmMemory.empty())
    {
        script << "#SBATCH --mem=" << m_options.slurmMemory << "\n";
    }
    script << "set -u\ncase \"$SLURM_ARRAY_TASK_ID\" in\n";
    for (size_t i : pending)
    {
        const SweepPoint& point = m_points[i];
        script << "  " << i << ") dir=" << ShellQuote(point.directory) << "; set --";
        for (const auto& arg : PointArguments(point))
        {
            script << " " << ShellQuote(arg);
        }
        script << " ;;\n";
    }
    script << "  *) echo \"no sweep point $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n"
           << "mkdir -p \"$dir\" || exit 1\n"
           << "\"$@\" > \"$dir/log.txt\" 2>&1 || exit $?\n"
           << ": > \"$dir/" << DONE_MARKER << "\"\n";
    return script.str();
}

int
SweepRunner::RunSlurm(const std::vector<size_t>& pending)
{
    NS_LOG_FUNCTION(this << pending.size());
    if (pending.empty())
    {
        return 0;
    }
    fs::path scriptPath = fs::path(m_output) / "sweep.sbatch";
    WriteFileOrThrow(scriptPath, SlurmScript());
    auto [submitted, status] = Capture("sbatch --parsable " + ShellQuote(scriptPath.string()));
    std::string jobId = submitted.substr(0, submitted.find_first_of(";\n"));
    if (status != 0 || jobId.empty())
    {
        throw std::runtime_error("sbatch " + scriptPath.string() + " failed (exit " +
                                 std::to_string(status) + "): " + submitted);
    }
    ProgressReporter::Report("sweep",
                             "submitted Slurm job array " + jobId + " (" +
                                 std::to_string(pending.size()) + " tasks, script " +
                                 scriptPath.string() + ")");
    size_t alreadyDone = m_points.size() - pending.size();
    Progress progress(m_experiment, m_points.size(), alreadyDone);
    while (true)
    {
        auto [queue, queueStatus] = Capture("squeue -h -j " + jobId + " -o %T 2>/dev/null");
        size_t queued = 0;
        size_t running = 0;
        std::istringstream lines(queue);
        std::string state;
        while (lines >> state)
        {
            ++queued;
            running += state == "RUNNING" || state == "COMPLETING";
        }
        size_t done = m_points.size() - PendingPoints().size();
        if (queueStatus == 0 && queued == 0)
        {
            size_t failed = m_points.size() - done;
            progress.Update(done, 0, failed);
            return failed == 0 ? 0 : 1;
        }
        progress.Update(done, running, 0);
        std::this_thread::sleep_for(std::chrono::duration<double>(m_options.pollInterval));
    }
}

void
SweepRunner::WriteSweepCsv() const
{
    NS_LOG_FUNCTION(this);
    std::ostringstream csv;
    std::vector<std::string> metrics;
    bool header = false;
    for (const SweepPoint& point : m_points)
    {
        if (!fs::exists(fs::path(point.directory) / DONE_MARKER))
        {
            continue;
        }
        // One row per policy sub-directory, by name.
        std::vector<std::string> policies;
        for (const auto& entry : fs::directory_iterator(point.directory))
        {
            if (fs::exists(entry.path() / "summary.json"))
            {
                policies.push_back(entry.path().filename().string());
            }
        }
        std::sort(policies.begin(), policies.end());
        for (const std::string& policy : policies)
        {
            fs::path file = fs::path(point.directory) / policy / "summary.json";
            std::ifstream in(file);
            nlohmann::json summary = nlohmann::json::parse(in, nullptr, false);
            if (summary.is_discarded() || !summary.contains("summary") ||
                !summary["summary"].is_object())
            {
                throw std::runtime_error(file.string() + ": expected a summary.json with a "
                                                         "\"summary\" object");
            }
            const nlohmann::json& values = summary["summary"];
            if (!header)
            {
                for (const auto& [name, value] : values.items())
                {
                    if (value.is_primitive())
                    {
                        metrics.push_back(name);
                    }
                }
                for (const auto& [option, value] : point.values)
                {
                    csv << CsvField(option) << ",";
                }
                csv << "policy";
                for (const auto& name : metrics)
                {
                    csv << "," << name;
                }
                csv << "\n";
                header = true;
            }
            for (const auto& [option, value] : point.values)
            {
                csv << CsvField(value) << ",";
            }
            csv << CsvField(policy);
            for (const auto& name : metrics)
            {
                csv << ",";
                if (values.contains(name) && values[name].is_primitive())
                {
                    csv << CsvField(values[name].is_string() ? values[name].get<std::string>()
                                                             : values[name].dump());
                }
            }
            csv << "\n";
        }
    }
    WriteFileOrThrow(fs::path(m_output) / "sweep.csv", csv.str());
}

} // namespace ns3
