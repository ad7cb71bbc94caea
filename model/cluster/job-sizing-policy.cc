/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "job-sizing-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(JobSizingPolicy);

TypeId
JobSizingPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::JobSizingPolicy").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

} // namespace ns3
