/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// rail-incast: many nodes write into one node, either into its host memory (the bounce
// buffer: NIC -> PCIe switch -> root complex -> memory) or straight into its GPUs over the
// rails (GPUDirect: NIC -> PCIe switch -> GPU). Prints goodput, PFC pauses and PCIe / memory
// utilisation at both granularities and writes a results JSON with the configuration and seed.
//
//   ./ns3 run rail-incast -- --senders=8 --bytes=4000000 --seed=1

#include "ns3/command-line.h"
#include "ns3/rdma-packet-fabric.h"
#include "ns3/rdma-rate-fabric.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

struct Outcome
{
    double goodput{0};     // bytes/s, all bytes over first start to last delivery
    double meanFct{0};     // s
    double makespan{0};    // s
    uint64_t pauses{0};    // PFC PAUSE frames (packet level)
    double pausedUs{0};    // total paused time of node 0's NIC->PCIe ports, us (packet level)
    double uplinkUtil{0};  // mean over node 0's PCIe switch uplinks towards the root complex
    double memoryUtil{0};  // root complex -> host memory
    double gpuLinkUtil{0}; // mean over node 0's PCIe switch -> GPU links
    uint64_t ecnMarks{0};
};

/** Directed links of node 0 the table reports on. */
struct Watched
{
    std::vector<uint32_t> uplinks;
    std::vector<uint32_t> gpuLinks;
    std::vector<uint32_t> nicDown;
    uint32_t memory{0};
};

Watched
WatchedLinks(const RailTopology& t)
{
    Watched w;
    const auto& tmpl = t.GetConfig().node;
    for (uint32_t s = 0; s < tmpl.pcieSwitches; ++s)
    {
        for (uint32_t l : t.GetAdjacentLinks(t.PcieSwitch(0, s)))
        {
            uint32_t other = t.OtherEnd(t.PcieSwitch(0, s), l);
            if (other == t.RootComplex(0))
            {
                w.uplinks.push_back(t.DirectedLink(t.PcieSwitch(0, s), l));
            }
            if (t.GetVertex(other).kind == RailVertexKind::GPU)
            {
                w.gpuLinks.push_back(t.DirectedLink(t.PcieSwitch(0, s), l));
            }
        }
    }
    for (uint32_t i = 0; i < tmpl.nics; ++i)
    {
        for (uint32_t l : t.GetAdjacentLinks(t.Nic(0, i)))
        {
            if (t.GetLinks()[l].inNode)
            {
                w.nicDown.push_back(t.DirectedLink(t.Nic(0, i), l));
            }
        }
    }
    w.memory = t.DirectedLink(t.RootComplex(0), t.GetAdjacentLinks(t.HostMemory(0))[0]);
    return w;
}

/** Where the senders write. */
enum class Dest
{
    HOST_MEMORY, //!< node 0's host memory, sender i on rail i % 8 (bounce path)
    GPU_DIRECT,  //!< node 0's GPU i % 8, sender i on rail i % 8 (GPUDirect)
    SAME_RAIL    //!< node 0's GPU 0, every sender on rail 0 (a fabric incast: ECN, DCQCN)
};

template <typename Fabric>
void
Post(Fabric& fabric,
     Dest dest,
     uint32_t senders,
     uint64_t bytes,
     std::vector<RdmaTransferResult>& results)
{
    const RailTopology& t = fabric.GetTopology();
    uint32_t rails = t.GetConfig().node.nics;
    uint32_t gpus = t.GetConfig().node.gpus;
    for (uint32_t i = 0; i < senders; ++i)
    {
        uint32_t rail = dest == Dest::SAME_RAIL ? 0 : i % rails;
        uint32_t dst = dest == Dest::HOST_MEMORY ? t.HostMemory(0) : t.Gpu(0, rail % gpus);
        fabric.Write(t.Gpu(1 + i, rail % gpus),
                     dst,
                     bytes,
                     [&results](const RdmaTransferResult& r) { results.push_back(r); });
    }
}

void
Summarise(const std::vector<RdmaTransferResult>& results, Outcome& o)
{
    uint64_t bytes = 0;
    Time first = Time::Max();
    Time last(0);
    double fct = 0;
    for (const auto& r : results)
    {
        bytes += r.bytes;
        first = std::min(first, r.start);
        last = std::max(last, r.delivered);
        fct += (r.delivered - r.start).GetSeconds();
    }
    o.makespan = (last - first).GetSeconds();
    o.goodput = bytes / o.makespan;
    o.meanFct = fct / results.size();
}

double
MeanUtil(const std::vector<uint32_t>& links,
         const std::function<double(uint32_t)>& bytesOn,
         const RailTopology& t,
         double seconds)
{
    double sum = 0;
    for (uint32_t d : links)
    {
        sum += bytesOn(d) / (t.GetLinks()[d / 2].bytesPerSec * seconds);
    }
    return links.empty() ? 0 : sum / links.size();
}

