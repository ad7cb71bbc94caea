/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// kspeed-provisioning: where data loading stalls GPUs, and how much of it KSpeed's pooled
// memory/CPU tier (writing straight into GPU memory over the rails) removes, against a local
// PyTorch-style loader, Meta's DPP and an Alluxio cache. Rate level (max-min over storage,
// CPU, host memory, PCIe and rails; doc/provisioning.md).
//
//  --mode=table    every workload alone on the whole cluster (default 12 nodes x 8 GPUs):
//                  samples/s per GPU when training (GPU consumes at its catalog rate) and the
//                  loader's capacity (a loading benchmark: GPU consumes anything), stall
//                  fraction, utilizations and the bottleneck; KSpeed over DPP and Alluxio
//  --mode=mix      the workloads together, nodes split evenly between them
//  --mode=scaling  one workload on 8 to 512 GPUs (1 to 64 nodes)
//  --mode=all      all three (default)
//
//   ./ns3 run kspeed-provisioning -- --mode=table --nodes=12
//   ./ns3 run kspeed-provisioning -- --ns3::ProvisioningModel::CpuCores=32 --mode=scaling

#include "ns3/cluster-scenario.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/provisioning-model.h"
#include "ns3/rng-seed-manager.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{

const char* kLoaders[] = {"local", "dpp", "alluxio", "kspeed"};

nlohmann::json
UtilJson(const ProvisioningUtilization& u)
{
    return {{"storage", u.storage},
            {"storageClient", u.storageClient},
            {"cpu", u.cpu},
            {"hostMemory", u.hostMemory},
            {"pcieUplink", u.pcieUplink},
            {"pcieDevice", u.pcieDevice},
            {"rail", u.rail},
            {"storageNic", u.frontend}};
}

/// One loader on one job set: training results and loading capacity.
struct Outcome
{
    std::vector<ProvisioningJobResult> training;
    std::vector<ProvisioningJobResult> capacity;
    ProvisioningUtilization trainingUtil;
    ProvisioningUtilization capacityUtil;
};

Outcome
RunLoader(const RailClusterConfig& cluster,
          Ptr<StorageBackend> storage,
          const std::string& loader,
          std::vector<ProvisioningJob> jobs)
{
    auto model = CreateObject<ProvisioningModel>();
    model->SetCluster(cluster, storage);
    model->SetLoader(ProvisioningLoader::Create(loader));
    Outcome o;
    o.training = model->Solve(jobs);
    o.trainingUtil = model->GetUtilization();
    for (auto& j : jobs)
    {
        j.gpuRate = std::numeric_limits<double>::infinity();
    }
    o.capacity = model->Solve(jobs);
    o.capacityUtil = model->GetUtilization();
    return o;
}

/// Spread `workloads` jobs over the nodes (whole nodes each, the last takes the rest).
std::vector<ProvisioningJob>
MakeJobs(const std::vector<std::string>& workloads, uint32_t nodes, uint32_t gpusPerNode)
{
    std::vector<ProvisioningJob> jobs;
    uint32_t per = std::max<uint32_t>(1, nodes / workloads.size());
    uint32_t node = 0;
    for (size_t k = 0; k < workloads.size() && node < nodes; ++k)
    {
        ProvisioningJob j;
        j.name = workloads[k];
        j.profile = &WorkloadCatalog::Default().Get(workloads[k]);
        uint32_t take = k + 1 == workloads.size() ? nodes - node : per;
        for (uint32_t i = 0; i < take; ++i)
        {
            j.gpusOnNode.emplace_back(node++, gpusPerNode);
        }
        jobs.push_back(j);
    }
    return jobs;
}

void
PrintRow(const std::string& loader,
         const ProvisioningJobResult& t,
         const ProvisioningJobResult& c,
         const ProvisioningUtilization& u)
{
    std::cout << "  " << std::left << std::setw(8) << loader << std::right << std::fixed
              << std::setprecision(0) << std::setw(10) << t.perGpu << std::setw(11) << c.perGpu
              << std::setprecision(3) << std::setw(7) << t.stallFraction << std::setprecision(2)
              << std::setw(6) << u.storage << std::setw(6) << u.cpu << std::setw(6) << u.hostMemory
              << std::setw(6) << u.pcieUplink << std::setw(6) << u.rail << "  " << t.bottleneck
              << " / " << c.bottleneck << "\n";
}

const char* kHeader = "  loader   train/GPU  capac/GPU  stall  stor   cpu   mem  pcie  rail  "
                      "bottleneck (train / capacity)\n";

} // namespace

int Main(int argc, char* argv[]);

int
main(int argc, char* argv[])
{
    try
    {
        return Main(argc, argv);
    }
    catch (const std::exception& e)
    {
        std::cerr << "kspeed-provisioning: " << e.what() << "\n";
        return 1;
    }
}

