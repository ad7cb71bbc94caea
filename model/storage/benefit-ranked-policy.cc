/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "benefit-ranked-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(BenefitRankedPolicy);

TypeId
BenefitRankedPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BenefitRankedPolicy")
                            .SetParent<StorageAllocationPolicy>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<BenefitRankedPolicy>();
    return tid;
}

StorageAllocation
BenefitRankedPolicy::Allocate(const StorageProblem& problem)
{
    // Remote bytes saved per second per cached byte, if the dataset were cached: R_k / d_k.
    std::vector<double> demand = problem.DatasetDemand();
    std::vector<double> rho(demand.size(), 0.0);
    for (size_t k = 0; k < rho.size(); ++k)
    {
        rho[k] = problem.datasetBytes[k] > 0 ? demand[k] / problem.datasetBytes[k] : 0.0;
    }
    return CacheWholeDatasets(problem, ReadDatasetsBy(problem, demand, rho));
}

std::string
BenefitRankedPolicy::Name() const
{
    return "quiver";
}

} // namespace ns3
