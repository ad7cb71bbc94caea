/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Speed of the RDMA fabric model.
//  1. Packet level: events per wall-clock second for an 8-node, 64-GPU cluster at 200 Gb/s
//     per rail, nodes 1..7 (56 GPUs) writing into the GPUs of node 0 (a 7:1 incast per rail).
//  2. Rate level: time of one max-min reallocation with every flow of an all-to-all active
//     on 512 GPUs (64 nodes): from scratch, and incrementally after one flow ends.
// Usage: rdma-bench [--bytes=2000000] [--nodes=64] [--json=rdma-bench.json]

#include "ns3/command-line.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/simulator.h"

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json
PacketBench(uint64_t bytes)
{
    RailClusterConfig c;
    c.nodes = 8;
    c.railRateBps = 200e9;
    auto fabric = CreateObject<RdmaPacketFabric>();
    fabric->Build(c);
    fabric->AssignStreams(1);
    const RailTopology& t = fabric->GetTopology();
    uint32_t done = 0;
    Time last(0);
    for (uint32_t n = 1; n < 8; ++n)
    {
        for (uint32_t g = 0; g < 8; ++g)
        {
            fabric->Write(t.Gpu(n, g),
                          t.Gpu(0, g),
                          bytes,
                          [&done, &last](const RdmaTransferResult& r) {
                              ++done;
                              last = std::max(last, r.completed);
                          });
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    uint64_t e0 = Simulator::GetEventCount();
    Simulator::Run();
    double wall = WallSince(t0);
    uint64_t events = Simulator::GetEventCount() - e0;
    double simTime = last.GetSeconds(); // (the run ends with idle retransmission timers)
    auto s = fabric->GetStats();
    fabric->Dispose();
    Simulator::Destroy();
    std::cout << "packet level: 8 nodes, 64 GPUs, 56 flows x " << bytes << " B into node 0\n"
              << "  events " << events << ", wall " << std::fixed << std::setprecision(2) << wall
              << " s, simulated " << std::setprecision(3) << simTime * 1e3 << " ms\n"
              << "  events per wall second: " << std::setprecision(0) << events / wall
              << "  (target >= 1e6)\n"
              << "  flows done " << done << ", PFC pauses " << s.pauseFrames << ", ECN marks "
              << s.ecnMarks << "\n";
    return {{"nodes", 8},
            {"gpus", 64},
            {"flows", 56},
            {"bytesPerFlow", bytes},
            {"events", events},
            {"wallSeconds", wall},
            {"simulatedSeconds", simTime},
            {"eventsPerWallSecond", events / wall},
            {"flowsDone", done}};
}

nlohmann::json
RateBench(uint32_t nodes, bool sameRailOnly)
{
    RailClusterConfig c;
    c.nodes = nodes;
    auto fabric = CreateObject<RdmaRateFabric>();
    fabric->Build(c);
    const RailTopology& t = fabric->GetTopology();
    uint32_t gpus = c.node.gpus;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<uint32_t> ids;
    for (uint32_t a = 0; a < nodes; ++a)
    {
        for (uint32_t g = 0; g < gpus; ++g)
        {
            for (uint32_t b = 0; b < nodes; ++b)
            {
                for (uint32_t h = 0; h < gpus; ++h)
                {
                    if ((a == b && g == h) || (sameRailOnly && (g != h || a == b)))
                    {
                        continue;
                    }
                    ids.push_back(
                        fabric->AddTransfer(t.Gpu(a, g), t.Gpu(b, h), 1000000, false, nullptr, {}));
                }
            }
        }
    }
    double build = WallSince(t0);
    t0 = std::chrono::steady_clock::now();
    fabric->Reallocate();
    double full = WallSince(t0);
    // One flow ends: the incremental reallocation refills its component.
    t0 = std::chrono::steady_clock::now();
    fabric->AddTransfer(t.Gpu(0, 0), t.HostMemory(nodes - 1), 1000000, false, nullptr, {});
    fabric->Reallocate();
    double incremental = WallSince(t0);
    uint32_t component = static_cast<uint32_t>(fabric->GetSolver().GetLastComponent().size());
    uint32_t flows = fabric->GetNActive();
    fabric->Dispose();
    Simulator::Destroy();
    std::cout << "rate level: " << nodes * gpus << " GPUs, "
              << (sameRailOnly ? "same-rail" : "full") << " all-to-all, " << flows
              << " active flows\n"
              << std::setprecision(1) << "  paths+setup " << build * 1e3 << " ms, first solve "
              << full * 1e3 << " ms, reallocation after a flow starts " << incremental * 1e3
              << " ms (component of " << component << " flows; target < 50 ms)\n";
    return {{"gpus", nodes * gpus},
            {"pattern", sameRailOnly ? "same-rail" : "full"},
            {"flows", flows},
            {"setupSeconds", build},
            {"firstSolveSeconds", full},
            {"reallocationSeconds", incremental},
            {"componentFlows", component}};
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t bytes = 2000000;
    uint32_t nodes = 64;
    std::string json = "rdma-bench.json";
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes per flow in the packet-level incast", bytes);
    cmd.AddValue("nodes", "nodes (8 GPUs each) of the rate-level all-to-all", nodes);
    cmd.AddValue("json", "result file", json);
    cmd.Parse(argc, argv);

    nlohmann::json out;
    out["packet"] = PacketBench(bytes);
    out["rateSameRail"] = RateBench(nodes, true);
    out["rateFull"] = RateBench(nodes, false);
    std::ofstream(json) << out.dump(2) << "\n";
    std::cout << "wrote " << json << "\n";
    return 0;
}
