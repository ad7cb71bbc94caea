/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_WORKER_H
#define AICLUSTER_INA_WORKER_H

#include "ina-allocation-policy.h"
#include "ina-header.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The gradients workers synchronise: deterministic, seeded, real float values.
 */
struct InaGradient
{
    /**
     * \param seed run seed \param job job \param worker worker rank \param iteration iteration
     * \param element element index \param amplitude values are uniform in [-amplitude, amplitude]
     * \param outlierProbability chance an element is an outlier
     * \param outlierMagnitude magnitude of an outlier (sign random)
     * \return the float gradient element (as a double holding a float32 value)
     */
    static double Value(uint64_t seed,
                        uint16_t job,
                        uint32_t worker,
                        uint32_t iteration,
                        uint64_t element,
                        double amplitude,
                        double outlierProbability,
                        double outlierMagnitude);
};

/**
 * \ingroup aicluster
 * \brief A data-parallel worker: quantizes its float gradients to int32 with a scale factor,
 *        streams them in chunks with a window of outstanding packets, and waits for the sums.
 *
 * Each iteration: ComputeTime of compute, then GradientValues floats split in
 * chunks of ValuesPerPacket, chunk seq = iteration * chunks + chunk. At most
 * Window chunks beyond the oldest unacknowledged one are out (ATP's sliding
 * window; with SwitchML this is the self-clocked slot reuse). A chunk whose
 * quantized values could overflow the int32 sum (|q| > INT32_MAX / fanIn) is
 * sent as float32 with FLAG_OVERFLOW and summed by the PS. Loss recovery as
 * in ATP: when no result arrived for Timeout (FirstTimeout before the first
 * result of an iteration), every unacknowledged chunk of the window is resent.
 */
class InaWorker : public Application
{
  public:
    /**
     * Signature of the IterationDone trace source.
     * \param job the job
     * \param rank the worker's rank in the job
     * \param iteration the iteration whose sync finished (0-based)
     */
    typedef void (*IterationCallback)(uint16_t job, uint32_t rank, uint32_t iteration);

    /** How lost packets are recovered. */
    enum Retransmit
    {
        WINDOW, //!< ATP: after Timeout without any result, resend every unacknowledged chunk
        SLOT,   //!< SwitchML: a timer per window slot resends that slot's chunk only
    };

    /** \return the TypeId */
    static TypeId GetTypeId();
    InaWorker();
    ~InaWorker() override;

    /**
     * \param policy the allocation policy \param slots the job's layout on the pool
     */
    void SetPolicy(Ptr<InaAllocationPolicy> policy, const InaJobSlots& slots);

    /** \param device the device towards the switch */
    void SetDevice(Ptr<NetDevice> device);

    /**
     * \param stream random stream for IterationJitter
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /** \return iterations finished */
    uint32_t GetIterationsDone() const;
    /** \return time the last iteration finished (-1 s before) */
    Time GetFinishTime() const;
    /** \return time the first iteration started */
    Time GetStartTime() const;
    /** \return values checked against the exact sum (Verify) */
    uint64_t GetValuesChecked() const;
    /** \return values whose error exceeded the quantization bound (Verify) */
    uint64_t GetValuesWrong() const;
    /** \return largest |error| / bound seen (Verify) */
    double GetMaxErrorRatio() const;
    /** \return chunks sent for the first time */
    uint64_t GetChunksSent() const;
    /** \return chunks resent after timeouts */
    uint64_t GetResends() const;
    /** \return results that completed at the PS rather than the switch */
    uint64_t GetFallbackResults() const;
    /** \return chunks sent as float because int32 could overflow */
    uint64_t GetOverflowChunks() const;
    /** \return per-iteration finish times */
    const std::vector<Time>& GetIterationEnds() const;
    /** \return window adjustments that halved the window on an ECN-marked result */
    uint64_t GetEcnDecreases() const;
    /** \return window adjustments so far (CongestionControl) */
    uint64_t GetWindowAdjustments() const;

