/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_CLIENT_APP_H
#define AICLUSTER_STORAGE_CLIENT_APP_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Packet-level training job's data loader: reads a shuffled dataset through a cache.
 *
 * Every epoch visits the dataset's samples in a fresh random order. Samples
 * with id < CachedSamples are in the compute-side cache (uniform never-evict
 * cache of fraction CachedSamples / DatasetSamples) and are available at
 * once; the others are read from the StorageServerApp over TCP, with up to
 * Window requests in flight. The GPU consumes samples in order, one every
 * 1 / ComputeRate seconds when the next one is there (data loading overlaps
 * compute), so the job's throughput is the rate model's min(T, b / (1 - c/d)).
 */
class StorageClientApp : public Application
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    StorageClientApp();
    ~StorageClientApp() override;

    /** \param server the server's address and port */
    void SetServer(const Address& server);

    /** \return samples consumed so far */
    uint64_t SamplesConsumed() const;
    /** \return samples consumed at or before time t [s] (t within the run) */
    uint64_t SamplesConsumedBy(double t) const;
    /** \return payload bytes received from the server */
    uint64_t BytesReceived() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void OnConnected(Ptr<Socket> socket);
    void OnRead(Ptr<Socket> socket);
    void NextEpoch();
    void RequestMore();
    void TryConsume();
    bool NextAvailable() const;

    Address m_server;
    uint32_t m_datasetSamples;
    uint32_t m_cachedSamples;
    uint32_t m_sampleBytes;
    double m_computeRate;
    uint32_t m_window;
    uint32_t m_seed;

    Ptr<Socket> m_socket;
    std::mt19937_64 m_rng;
    std::deque<uint32_t> m_order;  //!< samples still to consume, in order (this and next epoch)
    std::deque<bool> m_remote;     //!< whether each of m_order is read remotely
    uint64_t m_remoteRequested{0}; //!< remote samples requested (counted from the start)
    uint64_t m_remoteConsumed{0};  //!< remote samples consumed
    uint64_t m_remoteQueued{0};    //!< remote samples in m_order not yet requested
    uint64_t m_bytesReceived{0};
    uint64_t m_consumed{0};
    double m_lastConsume{-1};
    bool m_busy{false};
    EventId m_consumeEvent;
    std::vector<double> m_consumeTimes; //!< time of every 64th consumption
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_CLIENT_APP_H
