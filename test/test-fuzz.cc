/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// The project's own fuzz test (issue #18), seeded and bounded in time:
//  - mutations of valid (and invalid) traces, scenarios and catalogs go through every reader
//    and loader: each must either read or throw a TraceError whose one-line message names
//    the file;
//  - hostile option values go through every example, run as a subprocess with a timeout:
//    exit status 0, 1 or 2 only, a one-line message when it fails, no signal, no hang.
// The same seed gives the same inputs; every failure prints the input that caused it.

#include "run-program.h"
#include "temp-dir.h"

#include "ns3/cluster-scenario.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ns3;
namespace fs = std::filesystem;

namespace
{

const uint64_t kSeed = 20261201;

fs::path
TempDir(const std::string& name)
{
    static const std::string root = TestTempDir("fuzz");
    fs::path dir = fs::path(root) / name;
    fs::create_directories(dir);
    return dir;
}

std::string
ReadAll(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void
WriteAll(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

/** Tokens that broke readers and options before (issue #18), and their relatives. */
const std::vector<std::string>&
HostileTokens()
{
    static const std::vector<std::string> tokens = {"0x10",
                                                    "1e309",
                                                    "-1",
                                                    "nan",
                                                    "inf",
                                                    "9.3e9",
                                                    "4294967297",
                                                    "\"",
                                                    "\r",
                                                    "\r\n",
                                                    ",,,",
                                                    "\t",
                                                    "[[[[[[",
                                                    "null",
                                                    "None",
                                                    "NaT",
                                                    "\xEF\xBB\xBF",
                                                    "99999999999999999999",
                                                    "-0",
                                                    "1e-320",
                                                    "2x",
                                                    "16abc",
                                                    "2.5",
                                                    "{}",
                                                    "[]",
                                                    "\\",
                                                    "\xff\xfe",
                                                    "2020-13-45 25:61:61",
                                                    std::string(300, '['),
                                                    std::string(5000, 'a')};
    return tokens;
}

/** One random damage to a text. */
void
Mutate(std::string& text, std::mt19937_64& rng)
{
    const auto& tokens = HostileTokens();
    auto pick = [&rng](size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); };
    const std::string bytes = std::string("\0\r\n,\"\t[]{}-9e.:\xff", 16);
    switch (rng() % 8)
    {
    case 0: // flip one byte to an interesting one
        if (!text.empty())
        {
            text[pick(text.size())] = bytes[pick(bytes.size())];
        }
        break;
    case 1: // insert a hostile token
        text.insert(pick(text.size() + 1), tokens[pick(tokens.size())]);
        break;
    case 2: { // replace a number with a hostile token
        size_t at = text.find_first_of("0123456789", pick(text.size() + 1));
        if (at != std::string::npos)
        {
            size_t end = text.find_first_not_of("0123456789.", at);
            text.replace(at,
                         (end == std::string::npos ? text.size() : end) - at,
                         tokens[pick(tokens.size())]);
        }
        break;
    }
    case 3: { // delete a span
        size_t at = pick(text.size() + 1);
        text.erase(at, pick(64));
        break;
    }
    case 4: { // duplicate a line
        size_t at = text.rfind('\n', pick(text.size() + 1));
        at = at == std::string::npos ? 0 : at + 1;
        size_t end = text.find('\n', at);
        std::string line =
            text.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
        text.insert(at, line);
        break;
    }
    case 5: // truncate
        text.resize(pick(text.size() + 1));
        break;
    case 6: // classic-Mac line ends
        std::replace(text.begin(), text.end(), '\n', '\r');
        break;
    default: // empty a field between separators
    {
        size_t at = text.find_first_of(",\t:", pick(text.size() + 1));
        if (at != std::string::npos)
        {
            size_t end = text.find_first_of(",\t\n}", at + 1);
            if (end != std::string::npos)
            {
                text.erase(at + 1, end - at - 1);
            }
        }
        break;
    }
    }
}

enum class Loader
{
    TRACE,
    SCENARIO,
    CATALOG
};

struct InputSeed
{
    fs::path path;
    Loader loader;
};

std::vector<InputSeed>
Seeds()
{
    std::vector<InputSeed> seeds;
    const fs::path data(AICLUSTER_TEST_DATA);
    for (const auto& entry : fs::directory_iterator(data / "traces"))
    {
        seeds.push_back({entry.path(), Loader::TRACE});
    }
    for (const auto& entry : fs::directory_iterator(data / "scenario"))
    {
        seeds.push_back({entry.path(), Loader::SCENARIO});
    }
    const fs::path source = data.parent_path().parent_path();
    for (const auto& entry : fs::directory_iterator(source / "examples" / "scenarios"))
    {
        seeds.push_back({entry.path(), Loader::SCENARIO});
    }
    seeds.push_back({source / "traces" / "sample" / "sample-trace.csv", Loader::TRACE});
    for (const char* catalog : {"small.json", "unknown-field.json", "fractional-batch.json"})
    {
        seeds.push_back({data / "catalog" / catalog, Loader::CATALOG});
    }
    seeds.push_back({source / "data" / "workload-catalog.json", Loader::CATALOG});
    std::sort(seeds.begin(), seeds.end(), [](const InputSeed& a, const InputSeed& b) {
        return a.path < b.path;
    });
    return seeds;
}

/** Loads path with the loader; "" if it read or failed properly, else what went wrong. */
std::string
LoadProblem(const std::string& path, Loader loader, std::mt19937_64& rng)
{
    try
    {
        switch (loader)
        {
        case Loader::TRACE: {
            TraceReadOptions options;
            std::vector<std::string> formats = TraceFormats();
            formats.push_back("auto");
            formats.push_back("auto");
            options.format = formats[rng() % formats.size()];
            options.onError = rng() % 2 ? TraceErrorPolicy::SKIP : TraceErrorPolicy::STOP;
            TraceReadReport report;
            auto jobs = ReadTrace(path, options, &report);
            for (const auto& job : jobs)
            {
                if (!(job.submitTime >= 0 && job.submitTime <= 1e9) || job.numGpus == 0 ||
                    job.duration > 1e9)
                {
                    return "a job out of range was returned: " + job.source.Text();
                }
            }
            break;
        }
        case Loader::SCENARIO:
            ClusterScenario::Load(path);
            break;
        case Loader::CATALOG:
            WorkloadCatalog::Load(path);
            break;
        }
    }
    catch (const TraceError& e)
    {
        std::string message = e.what();
        if (message.find(path) == std::string::npos)
        {
            return "the message does not name the file: " + message;
        }
        if (message.find('\n') != std::string::npos)
        {
            return "the message is not one line: " + message;
        }
    }
    catch (const std::exception& e)
    {
        return std::string("an exception other than TraceError: ") + e.what();
    }
    return "";
}

// ---- subprocesses -----------------------------------------------------------------------

struct RunOutcome
{
    bool timedOut{false};
    int signal{0}; //!< the signal that ended it, 0 if it exited
    int status{0}; //!< exit status
    std::string err;
    double seconds{0};
};

RunOutcome
RunProgram(const fs::path& exe,
           const std::vector<std::string>& args,
           const fs::path& cwd,
           double timeoutSeconds)
{
    const fs::path errPath = cwd / "stderr.txt";
    auto start = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid == 0)
    {
        if (chdir(cwd.c_str()) != 0)
        {
            _exit(126);
        }
        int out = open("/dev/null", O_WRONLY);
        int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, 1);
        dup2(err, 2);
        std::vector<std::string> all = {exe.string()};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : all)
        {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        execv(exe.c_str(), argv.data());
        _exit(127);
    }
    RunOutcome o;
    int wstatus = 0;
    while (true)
    {
        pid_t done = waitpid(pid, &wstatus, WNOHANG);
        if (done == pid)
        {
            break;
        }
        double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed > timeoutSeconds)
        {
            kill(pid, SIGKILL);
            waitpid(pid, &wstatus, 0);
            o.timedOut = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!o.timedOut)
    {
        if (WIFSIGNALED(wstatus))
        {
            o.signal = WTERMSIG(wstatus);
        }
        else
        {
            o.status = WEXITSTATUS(wstatus);
        }
    }
    o.err = ReadAll(errPath);
    return o;
}

