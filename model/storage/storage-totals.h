/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STORAGE_TOTALS_H
#define AICLUSTER_STORAGE_TOTALS_H

#include <cstdint>

/**
 * \file
 * \ingroup aicluster
 * StorageTotals: what a storage run has cost, read and written so far.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Running totals of a storage run (integrated between allocation changes).
 */
struct StorageTotals
{
    double bandwidthCost{0};    //!< remote bandwidth bought [$]
    double cacheCost{0};        //!< cache space reserved [$]
    double prefetchCost{0};     //!< prefetch traffic [$]
    double bytesRead{0};        //!< bytes the jobs read (cache + remote) [bytes]
    double bytesRemote{0};      //!< bytes read from remote storage (incl. prefetch) [bytes]
    double bandwidthSeconds{0}; //!< integral of bought bandwidth [bytes]
    double cacheByteSeconds{0}; //!< integral of reserved cache [byte-s]
    double peakBandwidth{0};    //!< most bandwidth bought at once [bytes/s]
    double peakCache{0};        //!< most cache reserved at once [bytes]
    double activeSeconds{0};    //!< time with at least one running job [s]
    uint64_t solves{0};         //!< policy calls
    uint64_t jobsSolved{0};     //!< sum over policy calls of the running jobs in the problem
    uint64_t entriesSolved{0};  //!< sum over policy calls of the problem's entries (kinds of job)
    uint64_t fills{0};          //!< cache fills completed

    /** \return bandwidthCost + cacheCost + prefetchCost [$] */
    double IoCost() const
    {
        return bandwidthCost + cacheCost + prefetchCost;
    }

    /** \return bytes served by the cache / bytes read (0 if nothing read) */
    double HitRatio() const
    {
        return bytesRead > 0 ? bytesHit / bytesRead : 0.0;
    }

    double bytesHit{0};      //!< bytes the jobs read from the cache [bytes]
    double prefetchBytes{0}; //!< bytes prefetched into the cache [bytes]

    // Checkpoint writes (StorageDataLoading's "Checkpoints").
    uint64_t checkpoints{0};             //!< checkpoints written to the end
    double checkpointBytes{0};           //!< bytes written by checkpoints (charged) [bytes]
    double checkpointStallGpuSeconds{0}; //!< GPU time stopped while writing them [GPU-s]

    // Model-weight loads at job start (StorageDataLoading's "ModelLoading").
    uint64_t modelLoads{0};             //!< loads finished
    uint64_t modelLoadsFromCache{0};    //!< of which from the cache tier
    double modelLoadBytesRemote{0};     //!< weights read from remote storage (charged) [bytes]
    double modelLoadBytesCached{0};     //!< weights read from the cache tier [bytes]
    double modelLoadStallGpuSeconds{0}; //!< GPU time stopped while loading [GPU-s]
    double weightsCacheByteSeconds{0};  //!< integral of cached weights (charged) [byte-s]
};

} // namespace ns3

#endif // AICLUSTER_STORAGE_TOTALS_H
