/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RDMA_ENDPOINT_H
#define AICLUSTER_RDMA_ENDPOINT_H

#include "lossless-net-device.h"
#include "rdma-header.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief What a queue pair needs to send one message.
 */
struct RdmaSendSpec
{
    uint32_t qp{0};           //!< queue pair (flow) id, unique in the fabric
    uint32_t dst{0};          //!< destination endpoint vertex
    uint32_t srcNic{0};       //!< source NIC vertex
    uint32_t dstNic{0};       //!< destination NIC vertex
    uint64_t bytes{0};        //!< message length
    double lineRate{0};       //!< bytes/s the QP may send at most (DCQCN line rate)
    bool readResponse{false}; //!< data answers a READ request
};

/**
 * \ingroup aicluster
 * \brief RDMA queue pairs at one memory endpoint (GPU memory or host memory).
 *
 * Reliable connection semantics for bulk data: a message is cut into MTU-sized packets,
 * the receiver acknowledges cumulatively (every AckInterval packets) and NACKs the first
 * gap, the sender goes back to the NACKed (or, on timeout, the oldest unacknowledged)
 * packet: go-back-N. Rate control is DCQCN in the Mellanox variant HPCC's simulator
 * implements (alpha update, rate decrease at most once per interval, fast recovery /
 * additive / hyper increase stages); a CE-marked packet is echoed as ECE on the ACK,
 * which acts as the CNP. Packets are pulled by the device when it may send, so a PFC
 * pause of the endpoint's link stops the QPs without any loss.
 */
class RdmaEndpoint : public Object
{
  public:
    /** Hook: (qp, bytes of the message) when the last byte arrives in order here. */
    using DeliveredHook = std::function<void(uint32_t qp, uint64_t bytes)>;
    /** Hook: (qp) when the sender saw the last byte acknowledged. */
    using AckedHook = std::function<void(uint32_t qp)>;

    /** Signature of the Rate trace: queue pair, new rate in bytes/s. */
    typedef void (*RateTracedCallback)(uint32_t qp, double rate);

    /** \return the TypeId */
    static TypeId GetTypeId();
    RdmaEndpoint();

    /**
     * \param vertex this endpoint's vertex id (its address)
     * \param device its link into the node
     */
    void Setup(uint32_t vertex, Ptr<LosslessNetDevice> device);
    /** \param delivered hook for completed receptions \param acked hook for acked sends */
    void SetHooks(DeliveredHook delivered, AckedHook acked);

    /** \param spec message to send (RDMA WRITE or READ response) */
    void StartSend(const RdmaSendSpec& spec);
    /**
     * Issue an RDMA READ: ask `spec.dst` to send `spec.bytes` to us on queue pair spec.qp.
     * The data arrives through the delivered hook.
     * \param spec qp, remote endpoint (dst), our NIC (srcNic), its NIC (dstNic), bytes
     */
    void StartRead(const RdmaSendSpec& spec);
    /** \param lineRate bytes/s of READ responses, given (requester, our NIC) */
    void SetReadResponseRate(std::function<double(uint32_t, uint32_t)> lineRate);

    /** \return the device */
    Ptr<LosslessNetDevice> GetDevice() const
    {
        return m_device;
    }

    /** \return data packets sent again after a NACK or timeout */
    uint64_t GetRetransmittedPackets() const
    {
        return m_retransmitted;
    }

    /** \return payload bytes delivered in order to this endpoint */
    uint64_t GetDeliveredBytes() const
    {
        return m_deliveredBytes;
    }

    /** \return ECE-carrying ACK/NACKs received (congestion notifications) */
    uint64_t GetCnpsReceived() const
    {
        return m_cnps;
    }

    /** \return number of DCQCN rate decreases */
    uint64_t GetRateDecreases() const
    {
        return m_rateDecreases;
    }

    /** \return number of DCQCN rate-increase events (timer and byte counter) */
    uint64_t GetRateIncreases() const
    {
        return m_rateIncreases;
    }

    /** \param qp queue pair \return its current DCQCN rate (bytes/s), 0 if not sending */
    double GetQpRate(uint32_t qp) const;

  protected:
    void DoDispose() override;