/** What is wrong with an outcome, "" if nothing: 0/1/2, no signal, no hang, one line. */
std::string
OutcomeProblem(const RunOutcome& o)
{
    if (o.timedOut)
    {
        return "did not finish in time (hang?)";
    }
    if (o.signal != 0)
    {
        return "killed by signal " + std::to_string(o.signal) + "; stderr: " + o.err;
    }
    if (o.status != 0 && o.status != 1 && o.status != 2)
    {
        return "exit status " + std::to_string(o.status) + "; stderr: " + o.err;
    }
    if (o.status != 0)
    {
        // Progress lines ("[aicluster] ...", "[sweep] ...": ProgressReporter's) may precede it:
        // the error is one other line.
        std::istringstream lines(o.err);
        std::string line;
        int errors = 0;
        while (std::getline(lines, line))
        {
            errors += !line.empty() && line.rfind("[", 0) != 0;
        }
        if (errors != 1)
        {
            return "exit status " + std::to_string(o.status) +
                   " without exactly one error line on stderr: '" + o.err.substr(0, 400) + "'";
        }
    }
    return "";
}

struct ExampleSpec
{
    std::string name;
    std::vector<std::string> base;    //!< cheap settings, so a valid value runs quickly
    std::vector<std::string> options; //!< options to fuzz
};

