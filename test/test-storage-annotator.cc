/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Dataset assignment by the trace annotator: sharing rules, sharing degree, sizes,
// determinism and option checks.

#include "ns3/trace-annotator.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace ns3;

namespace
{

std::vector<JobRecord>
Jobs(size_t n)
{
    std::mt19937_64 rng(99);
    std::vector<JobRecord> jobs(n);
    for (size_t i = 0; i < n; ++i)
    {
        JobRecord& j = jobs[i];
        j.id = i;
        j.name = "j" + std::to_string(i);
        j.submitTime = 10.0 * i;
        j.numGpus = 1 + rng() % 8;
        j.duration = 60.0 * (1 + rng() % 5000);
        j.user = "u" + std::to_string(rng() % 20);
        j.vc = "vc" + std::to_string(rng() % 4);
        j.source = RecordSource("t.csv", i + 2);
    }
    return jobs;
}

std::vector<JobRecord>
Annotated(const AnnotatorOptions& options, size_t n = 2000)
{
    std::vector<JobRecord> jobs = Jobs(n);
    TraceAnnotator(WorkloadCatalog::Default(), options).Annotate(jobs);
    return jobs;
}

std::string
Base(const std::string& name)
{
    return name.substr(0, name.find('@'));
}

} // namespace

TEST_CASE("dataset rules group jobs by model, vc, user or nothing", "[storage][annotator]")
{
    AnnotatorOptions model;
    std::vector<JobRecord> byModel = Annotated(model);
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    for (const JobRecord& j : byModel)
    {
        CHECK(j.dataset == catalog.Get(j.model).dataset); // the default is unchanged
    }
    for (const char* rule : {"vc", "user"})
    {
        AnnotatorOptions o;
        o.datasetRule = rule;
        std::vector<JobRecord> jobs = Annotated(o);
        std::map<std::pair<std::string, std::string>, std::set<std::string>> groups;
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            const JobRecord& j = jobs[i];
            CHECK(j.model == byModel[i].model); // dataset options never change models
            std::string who = std::string(rule) == "vc" ? j.vc : j.user;
            CHECK(j.dataset == catalog.Get(j.model).dataset + "@" + rule + ":" + who);
            groups[{Base(j.dataset), who}].insert(j.dataset);
        }
        for (const auto& [key, names] : groups)
        {
            CHECK(names.size() == 1);
        }
    }
    AnnotatorOptions job;
    job.datasetRule = "job";
    std::set<std::string> names;
    for (const JobRecord& j : Annotated(job))
    {
        names.insert(j.dataset);
    }
    CHECK(names.size() == 2000);
}

TEST_CASE("pool rule draws among datasetPoolSize variants", "[storage][annotator]")
{
    AnnotatorOptions o;
    o.datasetRule = "pool";
    o.datasetPoolSize = 3;
    std::map<std::string, std::map<std::string, size_t>> variants;
    for (const JobRecord& j : Annotated(o, 6000))
    {
        ++variants[Base(j.dataset)][j.dataset];
    }
    for (const auto& [base, counts] : variants)
    {
        CHECK(counts.size() <= 3);
        size_t total = 0;
        for (const auto& [name, n] : counts)
        {
            total += n;
        }
        if (total >= 1500)
        {
            for (const auto& [name, n] : counts)
            {
                CHECK(double(n) / total == Approx(1.0 / 3).margin(0.05));
            }
        }
    }
}

TEST_CASE("share probability sets the sharing degree", "[storage][annotator]")
{
    double previousReaders = 1e9;
    for (double p : {1.0, 0.7, 0.3, 0.0})
    {
        AnnotatorOptions o;
        o.datasetShareProbability = p;
        std::vector<JobRecord> jobs = Annotated(o, 10000);
        size_t priv = 0;
        std::set<std::string> names;
        for (const JobRecord& j : jobs)
        {
            priv += j.dataset.find("@job:") != std::string::npos;
            names.insert(j.dataset);
        }
        INFO("p = " << p);
        CHECK(double(priv) / jobs.size() == Approx(1 - p).margin(0.02));
        double readers = double(jobs.size()) / names.size(); // mean readers per dataset
        CHECK(readers < previousReaders);
        previousReaders = readers;
    }
}

TEST_CASE("dataset annotation is per-job deterministic", "[storage][annotator]")
{
    AnnotatorOptions o;
    o.datasetRule = "pool";
    o.datasetShareProbability = 0.5;
    std::vector<JobRecord> all = Jobs(3000);
    std::vector<JobRecord> odd;
    for (size_t i = 1; i < all.size(); i += 2)
    {
        odd.push_back(all[i]);
    }
    TraceAnnotator annotator(WorkloadCatalog::Default(), o);
    annotator.Annotate(all);
    annotator.Annotate(odd);
    for (size_t i = 0; i < odd.size(); ++i)
    {
        CHECK(odd[i].dataset == all[2 * i + 1].dataset);
    }
    std::vector<JobRecord> again = Jobs(3000);
    annotator.Annotate(again);
    for (size_t i = 0; i < again.size(); ++i)
    {
        CHECK(again[i].dataset == all[i].dataset);
    }
}

TEST_CASE("dataset sizes: catalog size times a per-name log-uniform factor", "[storage][annotator]")
{
    AnnotatorOptions o;
    o.datasetRule = "user";
    o.datasetScaleMin = 0.5;
    o.datasetScaleMax = 4;
    std::vector<JobRecord> jobs = Annotated(o);
    TraceAnnotator annotator(WorkloadCatalog::Default(), o);
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    std::map<std::string, double> size;
    std::set<double> factors;
    for (const JobRecord& j : jobs)
    {
        DatasetSpec spec = annotator.Dataset(j);
        const WorkloadProfile& profile = catalog.Get(j.model);
        CHECK(spec.name == j.dataset);
        CHECK(spec.bytesPerSample == profile.rawBytesPerSample);
        double factor = spec.bytes / profile.datasetBytes;
        CHECK(factor >= 0.5);
        CHECK(factor <= 4);
        factors.insert(factor);
        auto [it, added] = size.emplace(j.dataset, spec.bytes);
        CHECK(it->second == spec.bytes); // every reader sees the same size
    }
    CHECK(factors.size() == size.size()); // distinct names, distinct draws
    // Without a range, the catalog size.
    TraceAnnotator plain(WorkloadCatalog::Default(), AnnotatorOptions());
    CHECK(plain.Dataset(jobs[0]).bytes == catalog.Get(jobs[0].model).datasetBytes);
}

TEST_CASE("dataset options are checked", "[storage][annotator]")
{
    const WorkloadCatalog& catalog = WorkloadCatalog::Default();
    AnnotatorOptions o;
    o.datasetRule = "team";
    CHECK_THROWS_WITH(TraceAnnotator(catalog, o),
                      Catch::Contains("datasetRule") &&
                          Catch::Contains("model, vc, user, pool, job"));
    o = AnnotatorOptions();
    o.datasetShareProbability = 1.5;
    CHECK_THROWS_WITH(TraceAnnotator(catalog, o), Catch::Contains("datasetShareProbability"));
    o = AnnotatorOptions();
    o.datasetPoolSize = 0;
    CHECK_THROWS_WITH(TraceAnnotator(catalog, o), Catch::Contains("datasetPoolSize"));
    o = AnnotatorOptions();
    o.datasetScaleMin = 2;
    o.datasetScaleMax = 1;
    CHECK_THROWS_WITH(TraceAnnotator(catalog, o), Catch::Contains("datasetScaleMin"));
}
