/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_INA_RATE_REPLAY_H
#define AICLUSTER_TEST_INA_RATE_REPLAY_H

// Shared by the INA rate-level tests: running jobs through InaGradientSync the way the cluster
// engine does, so that rate and packet level are compared on the same terms.

#include "ns3/cluster-job.h"
#include "ns3/ina-gradient-sync.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

namespace ns3
{

/**
 * Advances the jobs (RUNNING, with placements, profiles and remainingIterations set) like the
 * cluster engine: constant sync times between events, all running jobs re-evaluated when one
 * finishes. Only the sync term counts (no compute), as in the packet-level scenarios.
 * \return each job's completion time divided by iterations, by record id
 */
inline std::vector<double>
ReplayLikeTheEngine(Ptr<InaGradientSync> model,
                    const ClusterTopology& topo,
                    const std::vector<Ptr<ClusterJob>>& jobs,
                    double iterations)
{
    double now = 0;
    std::vector<double> jct(jobs.size(), -1);
    while (true)
    {
        std::vector<Ptr<ClusterJob>> running;
        for (const auto& j : jobs)
        {
            if (j->state == ClusterJob::RUNNING)
            {
                running.push_back(j);
            }
        }
        if (running.empty())
        {
            break;
        }
        std::vector<double> t(running.size());
        model->Evaluate(topo, {running.begin(), running.end()}, t);
        double dt = 1e30;
        for (size_t k = 0; k < running.size(); ++k)
        {
            REQUIRE(t[k] > 0);
            dt = std::min(dt, running[k]->remainingIterations * t[k]);
        }
        now += dt;
        for (size_t k = 0; k < running.size(); ++k)
        {
            running[k]->remainingIterations -= dt / t[k];
            if (running[k]->remainingIterations < 1e-9)
            {
                running[k]->state = ClusterJob::FINISHED;
                jct[running[k]->record.id] = now;
            }
        }
    }
    for (auto& x : jct)
    {
        x /= iterations;
    }
    return jct;
}

} // namespace ns3

#endif // AICLUSTER_TEST_INA_RATE_REPLAY_H
