/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Readers of the line-oriented trace formats (CSV and Gavel's TSV). Each format is a
// small row parser: it finds its columns by name in the header once, then turns one
// row into a JobRecord or an Outcome saying why the row is not a job. How each field
// maps to JobRecord is documented in traces/README.md.

#include "trace-parse.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ns3
{
namespace tracefmt
{
namespace
{

using Row = std::vector<std::string>;

/** \return the column's trimmed value, or "" if the header lacks it (index -1) */
std::string
Optional(const Row& row, int index)
{
    return index < 0 ? std::string() : Trim(row[index]);
}

/**
 * Runs a row parser over every record after the header. Errors in the header (a
 * missing column) and in the tokenizer (a broken quote) stop the read whatever the
 * policy, since nothing after them can be trusted; errors in a row follow the policy.
 */
template <typename Parser>
void
ReadRows(CsvCursor& cursor, const Columns* columns, Collector& collector, const Parser& parse)
{
    Row row;
    while (cursor.Next(row))
    {
        Site site{collector.File(), cursor.Line()};
        JobRecord job;
        Outcome outcome;
        try
        {
            if (columns)
            {
                columns->CheckRow(row, site);
            }
            outcome = parse(row, site, job);
        }
        catch (const TraceError& e)
        {
            collector.Malformed(e);
            continue;
        }
        collector.Add(site.line, outcome, std::move(job));
    }
}

/** Reads a CSV with a header line and hands each row to a parser built from the header. */
template <typename Parser>
void
ReadHeaderCsv(const std::string& text, Collector& collector)
{
    CsvCursor cursor(collector.File(), text, ',', true);
    Row header;
    if (!cursor.Next(header))
    {
        throw TraceError(collector.File(), 0, "", "expected a header line, but the file is empty");
    }
    Columns columns(header, Site{collector.File(), cursor.Line()});
    const Parser parser(columns);
    ReadRows(cursor, &columns, collector, parser);
}

/** philly-csv: timestamp,duration,num_gpus,gpu_time,cluster */
struct PhillyCsvRow
{
    size_t timestamp;
    size_t duration;
    size_t numGpus;
    size_t cluster;

    explicit PhillyCsvRow(const Columns& c)
        : timestamp(c.Require("timestamp")),
          duration(c.Require("duration")),
          numGpus(c.Require("num_gpus")),
          cluster(c.Require("cluster"))
    {
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        job.numGpus = ParseCount(site, "num_gpus", row[numGpus]);
        if (job.numGpus == 0)
        {
            return Outcome::NOT_GPU;
        }
        job.submitTime = ParseTime(site, "timestamp", row[timestamp]);
        job.vc = Trim(row[cluster]);
        if (IsMissing(row[duration]))
        {
            return Outcome::UNFINISHED;
        }
        job.duration = ParseNonNegative(site, "duration", row[duration]);
        return Outcome::JOB;
    }
};

/** alibaba-gpu-2023: name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,... */
struct AlibabaRow
{
    size_t name;
    size_t numGpu;
    size_t gpuMilli;
    size_t phase;
    size_t creation;
    size_t deletion;
    size_t scheduled;

    explicit AlibabaRow(const Columns& c)
        : name(c.Require("name")),
          numGpu(c.Require("num_gpu")),
          gpuMilli(c.Require("gpu_milli")),
          phase(c.Require("pod_phase")),
          creation(c.Require("creation_time")),
          deletion(c.Require("deletion_time")),
          scheduled(c.Require("scheduled_time"))
    {
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        uint32_t gpus = ParseCount(site, "num_gpu", row[numGpu]);
        uint32_t milli = ParseCount(site, "gpu_milli", row[gpuMilli]);
        if (gpus == 0)
        {
            return Outcome::NOT_GPU;
        }
        if (milli == 0 || milli > 1000 || (gpus > 1 && milli != 1000))
        {
            site.Fail("gpu_milli",
                      "1..1000 for a one-GPU pod or 1000 for a multi-GPU pod",
                      row[gpuMilli]);
        }
        job.name = Trim(row[name]);
        job.status = Trim(row[phase]);
        job.numGpus = gpus;
        job.gpuFraction = milli / 1000.0;
        job.submitTime = ParseNonNegative(site, "creation_time", row[creation]);
        if (IsMissing(row[scheduled]) || IsMissing(row[deletion]))
        {
            return Outcome::UNFINISHED; // never placed on a GPU
        }
        double start = ParseNonNegative(site, "scheduled_time", row[scheduled]);
        double end = ParseNonNegative(site, "deletion_time", row[deletion]);
        if (start < job.submitTime)
        {
            site.Fail("scheduled_time", "a time >= creation_time", row[scheduled]);
        }
        if (end < start)
        {
            site.Fail("deletion_time", "a time >= scheduled_time", row[deletion]);
        }
        job.duration = end - start;
        return Outcome::JOB;
    }
};

/** helios-csv: Helios cluster_log.csv (Acme's traces have their own reader, acme-csv) */
struct HeliosRow
{
    size_t jobId;
    size_t gpuNum;
    size_t submit;
    size_t start;
    size_t end;
    size_t duration;
    int user;
    int vc;
    int state;

    explicit HeliosRow(const Columns& c)
        : jobId(c.Require("job_id")),
          gpuNum(c.Require("gpu_num")),
          submit(c.Require("submit_time")),
          start(c.Require("start_time")),
          end(c.Require("end_time")),
          duration(c.Require("duration")),
          user(c.Find("user")),
          vc(c.Find("vc")),
          state(c.Find("state"))
    {
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        job.numGpus = ParseCount(site, "gpu_num", row[gpuNum]);
        if (job.numGpus == 0)
        {
            return Outcome::NOT_GPU;
        }
        job.name = Trim(row[jobId]);
        job.user = Optional(row, user);
        job.vc = Optional(row, vc);
        job.status = Optional(row, state);
        job.submitTime = ParseTime(site, "submit_time", row[submit]);
        // A job cannot end before it was submitted, whichever column gives its run time.
        if (!IsMissing(row[end]) && ParseTime(site, "end_time", row[end]) < job.submitTime)
        {
            site.Fail("end_time", "a time >= submit_time", row[end]);
        }
        if (!IsMissing(row[duration]))
        {
            job.duration = ParseNonNegative(site, "duration", row[duration]);
            return Outcome::JOB;
        }
        if (IsMissing(row[start]) || IsMissing(row[end]))
        {
            return Outcome::UNFINISHED;
        }
        double t0 = ParseTime(site, "start_time", row[start]);
        double t1 = ParseTime(site, "end_time", row[end]);
        if (t1 < t0)
        {
            site.Fail("end_time", "a time >= start_time", row[end]);
        }
        job.duration = t1 - t0;
        return Outcome::JOB;
    }
};

/** \return s in upper case (ASCII) */
std::string
Upper(std::string s)
{
    for (char& c : s)
    {
        c = (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
    }
    return s;
}

/**
 * acme-csv: Shanghai AI Lab Acme trace_{seren,kalos}.csv (InternLM/AcmeTrace, NSDI'24):
 * job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,
 * queue,gpu_time (+ Kalos-only columns, ignored). See traces/README.md.
 */
struct AcmeRow
{
    size_t jobId;
    size_t user;
    size_t nodeNum;
    size_t gpuNum;
    size_t type;
    size_t state;
    size_t submit;
    size_t start;
    size_t end;
    size_t duration;

    explicit AcmeRow(const Columns& c)
        : jobId(c.Require("job_id")),
          user(c.Require("user")),
          nodeNum(c.Require("node_num")),
          gpuNum(c.Require("gpu_num")),
          type(c.Require("type")),
          state(c.Require("state")),
          submit(c.Require("submit_time")),
          start(c.Require("start_time")),
          end(c.Require("end_time")),
          duration(c.Require("duration"))
    {
    }

    /**
     * \return the canonical spelling of a known Acme job type, else the trimmed text.
     * The released trace_seren.csv and trace_kalos.csv spell evaluation jobs "Eval"
     * (AcmeTrace's analysis.ipynb groups by Eval, Pretrain, SFT, MLLM, Debug, Other); the
     * paper and this project say "Evaluation", so both spellings map to it.
     */
    static std::string CanonicalType(const std::string& text)
    {
        static const std::pair<const char*, const char*> known[] = {{"Pretrain", "Pretrain"},
                                                                    {"SFT", "SFT"},
                                                                    {"Evaluation", "Evaluation"},
                                                                    {"Eval", "Evaluation"},
                                                                    {"Debug", "Debug"},
                                                                    {"Other", "Other"}};
        const std::string upper = Upper(text);
        for (const auto& [spelling, canonical] : known)
        {
            if (upper == Upper(spelling))
            {
                return canonical;
            }
        }
        return text;
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        job.numGpus = ParseCount(site, "gpu_num", row[gpuNum]);
        if (job.numGpus == 0)
        {
            return Outcome::NOT_GPU; // CPU jobs (Seren: 367,737 of 1,031,550)
        }
        job.numNodes = ParseNodeCount(site, "node_num", row[nodeNum], job.numGpus, "gpu_num");
        job.name = Trim(row[jobId]);
        job.user = Trim(row[user]);
        job.jobType = CanonicalType(Trim(row[type]));
        if (job.jobType.empty())
        {
            site.Fail("type",
                      "a job type (Pretrain, SFT, Evaluation, Debug, Other, ...)",
                      row[type]);
        }
        // Terminal states (AcmeTrace README): COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL.
        // A job still PENDING or RUNNING when the log was cut has no run time: unfinished.
        job.status = Upper(Trim(row[state]));
        bool terminal = job.status == "COMPLETED" || job.status == "CANCELLED" ||
                        job.status == "FAILED" || job.status == "TIMEOUT" ||
                        job.status == "NODE_FAIL";
        if (!terminal && job.status != "PENDING" && job.status != "RUNNING")
        {
            site.Fail("state",
                      "COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, PENDING or RUNNING",
                      row[state]);
        }
        job.submitTime = ParseTime(site, "submit_time", row[submit]);
        double t0 = -1;
        if (!IsMissing(row[start]))
        {
            t0 = ParseTime(site, "start_time", row[start]);
            if (t0 < job.submitTime)
            {
                site.Fail("start_time", "a time >= submit_time", row[start]);
            }
        }
        double t1 = -1;
        if (!IsMissing(row[end]))
        {
            t1 = ParseTime(site, "end_time", row[end]);
            if (t1 < job.submitTime)
            {
                site.Fail("end_time", "a time >= submit_time", row[end]);
            }
            if (t0 >= 0 && t1 < t0)
            {
                site.Fail("end_time", "a time >= start_time", row[end]);
            }
        }
        if (!terminal || t0 < 0)
        {
            return Outcome::UNFINISHED; // never started (cancelled in the queue) or still open
        }
        if (!IsMissing(row[duration]))
        {
            job.duration = ParseNonNegative(site, "duration", row[duration]);
        }
        else if (t1 >= 0)
        {
            job.duration = t1 - t0;
        }
        // No run time, or none at all: it never held its GPUs for a second.
        return job.duration > 0 ? Outcome::JOB : Outcome::UNFINISHED;
    }
};

/**
 * Sets the GPUs of a job of `workers` instances that each ask for `perWorker` GPUs:
 * numGpus = workers x perWorker for a whole number of GPUs per worker; a share below one
 * GPU only for a one-worker job (numGpus 1, gpuFraction = the share, as alibaba-gpu-2023's
 * gpu_milli): JobRecord has no GPU sharing across several instances.
 * \return Outcome::NOT_GPU for no GPU, else Outcome::JOB (the caller decides about run time)
 */
Outcome
WorkerGpus(const Site& site,
           const std::string& field,
           const std::string& text,
           double perWorker,
           uint32_t workers,
           JobRecord& job)
{
    if (perWorker == 0 || workers == 0)
    {
        return Outcome::NOT_GPU;
    }
    if (std::floor(perWorker) == perWorker)
    {
        double total = perWorker * workers; // exact: both are integers below 2^53 here
        if (perWorker > 4294967295.0 || total > 4294967295.0)
        {
            site.Fail(field,
                      "GPUs per worker x " + std::to_string(workers) + " workers <= 4294967295",
                      text);
        }
        job.numGpus = static_cast<uint32_t>(total);
        return Outcome::JOB;
    }
    if (perWorker < 1 && workers == 1)
    {
        job.numGpus = 1;
        job.gpuFraction = perWorker;
        return Outcome::JOB;
    }
    site.Fail(field,
              "a whole number of GPUs per worker (a share below one GPU only for a one-worker "
              "job, " +
                  std::to_string(workers) + " workers here)",
              text);
}

/**
 * alibaba-spot-gpu-2026: Alibaba cluster-trace-v2026-spot-gpu job_info_df.csv (GFS, ASPLOS'26):
 * job_name,organization,gpu_model,cpu_request,gpu_request,worker_num,submit_time,duration,
 * job_type. gpu_request is per worker (see traces/README.md for the evidence).
 */
struct SpotGpuRow
{
    size_t jobName;
    size_t organization;
    size_t gpuModel;
    size_t gpuRequest;
    size_t workerNum;
    size_t submit;
    size_t duration;
    size_t jobType;

    explicit SpotGpuRow(const Columns& c)
        : jobName(c.Require("job_name")),
          organization(c.Require("organization")),
          gpuModel(c.Require("gpu_model")),
          gpuRequest(c.Require("gpu_request")),
          workerNum(c.Require("worker_num")),
          submit(c.Require("submit_time")),
          duration(c.Require("duration")),
          jobType(c.Require("job_type"))
    {
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        // Every field is checked before the record is classified: a CPU job with a broken
        // field is malformed, not silently "not a GPU job".
        job.name = Trim(row[jobName]);
        job.user = Trim(row[organization]);
        job.vc = Trim(row[gpuModel]); // GFS's simulator partitions the cluster by gpu_model
        const std::string type = Upper(Trim(row[jobType]));
        if (type == "HP")
        {
            job.jobType = "HP";
        }
        else if (type == "SPOT")
        {
            job.jobType = "Spot";
        }
        else
        {
            site.Fail("job_type", "HP or Spot", row[jobType]);
        }
        uint32_t workers = ParseCount(site, "worker_num", row[workerNum]);
        if (workers == 0)
        {
            site.Fail("worker_num", "a positive integer (instances of the job)", row[workerNum]);
        }
        double perWorker = ParseNonNegative(site, "gpu_request", row[gpuRequest]);
        job.submitTime = ParseNonNegative(site, "submit_time", row[submit]);
        bool hasDuration = !IsMissing(row[duration]);
        if (hasDuration)
        {
            job.duration = ParseNonNegative(site, "duration", row[duration]);
        }
        if (WorkerGpus(site, "gpu_request", row[gpuRequest], perWorker, workers, job) !=
            Outcome::JOB)
        {
            return Outcome::NOT_GPU;
        }
        // No run time, or none at all: it never held its GPUs for a second.
        return hasDuration && job.duration > 0 ? Outcome::JOB : Outcome::UNFINISHED;
    }
};

/**
 * alibaba-pai-2020-task: Alibaba PAI cluster-trace-gpu-v2020 pai_task_table.csv (MLaaS in the
 * Wild, NSDI'22), headerless in the public release: job_name,task_name,inst_num,status,
 * start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type (a first line equal to that header,
 * as pai_task_table.header prepended, is skipped). One record per task; plan_gpu is percent of
 * one GPU per instance.
 */
Outcome
ParsePaiTaskRow(const Row& row, const Site& site, JobRecord& job)
{
    if (row.size() != PAI_TASK_COLUMNS.size())
    {
        site.Fail("(record)",
                  std::to_string(PAI_TASK_COLUMNS.size()) +
                      " fields (job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,"
                      "plan_mem,plan_gpu,gpu_type)",
                  std::to_string(row.size()) + " fields");
    }
    job.name = Trim(row[0]);
    if (job.name.empty())
    {
        site.Fail("job_name", "a job name", row[0]);
    }
    uint32_t instances = ParseCount(site, "inst_num", row[2]);
    // Statuses (cluster-trace-gpu-v2020 README): Running, Terminated, Failed, Waiting; only
    // Terminated is a success. Running and Waiting tasks have no run time: unfinished.
    static const char* const known[] = {"Terminated", "Failed", "Running", "Waiting"};
    const std::string status = Upper(Trim(row[3]));
    for (const char* k : known)
    {
        if (status == Upper(k))
        {
            job.status = k;
        }
    }
    if (job.status.empty())
    {
        site.Fail("status", "Terminated, Failed, Running or Waiting", row[3]);
    }
    double t0 = -1;
    if (!IsMissing(row[4]))
    {
        t0 = ParseNonNegative(site, "start_time", row[4]);
        job.submitTime = t0;
    }
    double t1 = -1;
    if (!IsMissing(row[5]))
    {
        t1 = ParseNonNegative(site, "end_time", row[5]);
        if (t0 >= 0 && t1 < t0)
        {
            site.Fail("end_time", "a time >= start_time", row[5]);
        }
    }
    double percent = IsMissing(row[8]) ? 0 : ParseNonNegative(site, "plan_gpu", row[8]);
    job.vc = Trim(row[9]); // gpu_type: MISC, T4, P100, V100, V100M32, ...
    if (WorkerGpus(site, "plan_gpu", row[8], percent / 100, instances, job) != Outcome::JOB)
    {
        return Outcome::NOT_GPU; // parameter servers and CPU tasks
    }
    bool ended = job.status == "Terminated" || job.status == "Failed";
    if (!ended || t0 < 0 || t1 < 0)
    {
        return Outcome::UNFINISHED; // still running or waiting, or never launched
    }
    job.duration = t1 - t0;
    return job.duration > 0 ? Outcome::JOB : Outcome::UNFINISHED;
}

/** sia-workload: name,time,application,num_replicas,batch_size */
struct SiaRow
{
    size_t name;
    size_t time;
    size_t application;
    size_t replicas;
    size_t batch;

    explicit SiaRow(const Columns& c)
        : name(c.Require("name")),
          time(c.Require("time")),
          application(c.Require("application")),
          replicas(c.Require("num_replicas")),
          batch(c.Require("batch_size"))
    {
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        job.numGpus = ParseCount(site, "num_replicas", row[replicas]);
        if (job.numGpus == 0)
        {
            return Outcome::NOT_GPU;
        }
        job.name = Trim(row[name]);
        job.submitTime = ParseNonNegative(site, "time", row[time]);
        job.model = Trim(row[application]);
        if (job.model.empty())
        {
            site.Fail("application", "an application name", row[application]);
        }
        job.globalBatch = ParseCount(site, "batch_size", row[batch]);
        if (job.globalBatch == 0)
        {
            site.Fail("batch_size", "a positive integer", row[batch]);
        }
        return Outcome::JOB;
    }
};

/**
 * tiresias-csv: the Tiresias simulator's two schemas, 60_job.csv
 * (job_id,num_gpu,submit_time,iterations,model_name,duration,interval) and tf_job.csv
 * (job_id,num_gpu,submit_time,start_time,duration,model_size,aggr_interval,model_name,
 * model_scale). `iterations` is optional (the simulator runs on duration alone); an empty
 * iterations or duration value means "not recorded" (unknown), as in every other format.
 */
struct TiresiasRow
{
    size_t jobId;
    size_t numGpu;
    size_t submit;
    int iterations;
    size_t model;
    size_t duration;

    explicit TiresiasRow(const Columns& c)
        : jobId(c.Require("job_id")),
          numGpu(c.Require("num_gpu")),
          submit(c.Require("submit_time")),
          iterations(c.Find("iterations")),
          model(c.Require("model_name")),
          duration(c.Require("duration"))
    {
    }

    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        job.numGpus = ParseCount(site, "num_gpu", row[numGpu]);
        if (job.numGpus == 0)
        {
            return Outcome::NOT_GPU;
        }
        job.name = Trim(row[jobId]);
        job.submitTime = ParseNonNegative(site, "submit_time", row[submit]);
        if (iterations >= 0 && !IsMissing(row[iterations]))
        {
            job.totalSteps = ParseNonNegative(site, "iterations", row[iterations]);
        }
        job.model = Trim(row[model]);
        if (!IsMissing(row[duration]))
        {
            job.duration = ParseNonNegative(site, "duration", row[duration]);
        }
        return Outcome::JOB;
    }
};

/** gavel: job_type, command, num_steps_arg, needs_data_dir, total_steps, arrival_time, scale */
Outcome
ParseGavelRow(const Row& row, const Site& site, JobRecord& job)
{
    if (row.size() != 7)
    {
        site.Fail("(record)", "7 tab-separated fields", std::to_string(row.size()) + " fields");
    }
    job.numGpus = ParseCount(site, "scale_factor", row[6]);
    if (job.numGpus == 0)
    {
        return Outcome::NOT_GPU;
    }
    job.model = Trim(row[0]);
    if (job.model.empty())
    {
        site.Fail("job_type", "a job type", row[0]);
    }
    job.totalSteps = ParseNonNegative(site, "total_steps", row[4]);
    if (job.totalSteps == 0)
    {
        site.Fail("total_steps", "a positive number of steps", row[4]);
    }
    job.submitTime = ParseNonNegative(site, "arrival_time", row[5]);
    return Outcome::JOB;
}

/** aicluster (native): see NATIVE_COLUMNS and traces/README.md */
struct NativeRow
{
    size_t jobId;
    size_t submit;
    size_t numGpus;
    size_t duration;
    size_t user;
    size_t vc;
    size_t model;
    size_t dataset;
    size_t totalSteps;
    size_t globalBatch;
    size_t gpuFraction;
    size_t status;
    int jobType;  //!< optional (-1: a file written before the column existed)
    int numNodes; //!< optional, as jobType

    explicit NativeRow(const Columns& c)
        : jobId(c.Require("job_id")),
          submit(c.Require("submit_time_s")),
          numGpus(c.Require("num_gpus")),
          duration(c.Require("duration_s")),
          user(c.Require("user")),
          vc(c.Require("vc")),
          model(c.Require("model")),
          dataset(c.Require("dataset")),
          totalSteps(c.Require("total_steps")),
          globalBatch(c.Require("global_batch")),
          gpuFraction(c.Require("gpu_fraction")),
          status(c.Require("status")),
          jobType(c.Find("job_type")),
          numNodes(c.Find("num_nodes"))
    {
    }

    // String fields are kept byte for byte (no trimming) so that writing and reading
    // back gives the same record.
    Outcome operator()(const Row& row, const Site& site, JobRecord& job) const
    {
        job.numGpus = ParseCount(site, "num_gpus", row[numGpus]);
        if (job.numGpus == 0)
        {
            return Outcome::NOT_GPU;
        }
        job.name = row[jobId];
        job.submitTime = ParseNonNegative(site, "submit_time_s", row[submit]);
        if (!row[duration].empty())
        {
            job.duration = ParseNonNegative(site, "duration_s", row[duration]);
        }
        job.user = row[user];
        job.vc = row[vc];
        job.model = row[model];
        job.dataset = row[dataset];
        if (!row[totalSteps].empty())
        {
            job.totalSteps = ParseNonNegative(site, "total_steps", row[totalSteps]);
        }
        if (!row[globalBatch].empty())
        {
            job.globalBatch = ParseCount(site, "global_batch", row[globalBatch]);
        }
        if (!row[gpuFraction].empty())
        {
            job.gpuFraction = ParseNumber(site, "gpu_fraction", row[gpuFraction]);
            if (job.gpuFraction <= 0 || job.gpuFraction > 1)
            {
                site.Fail("gpu_fraction", "a number in (0, 1]", row[gpuFraction]);
            }
        }
        job.status = row[status];
        if (jobType >= 0)
        {
            job.jobType = row[jobType];
        }
        if (numNodes >= 0 && !row[numNodes].empty())
        {
            job.numNodes =
                ParseNodeCount(site, "num_nodes", row[numNodes], job.numGpus, "num_gpus");
        }
        return Outcome::JOB;
    }
};

} // namespace

const char* const NATIVE_MAGIC = "# aicluster-trace v1";

const std::vector<std::string> PAI_TASK_COLUMNS = {"job_name",
                                                   "task_name",
                                                   "inst_num",
                                                   "status",
                                                   "start_time",
                                                   "end_time",
                                                   "plan_cpu",
                                                   "plan_mem",
                                                   "plan_gpu",
                                                   "gpu_type"};

const std::vector<std::string> NATIVE_COLUMNS = {"job_id",
                                                 "submit_time_s",
                                                 "num_gpus",
                                                 "duration_s",
                                                 "user",
                                                 "vc",
                                                 "model",
                                                 "dataset",
                                                 "total_steps",
                                                 "global_batch",
                                                 "gpu_fraction",
                                                 "status",
                                                 "job_type",
                                                 "num_nodes"};

void
ReadPhillyCsv(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<PhillyCsvRow>(text, collector);
}

void
ReadAlibabaGpu2023(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<AlibabaRow>(text, collector);
}

void
ReadHeliosCsv(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<HeliosRow>(text, collector);
}

void
ReadAcmeCsv(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<AcmeRow>(text, collector);
}

void
ReadAlibabaSpotGpu2026(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<SpotGpuRow>(text, collector);
}

void
ReadAlibabaPai2020Task(const std::string& text, Collector& collector)
{
    CsvCursor cursor(collector.File(), text, ',', true);
    Row first;
    if (!cursor.Next(first))
    {
        throw TraceError(collector.File(), 0, "", "expected a record, but the file is empty");
    }
    bool header = first.size() == PAI_TASK_COLUMNS.size();
    for (size_t i = 0; header && i < first.size(); ++i)
    {
        std::string name = Trim(first[i]);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
            return std::tolower(c);
        });
        header = name == PAI_TASK_COLUMNS[i];
    }
    // Without the header the first line is a record: read the text again from its start.
    CsvCursor rows(collector.File(), text, ',', true);
    if (header)
    {
        rows.Next(first);
    }
    ReadRows(rows, nullptr, collector, ParsePaiTaskRow);
}

void
ReadSiaWorkload(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<SiaRow>(text, collector);
}

void
ReadTiresiasCsv(const std::string& text, Collector& collector)
{
    ReadHeaderCsv<TiresiasRow>(text, collector);
}

void
ReadGavel(const std::string& text, Collector& collector)
{
    // No header and no quoting: the command field holds shell text with its own quotes.
    CsvCursor cursor(collector.File(), text, '\t', false);
    ReadRows(cursor, nullptr, collector, ParseGavelRow);
}

void
ReadNative(const std::string& text, Collector& collector)
{
    size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    size_t eol = text.find('\n', start);
    std::string first =
        Trim(text.substr(start, eol == std::string::npos ? std::string::npos : eol - start));
    if (first != NATIVE_MAGIC)
    {
        Site{collector.File(), 1}.Fail("version", std::string("'") + NATIVE_MAGIC + "'", first);
    }
    CsvCursor cursor(collector.File(), text, ',', true, true);
    cursor.SkipLine(); // the version line (a comment for the cursor anyway)
    Row header;
    if (!cursor.Next(header))
    {
        throw TraceError(collector.File(),
                         2,
                         "",
                         "expected the column header after the version line");
    }
    Columns columns(header, Site{collector.File(), cursor.Line()});
    const NativeRow parser(columns);
    ReadRows(cursor, &columns, collector, parser);
}

} // namespace tracefmt
} // namespace ns3
