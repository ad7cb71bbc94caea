/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Shared links: gradient sync and the provisioning loader's traffic on the same rails
// (ns3::LinkShare, doc/cluster.md "Shared links").

#include "running-job.h"

#include "ns3/cluster-builder.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ina-gradient-sync.h"
#include "ns3/link-share.h"
#include "ns3/provisioning-data-loading.h"
#include "ns3/ring-all-reduce-sync.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

using namespace ns3;

namespace
{

// Two nodes of one GPU (one rail of 200 Gb/s = 25 GB/s each way); the ring's NIC runs at the
// rail's rate. PCIe Gen5 and a fast NIC DMA engine leave the rail the loader's only limit.
constexpr double RAIL = 25e9;        // [bytes/s]
constexpr double GRADIENT = 1e9;     // [bytes]
constexpr double DECODED = 1e9;      // bytes of one sample as the GPU takes it
constexpr double COMPUTE = 0.04;     // [s per iteration] = GRADIENT / RAIL
constexpr double NIC_LATENCY = 2e-6; // RingAllReduceSync's NicLatency default [s]

/// One job on both nodes, a GPU each, its sync and its data as LinkShare sees them.
struct Rig
{
    ClusterTopology topology;
    WorkloadProfile profile;
    Ptr<ClusterJob> job;
    Ptr<LinkShare> links;
    Ptr<RingAllReduceSync> ring;
    Ptr<ProvisioningDataLoading> data;

    /// \param withSync the sync model reports its traffic \param withData the loader does
    Rig(bool withSync, bool withData)
    {
        topology.numNodes = 2;
        topology.gpusPerNode = 1;
        topology.nodesPerRack = 2;
        profile.name = "rail-heavy";
        profile.localBatch = 1;
        profile.gradientBytes = GRADIENT;
        profile.rawBytesPerSample = 1e6;
        profile.decodedBytesPerSample = DECODED;
        profile.cpuSecondsPerSample = 1e-9;
        profile.dataset = "d";
        profile.datasetBytes = 1e9;
        job = JobOn(1, profile, {0, 1}, COMPUTE);

        links = CreateObject<LinkShare>();
        links->SetLinks(topology, RAIL, 1);
        ring = CreateObject<RingAllReduceSync>();
        ring->SetAttribute("NicRate", DataRateValue(DataRate("200Gbps")));
        if (withSync)
        {
            ring->SetLinkShare(links);
            links->SetSyncModel(PeekPointer(ring));
        }
        // KSpeed's pool: two nodes of their own on the rails, so every sample crosses the
        // trainer's rail into its GPU.
        Config::SetDefault("ns3::ProvisioningModel::PoolNodes", UintegerValue(2));
        data = CreateObject<ProvisioningDataLoading>();
        data->Configure("kspeed", CreateObject<StorageBackend>());
        RailClusterConfig rail;
        rail.railRateBps = RAIL * 8;
        rail.node.pcieGen = 5;
        rail.node.nicDmaBandwidth = 1e12;
        data->SetNodeTemplate(rail);
        if (withData)
        {
            data->SetLinkShare(links);
        }
    }

    ~Rig()
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// \return the data term [s per iteration] (the loader's solve)
    double DataTime()
    {
        std::vector<double> s(1, 0.0);
        data->Evaluate(topology, {job}, s);
        return s[0];
    }

    /// \return the sync term [s per iteration]
    double SyncTime()
    {
        std::vector<double> s(1, 0.0);
        ring->Evaluate(topology, {job}, s);
        return s[0];
    }
};

/// bytes on a link per payload byte: RDMA header per MTU (RdmaEndpoint::Mtu 1000, 62 B)
constexpr double WIRE = (1000.0 + 62) / 1000;

} // namespace

