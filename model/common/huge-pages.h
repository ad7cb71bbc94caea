/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_HUGE_PAGES_H
#define AICLUSTER_HUGE_PAGES_H

#include <cstddef>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Ask the kernel to back a large array with transparent huge pages, where it can.
 *
 * Filling fresh memory costs a page fault per 4 KiB page touched, and on a virtual machine a
 * fault costs microseconds: the job records of a full Philly trace (27 MB) took 6,600 of a
 * replay's 21,000 faults (issue #13). Backed by 2 MiB pages, the same array takes a dozen.
 *
 * A hint only: contents and behaviour never change. On Linux it is madvise(MADV_HUGEPAGE) on
 * the whole pages inside the range (honoured when transparent huge pages are set to "always"
 * or "madvise", the usual settings); elsewhere, for a range under 2 MiB, or if the kernel
 * refuses, nothing happens. Meant for an array reserved at its final size and then written
 * in full, before anything else is placed in its pages.
 *
 * \param data the array's first byte
 * \param bytes its size [bytes]
 */
void AdviseHugePages(const void* data, std::size_t bytes);

} // namespace ns3

#endif // AICLUSTER_HUGE_PAGES_H
