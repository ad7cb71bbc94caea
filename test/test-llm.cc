/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// LLM workloads: the catalog's LLM entries against the published figures they derive from,
// and the annotator's job-type rule (doc/annotator.md, doc/llm.md).

#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using namespace ns3;

namespace
{

JobRecord
TypedJob(const std::string& type,
         uint32_t gpus,
         double duration = 3600,
         const std::string& name = "j")
{
    JobRecord job;
    job.name = name;
    job.jobType = type;
    job.numGpus = gpus;
    job.numNodes = (gpus + 7) / 8;
    job.duration = duration;
    job.source = RecordSource("test.csv", 2);
    return job;
}

std::string
ModelOf(const TraceAnnotator& annotator, JobRecord job)
{
    annotator.Annotate(job);
    return job.model;
}

} // namespace

TEST_CASE("LLM catalog entries follow the published Llama 2 figures", "[catalog][llm]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    // Llama 2 (arXiv 2307.09288) Table 2: A100-80GB GPU-hours for 2.0T tokens.
    const std::map<std::string, std::pair<double, double>> published = {
        {"llama2-7b", {6738415616.0, 184320}},
        {"llama2-13b", {13015864320.0, 368640}},
        {"llama2-70b", {68976648192.0, 1720320}},
    };
    for (const auto& [stem, figures] : published)
    {
        INFO(stem);
        const auto& [params, gpuHours] = figures;
        const double tokensPerGpuSecond = 2.0e12 / (gpuHours * 3600);
        const WorkloadProfile& pre = catalog.Get(stem + "-pretrain");
        CHECK(pre.parameters == params);
        CHECK(pre.sequenceLength == 4096);
        CHECK(pre.jobTypes == std::vector<std::string>{"Pretrain"});
        // One iteration: localBatch sequences of 4,096 tokens per GPU at the published rate
        // (equivalently 6 x parameters x tokens / (312 TFLOP/s x MFU)).
        CHECK(pre.ComputeTime(pre.minGpus) ==
              Approx(pre.localBatch * 4096.0 / tokensPerGpuSecond).epsilon(1e-9));
        CHECK(pre.ComputeTime(1024) == pre.ComputeTime(pre.minGpus)); // weak scaling
        // Global batch 4M tokens (1,024 sequences) at 512 GPUs.
        CHECK(pre.localBatch * 512 == 1024);
        const double mfu = 6 * params * tokensPerGpuSecond / 312e12;
        CHECK(mfu > 0.35);
        CHECK(mfu < 0.55);
        // Layout: 16 B/parameter of training state in half of an 80 GB GPU.
        CHECK(16 * params / pre.minGpus <= 40e9);
        CHECK(16 * params / (pre.minGpus / 2.0) > 40e9);
        CHECK(pre.tensorParallel <= 8);
        CHECK(pre.minGpus == pre.tensorParallel * pre.pipelineParallel);
        // fp32 gradients of one pipeline stage over 8 rails
        CHECK(pre.gradientBytes == Approx(4 * params / (8.0 * pre.pipelineParallel)));
        CHECK(pre.checkpointBytes == Approx(14 * params));
        CHECK(pre.checkpointInterval > 0);
        CHECK(pre.rawBytesPerSample == 8192); // 4,096 uint16 token ids
        CHECK(pre.datasetBytes == Approx(2.0e12 * 2).epsilon(1e-3));

        const WorkloadProfile& sft = catalog.Get(stem + "-sft");
        CHECK(sft.minGpus == pre.minGpus);
        CHECK(sft.localBatch * 64 == 64); // Llama 2 SFT: 64 sequences at 64 GPUs

        const WorkloadProfile& eval = catalog.Get(stem + "-eval");
        CHECK(eval.inference);
        CHECK(eval.gradientBytes == 0);
        CHECK(eval.checkpointBytes == 0);
        CHECK(2 * params / eval.minGpus <= 40e9);
        CHECK(eval.jobTypes == std::vector<std::string>{"Evaluation"});
    }
    CHECK(catalog.Get("llama2-70b-pretrain").tensorParallel == 8);
    CHECK(catalog.Get("llama2-70b-pretrain").pipelineParallel == 4);
    CHECK(catalog.Get("llama2-7b-pretrain").minGpus == 4);
}