int
Main(int argc, char* argv[])
{
    std::string mode = "all";
    int64_t nodesArg = 12; // signed: a negative value is an error, not a wrapped huge count
    int64_t gpusArg = 8;
    std::string workloadsText =
        "resnet50-imagenet,yolov3-voc,deepspeech2-arctic,cyclegan-monet2photo-gavel,bert-squad,"
        "neumf-movielens";
    std::string scalingWorkload = "resnet50-imagenet";
    int64_t maxGpus = 512;
    uint64_t seed = 1;
    std::string output = "results/kspeed-provisioning";
    CommandLine cmd(__FILE__);
    cmd.AddValue("mode", "table | mix | scaling | all", mode);
    cmd.AddValue("nodes", "training nodes (table and mix), 1..4096", nodesArg);
    cmd.AddValue("gpus-per-node", "GPUs (and rail NICs) per node, 1..64", gpusArg);
    cmd.AddValue("workloads", "comma-separated catalog workloads", workloadsText);
    cmd.AddValue("scaling-workload", "workload of the scaling mode", scalingWorkload);
    cmd.AddValue("max-gpus", "largest GPU count of the scaling mode", maxGpus);
    cmd.AddValue("seed", "ns-3 RngSeed (the model is deterministic; recorded)", seed);
    cmd.AddValue("output", "directory of results.json", output);
    cmd.Parse(argc, argv);
    if (mode != "table" && mode != "mix" && mode != "scaling" && mode != "all")
    {
        std::cerr << "--mode: expected table, mix, scaling or all, got '" << mode << "'\n";
        return 1;
    }
    if (nodesArg < 1 || nodesArg > 4096 || gpusArg < 1 || gpusArg > 64)
    {
        std::cerr << "--nodes and --gpus-per-node: expected 1..4096 and 1..64, got " << nodesArg
                  << " and " << gpusArg << "\n";
        return 1;
    }
    auto nodes = static_cast<uint32_t>(nodesArg);
    auto gpusPerNode = static_cast<uint32_t>(gpusArg);
    if ((mode == "scaling" || mode == "all") && (maxGpus < gpusPerNode || maxGpus > 65536))
    {
        std::cerr << "--max-gpus: expected " << gpusPerNode
                  << " (one node of --gpus-per-node GPUs) to 65536, got " << maxGpus << "\n";
        return 1;
    }
    RngSeedManager::SetSeed(seed);
    std::vector<std::string> workloads = SplitList(workloadsText);
    for (const auto& w : workloads)
    {
        WorkloadCatalog::Default().Get(w); // unknown names fail here, listing the known ones
    }
    RailClusterConfig cluster;
    cluster.nodes = nodes;
    cluster.node.gpus = gpusPerNode;
    cluster.node.nics = gpusPerNode;
    cluster.node.pcieSwitches = std::min(cluster.node.pcieSwitches, gpusPerNode);
    auto storage = CreateObject<StorageBackend>();
    auto probe = CreateObject<ProvisioningModel>();

    nlohmann::json out;
    out["config"] = {{"mode", mode},
                     {"nodes", nodes},
                     {"gpusPerNode", gpusPerNode},
                     {"workloads", workloads},
                     {"scalingWorkload", scalingWorkload},
                     {"maxGpus", maxGpus},
                     {"seed", seed},
                     {"railRateBps", cluster.railRateBps},
                     {"pcieGen", cluster.node.pcieGen},
                     {"memoryDmaBandwidth", cluster.node.memoryBandwidth},
                     {"storageAggregate", storage->AggregateBandwidth()},
                     {"storageClient", storage->ClientBandwidth()},
                     {"storageLatency", storage->RequestLatency()}};
    for (const char* attr : {"CpuCores",
                             "DramBandwidth",
                             "CacheBytesPerNode",
                             "FrontendBandwidth",
                             "CopyCpuSecondsPerByte",
                             "PrefetchDepth",
                             "DppNodes",
                             "DppCores",
                             "CacheablePreprocessFraction"})
    {
        struct TypeId::AttributeInformation info;
        probe->GetInstanceTypeId().LookupAttributeByName(attr, &info);
        Ptr<AttributeValue> v = info.checker->Create();
        probe->GetAttribute(attr, *v);
        out["config"]["provisioning"][attr] = v->SerializeToString(info.checker);
    }

    if (mode == "table" || mode == "all")
    {
        std::cout << "== " << nodes * gpusPerNode << " GPUs (" << nodes << " x " << gpusPerNode
                  << "), each workload alone; samples/s per GPU ==\n";
        for (const auto& w : workloads)
        {
            auto jobs = MakeJobs({w}, nodes, gpusPerNode);
            std::cout << w << "  (GPU demand " << std::setprecision(0) << std::fixed
                      << RunLoader(cluster, storage, "local", jobs).training[0].gpuDemand
                      << " samples/s per GPU)\n"
                      << kHeader;
            std::map<std::string, double> capacity;
            for (const char* l : kLoaders)
            {
                Outcome o = RunLoader(cluster, storage, l, jobs);
                PrintRow(l, o.training[0], o.capacity[0], o.trainingUtil);
                capacity[l] = o.capacity[0].perGpu;
                out["table"][w][l] = {{"trainPerGpu", o.training[0].perGpu},
                                      {"capacityPerGpu", o.capacity[0].perGpu},
                                      {"gpuDemand", o.training[0].gpuDemand},
                                      {"stallFraction", o.training[0].stallFraction},
                                      {"bottleneck", o.training[0].bottleneck},
                                      {"capacityBottleneck", o.capacity[0].bottleneck},
                                      {"rawHit", o.training[0].cache.rawHit},
                                      {"decodedHit", o.training[0].cache.decodedHit},
                                      {"utilization", UtilJson(o.trainingUtil)},
                                      {"capacityUtilization", UtilJson(o.capacityUtil)}};
            }
            // a workload that reads no data (RL, synthetic) has unbounded loading capacity
            // under every loader: there is no ratio to print
            auto ratio = [&](const char* a, const char* b) -> std::string {
                double x = capacity[a];
                double y = capacity[b];
                if (!std::isfinite(x) || !std::isfinite(y) || !(y > 0))
                {
                    return "n/a";
                }
                std::ostringstream os;
                os << std::fixed << std::setprecision(2) << x / y << "x";
                return os.str();
            };
            if (!std::isfinite(capacity["kspeed"]) && !std::isfinite(capacity["dpp"]))
            {
                std::cout << "  loading capacity: unbounded for every loader (the workload "
                             "reads no data per sample)\n";
            }
            else
            {
                std::cout << "  loading capacity: KSpeed/DPP " << ratio("kspeed", "dpp")
                          << ", KSpeed/Alluxio " << ratio("kspeed", "alluxio") << "\n";
            }
        }
    }
    if (mode == "mix" || mode == "all")
    {
        std::cout << "\n== workload mix on " << nodes << " nodes (nodes split evenly) ==\n";
        auto jobs = MakeJobs(workloads, nodes, gpusPerNode);
        for (const char* l : kLoaders)
        {
            Outcome o = RunLoader(cluster, storage, l, jobs);
            std::cout << l << "\n" << kHeader;
            for (size_t k = 0; k < jobs.size(); ++k)
            {
                std::cout << "  " << jobs[k].name << " (" << jobs[k].TotalGpus() << " GPUs)\n";
                PrintRow(l, o.training[k], o.capacity[k], o.trainingUtil);
                out["mix"][l][jobs[k].name] = {{"gpus", jobs[k].TotalGpus()},
                                               {"trainPerGpu", o.training[k].perGpu},
                                               {"capacityPerGpu", o.capacity[k].perGpu},
                                               {"stallFraction", o.training[k].stallFraction},
                                               {"bottleneck", o.training[k].bottleneck}};
            }
            out["mix"][l]["utilization"] = UtilJson(o.trainingUtil);
        }
    }
    if (mode == "scaling" || mode == "all")
    {
        std::cout << "\n== scaling: " << scalingWorkload
                  << ", samples/s per GPU (train | capacity) ==\n  GPUs";
        for (const char* l : kLoaders)
        {
            std::cout << std::setw(22) << l;
        }
        std::cout << "\n";
        for (uint32_t g = gpusPerNode; g <= maxGpus; g *= 2)
        {
            RailClusterConfig c = cluster;
            c.nodes = g / gpusPerNode;
            auto jobs = MakeJobs({scalingWorkload}, c.nodes, gpusPerNode);
            std::cout << std::setw(6) << g;
            for (const char* l : kLoaders)
            {
                Outcome o = RunLoader(c, storage, l, jobs);
                std::cout << std::fixed << std::setw(10) << std::setprecision(0)
                          << o.training[0].perGpu << " |" << std::setw(9) << o.capacity[0].perGpu
                          << " ";
                out["scaling"][l].push_back({{"gpus", g},
                                             {"trainPerGpu", o.training[0].perGpu},
                                             {"capacityPerGpu", o.capacity[0].perGpu},
                                             {"bottleneck", o.training[0].bottleneck},
                                             {"capacityBottleneck", o.capacity[0].bottleneck},
                                             {"storageUtilization", o.trainingUtil.storage}});
            }
            std::cout << "\n";
        }
    }
    std::filesystem::create_directories(output);
    std::ofstream(output + "/results.json") << out.dump(2) << "\n";
    std::cout << "\nresults: " << output << "/results.json\n";
    return 0;
}
