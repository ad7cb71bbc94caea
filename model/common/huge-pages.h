/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_HUGE_PAGES_H
#define AICLUSTER_HUGE_PAGES_H

#include <boost/pool/pool.hpp>
#include <cstddef>
#include <memory>
#include <new>

namespace ns3
{

/// A transparent huge page [bytes]: x86-64's and arm64's usual size.
constexpr std::size_t HUGE_PAGE_BYTES = std::size_t(2) << 20;

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

/**
 * \ingroup aicluster
 * \brief boost::pool's source of chunks: 2 MiB-aligned blocks in whole huge pages, advised.
 *
 * An allocator in boost::pool's UserAllocator form. A block is rounded up to whole 2 MiB
 * pages and aligned to one, so AdviseHugePages covers all of it.
 */
struct HugePageBlockAllocator
{
    typedef std::size_t size_type;          //!< boost::pool's size type
    typedef std::ptrdiff_t difference_type; //!< boost::pool's difference type

    /**
     * \param bytes the block's size [bytes]
     * \return the block, or nullptr when out of memory (boost::pool then throws bad_alloc)
     */
    static char* malloc(size_type bytes);
    /** \param block a block from malloc */
    static void free(char* block);
};

/**
 * \ingroup aicluster
 * \brief A std::allocator that backs each allocation of 2 MiB or more with transparent huge
 * pages, where the kernel allows: 2 MiB-aligned, rounded up to whole pages, advised
 * (AdviseHugePages) before anything is written. Smaller allocations come from the heap.
 *
 * For large arrays read at random, as the max-min solver's class records and usages are
 * (tens of MB in a 512-GPU all-to-all): with 4 KiB pages nearly every such read also misses
 * the TLB and waits on a page walk. Contents and behaviour are unchanged.
 *
 * \tparam T the element type
 */
template <class T>
struct HugePageAllocator
{
    using value_type = T; //!< allocated type

    HugePageAllocator() = default;

    /** Rebinding copy (allocators of any element type are equal) */
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>& /* other */)
    {
    }

    /**
     * \param n elements
     * \return room for them
     */
    T* allocate(std::size_t n)
    {
        if (n > std::size_t(-1) / sizeof(T))
        {
            throw std::bad_alloc();
        }
        const std::size_t bytes = n * sizeof(T);
        if (bytes < HUGE_PAGE_BYTES)
        {
            return std::allocator<T>().allocate(n);
        }
        void* block = HugePageBlockAllocator::malloc(bytes);
        if (block == nullptr)
        {
            throw std::bad_alloc();
        }
        return static_cast<T*>(block);
    }

    /**
     * \param p what allocate(n) returned
     * \param n the same n
     */
    void deallocate(T* p, std::size_t n)
    {
        if (n * sizeof(T) < HUGE_PAGE_BYTES)
        {
            std::allocator<T>().deallocate(p, n);
            return;
        }
        HugePageBlockAllocator::free(reinterpret_cast<char*>(p));
    }

    /** \return true: memory from one is released by any other */
    template <class U>
    bool operator==(const HugePageAllocator<U>& /* other */) const
    {
        return true;
    }

    /** \return false */
    template <class U>
    bool operator!=(const HugePageAllocator<U>& /* other */) const
    {
        return false;
    }
};

/**
 * \ingroup aicluster
 * \brief Base class that places a class's heap objects in huge-page-backed pools.
 *
 * A replay creates an object per trace job at once (ClusterJob: 82,247 for Philly, ten times
 * that for the tenfold trace), and each 4 KiB page those objects first touch costs a page fault:
 * about half of a scheduling-only Philly replay's 15,000 faults, a fifth of its CPU time on a
 * virtual machine (issue #13). Deriving from HugePagePooled<T> gives T a class-specific
 * operator new and delete that take fixed-size slots from one boost::pool of 2 MiB blocks,
 * each backed by a huge page where the kernel allows (AdviseHugePages): a dozen faults instead
 * of thousands. Freed slots are reused by the next objects of the class; blocks are kept for
 * the process's life. Objects and their behaviour are unchanged.
 *
 * The pool itself is never destroyed, on purpose: an object released during static
 * destruction (a Ptr held by a static) must still find it. Its blocks stay reachable, so a
 * leak checker does not count them.
 *
 * \tparam T the class deriving from it (its size and alignment fix the slots')
 */
template <class T>
class HugePagePooled
{
  public:
    /**
     * \param bytes the object's size [bytes]; a class derived from T gets the global heap
     * \return room for one object
     */
    static void* operator new(std::size_t bytes)
    {
        if (bytes != sizeof(T))
        {
            return ::operator new(bytes);
        }
        void* slot = Pool().malloc();
        if (slot == nullptr)
        {
            throw std::bad_alloc();
        }
        return slot;
    }

    /**
     * \param object what operator new returned
     * \param bytes the object's size [bytes]
     */
    static void operator delete(void* object, std::size_t bytes)
    {
        if (bytes != sizeof(T))
        {
            ::operator delete(object);
            return;
        }
        Pool().free(object);
    }

  private:
    /** \return the class's pool, created on first use and never destroyed */
    static boost::pool<HugePageBlockAllocator>& Pool()
    {
        static_assert(alignof(T) <= alignof(void*), "boost::pool aligns its slots to a pointer");
        // Slots per block: one 2 MiB page less boost::pool's two trailing words per block.
        constexpr std::size_t SLOT =
            (sizeof(T) + sizeof(void*) - 1) / sizeof(void*) * sizeof(void*);
        constexpr std::size_t SLOTS = (HUGE_PAGE_BYTES - 2 * sizeof(void*)) / SLOT;
        static auto* pool = new boost::pool<HugePageBlockAllocator>(sizeof(T), SLOTS, SLOTS);
        return *pool;
    }
};

} // namespace ns3

#endif // AICLUSTER_HUGE_PAGES_H
