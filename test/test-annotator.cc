/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Tests of the seeded trace annotator: determinism, independence from other jobs, Sia's
// gpu-time rule, the weighted rule, iteration counts and errors.

#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"
#include "ns3/workload-catalog.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kFixtures = std::string(AICLUSTER_TEST_DATA) + "/catalog/";

JobRecord
Job(const std::string& name, double hours, uint32_t gpus)
{
    JobRecord j;
    j.name = name;
    j.submitTime = 17;
    j.numGpus = gpus;
    j.duration = hours * 3600.0;
    j.source = RecordSource("hand.csv", 1);
    return j;
}

/** n jobs like a Philly trace: durations log-uniform from 1 minute to 30 days. */
std::vector<JobRecord>
SyntheticJobs(std::size_t n)
{
    std::mt19937_64 rng(2024);
    const uint32_t gpus[] = {1, 1, 1, 2, 4, 8, 16, 32};
    std::vector<JobRecord> jobs(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        JobRecord& j = jobs[i];
        j.id = i;
        j.name = "job-" + std::to_string(i);
        j.submitTime = double(i) * 37.5;
        j.numGpus = gpus[rng() % 8];
        j.duration = 60.0 * std::pow(43200.0, double(rng() >> 11) / 9007199254740992.0);
        j.user = "u" + std::to_string(rng() % 50);
        j.vc = "vc" + std::to_string(rng() % 5);
        j.source = RecordSource("synthetic.csv", i + 2);
    }
    return jobs;
}

std::map<std::string, std::size_t>
CountModels(const std::vector<JobRecord>& jobs)
{
    std::map<std::string, std::size_t> n;
    for (const auto& j : jobs)
    {
        ++n[j.model];
    }
    return n;
}

AnnotatorOptions
Weighted(uint64_t seed)
{
    AnnotatorOptions o;
    o.seed = seed;
    o.modelRule = "weighted";
    o.modelWeights = {{"cifar10", 1}, {"imagenet", 2}, {"bert-squad", 3}, {"ncf", 4}};
    return o;
}

TraceError
AnnotateError(const TraceAnnotator& a, JobRecord job)
{
    try
    {
        a.Annotate(job);
    }
    catch (const TraceError& e)
    {
        return e;
    }
    FAIL("no TraceError for " << job.source);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("same seed gives the identical annotation on 10,000 jobs", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    for (const char* rule : {"gpu-time", "weighted"})
    {
        AnnotatorOptions o = Weighted(7);
        o.modelRule = rule;
        auto first = SyntheticJobs(10000);
        auto second = first;
        TraceAnnotator(catalog, o).Annotate(first);
        TraceAnnotator(catalog, o).Annotate(second);
        for (std::size_t i = 0; i < first.size(); ++i)
        {
            REQUIRE(first[i].model == second[i].model);
            REQUIRE(first[i].dataset == second[i].dataset);
            REQUIRE(first[i].iterations == second[i].iterations);
            REQUIRE(first[i].iterations > 0);
        }
    }
}

TEST_CASE("a different seed gives a different annotation", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    auto a = SyntheticJobs(10000);
    auto b = a;
    TraceAnnotator(catalog, Weighted(1)).Annotate(a);
    TraceAnnotator(catalog, Weighted(2)).Annotate(b);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        differ += a[i].model != b[i].model;
    }
    // Independent draws with shares .1/.2/.3/.4 differ with probability 1 - sum p^2 = 0.7.
    CHECK(differ > 6500);
    CHECK(differ < 7500);

    // gpu-time: only the 1-10 GPU-h bucket is random (deepspeech2 or bert, 50/50).
    AnnotatorOptions g1, g2;
    g1.seed = 1;
    g2.seed = 2;
    auto c = SyntheticJobs(10000);
    auto d = c;
    TraceAnnotator(catalog, g1).Annotate(c);
    TraceAnnotator(catalog, g2).Annotate(d);
    std::size_t middle = 0, changed = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
    {
        bool inMiddle = c[i].model == "deepspeech2-arctic" || c[i].model == "bert-squad";
        middle += inMiddle;
        changed += c[i].model != d[i].model;
        CHECK(inMiddle == (d[i].model == "deepspeech2-arctic" || d[i].model == "bert-squad"));
    }
    REQUIRE(middle > 1000);
    CHECK(double(changed) / middle == Approx(0.5).margin(0.05));
}

TEST_CASE("a job's annotation does not change when other jobs are removed", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, Weighted(99));
    auto all = SyntheticJobs(5000);
    std::vector<JobRecord> kept;
    for (std::size_t i = 0; i < all.size(); i += 3)
    {
        kept.push_back(all[i]);
        kept.back().id = kept.size() - 1; // readers renumber after filtering
    }
    std::reverse(kept.begin(), kept.end());
    annotator.Annotate(all);
    annotator.Annotate(kept);
    for (const auto& k : kept)
    {
        const JobRecord& original = all[std::stoul(k.name.substr(4))];
        REQUIRE(k.model == original.model);
        REQUIRE(k.iterations == original.iterations);
    }
    // The stream seed ignores id and source, but not the job's own fields.
    JobRecord j = all[5];
    uint64_t seed = TraceAnnotator::JobStreamSeed(99, j);
    j.id = 12345;
    j.source = RecordSource("other.csv", 99);
    CHECK(TraceAnnotator::JobStreamSeed(99, j) == seed);
    j.name += "x";
    CHECK(TraceAnnotator::JobStreamSeed(99, j) != seed);
}

