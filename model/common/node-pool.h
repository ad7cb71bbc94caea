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

} // namespace ns3

#endif // AICLUSTER_NODE_POOL_H
