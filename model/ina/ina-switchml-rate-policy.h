/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_SWITCHML_RATE_POLICY_H
#define AICLUSTER_INA_SWITCHML_RATE_POLICY_H

#include "ina-rate-policy.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief SwitchML at the rate level (SwitchMlPolicy at the packet level): each job a static
 *        partition of every pool it uses, two aggregators per window slot (shadow copies),
 *        results multicast by the switch, no PS.
 *
 * A chunk turns around at its aggregation switch: R = 2 (1 + e) (tx + d) + (1 + 2 e) p for
 * e extra hops each way, and the aggregator is held for that round trip. A job's window is
 * min(Window, floor(P / N) / 2) for N partitions (the SwitchMlPartitions of InaGradientSync,
 * or one per job at the switch); nothing falls back.
 */
class SwitchMlRatePolicy : public InaRatePolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    SwitchMlRatePolicy();
    ~SwitchMlRatePolicy() override;

    /** \return "switchml" */
    std::string GetName() const override;
    /** \return 64 values per packet */
    uint32_t DefaultValuesPerPacket() const override;
    /** \return one pipeline pass per packet */
    uint32_t DefaultPipelinePasses() const override;
    /**
     * \param hop one link crossing [s] \param pass switch latency per packet [s]
     * \param extraHops hops beyond one each way
     * \return 2 (1 + e) hop + (1 + 2 e) pass: to the switch and back [s]
     */
    double RoundTrip(double hop, double pass, double extraHops) const override;
    /**
     * \param hop one link crossing [s] \param pass switch latency per packet [s]
     * \param extraHops hops beyond one each way
     * \return the round trip: a slot's aggregator is reused when its next chunk comes [s]
     */
    double Hold(double hop, double pass, double extraHops) const override;
    /**
     * \param tx worker-link wire time [s] \param txUp uplink wire time [s]
     * \param delay link delay [s] \param pass switch latency per packet [s]
     * \return worker, ToR, spine and back, multicast from the spine: 2 tx + 2 txUp + 4 d + 3 p
     */
    double CrossRackRoundTrip(double tx, double txUp, double delay, double pass) const override;
    /** \return false: static partitions */
    bool SharesPool() const override;
    /**
     * \param window wanted window [chunks] \param poolSize aggregators per switch
     * \param partitions configured partitions (0 = one per job at the switch)
     * \param jobsAtSwitch jobs at the switch
     * \return min(window, floor(poolSize / partitions) / 2) [chunks]
     * \throws std::invalid_argument if a partition holds fewer than 2 aggregators
     */
    double Window(uint32_t window,
                  uint32_t poolSize,
                  uint32_t partitions,
                  size_t jobsAtSwitch) const override;
    /**
     * \param window the job's window [chunks] \param chunks its chunks per iteration
     * \return two aggregators per slot in use: 2 min(window, chunks)
     */
    double PartitionHeld(double window, double chunks) const override;
};

} // namespace ns3

#endif // AICLUSTER_INA_SWITCHML_RATE_POLICY_H