TEST_CASE("annotator: an Acme job's type and size choose its LLM workload", "[annotator][llm]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    AnnotatorOptions options;
    options.seed = 11;
    TraceAnnotator annotator(catalog, options);

    // Pre-training: the largest model held with >= 8 data-parallel replicas.
    CHECK(ModelOf(annotator, TypedJob("Pretrain", 512)) == "llama2-70b-pretrain");
    CHECK(ModelOf(annotator, TypedJob("Pretrain", 256)) == "llama2-70b-pretrain");
    CHECK(ModelOf(annotator, TypedJob("Pretrain", 255)) == "llama2-13b-pretrain");
    CHECK(ModelOf(annotator, TypedJob("Pretrain", 64)) == "llama2-13b-pretrain");
    CHECK(ModelOf(annotator, TypedJob("Pretrain", 32)) == "llama2-7b-pretrain");
    CHECK(ModelOf(annotator, TypedJob("Pretrain", 8)) == "llama2-7b-pretrain"); // smallest fit
    CHECK(ModelOf(annotator, TypedJob("Debug", 128)) == "llama2-13b-pretrain");
    CHECK(ModelOf(annotator, TypedJob("SFT", 256)) == "llama2-70b-sft");
    CHECK(ModelOf(annotator, TypedJob("SFT", 16)) == "llama2-7b-sft");
    // Too small for any training layout, Other, and unknown types: the model rule (gpu-time).
    for (const JobRecord& job :
         {TypedJob("Pretrain", 2), TypedJob("Other", 64), TypedJob("MLLM", 512)})
    {
        INFO(job.jobType << " " << job.numGpus);
        std::string model = ModelOf(annotator, job);
        CHECK(catalog.Get(model).parameters == 0);
    }

    // Evaluation: inference-like, drawn (seeded) among the models that fit.
    std::map<std::string, int> drawn;
    for (int i = 0; i < 300; ++i)
    {
        JobRecord job = TypedJob("Evaluation", 1, 600, "eval-" + std::to_string(i));
        annotator.Annotate(job);
        const WorkloadProfile& w = catalog.Get(job.model);
        CHECK(w.inference);
        CHECK(w.minGpus <= 1);
        ++drawn[job.model];
    }
    CHECK(drawn.size() == 2); // 7B and 13B fit on one GPU, 70B does not
    CHECK(drawn["llama2-7b-eval"] > 100);
    CHECK(drawn["llama2-13b-eval"] > 100);
    // Same seed, same draw; the 70B evaluation needs 4 GPUs.
    JobRecord a = TypedJob("Evaluation", 4, 600, "e");
    JobRecord b = a;
    annotator.Annotate(a);
    annotator.Annotate(b);
    CHECK(a.model == b.model);

    // Iterations: the trace's run time at the profile's compute time.
    JobRecord pre = TypedJob("Pretrain", 512, 7200);
    annotator.Annotate(pre);
    CHECK(pre.iterations ==
          Approx(7200 / catalog.Get("llama2-70b-pretrain").ComputeTime(512)).epsilon(1e-12));
    CHECK(pre.dataset == "pretrain-corpus-2t");

    // "ignore": the type is not looked at.
    AnnotatorOptions ignore = options;
    ignore.jobTypeRule = "ignore";
    CHECK(catalog.Get(ModelOf(TraceAnnotator(catalog, ignore), TypedJob("Pretrain", 512)))
              .parameters == 0);
    AnnotatorOptions bad = options;
    bad.jobTypeRule = "typed";
    CHECK_THROWS_AS(TraceAnnotator(catalog, bad), std::invalid_argument);
}

TEST_CASE("annotator: the Acme fixture's jobs become LLM jobs", "[annotator][llm][acme]")
{
    auto jobs = ReadTrace(std::string(AICLUSTER_TEST_DATA) + "/traces/acme-llm.csv");
    TraceAnnotator annotator(WorkloadCatalog::Default(), AnnotatorOptions());
    annotator.Annotate(jobs);
    REQUIRE(jobs.size() == 5);
    CHECK(jobs[0].model == "llama2-70b-pretrain");                  // 512 GPUs, Pretrain
    CHECK(jobs[1].model == "llama2-13b-sft");                       // 64 GPUs, SFT
    CHECK(WorkloadCatalog::Default().Get(jobs[2].model).inference); // 1-GPU "Eval"
}
