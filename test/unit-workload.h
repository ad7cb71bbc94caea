/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_UNIT_WORKLOAD_H
#define AICLUSTER_TEST_UNIT_WORKLOAD_H

// The unit workload of the engine tests: test-data/engine/unit-catalog.json's "unit-model"
// computes 1 s per iteration at any GPU count, one sample per GPU per iteration.

#include "ns3/cluster-engine.h"
#include "ns3/double.h"
#include "ns3/job-record.h"
#include "ns3/workload-catalog.h"

#include <string>
#include <vector>

namespace ns3
{

/** \return the catalog with "unit-model" (loaded once) */
inline const WorkloadCatalog&
UnitCatalog()
{
    static const WorkloadCatalog catalog =
        WorkloadCatalog::Load(std::string(AICLUSTER_TEST_DATA) + "/engine/unit-catalog.json");
    return catalog;
}

/**
 * \param id job id
 * \param submit submit time [s]
 * \param gpus GPUs asked
 * \param seconds run time at compute speed [s] = iterations
 * \param dataset its dataset ("" = none)
 * \return a unit-model job
 */
inline JobRecord
UnitJob(uint64_t id,
        double submit,
        uint32_t gpus,
        double seconds,
        const std::string& dataset = std::string())
{
    JobRecord r;
    r.id = id;
    r.name = "job" + std::to_string(id);
    r.submitTime = submit;
    r.numGpus = gpus;
    r.duration = seconds;
    r.model = "unit-model";
    r.iterations = seconds;
    r.dataset = dataset;
    r.source = RecordSource("test", id);
    return r;
}

/**
 * \brief The engine tests' small cluster: 2 nodes x 4 GPUs, no progress lines.
 * \param jobs the jobs to replay
 * \param catalog their workloads
 * \return an engine with its topology and jobs set; models and policies are the caller's
 */
inline Ptr<ClusterEngine>
UnitEngine(const std::vector<JobRecord>& jobs, const WorkloadCatalog& catalog = UnitCatalog())
{
    Ptr<ClusterEngine> engine = CreateObject<ClusterEngine>();
    engine->SetAttribute("ProgressInterval", DoubleValue(0));
    ClusterTopology topology;
    topology.numNodes = 2;
    topology.gpusPerNode = 4;
    engine->SetTopology(topology);
    engine->SetJobs(jobs, catalog);
    return engine;
}

} // namespace ns3

#endif // AICLUSTER_TEST_UNIT_WORKLOAD_H
