/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_PROVISIONING_COMPARE_H
#define AICLUSTER_TEST_PROVISIONING_COMPARE_H

// Two provisioning models that must agree bit for bit (a speed path against the plain one):
// one pass solved on both, every figure compared.

#include "ns3/provisioning-model.h"

#include <catch2/catch.hpp>
#include <vector>

namespace ns3
{

/**
 * Solves one pass on both models and checks that every result, the utilisation and the rail
 * loads are the same to the bit.
 * \param solver the model that gives the expected results
 * \param skip the model under test
 * \param pass the running jobs
 * \return the expected results (the solver's)
 */
inline std::vector<ProvisioningJobResult>
CheckSameSolve(Ptr<ProvisioningModel> solver,
               Ptr<ProvisioningModel> skip,
               const std::vector<ProvisioningJob>& pass)
{
    auto want = solver->Solve(pass);
    auto got = skip->Solve(pass);
    REQUIRE(got.size() == want.size());
    for (size_t k = 0; k < want.size(); ++k)
    {
        INFO("job " << want[k].name);
        CHECK(got[k].perGpu == want[k].perGpu);
        CHECK(got[k].bottleneck == want[k].bottleneck);
        CHECK(got[k].stallFraction == want[k].stallFraction);
        CHECK(got[k].cache.rawHit == want[k].cache.rawHit);
        CHECK(got[k].cache.decodedHit == want[k].cache.decodedHit);
    }
    const ProvisioningUtilization& u = solver->GetUtilization();
    const ProvisioningUtilization& v = skip->GetUtilization();
    CHECK(v.storage == u.storage);
    CHECK(v.storageClient == u.storageClient);
    CHECK(v.cpu == u.cpu);
    CHECK(v.hostMemory == u.hostMemory);
    CHECK(v.pcieUplink == u.pcieUplink);
    CHECK(v.pcieDevice == u.pcieDevice);
    CHECK(v.rail == u.rail);
    CHECK(v.frontend == u.frontend);
    std::vector<double> outA;
    std::vector<double> inA;
    std::vector<double> outB;
    std::vector<double> inB;
    solver->RailLoads(outA, inA);
    skip->RailLoads(outB, inB);
    CHECK(outB == outA);
    CHECK(inB == inA);
    return want;
}

} // namespace ns3

#endif // AICLUSTER_TEST_PROVISIONING_COMPARE_H