Outcome
RunPacket(const RailClusterConfig& c, Dest dest, uint32_t senders, uint64_t bytes)
{
    auto fabric = CreateObject<RdmaPacketFabric>();
    fabric->Build(c);
    fabric->AssignStreams(1);
    std::vector<RdmaTransferResult> results;
    Post(*fabric, dest, senders, bytes, results);
    Simulator::Run();
    Outcome o;
    Summarise(results, o);
    const RailTopology& t = fabric->GetTopology();
    Watched w = WatchedLinks(t);
    auto tx = [&](uint32_t d) { return double(fabric->GetLinkDevice(d)->GetTxBytes()); };
    o.uplinkUtil = MeanUtil(w.uplinks, tx, t, o.makespan);
    o.gpuLinkUtil = MeanUtil(w.gpuLinks, tx, t, o.makespan);
    o.memoryUtil = MeanUtil({w.memory}, tx, t, o.makespan);
    auto s = fabric->GetStats();
    o.pauses = s.pauseFrames;
    o.ecnMarks = s.ecnMarks;
    for (uint32_t d : w.nicDown)
    {
        o.pausedUs += fabric->GetLinkDevice(d)->GetPausedTime().GetMicroSeconds();
    }
    NS_ABORT_MSG_IF(s.bytesDelivered != s.bytesPosted, "bytes lost");
    fabric->Dispose();
    Simulator::Destroy();
    return o;
}

Outcome
RunRate(const RailClusterConfig& c, Dest dest, uint32_t senders, uint64_t bytes)
{
    auto fabric = CreateObject<RdmaRateFabric>();
    fabric->Build(c);
    std::vector<RdmaTransferResult> results;
    Post(*fabric, dest, senders, bytes, results);
    Simulator::Run();
    Outcome o;
    Summarise(results, o);
    const RailTopology& t = fabric->GetTopology();
    // Wire bytes each link carried: the flows' payload scaled to packets, on their paths.
    std::map<uint32_t, double> carried;
    double wirePerPayload = (1000.0 + RdmaHeader::kWireSize) / 1000.0;
    for (const auto& r : results)
    {
        for (uint32_t d : t.Path(r.src, r.dst, r.srcNic, r.dstNic, r.id))
        {
            carried[d] += r.bytes * wirePerPayload;
        }
    }
    auto tx = [&](uint32_t d) { return carried.count(d) ? carried[d] : 0.0; };
    Watched w = WatchedLinks(t);
    o.uplinkUtil = MeanUtil(w.uplinks, tx, t, o.makespan);
    o.gpuLinkUtil = MeanUtil(w.gpuLinks, tx, t, o.makespan);
    o.memoryUtil = MeanUtil({w.memory}, tx, t, o.makespan);
    fabric->Dispose();
    Simulator::Destroy();
    return o;
}

nlohmann::json
ToJson(const Outcome& o)
{
    return {{"goodputBytesPerSec", o.goodput},
            {"meanFctSeconds", o.meanFct},
            {"makespanSeconds", o.makespan},
            {"pfcPauseFrames", o.pauses},
            {"nicPausedMicroseconds", o.pausedUs},
            {"pcieUplinkUtilization", o.uplinkUtil},
            {"pcieGpuLinkUtilization", o.gpuLinkUtil},
            {"memoryUtilization", o.memoryUtil},
            {"ecnMarks", o.ecnMarks}};
}

} // namespace

int Main(int argc, char* argv[]);

int
main(int argc, char* argv[])
{
    return RunMain("rail-incast", argc, argv, Main);
}

