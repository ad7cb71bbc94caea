/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-server-app.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StorageServerApp");
NS_OBJECT_ENSURE_REGISTERED(StorageServerApp);

namespace
{
constexpr uint32_t kChunk = 65536; //!< most payload handed to TCP per Send
} // namespace

TypeId
StorageServerApp::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StorageServerApp")
                            .SetParent<Application>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<StorageServerApp>()
                            .AddAttribute("Port",
                                          "TCP port it listens on.",
                                          UintegerValue(9100),
                                          MakeUintegerAccessor(&StorageServerApp::m_port),
                                          MakeUintegerChecker<uint16_t>());
    return tid;
}

StorageServerApp::StorageServerApp()
    : m_port(9100)
{
    NS_LOG_FUNCTION(this);
}

StorageServerApp::~StorageServerApp()
{
    NS_LOG_FUNCTION(this);
}

void
StorageServerApp::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_listener = nullptr;
    m_connections.clear();
    Application::DoDispose();
}

uint64_t
StorageServerApp::BytesServed() const
{
    NS_LOG_FUNCTION(this);
    return m_served;
}

void
StorageServerApp::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&StorageServerApp::OnAccept, this));
}

void
StorageServerApp::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& [socket, connection] : m_connections)
    {
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
StorageServerApp::OnAccept(Ptr<Socket> socket, const Address& /* from */)
{
    NS_LOG_FUNCTION(this << socket);
    m_connections[socket] = Connection();
    socket->SetRecvCallback(MakeCallback(&StorageServerApp::OnRead, this));
    socket->SetSendCallback(MakeCallback(&StorageServerApp::OnSendSpace, this));
}

void
StorageServerApp::OnRead(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Connection& c = m_connections[socket];
    while (Ptr<Packet> packet = socket->Recv())
    {
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        c.partial.insert(c.partial.end(), bytes.begin(), bytes.end());
        size_t used = 0;
        while (c.partial.size() - used >= REQUEST_BYTES)
        {
            uint64_t count = 0;
            for (uint32_t i = 0; i < REQUEST_BYTES; ++i)
            {
                count |= uint64_t(c.partial[used + i]) << (8 * i);
            }
            c.owed += count;
            used += REQUEST_BYTES;
            NS_LOG_LOGIC("request for " << count << " bytes on " << socket << ", " << c.owed
                                        << " bytes owed");
        }
        c.partial.erase(c.partial.begin(), c.partial.begin() + used);
    }
    Pump(socket);
}

void
StorageServerApp::OnSendSpace(Ptr<Socket> socket, uint32_t /* available */)
{
    NS_LOG_FUNCTION(this << socket);
    Pump(socket);
}

void
StorageServerApp::Pump(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Connection& c = m_connections[socket];
    while (c.owed > 0)
    {
        uint32_t room = socket->GetTxAvailable();
        uint32_t n = uint32_t(std::min<uint64_t>({c.owed, room, kChunk}));
        if (n == 0)
        {
            NS_LOG_LOGIC("send buffer full on " << socket << ", " << c.owed << " bytes owed");
            return; // resumes from the send callback
        }
        int sent = socket->Send(Create<Packet>(n));
        if (sent <= 0)
        {
            NS_LOG_LOGIC("send of " << n << " bytes refused on " << socket << " (" << sent << ")");
            return;
        }
        NS_LOG_LOGIC("response: sent " << sent << " bytes on " << socket << ", " << c.owed - sent
                                       << " bytes still owed");
        c.owed -= sent;
        m_served += sent;
    }
}

} // namespace ns3