TEST_CASE("job stream seed is a fixed function of seed and job fields", "[annotator]")
{
    // Pinned to the value an independent Python transcription of doc/annotator.md gives
    // (FNV-1a-64 + splitmix64). A change here changes
    // every annotated trace, so it must be deliberate (and documented).
    JobRecord j;
    j.name = "job-1";
    j.user = "alice";
    j.vc = "vc1";
    j.submitTime = 60;
    j.numGpus = 4;
    j.duration = 3600;
    CHECK(TraceAnnotator::JobStreamSeed(1, j) == 0xd678f8c0ed9432abULL);
    CHECK(TraceAnnotator::JobStreamSeed(2, j) != TraceAnnotator::JobStreamSeed(1, j));
}

TEST_CASE("gpu-time rule follows Sia's GPU-hour buckets", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, AnnotatorOptions());
    auto model = [&](JobRecord j) {
        annotator.Annotate(j);
        return j.model;
    };
    CHECK(model(Job("a", 0.5, 1)) == "resnet18-cifar10");
    CHECK(model(Job("b", 0.99, 1)) == "resnet18-cifar10");
    CHECK(model(Job("c", 0.2, 4)) == "resnet18-cifar10"); // 0.8 GPU-h
    std::string at1 = model(Job("d", 1.0, 1));            // 1 GPU-h opens the second bucket
    CHECK((at1 == "deepspeech2-arctic" || at1 == "bert-squad"));
    std::string at5 = model(Job("e", 1.25, 4));
    CHECK((at5 == "deepspeech2-arctic" || at5 == "bert-squad"));
    CHECK(model(Job("f", 2.5, 4)) == "yolov3-voc"); // exactly 10 GPU-h
    CHECK(model(Job("g", 99.0, 1)) == "yolov3-voc");
    CHECK(model(Job("h", 12.5, 8)) == "resnet50-imagenet"); // exactly 100 GPU-h
    CHECK(model(Job("i", 400, 64)) == "resnet50-imagenet");
    JobRecord shared = Job("j", 1.5, 0); // half a GPU for 1.5 h = 0.75 GPU-h
    shared.gpuFraction = 0.5;
    CHECK(model(shared) == "resnet18-cifar10");

    // Within the 1-10 GPU-h bucket, half deepspeech2 and half bert.
    std::size_t speech = 0, n = 20000;
    for (std::size_t i = 0; i < n; ++i)
    {
        speech += model(Job("m" + std::to_string(i), 3.0, 1)) == "deepspeech2-arctic";
    }
    CHECK(double(speech) / n == Approx(0.5).margin(0.02));
}

TEST_CASE("gpu-time rule without a duration draws each bucket equally", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, AnnotatorOptions());
    std::vector<JobRecord> jobs(40000);
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        jobs[i].name = "s" + std::to_string(i);
        jobs[i].numGpus = 2;
        jobs[i].totalSteps = 1000;
    }
    annotator.Annotate(jobs);
    auto n = CountModels(jobs);
    double total = jobs.size();
    CHECK(n["resnet18-cifar10"] / total == Approx(0.25).margin(0.015));
    CHECK((n["deepspeech2-arctic"] + n["bert-squad"]) / total == Approx(0.25).margin(0.015));
    CHECK(n["yolov3-voc"] / total == Approx(0.25).margin(0.015));
    CHECK(n["resnet50-imagenet"] / total == Approx(0.25).margin(0.015));
}

TEST_CASE("weighted rule's shares match the weights over 100k draws", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, Weighted(5));
    auto jobs = SyntheticJobs(100000);
    annotator.Annotate(jobs);
    auto n = CountModels(jobs);
    double total = jobs.size();
    CHECK(n.size() == 4);
    CHECK(n["resnet18-cifar10"] / total == Approx(0.1).margin(0.01));
    CHECK(n["resnet50-imagenet"] / total == Approx(0.2).margin(0.01));
    CHECK(n["bert-squad"] / total == Approx(0.3).margin(0.01));
    CHECK(n["neumf-movielens"] / total == Approx(0.4).margin(0.01));

    // Two spellings of one workload add up.
    AnnotatorOptions o;
    o.modelRule = "weighted";
    o.modelWeights = {{"imagenet", 1}, {"resnet50-imagenet", 1}, {"cifar10", 2}};
    auto more = SyntheticJobs(20000);
    TraceAnnotator(catalog, o).Annotate(more);
    CHECK(CountModels(more)["resnet50-imagenet"] / 20000.0 == Approx(0.5).margin(0.02));
}

