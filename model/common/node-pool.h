/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_NODE_POOL_H
#define AICLUSTER_NODE_POOL_H

#include <boost/pool/pool_alloc.hpp>
#include <functional>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief An allocator for the nodes of the trees that a replay fills and empties at every
 *        start and stop of a job: a freed node goes on a free list of its size and the next
 *        insert takes it back, instead of a malloc and a free per node.
 *
 * Under Tiresias with a slow loader a full Philly replay starts and stops jobs about 400,000
 * times each, and each start and stop inserted and erased a node in half a dozen trees (the
 * level's flows by cap, the jobs by threshold, the marked jobs, the dataset readers, ...):
 * malloc and free cost about 200 instructions a pair there (issue #13). The containers keep
 * their order and iteration exactly: only where their nodes live changes.
 *
 * boost::fast_pool_allocator keeps one free list per node size for the whole process (its
 * memory is kept for reuse, never returned before exit), without a lock: a replay runs in one
 * thread.
 */
template <class T>
using NodePoolAllocator = boost::fast_pool_allocator<T,
                                                     boost::default_user_allocator_new_delete,
                                                     boost::details::pool::null_mutex>;

/** A std::set whose nodes come from a NodePoolAllocator. */
template <class T, class Less = std::less<T>>
using PooledSet = std::set<T, Less, NodePoolAllocator<T>>;

/** A std::map whose nodes come from a NodePoolAllocator. */
template <class K, class V, class Less = std::less<K>>
using PooledMap = std::map<K, V, Less, NodePoolAllocator<std::pair<const K, V>>>;

/**
 * \ingroup aicluster
 * \brief Nodes erased from a std::map or std::unordered_map keyed by job, kept for the next
 *        insertion: a node and the storage of its value's vectors are taken back rather than
 *        freed and allocated again at each stop and start (Tiresias stops and restarts jobs
 *        330,000 times on Philly).
 *
 * Past kMax kept nodes (more than the jobs stopped between two starts) an erased node is freed.
 * \tparam Map the map type
 */
template <class Map>
class SpareNodes
{
  public:
    /// the most nodes kept
    static constexpr size_t kMax = 4096;

    /**
     * \param map the map \param key a key not in it
     * \return its new entry: from a kept node if there is one, whose value is as Erase's
     *         reset left it, else value-initialised
     */
    typename Map::mapped_type& Insert(Map& map, const typename Map::key_type& key)
    {
        if (m_nodes.empty())
        {
            return map.try_emplace(key).first->second;
        }
        auto node = std::move(m_nodes.back());
        m_nodes.pop_back();
        node.key() = key;
        return map.insert(std::move(node)).position->second;
    }

    /**
     * \param map the map \param it an entry of it, erased
     * \param reset called on the entry's value when its node is kept: it must leave the value
     *        as a new one, keeping only storage
     */
    template <class Reset>
    void Erase(Map& map, typename Map::iterator it, Reset reset)
    {
        if (m_nodes.size() >= kMax)
        {
            map.erase(it);
            return;
        }
        auto node = map.extract(it);
        reset(node.mapped());
        m_nodes.push_back(std::move(node));
    }

  private:
    std::vector<typename Map::node_type> m_nodes; //!< the kept nodes
};

} // namespace ns3

#endif // AICLUSTER_NODE_POOL_H