TEST_CASE("shared links: a job whose data loading saturates its rail syncs more slowly", "[links]")
{
    // Alone: the ring moves 2(n-1)/n x 1 GB over its 25 GB/s NIC, plus 2(n-1) steps.
    const double alone = 2.0 * 1 / 2 * GRADIENT / RAIL + 2 * 1 * NIC_LATENCY;
    {
        Rig rig(true, false); // the loader does not report: the sync has the rail alone
        rig.DataTime();
        CHECK(rig.SyncTime() == Approx(alone).epsilon(1e-12));
    }
    Rig rig(true, true);
    rig.DataTime();
    // The loader fills what the sync leaves of each rail into the GPUs: at least half of it.
    REQUIRE(rig.links->DataIn()[0] >= RAIL / 2 * (1 - 1e-9));
    REQUIRE(rig.links->DataIn()[1] >= RAIL / 2 * (1 - 1e-9));
    // Its sync bursts then get max(C - D, C/2) = C/2 of the rail: the bandwidth term doubles.
    const double shared = 2.0 * 1 / 2 * GRADIENT / (RAIL / 2) + 2 * 1 * NIC_LATENCY;
    CHECK(rig.SyncTime() == Approx(shared).epsilon(1e-9));
    CHECK(shared > 1.9 * alone);
    CHECK(rig.links->GetFigures().slowedSyncs == 1);
    CHECK(rig.links->GetFigures().minSyncShare == Approx(0.5));
    CHECK(rig.links->GetFigures().peakReserveShare == Approx(0.5));
    CHECK(rig.links->GetFigures().peakDataShare == Approx(0.5));
}

TEST_CASE("shared links: INA's workers send at the share the loader leaves them", "[links]")
{
    // ESA alone at one ToR: C chunks of 62 values in packets of 4 x 62 + 60 bytes, a chunk
    // every max(tx, R / 256) for the round trip R = 4 (tx + 500 ns) + 2 x 2 passes x 400 ns
    // via the PS; at half the rail a worker sends a chunk every 2 tx.
    auto ina = CreateObject<InaGradientSync>();
    ina->SetAttribute("LinkRate", DataRateValue(DataRate("200Gbps")));
    const double chunks = std::ceil(GRADIENT / (4.0 * 62));
    const double tx = (4.0 * 62 + 60) * 8 / 200e9;
    double alone;
    {
        Rig rig(false, true);
        std::vector<double> s(1, 0.0);
        ina->Evaluate(rig.topology, {rig.job}, s);
        alone = s[0];
    }
    Rig rig(false, true);
    ina->SetLinkShare(rig.links);
    rig.links->SetSyncModel(PeekPointer(ina));
    rig.DataTime();
    REQUIRE(rig.links->DataIn()[0] >= RAIL / 2 * (1 - 1e-9));
    std::vector<double> s(1, 0.0);
    ina->Evaluate(rig.topology, {rig.job}, s);
    const double rtt = 4 * (tx + 500e-9) + 2 * 2 * 400e-9;
    CHECK(s[0] - alone == Approx((chunks - 1) * (2 * tx - std::max(tx, rtt / 256))).epsilon(1e-9));
    ina->SetLinkShare(nullptr);
}

TEST_CASE("shared links: a job whose sync saturates its rail loads data more slowly", "[links]")
{
    // Alone: the rail into each GPU carries DECODED x WIRE bytes per sample at 25 GB/s.
    const double alone = DECODED * WIRE / RAIL;
    {
        Rig rig(false, true); // no sync model reports: the loader has the rail alone
        CHECK(rig.DataTime() == Approx(alone).epsilon(1e-9));
    }
    Rig rig(true, true);
    // The sync's average over an iteration: 1 GB per node each way over compute (0.04 s) plus
    // the sync at the NIC's rate (0.04 s) = 12.5 GB/s = half the rail, all of which it keeps.
    const double syncAverage = GRADIENT / (COMPUTE + GRADIENT / RAIL);
    REQUIRE(syncAverage == Approx(RAIL / 2));
    std::vector<double> reserve = rig.links->SyncReserve({rig.job});
    CHECK(reserve[0] == Approx(syncAverage));
    const double shared = DECODED * WIRE / (RAIL - syncAverage);
    CHECK(rig.DataTime() == Approx(shared).epsilon(1e-9));
    CHECK(shared > 1.9 * alone);
}

