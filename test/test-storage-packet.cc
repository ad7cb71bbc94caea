/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Packet-level check of the storage rate model: three jobs read one shared, half-cached
// dataset from a storage server over TCP through a bottleneck link; each job's measured
// throughput must match min(T, b / (1 - c/d)) with b the max-min fair share, within 10%.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/storage-client-app.h"
#include "ns3/storage-problem.h"
#include "ns3/storage-server-app.h"

#include <catch2/catch.hpp>

using namespace ns3;

TEST_CASE("packet-level reads confirm the storage rate model within 10%", "[storage]")
{
    const double linkBps = 20e6; // storage server's access link [bit/s]
    const uint32_t sampleBytes = 16384;
    const uint32_t samples = 1000;
    const uint32_t cached = 500;                        // c/d = 0.5, shared by all three jobs
    const std::vector<double> compute = {50, 200, 200}; // T per job [samples/s]
    // TCP payload per byte on the wire: 1448 B segments under 20 B IP, 32 B TCP (with the
    // timestamp option) and 2 B PPP headers. The rate model's b is payload bandwidth.
    const double goodput = linkBps / 8 * 1448.0 / (1448 + 20 + 32 + 2);

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    NodeContainer server;
    server.Create(1);
    NodeContainer router;
    router.Create(1);
    NodeContainer clients;
    clients.Create(compute.size());
    InternetStackHelper internet;
    internet.Install(server);
    internet.Install(router);
    internet.Install(clients);
    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(linkBps))));
    bottleneck.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    access.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
    Ipv4AddressHelper address;
    address.SetBase("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer serverIf =
        address.Assign(bottleneck.Install(server.Get(0), router.Get(0)));
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        address.NewNetwork();
        address.Assign(access.Install(router.Get(0), clients.Get(i)));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<StorageServerApp> storage = CreateObject<StorageServerApp>();
    server.Get(0)->AddApplication(storage);
    storage->SetStartTime(Seconds(0));
    std::vector<Ptr<StorageClientApp>> jobs;
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        Ptr<StorageClientApp> job = CreateObject<StorageClientApp>();
        job->SetAttribute("DatasetSamples", UintegerValue(samples));
        job->SetAttribute("CachedSamples", UintegerValue(cached));
        job->SetAttribute("SampleBytes", UintegerValue(sampleBytes));
        job->SetAttribute("ComputeRate", DoubleValue(compute[i]));
        job->SetAttribute("Seed", UintegerValue(10 + i));
        job->SetServer(InetSocketAddress(serverIf.GetAddress(0), 9100));
        clients.Get(i)->AddApplication(job);
        job->SetStartTime(Seconds(0.1));
        jobs.push_back(job);
    }
    const double from = 3;
    const double to = 63;
    Simulator::Stop(Seconds(to + 0.5));
    Simulator::Run();

    // The rate model: bandwidth max-min fair over the remote parts of the demands.
    double hit = double(cached) / samples;
    std::vector<double> needs;
    for (double t : compute)
    {
        needs.push_back(t * sampleBytes * (1 - hit));
    }
    std::vector<double> b = MaxMinFair(needs, goodput, 0);
    double measuredTotal = 0;
    double predictedTotal = 0;
    for (size_t i = 0; i < jobs.size(); ++i)
    {
        double predicted = std::min(compute[i], b[i] / (1 - hit) / sampleBytes);
        double measured =
            double(jobs[i]->SamplesConsumedBy(to) - jobs[i]->SamplesConsumedBy(from)) / (to - from);
        INFO("job " << i << ": measured " << measured << " samples/s, model " << predicted);
        CHECK(measured == Approx(predicted).epsilon(0.10));
        measuredTotal += measured;
        predictedTotal += predicted;
    }
    // TCP splits the bottleneck a little unevenly between flows, but not its total.
    CHECK(measuredTotal == Approx(predictedTotal).epsilon(0.03));
    // The bottleneck is used: the bandwidth-bound jobs take what the compute-bound one leaves.
    CHECK(b[1] < needs[1]);
    Simulator::Destroy();
}