int
Main(int argc, char* argv[])
{
    uint32_t seed = 1;
    int64_t senders = 8; // signed: a negative value is an error, not a wrapped huge count
    int64_t bytes = 4000000;
    double railGbps = 200;
    double memoryGBps = 200;
    int64_t pcieGen = 4;
    double nicDmaGBps = 0;
    std::string out = "results/rail-incast/results.json"; // never the repository root
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("seed", "random seed (ECN marking)", seed, 1);
    cmd.AddValue("senders",
                 "sender nodes (1..1024); sender i writes from GPU i%8 over rail i%8",
                 senders);
    cmd.AddValue("bytes", "bytes per sender (1..1e10)", bytes);
    // Bounded: rates far beyond hardware make packet times round to zero (a hang).
    cmd.AddValue("rail-gbps", "rail rate", railGbps, 0.001, 3200, "Gbit/s");
    cmd.AddValue("memory-gbps",
                 "host memory bandwidth available to DMA",
                 memoryGBps,
                 0.001,
                 10000,
                 "GB/s");
    cmd.AddValue("pcie-gen", "PCIe generation of every link in a node (3..6)", pcieGen);
    cmd.AddValue("nic-dma-gbps",
                 "NIC DMA rate over PCIe; 0: from the NIC generation (0.94 x rail rate)",
                 nicDmaGBps,
                 0,
                 10000,
                 "GB/s");
    cmd.AddValue("output", "results JSON file (its directory is created)", out);
    cmd.Parse(argc, argv);
    auto bad = [](const std::string& what) -> int { throw UsageError(what); };
    if (senders < 1 || senders > 1024)
    {
        return bad("--senders: expected 1..1024, got " + std::to_string(senders));
    }
    if (bytes < 1 || bytes > 10000000000LL)
    {
        return bad("--bytes: expected 1..1e10, got " + std::to_string(bytes));
    }
    if (!(railGbps > 0) || !std::isfinite(railGbps))
    {
        return bad("--rail-gbps: expected > 0 Gbit/s");
    }
    if (!(memoryGBps > 0) || !std::isfinite(memoryGBps))
    {
        return bad("--memory-gbps: expected > 0 GB/s");
    }
    if (pcieGen < 3 || pcieGen > 6)
    {
        return bad("--pcie-gen: expected 3..6, got " + std::to_string(pcieGen));
    }
    if (!(nicDmaGBps >= 0) || !std::isfinite(nicDmaGBps))
    {
        return bad("--nic-dma-gbps: expected >= 0 GB/s (0: from the rail rate)");
    }
    PrepareOutputFile(out);
    RngSeedManager::SetSeed(seed);

    RailClusterConfig c;
    c.nodes = static_cast<uint32_t>(senders + 1);
    c.railRateBps = railGbps * 1e9;
    c.node.memoryBandwidth = memoryGBps * 1e9;
    c.node.pcieGen = static_cast<uint32_t>(pcieGen);
    c.node.nicDmaBandwidth = nicDmaGBps * 1e9;
    c.spines = 2;
    c.Validate();

    nlohmann::json results;
    results["config"] = {{"senders", senders},
                         {"bytesPerSender", bytes},
                         {"railGbps", railGbps},
                         {"memoryGBps", memoryGBps},
                         {"pcieGen", pcieGen},
                         {"pcieLanes", c.node.pcieLanes},
                         {"pcieGBps", c.node.PcieBandwidth() / 1e9},
                         {"nicDmaGBps", c.NicDmaBandwidth() / 1e9},
                         {"gpusPerNode", c.node.gpus},
                         {"nicsPerNode", c.node.nics},
                         {"pcieSwitches", c.node.pcieSwitches}};
    results["seed"] = seed;

    std::cout << std::fixed << std::setprecision(2);
    std::cout << senders << " senders x " << bytes / 1e6 << " MB into node 0, rails " << railGbps
              << " Gb/s, PCIe Gen" << pcieGen << " x" << c.node.pcieLanes << " ("
              << c.node.PcieBandwidth() / 1e9 << " GB/s), memory " << memoryGBps << " GB/s\n\n";
    std::cout << std::left << std::setw(12) << "destination" << std::setw(8) << "level"
              << std::right << std::setw(9) << "GB/s" << std::setw(11) << "meanFCT us"
              << std::setw(9) << "pauses" << std::setw(13) << "NICpaused us" << std::setw(9)
              << "ECN" << std::setw(9) << "uplink%" << std::setw(9) << "memory%" << std::setw(10)
              << "GPUlink%" << std::setw(18) << "rate vs packet"
              << "\n";
    const std::pair<Dest, const char*> scenarios[] = {{Dest::HOST_MEMORY, "host-memory"},
                                                      {Dest::GPU_DIRECT, "gpu-direct"},
                                                      {Dest::SAME_RAIL, "same-rail"}};
    for (const auto& [dest, name] : scenarios)
    {
        Outcome p = RunPacket(c, dest, static_cast<uint32_t>(senders), bytes);
        Outcome r = RunRate(c, dest, static_cast<uint32_t>(senders), bytes);
        // relative error of the rate level against the packet level (the referee)
        double errGoodput = r.goodput / p.goodput - 1;
        double errFct = r.meanFct / p.meanFct - 1;
        results["scenarios"][name] = {{"packet", ToJson(p)},
                                      {"rate", ToJson(r)},
                                      {"rateVsPacketGoodput", errGoodput},
                                      {"rateVsPacketMeanFct", errFct}};
        for (auto [level, o] : {std::make_pair("packet", p), std::make_pair("rate", r)})
        {
            std::cout << std::left << std::setw(12) << name << std::setw(8) << level << std::right
                      << std::setw(9) << o.goodput / 1e9 << std::setw(11) << o.meanFct * 1e6
                      << std::setw(9) << o.pauses << std::setw(13) << o.pausedUs << std::setw(9)
                      << o.ecnMarks << std::setw(9) << o.uplinkUtil * 100 << std::setw(9)
                      << o.memoryUtil * 100 << std::setw(10) << o.gpuLinkUtil * 100;
            if (std::string(level) == "rate")
            {
                std::cout << std::showpos << std::setw(8) << errGoodput * 100 << "% GB/s "
                          << std::setw(6) << errFct * 100 << "% FCT" << std::noshowpos;
            }
            std::cout << "\n";
        }
    }
    WriteTextFileChecked(out, results.dump(2) + "\n");
    std::cout << "\nwrote " << out << "\n";
    return 0;
}