    /**
     * \brief ATP's CC_manager::adjustWindow: halve the congestion window on ECN, else add
     *        increaseBytes; at least one packet, at most maxPackets; whole packets.
     * \param cwndBytes the congestion window [bytes], updated
     * \param ecn the result that closes the window carried ECN
     * \param packetBytes bytes of one packet (ATP's P4ML_PACKET_SIZE)
     * \param increaseBytes additive increase [bytes] (ATP 1500)
     * \param maxPackets cap [packets] (ATP 100)
     * \return the new window [packets]
     */
    static uint32_t AdjustCongestionWindow(uint64_t& cwndBytes,
                                           bool ecn,
                                           uint32_t packetBytes,
                                           uint32_t increaseBytes,
                                           uint32_t maxPackets);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void StartIteration();
    void SendMore();
    void SendChunk(uint32_t chunk, bool resend);
    uint32_t IndexOf(uint32_t seq) const;
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);
    void Check(const InaHeader& h, uint32_t chunk);
    void OnTimer();
    /** \param seq the chunk a slot timer guards: resend it if it is still unacknowledged */
    void OnSlotTimer(uint32_t seq);
    /** \param p a packet to hand to the NIC now */
    void Transmit(Ptr<Packet> p);
    /** \brief Remove every pending slot timer. */
    void ClearSlotTimers();
    double Gradient(uint32_t worker, uint64_t element) const;
    Time ComputePhase();

    // attributes
    uint16_t m_job;
    uint32_t m_rank;
    uint32_t m_fanIn;
    uint16_t m_addr;
    uint16_t m_psAddr;
    uint64_t m_values;
    uint32_t m_iterations;
    Time m_computeTime;
    Time m_jitter;
    Ptr<UniformRandomVariable> m_jitterRng;
    uint32_t m_valuesPerPacket;
    uint32_t m_window;
    bool m_cc;                  //!< CongestionControl
    uint32_t m_ccMaxWindow;     //!< CcMaxWindow [chunks]
    uint32_t m_ccIncrease;      //!< CcIncrease [bytes]
    uint64_t m_cwndBytes{0};    //!< ATP's cwnd_bytes
    uint32_t m_ccWindow{0};     //!< congestion window [chunks]
    uint32_t m_finishWindow{0}; //!< chunk whose result adjusts the window next
    uint64_t m_ecnDecreases{0};
    uint64_t m_adjustments{0};
    Time m_timeout;
    Time m_firstTimeout;
    double m_scale;
    uint64_t m_seed;
    double m_amplitude;
    double m_outlierProb;
    double m_outlierMag;
    uint32_t m_overhead;
    uint32_t m_staticPriority;
    bool m_verify;

    Ptr<InaAllocationPolicy> m_policy;
    InaJobSlots m_slots;
    Ptr<NetDevice> m_device;

    // state
    uint32_t m_chunks{0}; //!< chunks per iteration
    uint32_t m_iter{0};   //!< current iteration
    std::vector<uint8_t> m_acked;
    uint32_t m_lastAck{0}; //!< first unacknowledged chunk of the iteration
    uint32_t m_next{0};    //!< next chunk to send for the first time
    bool m_inSync{false};
    bool m_gotResult{false};
    Time m_lastRx;
    EventId m_timer;
    Retransmit m_retransmit{WINDOW};   //!< Retransmit
    Time m_packetJitter;               //!< PacketJitter (mean)
    Time m_hostReady;                  //!< when the host hands its last packet to the NIC
    uint64_t m_packetsOut{0};          //!< packets sent (the jitter draws' counter)
    std::vector<EventId> m_slotTimers; //!< SLOT: per window slot
    EventId m_computeEvent;
    std::vector<uint32_t> m_remap; //!< per window slot: index after PS re-hash (or ~0)
    InaJobProgress m_progress;
    uint32_t m_pad{0};

    // results
    Time m_start;
    Time m_finish{Seconds(-1)};
    std::vector<Time> m_iterationEnds;
    uint64_t m_checked{0};
    uint64_t m_wrong{0};
    double m_maxErrRatio{0};
    uint64_t m_sent{0};
    uint64_t m_resends{0};
    uint64_t m_fallbacks{0};
    uint64_t m_overflows{0};

    TracedCallback<uint16_t, uint32_t, uint32_t> m_iterationTrace;
};

} // namespace ns3

#endif // AICLUSTER_INA_WORKER_H
