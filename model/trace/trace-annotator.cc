/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "trace-annotator.h"

#include "trace-reader.h"

#include "ns3/lazy-mt19937-64.h"
#include "ns3/log.h"
#include "ns3/split-mix.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TraceAnnotator");

namespace
{

/** Sia's applications (aliases in the catalog) that the gpu-time rule assigns. */
const char* const kCifar = "cifar10";
const char* const kSpeech = "deepspeech2";
const char* const kBert = "bert";
const char* const kYolo = "yolov3";
const char* const kImagenet = "imagenet";

/** GPU-hour bucket edges of Sia's rule (sia-simulator/utils/generate_workload.py). */
constexpr double kBucketEdgesHours[] = {1.0, 10.0, 100.0};

constexpr uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr uint64_t kFnvPrime = 1099511628211ULL;

/** FNV-1a 64 over bytes fed in a fixed, platform-independent order. */
class Fnv1a
{
  public:
    void Bytes(const std::string& s)
    {
        for (unsigned char c : s)
        {
            Byte(c);
        }
        Byte(0); // terminator: "ab"+"c" and "a"+"bc" hash differently
    }

    /** Feeds the value's 8 bytes least significant first, whatever the host's byte order. */
    void U64(uint64_t v)
    {
        for (int i = 0; i < 8; ++i)
        {
            Byte(static_cast<unsigned char>(v >> (8 * i)));
        }
    }

    void Double(double d)
    {
        if (d == 0)
        {
            d = 0; // -0.0 and 0.0 are the same job field
        }
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        U64(bits);
    }

    uint64_t Value() const
    {
        return m_h;
    }

  private:
    void Byte(unsigned char c)
    {
        m_h = (m_h ^ c) * kFnvPrime;
    }

