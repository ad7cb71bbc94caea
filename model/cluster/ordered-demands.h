/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_ORDERED_DEMANDS_H
#define AICLUSTER_ORDERED_DEMANDS_H

#include "scheduling-policy.h"

#include <cstddef>
#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * OrderedDemands: jobs' GPU demands in queue order, with the first key past a budget.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief GPU demands kept in PriorityKey order, answering "which key is the first whose
 *        demand, added to every demand before it, exceeds a budget" without a walk over the
 *        keys before it.
 *
 * A preemptive scheduling pass under contention gives GPUs to the jobs in key order while
 * they fit: every job of the longest prefix that fits runs, and only the jobs from the first
 * one past it on need a look (issue #13). The keys are kept in blocks of at most
 * MaxBlock() keys, each with its demand sum, so a query skips whole blocks: its cost is the
 * number of blocks before the answer plus one block, an insertion or a removal one block.
 */
class OrderedDemands
{
  public:
    /** Where the budget runs out. */
    struct Split
    {
        bool found{false};  //!< false: every demand fits in the budget together
        PriorityKey first;  //!< the first key past the budget (if found)
        uint64_t before{0}; //!< the demand of every key before it (if found; else of all)
    };

    /**
     * \param key a key not kept yet (keys are unique: they end on the job id)
     * \param demand its GPU demand
     */
    void Insert(const PriorityKey& key, uint32_t demand);
    /** \param key a kept key (else the call aborts: the caller's sets disagree with these) */
    void Erase(const PriorityKey& key);
    /** \brief Forget every key. */
    void Clear();

    /**
     * \param budget GPUs to give out in key order
     * \return the first key whose demand plus every earlier demand exceeds budget
     */
    Split FirstBeyond(uint64_t budget) const;

    /** \return the keys kept */
    size_t Size() const;

    /** \return the most keys one block holds (a full block splits in two) */
    static constexpr size_t MaxBlock()
    {
        return 64;
    }

  private:
    /** A kept key and its demand. */
    struct Item
    {
        PriorityKey key; //!< the key
        uint32_t demand; //!< its GPU demand
    };

    /** Consecutive keys, ascending, and their demand sum. */
    struct Block
    {
        std::vector<Item> items; //!< the keys, ascending
        uint64_t demand{0};      //!< sum of their demands
    };

    /** \param item a kept item \param key a key \return true if the item's key goes first */
    static bool ItemBefore(const Item& item, const PriorityKey& key);
    /** \param key a key \return the block it belongs in (the last one if past every block) */
    size_t BlockOf(const PriorityKey& key) const;

    std::vector<Block> m_blocks; //!< ascending: each block's keys precede the next block's
    size_t m_size{0};            //!< keys kept
};

} // namespace ns3

#endif // AICLUSTER_ORDERED_DEMANDS_H