TEST_CASE("shared links: the loader's rail reserve follows the jobs that span nodes", "[links]")
{
    // The reserve is taken again only when the set of jobs that span nodes moves: it must
    // move when the spanning job stops and when another one starts, and stay otherwise.
    const double alone = DECODED * WIRE / RAIL;
    const double shared = DECODED * WIRE / (RAIL - GRADIENT / (COMPUTE + GRADIENT / RAIL));
    Rig rig(true, true);
    CHECK(rig.DataTime() == Approx(shared).epsilon(1e-9));
    // the spanning job stops; a job on node 0 alone syncs over NVLink and keeps no rail
    rig.data->JobStopped(*rig.job);
    Ptr<ClusterJob> local = JobOn(2, rig.profile, {0}, COMPUTE);
    std::vector<double> s(1, 0.0);
    rig.data->Evaluate(rig.topology, {local}, s);
    CHECK(s[0] == Approx(alone).epsilon(1e-9));
    rig.data->Evaluate(rig.topology, {local}, s); // nothing moved: the same term
    CHECK(s[0] == Approx(alone).epsilon(1e-9));
    // a spanning job again: the rails are shared again
    rig.data->JobStopped(*local);
    Ptr<ClusterJob> spanning = JobOn(3, rig.profile, {0, 1}, COMPUTE);
    rig.data->Evaluate(rig.topology, {spanning}, s);
    CHECK(s[0] == Approx(shared).epsilon(1e-9));
}

TEST_CASE("shared links: the builder installs them only with sync and a loader both on", "[links]")
{
    for (const auto& [sync, provisioning, expected] :
         std::vector<std::tuple<std::string, std::string, bool>>{{"ring", "kspeed", true},
                                                                 {"esa", "kspeed", true},
                                                                 {"ideal", "kspeed", false},
                                                                 {"esa", "ideal", false}})
    {
        Ptr<ClusterBuilder> b = CreateObject<ClusterBuilder>();
        b->SetAttribute("GradientSync", StringValue(sync));
        b->SetAttribute("Provisioning", StringValue(provisioning));
        b->SetAttribute("StoragePolicy", StringValue("ideal"));
        Ptr<ClusterEngine> engine = b->Build(std::vector<JobRecord>(), WorkloadCatalog::Default());
        CHECK((b->GetLinkShare() != nullptr) == expected);
        if (expected)
        {
            CHECK(b->GetLinkShare()->NodeCapacity() == Approx(8 * 200e9 / 8));
            CHECK(engine->GetGradientSyncModel()->GetLinkShare() == b->GetLinkShare());
        }
        engine->Dispose();
        Simulator::Destroy();
    }
}

TEST_CASE("shared links: the peak data share is the largest per-node share, bit for bit", "[links]")
{
    // SetDataLoad divides the largest load once: it must give the maximum of every node's
    // out and in shares, to the bit, over random loads (some 0, some equal, some NaN).
    ClusterTopology topology;
    topology.numNodes = 40;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    for (double rate : {12.5e9, 3.0e9 / 7, 1e-3})
    {
        auto links = CreateObject<LinkShare>();
        links->SetLinks(topology, rate, 3);
        double expected = 0;
        for (uint32_t pass = 0; pass < 200; ++pass)
        {
            std::vector<double> out(topology.numNodes);
            std::vector<double> in(topology.numNodes);
            for (uint32_t n = 0; n < topology.numNodes; ++n)
            {
                uint32_t kind = rng() % 8;
                out[n] = kind == 0 ? 0.0 : unif(rng) * rate * 4 * (pass + 1) / 200;
                in[n] = kind == 1 ? std::nan("") : kind == 2 ? out[n] : unif(rng) * rate * 3;
                for (double load : {out[n], in[n]})
                {
                    expected = std::max(expected, load / (rate * 3));
                }
            }
            links->SetDataLoad(out, in);
            INFO("rate " << rate << ", pass " << pass);
            REQUIRE(links->GetFigures().peakDataShare == expected);
        }
    }
    Simulator::Destroy();
}

namespace
{
/// \param n counter of the sync model's change notices
void
CountNotice(uint32_t* n)
{
    ++*n;
}
} // namespace