    uint64_t m_h{kFnvOffset};
};

/** Uniform in [0, 1) from the top 53 bits: std::uniform_real_distribution is not portable. */
double
Uniform01(LazyMt19937_64& rng)
{
    return double(rng() >> 11) * (1.0 / 9007199254740992.0);
}

[[noreturn]] void
Fail(const JobRecord& job, const std::string& field, const std::string& expected)
{
    const std::string& file = job.source.File();
    throw TraceError(file.empty() ? "<job without source>" : file,
                     job.source.Line(),
                     field,
                     expected);
}

/**
 * \return true if a duration or step count is usable (> 0); false if unknown or 0
 * \throws TraceError if it is neither unknown nor a finite number >= 0
 */
bool
Known(const JobRecord& job, double x, const char* field)
{
    if (x == JobRecord::UNKNOWN)
    {
        return false;
    }
    if (!std::isfinite(x) || x < 0)
    {
        Fail(job, field, "expected a finite number >= 0 or unknown, got " + std::to_string(x));
    }
    return x > 0;
}

/** GPUs the job ran on as a real number: numGpus, or the share of one GPU it asked for. */
double
EffectiveGpus(const JobRecord& job)
{
    if (job.numGpus >= 1)
    {
        return job.numGpus;
    }
    if (job.gpuFraction > 0 && job.gpuFraction <= 1)
    {
        return job.gpuFraction;
    }
    Fail(job,
         "numGpus",
         "expected numGpus >= 1 or 0 < gpuFraction <= 1, got numGpus 0 and gpuFraction " +
             std::to_string(job.gpuFraction));
}

std::string
DrawWeighted(const std::map<std::string, double>& weights, double u)
{
    double total = 0;
    for (const auto& [model, weight] : weights)
    {
        total += weight;
    }
    double target = u * total;
    double cumulative = 0;
    std::string last;
    for (const auto& [model, weight] : weights)
    {
        if (weight <= 0)
        {
            continue;
        }
        cumulative += weight;
        last = model;
        if (target < cumulative)
        {
            return model;
        }
    }
    return last; // only reached through rounding at u close to 1
}

/**
 * The "gpu-time" rule's draw.
 * \param apps the catalog entries of kCifar, kSpeech, kBert, kYolo and kImagenet, in that order
 *        (resolved once: a look-up by alias per job cost more than the rest of the draw)
 */
const WorkloadProfile&
DrawByGpuTime(const WorkloadProfile* const* apps,
              const JobRecord& job,
              double uSplit,
              double uBucket)
{
    int bucket;
    if (Known(job, job.duration, "duration"))
    {
        double gpuHours = job.duration * EffectiveGpus(job) / 3600.0;
        bucket = 0;
        while (bucket < 3 && gpuHours >= kBucketEdgesHours[bucket])
        {
            ++bucket;
        }
    }
    else
    {
        // No duration, no GPU time: each of the rule's four buckets is equally likely.
        bucket = std::min(3, int(uBucket * 4));
    }
    switch (bucket)
    {
    case 0:
        return *apps[0]; // kCifar
    case 1:
        return uSplit < 0.5 ? *apps[1]
                            : *apps[2]; // Sia turns half of its deepspeech2 jobs into bert
    case 2:
        return *apps[3]; // kYolo
    default:
        return *apps[4]; // kImagenet
    }
}

/** The catalog entries that serve a job type, smallest model (then name) first. */
std::vector<const WorkloadProfile*>
EntriesOfType(const WorkloadCatalog& catalog, const std::string& type)
{
    std::vector<const WorkloadProfile*> entries;
    for (const auto& name : catalog.Names())
    {
        const WorkloadProfile& w = catalog.Get(name);
        if (std::find(w.jobTypes.begin(), w.jobTypes.end(), type) != w.jobTypes.end())
        {
            entries.push_back(&w);
        }
    }
    std::stable_sort(entries.begin(),
                     entries.end(),
                     [](const WorkloadProfile* a, const WorkloadProfile* b) {
                         return a->parameters < b->parameters;
                     });
    return entries;
}

/**
 * The "acme" job-type rule (doc/annotator.md); "" when the job follows modelRule instead.
 * Training types: the largest model the job holds with at least minReplicas data-parallel
 * replicas, else the smallest that fits. Evaluation: uniform (u) among those that fit.
 */
std::string
DrawByJobType(const WorkloadCatalog& catalog, const JobRecord& job, uint32_t minReplicas, double u)
{
    std::string type = job.jobType == "Debug" ? "Pretrain" : job.jobType;
    if (type != "Pretrain" && type != "SFT" && type != "Evaluation")
    {
        return "";
    }
    std::vector<const WorkloadProfile*> fit;
    for (const WorkloadProfile* w : EntriesOfType(catalog, type))
    {
        if (w->minGpus <= job.numGpus)
        {
            fit.push_back(w);
        }
    }
    if (fit.empty())
    {
        return "";
    }
    if (type == "Evaluation")
    {
        return fit[std::min(fit.size() - 1, size_t(u * fit.size()))]->name;
    }
    for (auto it = fit.rbegin(); it != fit.rend(); ++it)
    {
        if (uint64_t((*it)->minGpus) * minReplicas <= job.numGpus)
        {
            return (*it)->name;
        }
    }
    return fit.front()->name;
}

double
Iterations(const JobRecord& job, const WorkloadProfile& profile)
{
    if (Known(job, job.duration, "duration"))
    {
        // The trace's run time as the ideal compute-bound one; a fractional-GPU job runs
        // at its share of one GPU.
        double gpus = EffectiveGpus(job);
        uint32_t whole = job.numGpus >= 1 ? job.numGpus : 1;
        double share = job.numGpus >= 1 ? 1.0 : gpus;
        return job.duration * share / profile.ComputeTime(whole);
    }
    if (Known(job, job.totalSteps, "totalSteps"))
    {
        if (profile.stepsCountedPerWorker)
        {
            return job.totalSteps / std::max<uint32_t>(1, job.numGpus);
        }
        return job.totalSteps;
    }
    if (job.duration == 0)
    {
        // A recorded zero run time (the Tiresias simulator's traces have them) is no work,
        // not "unknown": it is not replaced by the catalog's samples-to-target.
        return 0;
    }
    if (profile.samplesToTarget > 0)
    {
        double batch = job.globalBatch > 0
                           ? double(job.globalBatch)
                           : double(profile.localBatch) * std::max<uint32_t>(1, job.numGpus);
        return profile.samplesToTarget / batch;
    }
    Fail(job,
         "duration",
         "expected a duration, a step count, or a model whose catalog entry has "
         "samplesToTarget; model '" +
             profile.name + "' has none");
}

/** Hex text of a 64-bit value, 16 digits. */
std::string
Hex64(uint64_t v)
{
    static const char* digits = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
    {
        text[i] = digits[v & 15];
    }
    return text;
}

/** The dataset rule's name for a job that names none (doc/annotator.md). */
std::string
DatasetName(const AnnotatorOptions& options,
            TraceAnnotator::DatasetRule rule,
            const JobRecord& job,
            const WorkloadProfile& profile,
            double uShare,
            double uPool,
            uint64_t streamSeed)
{
    const std::string& base = profile.dataset;
    if (base.empty() || profile.datasetBytes <= 0)
    {
        return base; // a workload without a dataset (e.g. reinforcement learning) shares nothing
    }
    using Rule = TraceAnnotator::DatasetRule;
    if (rule == Rule::JOB || uShare >= options.datasetShareProbability)
    {
        return base + "@job:" + Hex64(streamSeed);
    }
    if (rule == Rule::VC)
    {
        return base + "@vc:" + (job.vc.empty() ? "-" : job.vc);
    }
    if (rule == Rule::USER)
    {
        return base + "@user:" + (job.user.empty() ? "-" : job.user);
    }
    if (rule == Rule::POOL)
    {
        uint32_t i =
            std::min(options.datasetPoolSize - 1, uint32_t(uPool * options.datasetPoolSize));
        return base + "@pool:" + std::to_string(i);
    }
    return base; // "model"
}

} // namespace