  private:
    /** Sender side of a queue pair */
    struct SendQp
    {
        RdmaSendSpec spec;
        uint32_t packets{0};     //!< packets in the message
        uint32_t sndNxt{0};      //!< next psn to send
        uint32_t sndUna{0};      //!< oldest unacknowledged psn
        uint32_t highestSent{0}; //!< one past the highest psn ever sent
        Time nextAvail;          //!< pacing: earliest time of the next packet
        Time lastProgress;       //!< last time sndUna advanced (or start)
        EventId rtoEvent;        //!< retransmission timer
        // DCQCN reaction point
        double rate{0};              //!< current rate Rc, bytes/s
        double target{0};            //!< target rate Rt, bytes/s
        double alpha{1};             //!< congestion estimate
        bool cnpSeen{false};         //!< a CNP arrived at least once
        Time cnpEpoch;               //!< first CNP: origin of the alpha and decrease clocks
        int64_t alphaWindow{0};      //!< index of the current alpha window
        bool cnpInWindow{false};     //!< a CNP arrived in the current alpha window
        bool decreasePending{false}; //!< a CNP arrived since the last decrease check
        EventId decreaseEvent;       //!< next decrease check
        EventId increaseEvent;       //!< rate-increase timer
        uint32_t timeStage{0};       //!< timer expiries since the last rate cut (T)
        uint32_t byteStage{0};       //!< byte-counter expiries since the last rate cut (BC)
        double bytesSinceEvent{0};   //!< wire bytes sent since the byte counter last expired
        bool limited{false};         //!< below line rate: the increase machinery runs
    };

    /** Receiver side of a queue pair */
    struct RecvQp
    {
        uint32_t expected{0};  //!< next in-order psn
        uint64_t bytes{0};     //!< bytes delivered in order
        uint64_t length{0};    //!< message length
        bool nackSent{false};  //!< a NACK for `expected` is outstanding
        bool cePending{false}; //!< a CE mark waits for the next ACK
        bool done{false};      //!< whole message delivered
        Time lastCnp{-1};      //!< when an ECE was last echoed (CNP pacing); < 0: never
    };

    /** A READ we issued and wait for */
    struct PendingRead
    {
        RdmaSendSpec spec;
        EventId timer;
        bool dataSeen{false};
    };

    Ptr<Packet> Pull(uint8_t pausedMask, uint8_t* prio);
    void ScheduleWake(Time at);
    void Wake();
    void Receive(LosslessNetDevice* in, Ptr<Packet> p, const RdmaHeader& h);
    void ReceiveData(const RdmaHeader& h);
    void ReceiveAck(const RdmaHeader& h);
    void ReceiveReadRequest(const RdmaHeader& h);
    void SendControl(uint8_t type,
                     uint32_t qp,
                     uint32_t psn,
                     uint32_t to,
                     uint32_t toNic,
                     uint32_t fromNic,
                     bool ece,
                     uint64_t length);
    void CheckRto(uint32_t qp);
    void ReadTimeout(uint32_t qp);
    void FinishSend(uint32_t qp);

    // DCQCN
    void OnCongestionNotification(SendQp& q);
    void AdvanceAlpha(SendQp& q);
    void DecreaseCheck(uint32_t qp);
    void IncreaseTimer(uint32_t qp);
    void RateIncrease(SendQp& q);
    bool EchoCe(RecvQp& r);
    double WireBytes(uint32_t payload) const;

    uint32_t m_vertex{0};
    Ptr<LosslessNetDevice> m_device;
    DeliveredHook m_deliveredHook;
    AckedHook m_ackedHook;
    std::function<double(uint32_t, uint32_t)> m_readRate;

    std::unordered_map<uint32_t, std::unique_ptr<SendQp>> m_send;
    std::vector<SendQp*> m_active; //!< qps not yet fully acknowledged, round robin
    uint32_t m_rr{0};
    std::unordered_map<uint32_t, RecvQp> m_recv;
    std::unordered_map<uint32_t, PendingRead> m_reads;
    std::unordered_set<uint32_t> m_readsServed;
    EventId m_wake;

    // attributes
    uint32_t m_mtu{1000};
    uint32_t m_ackInterval{1};
    Time m_rto;
    uint8_t m_dataPriority{3};
    uint8_t m_ackPriority{0};
    bool m_dcqcn{true};
    DataRate m_rai;
    DataRate m_rhai;
    DataRate m_minRate;
    double m_g{1.0 / 256};
    Time m_alphaInterval;
    Time m_decreaseInterval;
    Time m_increaseInterval;
    uint32_t m_fastRecoveryTimes{1};
    uint64_t m_byteCounter{32767};
    Time m_cnpInterval;
    bool m_hyperIncreaseScaled{true};
    double m_rateOnFirstCnp{1.0};
    bool m_clampTargetRate{false};

    // statistics
    uint64_t m_retransmitted{0};
    uint64_t m_deliveredBytes{0};
    uint64_t m_cnps{0};
    uint64_t m_rateDecreases{0};
    uint64_t m_rateIncreases{0};
    TracedCallback<uint32_t, double> m_rateTrace; //!< (qp, new rate bytes/s)
};

} // namespace ns3

#endif // AICLUSTER_RDMA_ENDPOINT_H
