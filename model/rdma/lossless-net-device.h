/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_LOSSLESS_NET_DEVICE_H
#define AICLUSTER_LOSSLESS_NET_DEVICE_H

#include "lossless-channel.h"
#include "rdma-header.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <functional>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief A lossless link end: per-priority egress queues, priority flow control (PFC) on
 * ingress, ECN marking on egress, a DataRate and a channel delay.
 *
 * The same device models Ethernet ports of NICs and switches, PCIe links and the memory
 * interface. Nothing is dropped for lack of buffer: an ingress queue above its XOFF
 * threshold pauses the upstream sender of that priority, and resumes it below XON. Packets
 * are forwarded by whatever owns the device (a switch or an endpoint) through the receive
 * handler. Each packet costs two events per hop: transmit-complete and receive.
 */
class LosslessNetDevice : public NetDevice
{
  public:
    static constexpr uint32_t kPriorities = 8;     //!< traffic classes
    static constexpr uint32_t kPfcFrameBytes = 64; //!< size of a PFC frame

    /** Called for every non-PFC packet received. */
    using ReceiveHandler =
        std::function<void(LosslessNetDevice* in, Ptr<Packet> p, const RdmaHeader& h)>;
    /**
     * Called when the device may send and its queues are empty: return a packet of a
     * priority not in pausedMask (and set *prio), or null.
     */
    using PullSource = std::function<Ptr<Packet>(uint8_t pausedMask, uint8_t* prio)>;

    /** Signature of the PfcTx trace: priority, true for PAUSE and false for RESUME. */
    typedef void (*PfcTracedCallback)(uint8_t prio, bool pause);

    /** \return the TypeId */
    static TypeId GetTypeId();
    LosslessNetDevice();
    ~LosslessNetDevice() override;

    /** \param ch channel to attach to */
    void Attach(Ptr<LosslessChannel> ch);
    /** \param handler receive handler */
    void SetReceiveHandler(ReceiveHandler handler);
    /** \param source pull source (endpoints) */
    void SetPullSource(PullSource source);
    /** \param rate line rate */
    void SetDataRate(DataRate rate);

    /** \return line rate */
    DataRate GetDataRate() const
    {
        return m_rate;
    }

    /** \param bytes XOFF threshold of ingress queues, bytes */
    void SetPfcXoff(uint64_t bytes);
    /** \param enabled whether to mark ECN on egress */
    void SetEcnEnabled(bool enabled);
    /** \param em error model applied to received packets (tests of loss recovery) */
    void SetReceiveErrorModel(Ptr<ErrorModel> em);

    /**
     * Queue a packet for transmission.
     * \param p packet (starts with an RdmaHeader equal to h)
     * \param h its header
     * \param ingress device it arrived on (its PFC accounting holds the bytes), or null
     */
    void Enqueue(Ptr<Packet> p, const RdmaHeader& h, LosslessNetDevice* ingress);
    /** Start a transmission if idle and something may be sent. */
    void TryTransmit();
    /** \param p packet whose last bit arrived from the channel */
    void Receive(Ptr<Packet> p);

    /** \return PFC headroom above XOFF: 2 x (rate x delay) + 2 max frames + a PFC frame */
    uint64_t GetPfcHeadroom() const;

    /** \return bytes transmitted (all packets) */
    uint64_t GetTxBytes() const
    {
        return m_txBytes;
    }

    /** \return payload bytes of DATA packets transmitted */
    uint64_t GetTxPayloadBytes() const
    {
        return m_txPayload;
    }

    /** \return PAUSE frames this device sent (it was congested on ingress) */
    uint64_t GetPausesSent() const
    {
        return m_pausesSent;
    }

    /** \return PAUSE frames this device received (it was paused) */
    uint64_t GetPausesReceived() const
    {
        return m_pausesReceived;
    }

    /** \return total time any data priority of this device was paused */
    Time GetPausedTime() const;

