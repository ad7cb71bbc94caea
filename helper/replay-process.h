/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_REPLAY_PROCESS_H
#define AICLUSTER_REPLAY_PROCESS_H

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Sets a process up for one trace replay (trace-replay, the runs of
 * philly-replay-bench): ns-3's event queue as a binary heap.
 *
 * The engine keeps few events pending (the next arrival, the next finish, priority changes)
 * and schedules and removes them at every pass (about 300,000 on Philly);
 * ns3::PriorityQueueScheduler (a binary heap in a vector) serves them without the tree node
 * allocated and freed per event by the default ns3::MapScheduler. Every ns-3 scheduler
 * orders events by (time, insertion), so the replay is the same event for event. A
 * SchedulerType given in NS_GLOBAL_VALUE is kept.
 *
 * Call it first thing in main, before the simulator's first use; not in a library function
 * or a test.
 */
void PrepareReplayProcess();

} // namespace ns3

#endif // AICLUSTER_REPLAY_PROCESS_H
