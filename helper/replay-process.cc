/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "replay-process.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <cstdlib>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayProcess");

void
PrepareReplayProcess()
{
    NS_LOG_FUNCTION_NOARGS();
    const char* globals = std::getenv("NS_GLOBAL_VALUE");
    if (!globals || !std::strstr(globals, "SchedulerType"))
    {
        GlobalValue::Bind("SchedulerType", StringValue("ns3::LazyRemovalScheduler"));
    }
}

} // namespace ns3
