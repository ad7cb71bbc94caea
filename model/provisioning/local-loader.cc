/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "local-loader.h"

#include "provisioning-model.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LocalLoader);

TypeId
LocalLoader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LocalLoader")
                            .SetParent<ProvisioningLoader>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<LocalLoader>();
    return tid;
}

std::string
LocalLoader::Name() const
{
    return "local";
}

void
LocalLoader::AddSampleUsage(const ProvisioningModel& m,
                            const ProvisioningJob& job,
                            const CachePlan&,
                            uint32_t node,
                            uint32_t gpu,
                            UsageBuilder& u) const
{
    const WorkloadProfile& p = *job.profile;
    m.AddStorageToHost(job, node, p.rawBytesPerSample, u);
    u.Add(m.Res().cpu.at(node), p.cpuSecondsPerSample);
    u.Add(m.Res().dram.at(node), p.rawBytesPerSample + p.decodedBytesPerSample); // decode r/w
    m.AddHostToGpu(node, gpu, p.decodedBytesPerSample, u);
}

} // namespace ns3