TraceAnnotator::TraceAnnotator(const WorkloadCatalog& catalog, const AnnotatorOptions& options)
    : m_catalog(catalog),
      m_options(options)
{
    if (options.modelRule == "gpu-time")
    {
        std::size_t i = 0;
        for (const char* app : {kCifar, kSpeech, kBert, kYolo, kImagenet})
        {
            if (!catalog.Has(app))
            {
                throw std::invalid_argument(std::string("annotator rule \"gpu-time\" needs the "
                                                        "catalog to know '") +
                                            app + "'; " + catalog.Path() + " does not");
            }
            m_gpuTimeApps[i++] = &catalog.Get(app);
        }
    }
    else if (options.modelRule == "weighted")
    {
        // Canonical names, so two aliases of one workload add up and the draw order is the
        // sorted canonical names whatever spelling the user chose.
        m_options.modelWeights.clear();
        double total = 0;
        for (const auto& [model, weight] : options.modelWeights)
        {
            if (!catalog.Has(model))
            {
                catalog.Get(model); // throws std::invalid_argument listing the known names
            }
            if (!std::isfinite(weight) || weight < 0)
            {
                throw std::invalid_argument("annotator weight of '" + model +
                                            "': expected a finite number >= 0, got " +
                                            std::to_string(weight));
            }
            m_options.modelWeights[catalog.Get(model).name] += weight;
            total += weight;
        }
        if (!(total > 0))
        {
            throw std::invalid_argument(
                "annotator rule \"weighted\": expected modelWeights with a positive sum");
        }
    }
    else
    {
        throw std::invalid_argument("unknown annotator rule \"" + options.modelRule +
                                    "\"; known rules: gpu-time, weighted");
    }
    if (options.jobTypeRule != "acme" && options.jobTypeRule != "ignore")
    {
        throw std::invalid_argument("unknown annotator jobTypeRule \"" + options.jobTypeRule +
                                    "\"; known rules: acme, ignore");
    }
    if (options.llmMinReplicas < 1)
    {
        throw std::invalid_argument("annotator llmMinReplicas: expected >= 1, got 0");
    }
    const std::string& rule = options.datasetRule;
    if (rule != "model" && rule != "vc" && rule != "user" && rule != "pool" && rule != "job")
    {
        throw std::invalid_argument("unknown annotator datasetRule \"" + rule +
                                    "\"; known rules: model, vc, user, pool, job");
    }
    m_datasetRule = rule == "vc"     ? DatasetRule::VC
                    : rule == "user" ? DatasetRule::USER
                    : rule == "pool" ? DatasetRule::POOL
                    : rule == "job"  ? DatasetRule::JOB
                                     : DatasetRule::MODEL;
    m_weighted = options.modelRule == "weighted";
    m_acmeTypes = options.jobTypeRule == "acme";
    if (!(options.datasetShareProbability >= 0 && options.datasetShareProbability <= 1))
    {
        throw std::invalid_argument("annotator datasetShareProbability: expected a number in "
                                    "[0, 1], got " +
                                    std::to_string(options.datasetShareProbability));
    }
    if (options.datasetPoolSize < 1)
    {
        throw std::invalid_argument("annotator datasetPoolSize: expected >= 1, got 0");
    }
    if (!(options.datasetScaleMin > 0 && options.datasetScaleMin <= options.datasetScaleMax &&
          std::isfinite(options.datasetScaleMax)))
    {
        throw std::invalid_argument("annotator datasetScaleMin/Max: expected 0 < min <= max < "
                                    "infinity, got " +
                                    std::to_string(options.datasetScaleMin) + " and " +
                                    std::to_string(options.datasetScaleMax));
    }
}