    /** \return largest ingress occupancy of any priority, bytes */
    uint64_t GetMaxIngressBytes() const
    {
        return m_maxIngress;
    }

    /** \return times ingress occupancy exceeded XOFF + headroom (must stay 0) */
    uint64_t GetHeadroomViolations() const
    {
        return m_headroomViolations;
    }

    /** \return largest egress queue, bytes */
    uint64_t GetMaxQueueBytes() const
    {
        return m_maxQueue;
    }

    /** \return packets marked CE here */
    uint64_t GetEcnMarks() const
    {
        return m_ecnMarks;
    }

    /** \return packets dropped by the receive error model */
    uint64_t GetErrorDrops() const
    {
        return m_errorDrops;
    }

    /** \return current egress queue bytes of all priorities */
    uint64_t GetQueueBytes() const;

    /** \return the peer device */
    LosslessNetDevice* GetPeer() const
    {
        return m_peer;
    }

    /** \param stream first stream index \return streams used */
    int64_t AssignStreams(int64_t stream);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /** A queued packet */
    struct Item
    {
        Ptr<Packet> packet;         //!< the packet
        LosslessNetDevice* ingress; //!< where its bytes are accounted, or null
        uint32_t size;              //!< bytes
    };

    void StartTransmission(Ptr<Packet> p);
    void TransmitComplete();
    void IngressAdd(uint8_t prio, uint32_t bytes);
    void IngressRelease(uint8_t prio, uint32_t bytes);
    void SendPfc(uint8_t prio, bool pause);
    void HandlePfc(const RdmaHeader& h);
    bool MarkEcn(uint8_t prio);

    Ptr<Node> m_node;
    Ptr<LosslessChannel> m_channel;
    LosslessNetDevice* m_peer{nullptr};
    uint32_t m_ifIndex{0};
    Mac48Address m_address;
    uint16_t m_mtu{4158};
    DataRate m_rate;
    bool m_pfcEnabled{true};
    uint64_t m_xoff{262144};
    uint64_t m_xonOffset{4096};
    bool m_ecnEnabled{false};
    uint64_t m_kmin{800000};
    uint64_t m_kmax{3200000};
    double m_pmax{0.2};
    Ptr<UniformRandomVariable> m_uniform;
    Ptr<ErrorModel> m_errorModel;
    ReceiveHandler m_handler;
    PullSource m_pull;

    bool m_busy{false};
    double m_txCarryNs{0}; //!< fraction of a nanosecond owed by the last transmission
    std::array<std::deque<Item>, kPriorities> m_queues;
    std::array<uint64_t, kPriorities> m_queueBytes{};
    std::array<uint64_t, kPriorities> m_ingressBytes{};
    std::array<bool, kPriorities> m_pauseSent{};   //!< we paused our peer for this priority
    std::deque<std::pair<uint8_t, bool>> m_pfcOut; //!< PFC frames waiting to be sent
    uint8_t m_pausedMask{0};                       //!< priorities our peer paused
    std::array<Time, kPriorities> m_pausedSince;
    std::array<Time, kPriorities> m_pausedTotal;

    uint64_t m_txBytes{0};
    uint64_t m_txPayload{0};
    uint64_t m_pausesSent{0};
    uint64_t m_pausesReceived{0};
    uint64_t m_maxIngress{0};
    uint64_t m_headroomViolations{0};
    uint64_t m_maxQueue{0};
    uint64_t m_ecnMarks{0};
    uint64_t m_errorDrops{0};

    TracedCallback<Ptr<const Packet>> m_macTxTrace;     //!< packet starts transmission
    TracedCallback<Ptr<const Packet>> m_macRxTrace;     //!< packet received
    TracedCallback<uint8_t, bool> m_pfcTxTrace;         //!< PFC frame sent (prio, pause)
    TracedCallback<Ptr<const Packet>> m_errorDropTrace; //!< dropped by the error model
};

} // namespace ns3

#endif // AICLUSTER_LOSSLESS_NET_DEVICE_H
