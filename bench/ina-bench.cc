/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

/**
 * \file
 * \ingroup aicluster
 * Packet-level INA speed: 8 jobs x 8 workers at 100 Gbps through one switch, once with the
 * aggregation pipeline and once with the same switch as a plain forwarder (every worker
 * packet goes to its PS, which sums in software). Prints switch packets processed per wall
 * second and simulator events per wall second for both, and their ratio (the cost of
 * aggregation per switch packet).
 *
 *   ./build/bench/ina-bench [--jobs=8] [--workers=8] [--chunks=4000] [--iterations=2]
 */

#include "ns3/core-module.h"
#include "ns3/ina-helper.h"
#include "ns3/strict-options.h"

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

struct Figures
{
    double wall{0};
    double simSeconds{0};
    uint64_t events{0};
    uint64_t switchPackets{0};
    uint64_t workerPackets{0};
};

Figures
RunOnce(bool aggregate,
        const std::string& policy,
        uint32_t jobs,
        uint32_t workers,
        uint32_t chunks,
        uint32_t iterations)
{
    InaHelper h;
    h.SetPolicy(policy);
    h.SetSwitchAttribute("Aggregation", BooleanValue(aggregate));
    h.SetWorkerAttribute("Verify", BooleanValue(false));
    for (uint32_t j = 0; j < jobs; ++j)
    {
        InaJobSpec s;
        s.workers = workers;
        s.gradientValues = static_cast<uint64_t>(chunks) * h.GetValuesPerPacket();
        s.iterations = iterations;
        h.AddJob(s);
    }
    h.Install();
    uint64_t events0 = Simulator::GetEventCount();
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    Figures f;
    f.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    f.events = Simulator::GetEventCount() - events0;
    f.simSeconds = Simulator::Now().GetSeconds();
    f.switchPackets = h.GetSwitch()->GetStats().packetsIn;
    for (uint32_t j = 0; j < jobs; ++j)
    {
        NS_ABORT_MSG_IF(h.GetResult(j).iterationsDone != iterations, "bench: job unfinished");
        for (const auto& w : h.GetWorkers(j))
        {
            f.workerPackets += w->GetChunksSent() + w->GetResends();
        }
    }
    Simulator::Destroy();
    return f;
}

void
Print(const std::string& name, const Figures& f)
{
    std::cout << std::left << std::setw(22) << name << std::right << std::fixed
              << std::setprecision(3) << std::setw(9) << f.wall << std::setw(12)
              << std::setprecision(6) << f.simSeconds * 1e3 << std::setw(12) << f.workerPackets
              << std::setw(12) << f.switchPackets << std::setw(12) << std::setprecision(0)
              << f.switchPackets / f.wall << std::setw(12) << f.events / f.wall << std::setw(12)
              << f.events << "\n";
}

/** The bench itself; RunMain turns its errors into one line. */
int
BenchMain(int argc, char* argv[])
{
    uint32_t jobs = 8;
    uint32_t workers = 8;
    uint32_t chunks = 4000;
    uint32_t iterations = 2;
    std::string policy = "atp";
    StrictCommandLine cmd(__FILE__);
    cmd.AddValue("jobs", "jobs sharing the switch", jobs, 1, 64);
    cmd.AddValue("workers", "workers per job", workers, 1, 256);
    cmd.AddValue("chunks", "packets per worker per iteration", chunks, 1, 1000000);
    cmd.AddValue("iterations", "iterations per job", iterations, 1, 1000);
    cmd.AddChoice("policy", "aggregation policy", policy, {"switchml", "atp", "esa"});
    cmd.Parse(argc, argv);

    std::cout << "ina-bench: " << jobs << " jobs x " << workers << " workers, " << chunks
              << " packets/worker/iteration x " << iterations << " iterations, 100 Gbps, policy "
              << policy << "\n";
    std::cout << std::left << std::setw(22) << "switch" << std::right << std::setw(9) << "wall[s]"
              << std::setw(12) << "sim[ms]" << std::setw(12) << "worker pkts" << std::setw(12)
              << "switch pkts" << std::setw(12) << "sw pkts/s" << std::setw(12) << "events/s"
              << std::setw(12) << "events"
              << "\n";
    Figures plain = RunOnce(false, policy, jobs, workers, chunks, iterations);
    Print("plain forwarding", plain);
    Figures agg = RunOnce(true, policy, jobs, workers, chunks, iterations);
    Print("aggregation (" + policy + ")", agg);
    double ratio = (plain.switchPackets / plain.wall) / (agg.switchPackets / agg.wall);
    std::cout << std::setprecision(2)
              << "wall time per switch packet, aggregation / forwarding: " << ratio
              << "x (target <= 1.5x)\n";
    std::cout << "wall time per worker packet, aggregation / forwarding: "
              << (agg.wall / agg.workerPackets) / (plain.wall / plain.workerPackets) << "x\n";
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("ina-bench", argc, argv, BenchMain);
}
