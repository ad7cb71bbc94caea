/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "ordered-demands.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

bool
OrderedDemands::ItemBefore(const Item& item, const PriorityKey& key)
{
    return item.key < key;
}

size_t
OrderedDemands::BlockOf(const PriorityKey& key) const
{
    // the first block whose last key is not before this one
    auto it = std::partition_point(m_blocks.begin(), m_blocks.end(), [&key](const Block& b) {
        return b.items.back().key < key;
    });
    return it == m_blocks.end() ? m_blocks.size() - 1 : size_t(it - m_blocks.begin());
}

void
OrderedDemands::Insert(const PriorityKey& key, uint32_t demand)
{
    if (m_blocks.empty())
    {
        m_blocks.push_back(Block{{Item{key, demand}}, demand});
        ++m_size;
        return;
    }
    size_t b = BlockOf(key);
    Block& block = m_blocks[b];
    auto at = std::lower_bound(block.items.begin(), block.items.end(), key, ItemBefore);
    block.items.insert(at, Item{key, demand});
    block.demand += demand;
    ++m_size;
    if (block.items.size() > MaxBlock())
    {
        // split in halves: a block stays between MaxBlock() / 2 and MaxBlock() keys long
        Block upper;
        size_t half = block.items.size() / 2;
        upper.items.assign(block.items.begin() + half, block.items.end());
        block.items.resize(half);
        for (const Item& item : upper.items)
        {
            upper.demand += item.demand;
        }
        block.demand -= upper.demand;
        m_blocks.insert(m_blocks.begin() + b + 1, std::move(upper));
    }
}

void
OrderedDemands::Erase(const PriorityKey& key)
{
    NS_ABORT_MSG_IF(m_blocks.empty(), "OrderedDemands::Erase: no key kept");
    size_t b = BlockOf(key);
    Block& block = m_blocks[b];
    auto at = std::lower_bound(block.items.begin(), block.items.end(), key, ItemBefore);
    NS_ABORT_MSG_IF(at == block.items.end() || key < at->key,
                    "OrderedDemands::Erase: job " << key.id << " is not kept");
    block.demand -= at->demand;
    block.items.erase(at);
    --m_size;
    if (block.items.empty())
    {
        m_blocks.erase(m_blocks.begin() + b);
    }
}

void
OrderedDemands::Clear()
{
    m_blocks.clear();
    m_size = 0;
}

OrderedDemands::Split
OrderedDemands::FirstBeyond(uint64_t budget) const
{
    Split split;
    for (const Block& block : m_blocks)
    {
        if (split.before + block.demand <= budget)
        {
            split.before += block.demand; // the whole block fits
            continue;
        }
        for (const Item& item : block.items)
        {
            if (split.before + item.demand > budget)
            {
                split.found = true;
                split.first = item.key;
                return split;
            }
            split.before += item.demand;
        }
    }
    return split;
}

size_t
OrderedDemands::Size() const
{
    return m_size;
}

} // namespace ns3