std::vector<ExampleSpec>
Examples()
{
    return {
        {"trace-replay",
         {"--max-jobs=30", "--policy=fifo", "--quiet"},
         {"nodes",
          "gpus-per-node",
          "max-jobs",
          "load-scale",
          "window-start",
          "window-end",
          "policy",
          "vc",
          "ina-pool-size",
          "seed",
          "trace",
          "scenario",
          "output",
          "on-error",
          "ns3::TiresiasPolicy::Thresholds",
          "ns3::ClusterEngine::ProgressInterval"}},
        {"trace-convert",
         {"--input=" + (fs::path(AICLUSTER_TEST_DATA) / "traces" / "philly-small.csv").string()},
         {"bench", "max-jobs", "load-scale", "window-end", "vc", "format", "output", "input"}},
        {"minimal-experiment", {}, {"output", "nodes", "RngSeed"}},
        {"ina-shared-aggregation",
         {"--jobs=1", "--workers=2", "--iterations=1", "--model-scale=1e-5"},
         {"policy",
          "pool-size",
          "workers",
          "jobs",
          "window",
          "loss",
          "link-rate",
          "racks",
          "sweep-pools",
          "grid-jobs",
          "output",
          "jitter-us",
          "priority-rule"}},
        {"rail-incast",
         {"--senders=1", "--bytes=10000"},
         // --bytes is not fuzzed: 4294967297 bytes is a valid (long) packet-level run.
         {"senders", "rail-gbps", "memory-gbps", "nic-dma-gbps", "pcie-gen", "out", "seed"}},
        {"rail-scaling",
         {"--max-nodes=1", "--bytes=1000"},
         {"max-nodes", "spines", "rail-gbps", "pattern", "level", "out"}},
        {"kspeed-provisioning",
         {"--mode=table", "--nodes=1", "--workloads=resnet50-imagenet"},
         {"mode", "nodes", "gpus-per-node", "workloads", "max-gpus", "output", "seed"}},
        {"storage-allocation",
         {"--max-jobs=30", "--storage-policies=none", "--quiet"},
         {"storage-policies",
          "cache-tb",
          "bandwidth",
          "share-probability",
          "dataset-pool",
          "on-error",
          "nodes",
          "output"}},
    };
}

/** Values for options: the classes of issue #18 (none of them is an expensive valid one). */
const std::vector<std::string>&
HostileValues()
{
    static const std::vector<std::string> values = {"",
                                                    "-1",
                                                    "0",
                                                    "1e3",
                                                    "16abc",
                                                    "2.5",
                                                    "0x10",
                                                    "2x",
                                                    "4294967297",
                                                    "18446744073709551616",
                                                    "1e309",
                                                    "nan",
                                                    "inf",
                                                    ",",
                                                    ",,",
                                                    "bogus",
                                                    "/dev/null/x",
                                                    "/proc",
                                                    "9.3e9",
                                                    " ",
                                                    "-0",
                                                    std::string(3000, 'x')};
    return values;
}

} // namespace

TEST_CASE("fuzz: mutated traces, scenarios and catalogs read or fail naming the file", "[fuzz]")
{
    std::mt19937_64 rng(kSeed);
    const std::vector<InputSeed> seeds = Seeds();
    REQUIRE(seeds.size() > 20);
    const fs::path dir = TempDir("inputs");
    const auto start = std::chrono::steady_clock::now();
    const int iterations = 6000;
    int done = 0;
    for (int i = 0; i < iterations; ++i)
    {
        const InputSeed& seed = seeds[rng() % seeds.size()];
        std::string text = ReadAll(seed.path);
        int mutations = 1 + static_cast<int>(rng() % 4);
        for (int m = 0; m < mutations; ++m)
        {
            Mutate(text, rng);
        }
        fs::path path = dir / ("case-" + std::to_string(i) + seed.path.extension().string());
        WriteAll(path, text);
        std::string problem = LoadProblem(path.string(), seed.loader, rng);
        if (!problem.empty())
        {
            FAIL("case " << i << " (from " << seed.path.filename().string() << ", kept at "
                         << path.string() << "): " << problem);
        }
        fs::remove(path);
        ++done;
        // Bounded in time on a loaded machine: the seeded sequence is cut, never changed.
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(15))
        {
            break;
        }
    }
    WARN("fuzzed " << done << " mutated inputs");
    CHECK(done >= 100);
}

