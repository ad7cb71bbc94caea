/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_SERVER_APP_H
#define AICLUSTER_STORAGE_SERVER_APP_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Packet-level remote storage server: answers each read request with the bytes asked.
 *
 * Requests arrive on TCP connections as 8-byte little-endian byte counts; the
 * server streams that many payload bytes back on the same connection, in
 * request order. Its access link is the storage cluster's bandwidth.
 */
class StorageServerApp : public Application
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageServerApp();
    ~StorageServerApp() override;

    /** \return payload bytes sent so far */
    uint64_t BytesServed() const;

    /** Bytes of one read request: the byte count asked, little-endian. */
    static constexpr uint32_t REQUEST_BYTES = 8;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void OnAccept(Ptr<Socket> socket, const Address& from);
    void OnRead(Ptr<Socket> socket);
    void OnSendSpace(Ptr<Socket> socket, uint32_t available);
    void Pump(Ptr<Socket> socket);

    uint16_t m_port;
    Ptr<Socket> m_listener;

    struct Connection
    {
        std::vector<uint8_t> partial; //!< bytes of an incomplete request
        uint64_t owed{0};             //!< payload bytes still to send
    };

    std::map<Ptr<Socket>, Connection> m_connections;
    uint64_t m_served{0};
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_SERVER_APP_H
