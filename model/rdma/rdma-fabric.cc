/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "rdma-fabric.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaFabric);

TypeId
RdmaFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaFabric").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

RdmaFabric::~RdmaFabric() = default;

} // namespace ns3
