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
    constexpr std::size_t HUGE_PAGE = std::size_t(2) << 20; // x86-64's and arm64's usual size
    if (bytes < HUGE_PAGE)
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
    constexpr std::size_t HUGE_PAGE = std::size_t(2) << 20;
    const std::size_t whole = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void* block = std::aligned_alloc(HUGE_PAGE, whole);
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