TEST_CASE("shared links: a remembered sync share is compared again whenever a node's data load "
          "moves",
          "[links]")
{
    // CheckShares compares the shares only after a SetDataLoad that moved some load: the
    // sync model must hear of every move of a share, however many unchanged loads came
    // between, and of none while the loads stay.
    Rig rig(true, false);
    uint32_t notices = 0;
    rig.ring->SetChangeCallback(MakeBoundCallback(&CountNotice, &notices));
    rig.SyncTime(); // its share remembered at no data load: its peak
    const std::vector<double> idle(2, 0.0);
    const std::vector<double> busy = {0.75 * RAIL, 0.0};  // leaves the sync half of node 0's
    const std::vector<double> busier = {0.8 * RAIL, 0.0}; // still half
    auto pass = [&](const std::vector<double>& out) {
        rig.links->SetDataLoad(out, idle);
        Simulator::Run(); // the check scheduled after the pass
    };
    pass(idle);
    pass(idle);
    CHECK(notices == 0);
    pass(busy);
    CHECK(notices == 1);
    pass(busy); // not evaluated again: its share remembered is still its peak
    CHECK(notices == 2);
    rig.SyncTime(); // now at half
    pass(busy);
    pass(busier); // moved a load, not the share
    pass(busier);
    CHECK(notices == 2);
    pass(idle);
    CHECK(notices == 3);
}

TEST_CASE("shared links: a kept job whose rails' reserve moved is described with their new "
          "capacity",
          "[links]")
{
    // KSpeed on 2 nodes of 2 GPUs, rails of 1 GB/s, no pool cache: each GPU's rail is its
    // flow's dominant resource, and the pool's 2 cores bind at a level below 1 (rails fit). Jobs A
    // and B run alone on nodes 0 and 1; then C spans both and its sync keeps half of their rails.
    // A and B are not described anew by the model (their plan and GPUs stand), but their
    // flows cross those rails: their pace must be the one of a loader that sees A, B and C
    // at once.
    ClusterTopology topology;
    topology.numNodes = 2;
    topology.gpusPerNode = 2;
    topology.nodesPerRack = 2;
    WorkloadProfile profile;
    profile.name = "rail-bound";
    profile.localBatch = 100;
    profile.gradientBytes = 1e8;
    profile.rawBytesPerSample = 1e3;
    profile.decodedBytesPerSample = 1e6;
    // spread over 2 pool nodes of 1 core: 3/4 of the share of the GPU's rail
    profile.cpuSecondsPerSample = 0.75 * 2 * 1e6 * WIRE / 1e9;
    profile.dataset = "d";
    profile.datasetBytes = 1e9;
    Ptr<ClusterJob> a = JobOnGpus(1, profile, {{0, 1}}, 0.01);
    Ptr<ClusterJob> b = JobOnGpus(2, profile, {{1, 1}}, 0.01);
    Ptr<ClusterJob> c = JobOnGpus(3, profile, {{0, 1}, {1, 1}}, 0.01);
    Config::SetDefault("ns3::ProvisioningModel::PoolNodes", UintegerValue(2));
    Config::SetDefault("ns3::ProvisioningModel::PoolCores", DoubleValue(1));
    Config::SetDefault("ns3::ProvisioningModel::PoolCacheBytes", DoubleValue(0)); // decode all
    auto loader = [&]() {
        auto links = CreateObject<LinkShare>();
        links->SetLinks(topology, 1e9, 2);
        auto ring = CreateObject<RingAllReduceSync>();
        ring->SetLinkShare(links);
        links->SetSyncModel(PeekPointer(ring));
        auto data = CreateObject<ProvisioningDataLoading>();
        data->Configure("kspeed", CreateObject<StorageBackend>());
        RailClusterConfig rail;
        rail.railRateBps = 8e9;
        rail.node.pcieGen = 5;
        rail.node.nicDmaBandwidth = 1e12;
        data->SetNodeTemplate(rail);
        data->SetLinkShare(links);
        return std::make_pair(data, ring); // held: the links keep a plain pointer to it
    };
    auto [kept, keptRing] = loader();
    std::vector<double> alone(2, 0.0);
    kept->Evaluate(topology, {a, b}, alone);
    std::vector<double> s(3, 0.0);
    kept->Evaluate(topology, {a, b, c}, s);   // C starts: the reserve of nodes 0 and 1 moves
    CHECK(kept->GetPassCounts().second == 0); // every pass on the level
    auto [fresh, freshRing] = loader();
    std::vector<double> expected(3, 0.0);
    fresh->Evaluate(topology, {a, b, c}, expected);
    CHECK(fresh->GetPassCounts().second == 0);
    for (size_t k = 0; k < 3; ++k)
    {
        INFO("job " << k + 1);
        CHECK(s[k] == Approx(expected[k]).epsilon(1e-9));
    }
    CHECK(s[0] > 1.2 * alone[0]); // C took pool cores and half of A's rail
    Simulator::Destroy();
    Config::Reset();
}

