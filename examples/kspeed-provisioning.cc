/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
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
//  --mode=budget   equal hardware budget: every loader gets the same trainers plus the same
//                  extra cores and memory, where its design puts them; capacity and binding
//                  resource per workload, and KSpeed's ratios as GPUs per node, cores per
//                  GPU, bytes per sample and dataset/memory move
//  --mode=all      all four (default)
//
//   ./ns3 run kspeed-provisioning -- --mode=table --nodes=12
//   ./ns3 run kspeed-provisioning -- --ns3::ProvisioningModel::CpuCores=32 --mode=scaling

#include "ns3/cluster-scenario.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/provisioning-model.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/strict-options.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
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
          std::vector<ProvisioningJob> jobs,
          uint32_t poolNodes = 0)
{
    auto model = CreateObject<ProvisioningModel>();
    if (poolNodes > 0)
    {
        model->SetAttribute("PoolNodes", UintegerValue(poolNodes));
    }
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

/**
 * An equal hardware budget: every loader has the same trainers (trainerCores loading cores
 * each) plus the same extra cores and memory, placed where its design puts them: local and
 * Alluxio on the trainers (Alluxio's memory as its cache), DPP and KSpeed in poolNodes pool
 * nodes (KSpeed's memory as its cache; DPP caches nothing).
 */
struct Budget
{
    double trainerCores{8};   //!< loading cores of each trainer in every design
    double extraCores{256};   //!< cores added by the budget
    double extraMemory{2e12}; //!< cache memory added by the budget [bytes]
    uint32_t poolNodes{4};    //!< nodes the pool loaders spread the extra over
};

/// Set `model`'s attributes for `loader` under `b` on `nodes` trainers.
void
ApplyBudget(Ptr<ProvisioningModel> model,
            const std::string& loader,
            const Budget& b,
            uint32_t nodes)
{
    bool pool = loader == "dpp" || loader == "kspeed";
    double trainer = b.trainerCores + (pool ? 0.0 : b.extraCores / nodes);
    model->SetAttribute("CpuCores", DoubleValue(trainer));
    model->SetAttribute("CacheBytesPerNode",
                        DoubleValue(loader == "alluxio" ? b.extraMemory / nodes : 0.0));
    model->SetAttribute("PoolNodes", UintegerValue(b.poolNodes));
    model->SetAttribute("PoolCores", DoubleValue(b.extraCores / b.poolNodes));
    model->SetAttribute("PoolCacheBytes",
                        DoubleValue(loader == "kspeed" ? b.extraMemory / b.poolNodes : 0.0));
}

/// Loading capacity per GPU (and its binding resource) of one job under an equal budget.
ProvisioningJobResult
BudgetCapacity(const RailClusterConfig& cluster,
               Ptr<StorageBackend> storage,
               const std::string& loader,
               ProvisioningJob job,
               const Budget& b)
{
    auto model = CreateObject<ProvisioningModel>();
    ApplyBudget(model, loader, b, cluster.nodes);
    model->SetCluster(cluster, storage);
    model->SetLoader(ProvisioningLoader::Create(loader));
    job.gpuRate = std::numeric_limits<double>::infinity();
    return model->Solve({job}).at(0);
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

std::string
Ratio(double a, double b)
{
    if (!std::isfinite(a) || !std::isfinite(b) || !(b > 0))
    {
        return "n/a";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << a / b;
    return os.str();
}

/// KSpeed's capacity over DPP's and over Alluxio's for one job under a budget.
std::pair<double, double>
Ratios(const RailClusterConfig& c,
       Ptr<StorageBackend> storage,
       const ProvisioningJob& job,
       const Budget& b,
       nlohmann::json& out)
{
    std::map<std::string, ProvisioningJobResult> r;
    for (const char* l : kLoaders)
    {
        r[l] = BudgetCapacity(c, storage, l, job, b);
        out[l] = {{"capacityPerGpu", r[l].perGpu}, {"binding", r[l].bottleneck}};
    }
    return {r["kspeed"].perGpu / r["dpp"].perGpu, r["kspeed"].perGpu / r["alluxio"].perGpu};
}

/**
 * Equal hardware budget: per workload each loader's capacity and binding resource, then how
 * KSpeed's ratios move with GPUs per node, cores per GPU, sample size and dataset/cache.
 */
void
RunBudget(const RailClusterConfig& cluster,
          Ptr<StorageBackend> storage,
          const std::vector<std::string>& workloads,
          const Budget& budget,
          nlohmann::json& out)
{
    uint32_t nodes = cluster.nodes;
    uint32_t g = cluster.node.gpus;
    std::cout << "\n== equal budget: " << nodes << " trainers x " << g << " GPUs, "
              << budget.trainerCores << " loading cores each, + " << budget.extraCores
              << " cores and " << budget.extraMemory / 1e9 << " GB (trainers: local, Alluxio; "
              << budget.poolNodes << " pool nodes: DPP, KSpeed); capacity samples/s per GPU "
              << "(binding resource) ==\n";
    out["config"] = {{"trainerCores", budget.trainerCores},
                     {"extraCores", budget.extraCores},
                     {"extraMemory", budget.extraMemory},
                     {"poolNodes", budget.poolNodes}};
    for (const auto& w : workloads)
    {
        auto job = MakeJobs({w}, nodes, g).at(0);
        std::cout << "  " << std::left << std::setw(28) << w << std::right;
        std::map<std::string, double> cap;
        for (const char* l : kLoaders)
        {
            auto r = BudgetCapacity(cluster, storage, l, job, budget);
            cap[l] = r.perGpu;
            std::ostringstream cell;
            cell << l << " " << std::fixed << std::setprecision(0) << r.perGpu << " ("
                 << r.bottleneck << ")";
            std::cout << std::setw(34) << cell.str();
            out["table"][w][l] = {{"capacityPerGpu", r.perGpu}, {"binding", r.bottleneck}};
        }
        std::cout << "  K/DPP " << Ratio(cap["kspeed"], cap["dpp"]) << "  K/Alluxio "
                  << Ratio(cap["kspeed"], cap["alluxio"]) << "\n";
    }

    // one factor at a time; the cell is KSpeed/DPP | KSpeed/Alluxio
    auto sweep =
        [&](const std::string& name,
            const std::vector<double>& values,
            const std::function<void(double, RailClusterConfig&, Budget&, WorkloadProfile&)>&
                apply) {
            std::cout << "\n  " << name << " (KSpeed/DPP | KSpeed/Alluxio)\n  " << std::left
                      << std::setw(28) << "workload" << std::right;
            for (double v : values)
            {
                std::ostringstream h;
                h << v;
                std::cout << std::setw(14) << h.str();
            }
            std::cout << "\n";
            for (const auto& w : workloads)
            {
                std::cout << "  " << std::left << std::setw(28) << w << std::right;
                for (double v : values)
                {
                    RailClusterConfig c = cluster;
                    Budget b = budget;
                    WorkloadProfile p = WorkloadCatalog::Default().Get(w);
                    apply(v, c, b, p);
                    auto job = MakeJobs({w}, c.nodes, c.node.gpus).at(0);
                    job.profile = &p;
                    std::ostringstream key;
                    key << v;
                    auto [kd, ka] = Ratios(c, storage, job, b, out["sweeps"][name][w][key.str()]);
                    std::cout << std::setw(14) << (Ratio(kd, 1) + " | " + Ratio(ka, 1));
                }
                std::cout << "\n";
            }
        };
    uint32_t gpus = nodes * g;
    sweep("GPUs per node (same GPUs in all, same budget)",
          {2, 4, 8, 16},
          [gpus](double v, RailClusterConfig& c, Budget&, WorkloadProfile&) {
              c.node.gpus = c.node.nics = static_cast<uint32_t>(v);
              c.node.pcieSwitches = std::min<uint32_t>(4, c.node.gpus);
              c.nodes = std::max<uint32_t>(1, gpus / c.node.gpus);
          });
    sweep("extra cores per GPU",
          {0.5, 1, 2, 4, 8},
          [gpus](double v, RailClusterConfig&, Budget& b, WorkloadProfile&) {
              b.extraCores = v * gpus;
          });
    sweep("bytes per sample x (CPU per sample unchanged)",
          {0.25, 1, 4, 16},
          [](double v, RailClusterConfig&, Budget&, WorkloadProfile& p) {
              p.rawBytesPerSample *= v;
              p.decodedBytesPerSample *= v;
          });
    sweep("raw dataset / budget memory",
          {0.05, 0.1, 0.2, 0.5, 1, 2},
          [](double v, RailClusterConfig&, Budget& b, WorkloadProfile& p) {
              b.extraMemory = p.datasetBytes / v;
          });
}

int Main(int argc, char* argv[]);

int
main(int argc, char* argv[])
{
    return RunMain("kspeed-provisioning", argc, argv, Main);
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
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("mode", "table | mix | scaling | budget | all", mode);
    cmd.AddValue("nodes", "training nodes (table and mix), 1..4096", nodesArg);
    cmd.AddValue("gpus-per-node", "GPUs (and rail NICs) per node, 1..64", gpusArg);
    cmd.AddValue("workloads", "comma-separated catalog workloads", workloadsText);
    cmd.AddValue("scaling-workload", "workload of the scaling mode", scalingWorkload);
    cmd.AddValue("max-gpus", "largest GPU count of the scaling mode", maxGpus);
    Budget budget;
    cmd.AddValue("trainer-cores",
                 "budget mode: loading cores of each trainer in every design",
                 budget.trainerCores);
    cmd.AddValue("extra-cores", "budget mode: cores the budget adds", budget.extraCores);
    cmd.AddValue("extra-memory",
                 "budget mode: cache memory the budget adds [bytes]",
                 budget.extraMemory);
    cmd.AddValue("seed",
                 "ns-3 RngSeed (the model is deterministic; recorded)",
                 seed,
                 1,
                 std::numeric_limits<uint32_t>::max());
    cmd.AddValue("output", "directory of results.json", output);
    cmd.Parse(argc, argv);
    if (mode != "table" && mode != "mix" && mode != "scaling" && mode != "budget" && mode != "all")
    {
        throw UsageError("--mode: expected table, mix, scaling, budget or all, got '" + mode + "'");
    }
    if (nodesArg < 1 || nodesArg > 4096 || gpusArg < 1 || gpusArg > 64)
    {
        throw UsageError("--nodes and --gpus-per-node: expected 1..4096 and 1..64, got " +
                         std::to_string(nodesArg) + " and " + std::to_string(gpusArg));
    }
    auto nodes = static_cast<uint32_t>(nodesArg);
    auto gpusPerNode = static_cast<uint32_t>(gpusArg);
    if ((mode == "scaling" || mode == "all") && (maxGpus < gpusPerNode || maxGpus > 65536))
    {
        throw UsageError("--max-gpus: expected " + std::to_string(gpusPerNode) +
                         " (one node of --gpus-per-node GPUs) to 65536, got " +
                         std::to_string(maxGpus));
    }
    if (!(budget.trainerCores > 0) || !(budget.extraCores > 0) || !(budget.extraMemory >= 0) ||
        !std::isfinite(budget.trainerCores + budget.extraCores + budget.extraMemory))
    {
        throw UsageError(
            "--trainer-cores, --extra-cores: expected > 0; --extra-memory: expected >= 0");
    }
    PrepareOutputDirectory(output);
    RngSeedManager::SetSeed(seed);
    std::vector<std::string> workloads = strictopt::List("--workloads", workloadsText);
    for (const auto& w : workloads)
    {
        WorkloadCatalog::Default().Get(w); // unknown names fail here, listing the known ones
    }
    WorkloadCatalog::Default().Get(scalingWorkload);
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
                             "PoolNodes",
                             "PoolCores",
                             "PoolCacheBytes",
                             "PoolDramBandwidth",
                             "PoolFrontendBandwidth",
                             "TcpReceiveCpuSecondsPerByte",
                             "TcpSendCpuSecondsPerByte",
                             "FuseCpuSecondsPerByte",
                             "Fairness",
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
                  << ", samples/s per GPU (train | capacity); DPP's and KSpeed's pool: one node "
                     "per 3 training nodes ==\n  GPUs";
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
                // the pools grow with the cluster: one pool node per 3 training nodes
                Outcome o = RunLoader(c, storage, l, jobs, std::max<uint32_t>(1, c.nodes / 3));
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
    if (mode == "budget" || mode == "all")
    {
        RunBudget(cluster, storage, workloads, budget, out["budget"]);
    }
    WriteTextFileChecked(output + "/results.json", out.dump(2) + "\n");
    std::cout << "\nresults: " << output << "/results.json\n";
    return 0;
}
