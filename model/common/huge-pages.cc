/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "huge-pages.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ns3
{

void
AdviseHugePages(const void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < HUGE_PAGE_BYTES)
    {
        return; // no whole huge page inside
    }
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t begin = (first + page - 1) / page * page;
    const std::uintptr_t end = (first + bytes) / page * page;
    // A refusal (e.g. huge pages off) leaves the range as it was: nothing to report.
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

char*
HugePageBlockAllocator::malloc(size_type bytes)
{
    const std::size_t whole = (bytes + HUGE_PAGE_BYTES - 1) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
    void* block = std::aligned_alloc(HUGE_PAGE_BYTES, whole);
    if (block != nullptr)
    {
        AdviseHugePages(block, whole);
    }
    return static_cast<char*>(block);
}

void
HugePageBlockAllocator::free(char* block)
{
    std::free(block);
}

} // namespace ns3
