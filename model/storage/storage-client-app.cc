/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-client-app.h"

#include "storage-server-app.h"

#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StorageClientApp");
NS_OBJECT_ENSURE_REGISTERED(StorageClientApp);

TypeId
StorageClientApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::StorageClientApp")
            .SetParent<Application>()
            .SetGroupName("Aicluster")
            .AddConstructor<StorageClientApp>()
            .AddAttribute("DatasetSamples",
                          "Samples in the dataset [count].",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&StorageClientApp::m_datasetSamples),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CachedSamples",
                          "Samples held by the compute-side cache (ids below this) [count].",
                          UintegerValue(0),
                          MakeUintegerAccessor(&StorageClientApp::m_cachedSamples),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SampleBytes",
                          "Stored size of one sample [bytes].",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&StorageClientApp::m_sampleBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeRate",
                          "Samples the GPUs consume per second when data is there [samples/s].",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&StorageClientApp::m_computeRate),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("Window",
                          "Remote samples requested ahead of consumption (prefetch buffer) "
                          "[count].",
                          UintegerValue(32),
                          MakeUintegerAccessor(&StorageClientApp::m_window),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Seed",
                          "Seed of the epoch shuffles.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&StorageClientApp::m_seed),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

StorageClientApp::StorageClientApp()
    : m_datasetSamples(1000),
      m_cachedSamples(0),
      m_sampleBytes(16384),
      m_computeRate(100),
      m_window(32),
      m_seed(1)
{
    NS_LOG_FUNCTION(this);
}

StorageClientApp::~StorageClientApp()
{
    NS_LOG_FUNCTION(this);
}

void
StorageClientApp::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_socket = nullptr;
    Application::DoDispose();
}

void
StorageClientApp::SetServer(const Address& server)
{
    NS_LOG_FUNCTION(this << server);
    m_server = server;
}

uint64_t
StorageClientApp::SamplesConsumed() const
{
    NS_LOG_FUNCTION(this);
    return m_consumed;
}

uint64_t
StorageClientApp::SamplesConsumedBy(double t) const
{
    NS_LOG_FUNCTION(this << t);
    return std::upper_bound(m_consumeTimes.begin(), m_consumeTimes.end(), t) -
           m_consumeTimes.begin();
}

uint64_t
StorageClientApp::BytesReceived() const
{
    NS_LOG_FUNCTION(this);
    return m_bytesReceived;
}

void
StorageClientApp::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_rng.seed(m_seed);
    NextEpoch();
    NextEpoch();
    m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    m_socket->Bind();
    NS_LOG_INFO("client: " << m_datasetSamples << " samples of " << m_sampleBytes << " bytes, "
                           << m_cachedSamples << " cached, window " << m_window
                           << ", connecting to " << m_server);
    m_socket->SetConnectCallback(MakeCallback(&StorageClientApp::OnConnected, this),
                                 MakeNullCallback<void, Ptr<Socket>>());
    m_socket->SetRecvCallback(MakeCallback(&StorageClientApp::OnRead, this));
    m_socket->Connect(m_server);
    TryConsume(); // cached samples need no connection
}

void
StorageClientApp::StopApplication()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_consumeEvent);
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
StorageClientApp::NextEpoch()
{
    NS_LOG_FUNCTION(this);
    std::vector<uint32_t> order(m_datasetSamples);
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = order.size() - 1; i > 0; --i)
    {
        std::swap(order[i], order[m_rng() % (i + 1)]);
    }
    for (uint32_t id : order)
    {
        m_order.push_back(id);
        bool remote = id >= m_cachedSamples;
        m_remote.push_back(remote);
        m_remoteQueued += remote;
    }
}

void
StorageClientApp::OnConnected(Ptr<Socket> /* socket */)
{
    NS_LOG_FUNCTION(this);
    RequestMore();
}

void
StorageClientApp::RequestMore()
{
    NS_LOG_FUNCTION(this);
    if (!m_socket)
    {
        return;
    }
    while (m_remoteQueued > 0 && m_remoteRequested - m_remoteConsumed < m_window)
    {
        uint8_t request[StorageServerApp::REQUEST_BYTES];
        for (uint32_t i = 0; i < StorageServerApp::REQUEST_BYTES; ++i)
        {
            request[i] = uint8_t(uint64_t(m_sampleBytes) >> (8 * i));
        }
        if (m_socket->Send(Create<Packet>(request, StorageServerApp::REQUEST_BYTES)) <= 0)
        {
            NS_LOG_LOGIC("request not sent (not connected yet), " << m_remoteQueued
                                                                  << " remote samples queued");
            return; // not connected yet: OnConnected asks again
        }
        ++m_remoteRequested;
        --m_remoteQueued;
        NS_LOG_LOGIC("requested a sample of " << m_sampleBytes << " bytes, "
                                              << m_remoteRequested - m_remoteConsumed
                                              << " outstanding (window " << m_window << ")");
    }
}

void
StorageClientApp::OnRead(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    while (Ptr<Packet> packet = socket->Recv())
    {
        m_bytesReceived += packet->GetSize();
        NS_LOG_LOGIC("received " << packet->GetSize() << " bytes, " << m_bytesReceived
                                 << " in total");
    }
    TryConsume();
}

bool
StorageClientApp::NextAvailable() const
{
    NS_LOG_FUNCTION(this);
    if (!m_remote.front())
    {
        return true;
    }
    return (m_remoteConsumed + 1) * uint64_t(m_sampleBytes) <= m_bytesReceived;
}

void
StorageClientApp::TryConsume()
{
    NS_LOG_FUNCTION(this);
    if (m_busy || m_order.empty() || !NextAvailable())
    {
        NS_LOG_LOGIC((m_busy ? "GPU busy" : "waiting for data")
                     << ", " << m_bytesReceived << " bytes received");
        return; // the GPU is busy, or it waits for data (OnRead calls again)
    }
    bool remote = m_remote.front();
    NS_LOG_LOGIC("consuming sample " << m_order.front() << (remote ? " (remote)" : " (cached)")
                                     << ", " << m_consumed + 1 << " consumed");
    m_order.pop_front();
    m_remote.pop_front();
    if (m_order.size() < m_datasetSamples)
    {
        NextEpoch();
    }
    ++m_consumed;
    m_consumeTimes.push_back(Simulator::Now().GetSeconds());
    if (remote)
    {
        ++m_remoteConsumed;
        RequestMore();
    }
    m_busy = true;
    m_consumeEvent = Simulator::Schedule(Seconds(1.0 / m_computeRate), [this]() {
        m_busy = false;
        TryConsume();
    });
}

} // namespace ns3
