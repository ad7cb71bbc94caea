/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Speed of the data-provisioning model.
//  1. Rate level: the 512-GPU scaling point (64 nodes x 8 GPUs, ResNet-50/ImageNet on every
//     GPU), one max-min solve per loader: wall time, flows, resource usages.
//  2. Packet level: 16 GPUs (2 nodes x 8) with each loader realized as chunk events and
//     RDMA WRITEs on RdmaPacketFabric for --window of simulated time: wall time, events,
//     events per wall-clock second, and the agreement with the rate level.
// Usage: provisioning-bench [--window=0.002] [--gpus=512] [--json=provisioning-bench.json]

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/provisioning-fabric-run.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

ProvisioningJob
AllGpus(uint32_t nodes, uint32_t gpus, double rate)
{
    ProvisioningJob j;
    j.name = "resnet50-imagenet";
    j.profile = &WorkloadCatalog::Default().Get("resnet50-imagenet");
    for (uint32_t n = 0; n < nodes; ++n)
    {
        j.gpusOnNode.emplace_back(n, gpus);
    }
    j.gpuRate = rate;
    return j;
}

/** The bench itself; RunMain turns its errors into one line. */
int
BenchMain(int argc, char* argv[])
{
    double window = 0.002;
    uint32_t gpus = 512;
    std::string json = "provisioning-bench.json";
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("window",
                 "simulated time of the packet-level run (after 1 ms warm-up)",
                 window,
                 1e-6,
                 10,
                 "s");
    cmd.AddValue("gpus", "GPUs of the rate-level point (multiple of 8)", gpus, 8, 32768);
    cmd.AddValue("json", "results file", json);
    cmd.Parse(argc, argv);
    if (gpus % 8 != 0)
    {
        throw UsageError("--gpus: expected a multiple of 8, got " + std::to_string(gpus));
    }
    PrepareOutputFile(json);
    const char* loaders[] = {"local", "dpp", "alluxio", "kspeed"};
    nlohmann::json out;
    out["config"] = {{"gpus", gpus}, {"window", window}};
    auto storage = CreateObject<StorageBackend>();

    std::cout << "rate level, " << gpus << " GPUs (" << gpus / 8 << " nodes x 8):\n";
    RailClusterConfig big;
    big.nodes = gpus / 8;
    for (const char* l : loaders)
    {
        auto m = CreateObject<ProvisioningModel>();
        m->SetCluster(big, storage);
        m->SetLoader(ProvisioningLoader::Create(l));
        auto t0 = std::chrono::steady_clock::now();
        auto r = m->Solve({AllGpus(big.nodes, 8, -1)}).at(0);
        double wall = WallSince(t0);
        size_t usages = 0;
        for (const auto& f : m->GetFlows())
        {
            usages += f.usage.size();
        }
        std::cout << "  " << std::setw(8) << l << ": " << std::fixed << std::setprecision(4) << wall
                  << " s wall, " << m->GetFlows().size() << " flows, " << usages << " usages, "
                  << std::setprecision(0) << r.perGpu << " samples/s per GPU (" << r.bottleneck
                  << ")\n";
        out["rate"][l] = {{"wall", wall},
                          {"flows", m->GetFlows().size()},
                          {"usages", usages},
                          {"perGpu", r.perGpu}};
    }

    std::cout << "packet level, 16 GPUs (2 nodes x 8), " << window * 1e3
              << " ms simulated after 1 ms warm-up, loading benchmark:\n";
    RailClusterConfig small;
    small.nodes = 2;
    for (const char* l : loaders)
    {
        auto m = CreateObject<ProvisioningModel>();
        m->SetCluster(small, storage);
        m->SetLoader(ProvisioningLoader::Create(l));
        m->Solve({AllGpus(2, 8, std::numeric_limits<double>::infinity())});
        auto fabric = CreateObject<RdmaPacketFabric>();
        fabric->Build(m->FabricConfig());
        auto run = CreateObject<ProvisioningFabricRun>();
        run->Setup(m, fabric);
        uint64_t e0 = Simulator::GetEventCount();
        auto t0 = std::chrono::steady_clock::now();
        auto rates = run->Run(MilliSeconds(1), Seconds(0.001 + window));
        double wall = WallSince(t0);
        uint64_t events = Simulator::GetEventCount() - e0;
        Simulator::Destroy();
        double packet = 0;
        double rate = 0;
        for (size_t f = 0; f < rates.size(); ++f)
        {
            packet += rates[f] / rates.size();
            rate += m->GetFlows()[f].rate / rates.size();
        }
        std::cout << "  " << std::setw(8) << l << ": " << std::setprecision(2) << wall
                  << " s wall, " << events << " events, " << std::setprecision(0) << events / wall
                  << " events/s; per GPU " << packet << " (packets) vs " << rate
                  << " (max-min) samples/s\n";
        out["packet"][l] = {{"wall", wall},
                            {"events", events},
                            {"eventsPerSecond", events / wall},
                            {"perGpuPacket", packet},
                            {"perGpuRate", rate}};
    }
    WriteTextFileChecked(json, out.dump(2) + "\n");
    std::cout << "results: " << json << "\n";
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("provisioning-bench", argc, argv, BenchMain);
}