DatasetSpec
TraceAnnotator::Dataset(const JobRecord& job) const
{
    const WorkloadProfile& profile = m_catalog.Get(job.model);
    DatasetSpec spec;
    spec.name = job.dataset;
    spec.bytesPerSample = profile.rawBytesPerSample;
    double scale = 1.0;
    if (m_options.datasetScaleMax > m_options.datasetScaleMin)
    {
        Fnv1a h;
        h.Bytes(job.dataset);
        LazyMt19937_64 rng(
            SplitMix64(m_options.seed ^ SplitMix64(h.Value()))); // std::mt19937_64's numbers
        double lo = std::log(m_options.datasetScaleMin);
        double hi = std::log(m_options.datasetScaleMax);
        scale = std::exp(lo + Uniform01(rng) * (hi - lo));
    }
    else
    {
        scale = m_options.datasetScaleMin;
    }
    spec.bytes = profile.datasetBytes * scale;
    return spec;
}

uint64_t
TraceAnnotator::JobStreamSeed(uint64_t seed, const JobRecord& job)
{
    Fnv1a h;
    h.Bytes(job.name);
    h.Bytes(job.user);
    h.Bytes(job.vc);
    h.Double(job.submitTime);
    h.U64(job.numGpus);
    h.Double(job.gpuFraction);
    h.Double(job.duration);
    h.Double(job.totalSteps);
    h.U64(job.globalBatch);
    return SplitMix64(seed ^ SplitMix64(h.Value()));
}

void
TraceAnnotator::Annotate(std::vector<JobRecord>& jobs) const
{
    for (JobRecord& job : jobs)
    {
        Annotate(job);
    }
}

void
TraceAnnotator::Annotate(JobRecord& job) const
{
    // The fields the seed hashes are not changed below: one hash serves both uses.
    const uint64_t streamSeed = JobStreamSeed(m_options.seed, job);
    LazyMt19937_64 rng(streamSeed); // std::mt19937_64's numbers
    // The draws are taken in a fixed order whether or not they are used, so that what one
    // step consumes never shifts what the next one sees.
    double uModel = Uniform01(rng);
    double uSplit = Uniform01(rng);
    double uBucket = Uniform01(rng);
    double uShare = Uniform01(rng); // draws 4 and 5 (dataset) come after the model's three
    double uPool = Uniform01(rng);

    if (job.model.empty() && !job.jobType.empty() && m_acmeTypes)
    {
        job.model = DrawByJobType(m_catalog, job, m_options.llmMinReplicas, uModel);
    }
    const WorkloadProfile* drawn = nullptr; // the catalog entry, when drawn from it here
    if (job.model.empty())
    {
        if (m_weighted)
        {
            job.model = DrawWeighted(m_options.modelWeights, uModel);
        }
        else
        {
            drawn = &DrawByGpuTime(m_gpuTimeApps, job, uSplit, uBucket);
        }
    }
    else if (!m_catalog.Has(job.model))
    {
        Fail(job,
             "model",
             "expected a workload-catalog name or alias (see doc/workload-catalog.md, catalog " +
                 m_catalog.Path() + "), got '" + job.model + "'");
    }
    const WorkloadProfile& profile = drawn ? *drawn : m_catalog.Get(job.model);
    job.model = profile.name;
    if (job.dataset.empty())
    {
        job.dataset =
            DatasetName(m_options, m_datasetRule, job, profile, uShare, uPool, streamSeed);
    }
    job.iterations = Iterations(job, profile);
    NS_LOG_LOGIC(job.source << " model " << job.model << " iterations " << job.iterations);
}

} // namespace ns3
