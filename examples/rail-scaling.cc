/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// rail-scaling: all-to-all transfers on 1, 2, 4, ... up to --max-nodes nodes of a
// rail-optimized cluster. Every GPU sends --bytes to every other GPU ("full": inside a node
// over PCIe, across nodes over the rails and, between rails, the spines) or, in the default
// "hierarchical" pattern, to every other GPU of its own node and to the GPU of its own rail
// on every other node (the rail-aligned exchange PXN-style collectives use). At the rate
// level the full pattern costs one reallocation per distinct finish time over all GPU pairs:
// use it up to 8-16 nodes. Prints the aggregate and per-GPU
// throughput and writes a results JSON with the configuration and seed.
//
//   ./ns3 run rail-scaling -- --max-nodes=64 --level=rate --seed=1

#include "ns3/command-line.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

struct Point
{
    uint32_t nodes{0};
    uint32_t flows{0};
    double makespan{0};
    double aggregate{0}; // payload bytes/s
    double perGpu{0};    // payload bytes/s sent per GPU
    double wall{0};
    uint64_t pauses{0};
    uint64_t reallocations{0}; // rate level: solver runs
};

template <typename Fabric>
Point
RunOne(const RailClusterConfig& c, bool full, uint64_t bytes)
{
    auto fabric = CreateObject<Fabric>();
    fabric->Build(c);
    const RailTopology& t = fabric->GetTopology();
    uint32_t gpus = c.node.gpus;
    Point p;
    p.nodes = c.nodes;
    Time last(0);
    uint64_t total = 0;
    auto done = [&last](const RdmaTransferResult& r) { last = std::max(last, r.delivered); };
    for (uint32_t a = 0; a < c.nodes; ++a)
    {
        for (uint32_t g = 0; g < gpus; ++g)
        {
            for (uint32_t b = 0; b < c.nodes; ++b)
            {
                for (uint32_t h = 0; h < gpus; ++h)
                {
                    bool self = a == b && g == h;
                    bool wanted = !self && (full || a == b || g == h);
                    if (wanted)
                    {
                        fabric->Write(t.Gpu(a, g), t.Gpu(b, h), bytes, done);
                        total += bytes;
                        ++p.flows;
                    }
                }
            }
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    p.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (p.flows > 0)
    {
        p.makespan = last.GetSeconds();
        p.aggregate = total / p.makespan;
        p.perGpu = p.aggregate / (c.nodes * gpus);
    }
    if constexpr (std::is_same_v<Fabric, RdmaPacketFabric>)
    {
        auto s = fabric->GetStats();
        NS_ABORT_MSG_IF(s.bytesDelivered != s.bytesPosted, "bytes lost");
        p.pauses = s.pauseFrames;
    }
    else
    {
        p.reallocations = fabric->GetReallocations();
    }
    fabric->Dispose();
    Simulator::Destroy();
    return p;
}

} // namespace

int Main(int argc, char* argv[]);

int
main(int argc, char* argv[])
{
    return RunMain("rail-scaling", argc, argv, Main);
}

int
Main(int argc, char* argv[])
{
    uint32_t seed = 1;
    int64_t maxNodes = 64; // signed: a negative value is an error, not a wrapped huge count
    int64_t bytes = 1000000;
    std::string pattern = "hierarchical";
    std::string level = "rate";
    double railGbps = 200;
    int64_t spines = 8;
    std::string out = "results/rail-scaling/results.json"; // never the repository root
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("seed", "random seed (ECN marking at the packet level)", seed, 1);
    cmd.AddValue("max-nodes", "largest cluster (nodes of 8 GPUs); sizes double from 1", maxNodes);
    cmd.AddValue("bytes", "bytes per GPU pair", bytes);
    cmd.AddValue("pattern",
                 "hierarchical (GPUs of the own node and same-rail GPUs of other nodes) or full "
                 "(every GPU pair)",
                 pattern);
    cmd.AddValue("level",
                 "rate, packet or both (both: each size at both levels and the rate level's "
                 "error against the packet level)",
                 level);
    // Bounded: rates far beyond hardware make packet times round to zero (a hang).
    cmd.AddValue("rail-gbps", "rail rate", railGbps, 0.001, 3200, "Gbit/s");
    cmd.AddValue("spines", "spine switches", spines);
    cmd.AddValue("output", "results JSON file (its directory is created)", out);
    cmd.Parse(argc, argv);
    if ((pattern != "full" && pattern != "hierarchical") ||
        (level != "rate" && level != "packet" && level != "both") || maxNodes < 1 ||
        maxNodes > 4096 || bytes < 1 || bytes > 10000000000LL || !(railGbps > 0) ||
        !std::isfinite(railGbps) || spines < 1 || spines > 1024)
    {
        std::cerr
            << "rail-scaling: expected --pattern=hierarchical|full, --level=rate|packet|both, "
               "--max-nodes in 1..4096, --bytes in 1..1e10, --rail-gbps > 0, --spines in 1..1024 "
               "(got "
            << pattern << ", " << level << ", " << maxNodes << ", " << bytes << ", " << railGbps
            << ", " << spines << ")\n";
        return 2; // a usage error
    }
    PrepareOutputFile(out);
    RngSeedManager::SetSeed(seed);
    bool full = pattern == "full";

    nlohmann::json results;
    results["config"] = {{"maxNodes", maxNodes},
                         {"bytesPerPair", bytes},
                         {"pattern", pattern},
                         {"level", level},
                         {"railGbps", railGbps},
                         {"spines", spines}};
    results["seed"] = seed;
    std::cout << "all-to-all (" << pattern << "), " << bytes / 1e6 << " MB per GPU pair, " << level
              << " level, rails " << railGbps << " Gb/s, " << spines << " spines\n\n";
    std::cout << std::setw(6) << "nodes" << std::setw(6) << "GPUs" << std::setw(9) << "flows"
              << std::setw(14) << "makespan us" << std::setw(14) << "aggr GB/s" << std::setw(14)
              << "per-GPU GB/s" << std::setw(10) << "pauses" << std::setw(9) << "reallocs"
              << std::setw(10) << "wall s" << std::setw(8) << "level"
              << (level == "both" ? "  rate vs packet" : "") << "\n";
    std::cout << std::fixed;
    for (int64_t n = 1; n <= maxNodes; n *= 2)
    {
        RailClusterConfig c;
        c.nodes = static_cast<uint32_t>(n);
        c.railRateBps = railGbps * 1e9;
        c.spines = static_cast<uint32_t>(spines);
        std::vector<std::pair<std::string, Point>> points;
        if (level != "rate")
        {
            points.emplace_back("packet", RunOne<RdmaPacketFabric>(c, full, bytes));
        }
        if (level != "packet")
        {
            points.emplace_back("rate", RunOne<RdmaRateFabric>(c, full, bytes));
        }
        for (const auto& [lvl, p] : points)
        {
            nlohmann::json point = {{"level", lvl},
                                    {"nodes", p.nodes},
                                    {"gpus", p.nodes * c.node.gpus},
                                    {"flows", p.flows},
                                    {"makespanSeconds", p.makespan},
                                    {"aggregateBytesPerSec", p.aggregate},
                                    {"perGpuBytesPerSec", p.perGpu},
                                    {"pfcPauseFrames", p.pauses},
                                    {"reallocations", p.reallocations},
                                    {"wallSeconds", p.wall}};
            std::cout << std::setw(6) << p.nodes << std::setw(6) << p.nodes * c.node.gpus
                      << std::setw(9) << p.flows << std::setprecision(1) << std::setw(14)
                      << p.makespan * 1e6 << std::setprecision(2) << std::setw(14)
                      << p.aggregate / 1e9 << std::setw(14) << p.perGpu / 1e9 << std::setw(10)
                      << p.pauses << std::setw(9) << p.reallocations << std::setw(10) << p.wall
                      << std::setw(8) << lvl;
            if (points.size() == 2 && lvl == "rate" && points[0].second.makespan > 0)
            {
                // the packet level is the referee
                double err = p.makespan / points[0].second.makespan - 1;
                point["rateVsPacketMakespan"] = err;
                std::cout << std::showpos << std::setprecision(1) << std::setw(9) << err * 100
                          << "% makespan" << std::noshowpos;
            }
            std::cout << std::endl;
            results["points"].push_back(point);
        }
        if (n * 2 > maxNodes)
        {
            break;
        }
    }
    WriteTextFileChecked(out, results.dump(2) + "\n");
    std::cout << "\nwrote " << out << "\n";
    return 0;
}