TEST_CASE("fuzz: hostile option values through every example", "[fuzz]")
{
    std::mt19937_64 rng(kSeed + 1);
    const auto& values = HostileValues();
    const auto start = std::chrono::steady_clock::now();
    int runs = 0;
    for (const ExampleSpec& ex : Examples())
    {
        const fs::path exe = ExampleProgram(ex.name);
        if (!fs::exists(exe))
        {
            FAIL("example " << exe.string() << " is not built (./ns3 build)");
        }
        for (int k = 0; k < 8; ++k)
        {
            std::vector<std::string> args = ex.base;
            const std::string& option = ex.options[rng() % ex.options.size()];
            const std::string& value = values[rng() % values.size()];
            args.push_back("--" + option + "=" + value);
            const fs::path cwd = TempDir(ex.name + "-" + std::to_string(k));
            RunOutcome o = RunProgram(exe, args, cwd, 120);
            std::string problem = OutcomeProblem(o);
            if (!problem.empty())
            {
                std::string line = ex.name;
                for (const auto& a : args)
                {
                    line += " " + a.substr(0, 60);
                }
                FAIL(line << ": " << problem);
            }
            ++runs;
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(40))
        {
            break;
        }
    }
    WARN("ran " << runs << " example processes");
}

TEST_CASE("fuzz: the classes of issue #18 through the examples", "[fuzz]")
{
    const std::string sample =
        (fs::path(AICLUSTER_TEST_DATA) / "traces" / "philly-small.csv").string();

    const std::string deep = (TempDir("deep") / "deep.json").string();
    WriteAll(deep, std::string(100000, '['));

    struct Case
    {
        std::string example;
        std::vector<std::string> args;
        int status;        //!< expected exit status
        std::string named; //!< what its error line must name (empty: not checked)
    };

    const std::vector<Case> cases = {
        {"minimal-experiment", {"--output=/dev/null"}, 1},
        {"rail-incast", {"--senders=1", "--bytes=1000", "--output=/dev/null/x.json"}, 1},
        {"rail-incast", {"--senders=-1"}, 2},
        {"rail-incast", {"--bytes=-1"}, 2},
        {"rail-incast", {"--senders=1", "--bytes=1000", "--memory-gbps=9.3e9"}, 2},
        {"rail-incast", {"--senders=1", "--bytes=1000", "--rail-gbps=0"}, 2},
        {"rail-incast", {"--senders=1", "--bytes=1000", "--pcie-gen=9"}, 2},
        {"trace-replay", {"--scenario=" + deep}, 1},
        {"trace-replay", {"--trace=" + deep}, 1},
        {"trace-convert", {"--input=" + deep, "--format=philly-json"}, 1},
        {"kspeed-provisioning", {"--output=/proc"}, 1},
        {"kspeed-provisioning", {"--workloads=,"}, 2},
        {"kspeed-provisioning", {"--mode=scaling", "--max-gpus=0"}, 2},
        {"trace-convert", {"--input=" + sample, "--bench=-1"}, 2},
        {"rail-scaling", {"--max-nodes=-1"}, 2},
        {"ina-shared-aggregation", {"--policy=bogus"}, 2},
        {"ina-shared-aggregation", {"--window=0"}, 2},
        {"ina-shared-aggregation", {"--atp-cc=foo"}, 2},
        {"ina-shared-aggregation", {"--atp-cc="}, 2},
        {"ina-shared-aggregation", {"--loss=-0.1"}, 2},
        {"ina-shared-aggregation", {"--loss=abc"}, 2},
        {"ina-shared-aggregation", {"--loss=1"}, 2},
        {"ina-shared-aggregation", {"--pool-size=0"}, 2},
        {"ina-shared-aggregation", {"--link-rate=fast"}, 2},
        {"ina-shared-aggregation", {"--grid-jobs=0"}, 2, "--grid-jobs"},
        {"ina-shared-aggregation", {"--workers=33"}, 2, "--workers"},
        {"trace-replay", {"--ns3::TiresiasPolicy::Thresholds=abc"}, 2},
        {"trace-replay", {"--nodes=1e3"}, 2},
        {"trace-replay", {"--trace=/proc"}, 1},
        {"storage-allocation", {"--storage-policies=,"}, 2},
    };
    for (size_t i = 0; i < cases.size(); ++i)
    {
        const Case& c = cases[i];
        const fs::path cwd = TempDir("case-" + std::to_string(i));
        RunOutcome o = RunProgram(ExampleProgram(c.example), c.args, cwd, 120);
        std::string line = c.example;
        for (const auto& a : c.args)
        {
            line += " " + a;
        }
        INFO(line << " -> status " << o.status << ", signal " << o.signal << ", stderr: " << o.err);
        CHECK(OutcomeProblem(o).empty());
        CHECK(o.status == c.status);
        CHECK(o.err.find(c.named) != std::string::npos);
    }
}
