/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_RING_ALL_REDUCE_SYNC_H
#define AICLUSTER_RING_ALL_REDUCE_SYNC_H

#include "iteration-model.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Ring all-reduce without INA (the reference):
 *        2(n-1)/n * bytes / bandwidth + 2(n-1) * hop latency over the job's n GPUs, with
 *        NVLink bandwidth and latency inside one node and the NIC rate and latency once the
 *        ring crosses nodes (its slowest link).
 */
class RingAllReduceSync : public IterationTermModel
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    RingAllReduceSync();
    void Evaluate(const ClusterTopology& topology,
                  const std::vector<Ptr<const ClusterJob>>& running,
                  std::vector<double>& seconds) override;
    bool DependsOnOtherJobs() const override;
    /**
     * \return link:rails-n<node> when data traffic's share of that node's rails slowed its
     *         last evaluation (LinkShare), else link:nic across nodes or nvlink in one node
     */
    std::string Bottleneck(const ClusterJob& job) const override;
    /** \return per node of a multi-node ring: 2(n-1)/n of the bytes per GPU there, at NicRate */
    void LinkTraffic(const ClusterJob& job, std::vector<SyncLinkTraffic>& traffic) const override;

    /**
     * \param gpus GPUs in the ring \param nodes nodes they span \param bytes gradient bytes
     * \param share share of NicRate the ring's NICs give it (LinkShare), 1 = all
     * \return seconds per iteration
     */
    double SyncTime(uint32_t gpus, uint32_t nodes, double bytes, double share = 1) const;

  private:
    DataRate m_nvlink;
    Time m_nvlinkLatency;
    DataRate m_nic;
    Time m_nicLatency;
    std::map<uint64_t, std::string> m_bound; //!< per job id: link its last evaluation shared
};

} // namespace ns3

#endif // AICLUSTER_RING_ALL_REDUCE_SYNC_H
