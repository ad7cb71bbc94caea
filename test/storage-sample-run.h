/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_STORAGE_SAMPLE_RUN_H
#define AICLUSTER_TEST_STORAGE_SAMPLE_RUN_H

// The storage tests' whole replay: the bundled sample trace on storage-allocation's default
// cluster (16 x 8 GPUs in racks of 4, FIFO, datasets per VC), its data read through a storage
// policy.

#include "ns3/cluster-engine-helper.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/storage-helper.h"
#include "ns3/trace-reader.h"

#include <string>
#include <vector>

namespace ns3
{

/** A replay of the sample that has run to its end (Simulator::Destroy is the caller's). */
struct StorageSampleRun
{
    Ptr<ClusterEngine> engine;       //!< the engine, its jobs finished
    Ptr<StorageDataLoading> storage; //!< the storage model the policy drove
};

/**
 * \param options the storage tier (policy, cache, bandwidth, budget)
 * \return the finished replay
 */
inline StorageSampleRun
RunStorageSample(const StorageOptions& options)
{
    Config::SetDefault("ns3::ClusterEngine::ProgressInterval", DoubleValue(0));
    std::vector<JobRecord> jobs =
        ReadTrace(std::string(AICLUSTER_SOURCE_DIR) + "/traces/sample/sample-trace.csv",
                  TraceReadOptions());
    AnnotatorOptions ann;
    ann.datasetRule = "vc";
    TraceAnnotator annotator(WorkloadCatalog::Default(), ann);
    annotator.Annotate(jobs);
    ClusterEngineHelper helper;
    ClusterTopology topology;
    topology.numNodes = 16;
    topology.nodesPerRack = 4;
    helper.SetTopology(topology);
    helper.SetScheduler("ns3::FifoPolicy");
    StorageSampleRun run;
    run.engine = helper.Create(jobs, WorkloadCatalog::Default());
    run.storage = StorageHelper(options).Install(run.engine, jobs, annotator);
    run.engine->Run();
    return run;
}

} // namespace ns3

#endif
