/*
 * SPDX-License-Identifier: GPL-2.0-only
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

template <typename Fabric>
void
Post(Fabric& fabric,
     bool toGpu,
     uint32_t senders,
     uint64_t bytes,
     std::vector<RdmaTransferResult>& results)
{
    const RailTopology& t = fabric.GetTopology();
    uint32_t rails = t.GetConfig().node.nics;
    for (uint32_t i = 0; i < senders; ++i)
    {
        uint32_t rail = i % rails;
        uint32_t dst = toGpu ? t.Gpu(0, rail % t.GetConfig().node.gpus) : t.HostMemory(0);
        fabric.Write(t.Gpu(1 + i, rail % t.GetConfig().node.gpus),
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
RunPacket(const RailClusterConfig& c, bool toGpu, uint32_t senders, uint64_t bytes)
{
    auto fabric = CreateObject<RdmaPacketFabric>();
    fabric->Build(c);
    fabric->AssignStreams(1);
    std::vector<RdmaTransferResult> results;
    Post(*fabric, toGpu, senders, bytes, results);
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
RunRate(const RailClusterConfig& c, bool toGpu, uint32_t senders, uint64_t bytes)
{
    auto fabric = CreateObject<RdmaRateFabric>();
    fabric->Build(c);
    std::vector<RdmaTransferResult> results;
    Post(*fabric, toGpu, senders, bytes, results);
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

int
main(int argc, char* argv[])
{
    uint32_t seed = 1;
    uint32_t senders = 8;
    uint64_t bytes = 4000000;
    double railGbps = 200;
    double memoryGBps = 200;
    uint32_t pcieGen = 4;
    std::string out = "rail-incast-results.json";
    CommandLine cmd(__FILE__);
    cmd.AddValue("seed", "random seed (ECN marking)", seed);
    cmd.AddValue("senders", "sender nodes; sender i writes from GPU i%8 over rail i%8", senders);
    cmd.AddValue("bytes", "bytes per sender", bytes);
    cmd.AddValue("rail-gbps", "rail rate, Gbit/s", railGbps);
    cmd.AddValue("memory-gbps", "host memory bandwidth available to DMA, GB/s", memoryGBps);
    cmd.AddValue("pcie-gen", "PCIe generation of every link in a node (3..6)", pcieGen);
    cmd.AddValue("out", "results JSON", out);
    cmd.Parse(argc, argv);
    if (senders == 0 || bytes == 0)
    {
        std::cerr << "rail-incast: --senders and --bytes must be > 0\n";
        return 1;
    }
    RngSeedManager::SetSeed(seed);

    RailClusterConfig c;
    c.nodes = senders + 1;
    c.railRateBps = railGbps * 1e9;
    c.node.memoryBandwidth = memoryGBps * 1e9;
    c.node.pcieGen = pcieGen;
    c.spines = 2;

    nlohmann::json results;
    results["config"] = {{"senders", senders},
                         {"bytesPerSender", bytes},
                         {"railGbps", railGbps},
                         {"memoryGBps", memoryGBps},
                         {"pcieGen", pcieGen},
                         {"pcieLanes", c.node.pcieLanes},
                         {"pcieGBps", c.node.PcieBandwidth() / 1e9},
                         {"nicDmaGBps", c.node.nicDmaBandwidth / 1e9},
                         {"gpusPerNode", c.node.gpus},
                         {"nicsPerNode", c.node.nics},
                         {"pcieSwitches", c.node.pcieSwitches}};
    results["seed"] = seed;

    std::cout << std::fixed << std::setprecision(2);
    std::cout << senders << " senders x " << bytes / 1e6 << " MB into node 0, rails " << railGbps
              << " Gb/s, PCIe Gen" << pcieGen << " x" << c.node.pcieLanes << " ("
              << c.node.PcieBandwidth() / 1e9 << " GB/s), memory " << memoryGBps << " GB/s\n\n";
    std::cout << std::left << std::setw(14) << "destination" << std::setw(8) << "level"
              << std::right << std::setw(12) << "GB/s" << std::setw(12) << "meanFCT us"
              << std::setw(10) << "pauses" << std::setw(13) << "NICpaused us" << std::setw(10)
              << "uplink%" << std::setw(10) << "memory%" << std::setw(10) << "GPUlink%"
              << "\n";
    for (bool toGpu : {false, true})
    {
        std::string name = toGpu ? "gpu-direct" : "host-memory";
        Outcome p = RunPacket(c, toGpu, senders, bytes);
        Outcome r = RunRate(c, toGpu, senders, bytes);
        results["scenarios"][name] = {{"packet", ToJson(p)}, {"rate", ToJson(r)}};
        for (auto [level, o] : {std::make_pair("packet", p), std::make_pair("rate", r)})
        {
            std::cout << std::left << std::setw(14) << name << std::setw(8) << level << std::right
                      << std::setw(12) << o.goodput / 1e9 << std::setw(12) << o.meanFct * 1e6
                      << std::setw(10) << o.pauses << std::setw(13) << o.pausedUs << std::setw(10)
                      << o.uplinkUtil * 100 << std::setw(10) << o.memoryUtil * 100 << std::setw(10)
                      << o.gpuLinkUtil * 100 << "\n";
        }
    }
    std::ofstream(out) << results.dump(2) << "\n";
    std::cout << "\nwrote " << out << "\n";
    return 0;
}
