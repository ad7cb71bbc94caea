/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_INA_ATP_RATE_POLICY_H
#define AICLUSTER_INA_ATP_RATE_POLICY_H

#include "ina-rate-policy.h"

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief ATP at the rate level (AtpPolicy at the packet level): best-effort sharing of the
 *        whole pool by hashed index; a chunk whose index is held falls back to the job's PS;
 *        an aggregator is held from the chunk's first packet until the PS result passes back.
 *
 * R = (4 + 2 e) (tx + d) + (2 + 2 e) p (worker, switch, PS and back), hold 2 (tx + d) + 2 p
 * (switch, PS, switch). Every holder blocks every job; a short pool is shared in proportion
 * to demand; a key split by skew waits for the resend timeout. The sharing rules are
 * InaRatePolicy's defaults.
 */
class AtpRatePolicy : public InaRatePolicy
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    AtpRatePolicy();
    ~AtpRatePolicy() override;

    /** \return "atp" */
    std::string GetName() const override;
    /** \return 62 values per packet */
    uint32_t DefaultValuesPerPacket() const override;
    /** \return two pipeline passes per packet (31 of the 62 values per pass, resubmitted) */
    uint32_t DefaultPipelinePasses() const override;
    /**
     * \param hop one link crossing [s] \param pass switch latency per packet [s]
     * \param extraHops hops beyond one each way
     * \return (4 + 2 e) hop + (2 + 2 e) pass: to the switch, its PS and back [s]
     */
    double RoundTrip(double hop, double pass, double extraHops) const override;
    /**
     * \param hop one link crossing [s] \param pass switch latency per packet [s]
     * \param extraHops hops beyond one each way (they lengthen the workers' legs only)
     * \return 2 hop + 2 pass: allocated on arrival, freed when the PS result passes [s]
     */
    double Hold(double hop, double pass, double extraHops) const override;
    /**
     * \param tx worker-link wire time [s] \param txUp uplink wire time [s]
     * \param delay link delay [s] \param pass switch latency per packet [s]
     * \return worker, ToR, spine, PS and back: 4 tx + 2 txUp + 6 d + 4 p [s]
     */
    double CrossRackRoundTrip(double tx, double txUp, double delay, double pass) const override;
    /** \return true: hashed sharing of the whole pool */
    bool SharesPool() const override;
};

} // namespace ns3

#endif // AICLUSTER_INA_ATP_RATE_POLICY_H