TEST_CASE("iterations are computed exactly as documented", "[annotator]")
{
    WorkloadCatalog c = WorkloadCatalog::Load(kFixtures + "small.json");
    TraceAnnotator annotator(c, AnnotatorOptions());
    auto run = [&](JobRecord j) {
        annotator.Annotate(j);
        return j;
    };
    // Duration known: duration / ComputeTime(numGpus); tiny-cifar ComputeTime(2) = 0.75 s.
    JobRecord a = Job("a", 1.0, 2);
    a.model = "cifar10";
    CHECK(run(a).iterations == Approx(3600.0 / 0.75).epsilon(1e-14));
    CHECK(run(a).model == "tiny-cifar");
    CHECK(run(a).dataset == "tiny-set");
    // Fractional GPU: runs at its share of one GPU.
    JobRecord f = Job("f", 1.0, 0);
    f.gpuFraction = 0.25;
    f.model = "tiny-cifar";
    CHECK(run(f).iterations == Approx(3600.0 * 0.25 / 1.0).epsilon(1e-14));
    // Steps: per data-parallel iteration, or per worker (Gavel) divided by numGpus.
    JobRecord s = Job("s", 0, 4);
    s.duration = JobRecord::UNKNOWN;
    s.totalSteps = 1000;
    s.model = "imagenet";
    CHECK(run(s).iterations == 1000);
    s.model = "Tiny (batch size 10)";
    CHECK(run(s).iterations == 250);
    // Neither: samplesToTarget / globalBatch, else / (localBatch * numGpus).
    JobRecord p = s;
    p.totalSteps = JobRecord::UNKNOWN;
    p.model = "bert";
    p.globalBatch = 64;
    CHECK(run(p).iterations == 1000000.0 / 64);
    p.globalBatch = 0;
    CHECK(run(p).iterations == 1000000.0 / (10 * 4));
    // Nothing to count from: an error naming the job's source.
    p.model = "tiny-gavel"; // samplesToTarget 0
    p.source = RecordSource("trace.csv", 7);
    TraceError e = AnnotateError(annotator, p);
    CHECK(e.File() == "trace.csv");
    CHECK(e.Line() == 7);
    CHECK(e.Field() == "duration");
    // A zero duration counts nothing: the steps are used instead.
    JobRecord z = s;
    z.duration = 0;
    z.model = "imagenet";
    CHECK(run(z).iterations == 1000);
    // A negative duration that is not "unknown" is malformed input.
    z.duration = -5;
    z.source = RecordSource("trace.csv", 9);
    TraceError neg = AnnotateError(annotator, z);
    CHECK(neg.Field() == "duration");
    CHECK(neg.Line() == 9);
    // A dataset the reader set is kept.
    JobRecord d = a;
    d.dataset = "my-shard";
    CHECK(run(d).dataset == "my-shard");
}

TEST_CASE("models named by the trace are kept, through aliases", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, Weighted(3));
    JobRecord g = Job("gavel", 0, 8);
    g.duration = JobRecord::UNKNOWN;
    g.totalSteps = 80000;
    g.model = "ResNet-50 (batch size 64)";
    annotator.Annotate(g);
    CHECK(g.model == "resnet50-imagenet-gavel-b64");
    CHECK(g.dataset == "imagenet-1k");
    CHECK(g.iterations == 10000); // Gavel steps are summed over the 8 workers
    JobRecord t = Job("tiresias", 1.0, 2);
    t.model = "vgg19";
    annotator.Annotate(t);
    CHECK(t.model == "resnet50-imagenet");
    const WorkloadProfile& r50 = catalog.Get("resnet50-imagenet");
    CHECK(t.iterations == Approx(3600.0 / r50.ComputeTime(2)).epsilon(1e-14));
}

TEST_CASE("unknown model is an error naming the job's source", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    TraceAnnotator annotator(catalog, AnnotatorOptions());
    JobRecord j = Job("x", 1.0, 1);
    j.model = "BogusNet";
    j.source = RecordSource("traces/gavel.trace", 12);
    TraceError e = AnnotateError(annotator, j);
    CHECK(e.File() == "traces/gavel.trace");
    CHECK(e.Line() == 12);
    CHECK(e.Field() == "model");
    CHECK(std::string(e.what()).find("BogusNet") != std::string::npos);
    CHECK(std::string(e.what()).find("gavel.trace") != std::string::npos);
}

TEST_CASE("annotator options are checked", "[annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    AnnotatorOptions o;
    o.modelRule = "round-robin";
    CHECK_THROWS_AS(TraceAnnotator(catalog, o), std::invalid_argument);
    o.modelRule = "weighted";
    CHECK_THROWS_AS(TraceAnnotator(catalog, o), std::invalid_argument); // no weights
    o.modelWeights = {{"no-such-model", 1}};
    CHECK_THROWS_AS(TraceAnnotator(catalog, o), std::invalid_argument);
    o.modelWeights = {{"cifar10", -1}};
    CHECK_THROWS_AS(TraceAnnotator(catalog, o), std::invalid_argument);
    o.modelWeights = {{"cifar10", 0}};
    CHECK_THROWS_AS(TraceAnnotator(catalog, o), std::invalid_argument);
    o.modelWeights = {{"cifar10", 0}, {"bert", 1}};
    CHECK_NOTHROW(TraceAnnotator(catalog, o));
}
