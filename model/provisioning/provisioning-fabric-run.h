/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROVISIONING_FABRIC_RUN_H
#define AICLUSTER_PROVISIONING_FABRIC_RUN_H

#include "provisioning-model.h"

#include "ns3/nstime.h"
#include "ns3/rdma-fabric.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief A loader realized as events: chunks of samples through FIFO servers (storage, storage
 * clients, CPUs, DRAM, GPU consumption) and real transfers on an RdmaFabric (packets through
 * PCIe, host-memory port and rails on RdmaPacketFabric, or fluid flows on RdmaRateFabric).
 *
 * Every GPU keeps PrefetchDepth chunks of ChunkSamples samples in flight. A chunk first takes
 * its share of every non-link resource of its flow (weight x samples / capacity, FIFO per
 * resource, all at once), then posts the flow's transfers (WRITE per source endpoint, bytes x
 * samples) on the fabric; when all complete, its samples are delivered and the next chunk
 * starts. Samples delivered between the warm-up and the end give samples/s per GPU, to hold
 * against ProvisioningModel's max-min answer for the same jobs.
 */
class ProvisioningFabricRun : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    ProvisioningFabricRun();

    /**
     * \param model a model solved for `jobs` with AggregatePerNode false
     * \param fabric a fabric built from model->FabricConfig()
     * \throws std::invalid_argument if the model kept no per-GPU flows or the fabric's shape
     *         differs
     */
    void Setup(Ptr<ProvisioningModel> model, Ptr<RdmaFabric> fabric);
    /**
     * Run the simulator until `end` and measure from `warmup`.
     * \param warmup start of the measurement \param end end of the run
     * \return per flow (model->GetFlows() order), samples/s delivered
     */
    std::vector<double> Run(Time warmup, Time end);

    /** \return chunks delivered in the last run */
    uint64_t GetChunks() const
    {
        return m_chunks;
    }

  private:
    void StartChunk(uint32_t flow);
    void PostTransfers(uint32_t flow);
    void TransferDone(uint32_t flow);

    Ptr<ProvisioningModel> m_model;
    Ptr<RdmaFabric> m_fabric;
    uint32_t m_chunkSamples;
    std::vector<double> m_nextFree;  //!< per resource: when its FIFO server is free [s]
    std::vector<double> m_gpuFree;   //!< per flow: when its GPU has consumed its last chunk [s]
    std::vector<uint32_t> m_pending; //!< per flow: transfers of a chunk not yet complete
    std::vector<std::vector<uint32_t>> m_waiting; //!< per flow: outstanding transfers per chunk
    std::vector<uint64_t> m_delivered;            //!< per flow: samples delivered in the window
    double m_warmup{0};
    double m_end{0};
    uint64_t m_chunks{0};
};

} // namespace ns3

#endif // AICLUSTER_PROVISIONING_FABRIC_RUN_H
