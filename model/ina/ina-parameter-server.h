/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_PARAMETER_SERVER_H
#define AICLUSTER_INA_PARAMETER_SERVER_H

#include "ina-allocation-policy.h"
#include "ina-header.h"

#include "ns3/application.h"
#include "ns3/net-device.h"

#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief A job's parameter server: aggregates in software whatever the switch could not
 *        (collisions, evictions, resends, overflow) and returns results to every worker.
 *
 * Per chunk it merges switch aggregates with individual worker contributions
 * (kept separately, so one already inside an aggregate is never counted
 * twice). Merged aggregates have disjoint worker sets: one that adds no new
 * worker is the same allocation emitted twice (complete, then flushed) or a
 * part of one merged (a ToR's partial inside the spine's aggregate), and is
 * dropped; one that contains merged aggregates (the spine's, arriving after
 * a ToR's flush of its own partial) replaces them; one that straddles a merged
 * aggregate is dropped, and the workers' resends cover its workers. When every worker is
 * covered it multicasts the result through the switch, which frees the
 * aggregator as the result passes (ATP). An int32 result unless a worker sent
 * the chunk as float (overflow): then a float32 result. If a worker packet of
 * the chunk had collided, the result carries a re-hashed index for the slot
 * (ATP's PS re-hashing away from contended aggregators). Results of the last
 * two iterations are kept to answer resends from workers that lost them.
 */
class InaParameterServer : public Application
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    InaParameterServer();
    ~InaParameterServer() override;

    /** \param policy the allocation policy \param slots the job's layout on the pool */
    void SetPolicy(Ptr<InaAllocationPolicy> policy, const InaJobSlots& slots);
    /** \param device the device towards the switch */
    void SetDevice(Ptr<NetDevice> device);

    /** \return packets received */
    uint64_t GetPacketsReceived() const;
    /** \return bytes received */
    uint64_t GetBytesReceived() const;
    /**
     * \return bytes received besides complete in-switch aggregates (the normal result path
     *         of ATP and ESA): collided, evicted, flushed, resent and overflow packets
     */
    uint64_t GetFallbackBytesReceived() const;
    /** \return packets counted in GetFallbackBytesReceived */
    uint64_t GetFallbackPacketsReceived() const;
    /** \return chunks this PS completed */
    uint64_t GetChunksCompleted() const;
    /** \return chunks that needed the PS (not a single complete switch aggregate) */
    uint64_t GetFallbackChunks() const;
    /** \return evicted partial aggregates received */
    uint64_t GetEvictedReceived() const;
    /** \return collided slots given a new index from the free list */
    uint64_t GetRehashes() const;

  protected:
    void DoDispose() override;

  private:
    struct Aggregate
    {
        uint32_t bits{0};            //!< workers inside
        std::vector<int32_t> values; //!< their int32 sums
    };

    struct Chunk
    {
        bool started{false};
        bool done{false};
        bool collided{false};
        bool fallback{false};
        bool isFloat{false};
        bool ecn{false}; //!< a packet of the chunk carried ECN: the result echoes it
        uint32_t index{0};
        uint32_t remap{0};
        uint32_t aggBits{0};
        uint32_t indivBits{0};
        uint32_t floatBits{0};
        std::vector<Aggregate> aggs; //!< merged switch aggregates (disjoint worker sets)
        std::map<uint32_t, std::vector<int32_t>> indiv; //!< worker -> its values
        std::vector<int32_t> result;
    };

    void StartApplication() override;
    void StopApplication() override;
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type);
    void Merge(Chunk& c, const InaHeader& h);
    void Complete(uint32_t seq, Chunk& c);
    void SendResult(uint32_t seq, const Chunk& c, uint16_t dst);
    void Prune(uint32_t seq);

    uint16_t m_job;
    uint16_t m_addr;
    uint32_t m_fanIn;
    uint32_t m_valuesPerPacket;
    double m_scale;
    uint32_t m_overhead;
    uint64_t m_chunksPerIteration;

    Ptr<InaAllocationPolicy> m_policy;
    InaJobSlots m_slots;
    Ptr<NetDevice> m_device;
    std::map<uint32_t, Chunk> m_chunks;
    /**
     * \brief ATP's PS re-hash (HashNew_predefine): the next index of a seeded shuffle of the
     *        pool that this job has not used yet.
     * \return the index, or the pool size when every index is used
     */
    uint32_t NextFreeIndex();

    std::vector<bool> m_declared;                  //!< indices this job uses (ATP's PS)
    std::unordered_map<uint32_t, uint32_t> m_perm; //!< lazy Fisher-Yates shuffle of the pool
    uint32_t m_freePos{0};                         //!< draws from the shuffle so far
    std::map<uint32_t, uint32_t> m_nextIndex;      //!< collided index -> its re-hash
    uint64_t m_rehashes{0};                        //!< collided slots moved to a new index
    uint32_t m_pad{0};
    uint32_t m_pruned{0}; //!< sequences below this are forgotten

    uint64_t m_rxPackets{0};
    uint64_t m_rxBytes{0};
    uint64_t m_fallbackBytes{0};   //!< bytes of fallback packets received
    uint64_t m_fallbackPackets{0}; //!< fallback packets received
    uint64_t m_completed{0};
    uint64_t m_fallbackChunks{0};
    uint64_t m_evicted{0};
};

} // namespace ns3

#endif // AICLUSTER_INA_PARAMETER_SERVER_H