TEST_CASE("shared links: the kept sync reserve is SyncReserve of the jobs by id, bit for bit",
          "[links]")
{
    // Jobs of random sizes and compute times start and stop on 24 nodes (ring all-reduce; some
    // stop and start again between two updates, their terms taken or not): after every change
    // the kept reserve must equal SyncReserve over the running jobs in id order to the bit,
    // and name exactly the nodes whose reserve differs from the update before. The links
    // change once midway (every job's terms taken again).
    ClusterTopology topology;
    topology.numNodes = 24;
    topology.gpusPerNode = 8;
    WorkloadProfile profile;
    profile.name = "ring";
    profile.gradientBytes = 3.7e8;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    auto ring = CreateObject<RingAllReduceSync>();
    ring->SetAttribute("NicRate", DataRateValue(DataRate("100Gbps")));
    Ptr<LinkShare> links;
    auto newLinks = [&]() {
        links = CreateObject<LinkShare>();
        links->SetLinks(topology, 12.5e9 / 3, 8); // sync demand often above half
        links->SetSyncModel(PeekPointer(ring));
    };
    newLinks();
    KeptSyncReserve kept;
    std::map<uint64_t, Ptr<const ClusterJob>> running;
    std::vector<double> before;
    std::vector<uint32_t> moved;
    uint32_t movedSeen = 0;
    for (uint64_t step = 0; step < 400; ++step)
    {
        if (running.size() < 6 || (rng() % 2 == 0 && running.size() < 40))
        {
            std::vector<std::pair<uint32_t, uint32_t>> gpus;
            uint32_t first = rng() % topology.numNodes;
            for (uint32_t n = 2 + rng() % 4; n > 0; --n)
            {
                gpus.emplace_back((first + n * 5) % topology.numNodes, 1 + rng() % 8);
            }
            uint64_t id = rng() % 1000; // ids not in start order
            if (running.count(id) == 0)
            {
                running[id] = JobOnGpus(id, profile, gpus, 0.01 + unif(rng) * 0.2);
                kept.Add(running[id]);
                if (rng() % 4 == 0)
                {
                    kept.Remove(id); // preempted and resumed before the next update
                    kept.Add(running[id]);
                }
            }
        }
        else
        {
            auto it = std::next(running.begin(), rng() % running.size());
            kept.Remove(it->first);
            if (rng() % 4 == 0)
            {
                kept.Add(it->second); // stopped and started again before the next update
            }
            else
            {
                running.erase(it);
            }
        }
        if (step == 200)
        {
            newLinks();
        }
        std::vector<Ptr<const ClusterJob>> byId;
        for (const auto& [id, job] : running)
        {
            byId.push_back(job);
        }
        const std::vector<double> expected = links->SyncReserve(byId);
        const std::vector<double>& got = kept.Update(*links, moved);
        INFO("step " << step);
        REQUIRE(got.size() == expected.size());
        REQUIRE(std::memcmp(got.data(), expected.data(), got.size() * sizeof(double)) == 0);
        std::vector<uint32_t> differs;
        for (uint32_t n = 0; n < expected.size(); ++n)
        {
            if (before.empty() || expected[n] != before[n])
            {
                differs.push_back(n);
            }
        }
        REQUIRE(moved == differs);
        movedSeen += moved.size();
        before = expected;
    }
    CHECK(movedSeen > 100); // the reserve did move, node by node
    Simulator::Destroy();
}
