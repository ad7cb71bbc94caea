/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_LINK_SHARE_H
#define AICLUSTER_LINK_SHARE_H

#include "cluster-job.h"
#include "cluster-topology.h"

#include "ns3/node-pool.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <boost/container/small_vector.hpp>
#include <map>
#include <vector>

namespace ns3
{

class IterationTermModel;

/**
 * \ingroup aicluster
 * \brief A job's gradient-sync traffic through one node's rail NICs, per iteration.
 */
struct SyncLinkTraffic
{
    uint32_t node{0}; //!< the node whose rail NICs it crosses
    double bytes{0};  //!< bytes per iteration in each direction (out of and into the node)
    double peak{0};   //!< bytes/s the sync model sends at through these NICs when alone
};

/**
 * \ingroup aicluster
 * \brief The links that gradient-sync and data traffic share, and how they share them.
 *
 * One place that knows the cluster's shared links (from the one description: the rail NICs
 * of every training node, GpusPerNode rails of RailRate each) and to which both term models
 * report their traffic: the gradient-sync model through IterationTermModel::LinkTraffic()
 * (bytes per iteration and its own peak rate, per node a job spans), the data-loading model
 * through SetDataLoad() (bytes/s of its solved flows on each node's rails).
 *
 * A shared link is the bundle of one node's rail NICs in one direction, of capacity
 * C = rails x RailRate (traffic of a node spreads evenly over its rails). Data loading
 * (prefetched) runs all through an iteration at its average rate D; a job's sync runs in
 * bursts, its sync phase, at up to its peak rate P, and averages S = bytes / (compute +
 * bytes / P) over an iteration (its demand: compute then sync, as when nothing slows it).
 * Each sees, max-min, the capacity the other leaves:
 *   - the data loader's solve sees C - min(S_l, C/2) on link l (S_l summed over the sync
 *     jobs crossing it): sync takes its average demand, but never more than an equal share;
 *   - a job's sync phase gets min(P, max(C - D_l, C/2)) on each link it crosses (data keeps
 *     its average rate, sync takes the rest, and at least an equal share), and the sync
 *     model runs the job at the smallest such fraction of P over its links (SyncShare()).
 * Not captured: per-rail placement inside a node, ToR/leaf-spine uplinks, sync and data of
 * one job in lockstep within an iteration.
 */
class LinkShare : public Object
{
  public:
    /** \return the TypeId */
    static TypeId GetTypeId();
    LinkShare();
    ~LinkShare() override;

    /**
     * \brief Describe the shared links.
     * \param topology the training nodes
     * \param railBytesPerSecond one rail link's rate, each direction [bytes/s]
     * \param railsPerNode rails (NICs) per node
     */
    void SetLinks(const ClusterTopology& topology,
                  double railBytesPerSecond,
                  uint32_t railsPerNode);

    /**
     * \brief The gradient-sync model whose traffic crosses the links (not owned: the model
     *        keeps this object, so it is told of changes through NotifyChanged()).
     * \param sync the engine's gradient-sync model
     */
    void SetSyncModel(IterationTermModel* sync);

    /** \return the training nodes whose rails these are */
    uint32_t NodeCount() const;

    /** \return capacity of one node's rail bundle, each direction [bytes/s] */
    double NodeCapacity() const;

    /**
     * \brief What the sync traffic of these running jobs takes from each node's rails.
     * \param running every running job (the data model's whole running set)
     * \return per training node, the bytes/s of its rail bundle (each direction) the data
     *         traffic must leave to sync: min(S, C/2)
     */
    std::vector<double> SyncReserve(const std::vector<Ptr<const ClusterJob>>& running) const;

    /**
     * \brief One job's part of SyncReserve: its sync's average demand on each node its traffic
     *        crosses, in the order SyncReserve adds them.
     * \param job a running job
     * \param terms set to (node, bytes/s) per traffic entry that counts (output)
     */
    void SyncTerms(const ClusterJob& job, std::vector<std::pair<uint32_t, double>>& terms) const;

    /**
     * \param demand a node's summed SyncTerms [bytes/s]
     * \return its reserve, min(demand, C/2), as SyncReserve gives it (counted in the figures)
     */
    double ReserveOf(double demand) const;

    /**
     * \brief The data model's solved load on every node's rails.
     * \param out per training node, bytes/s the data traffic sends out of it over its rails
     * \param in per training node, bytes/s it receives over its rails
     */
    void SetDataLoad(const std::vector<double>& out, const std::vector<double>& in);

    /**
     * \brief The fraction of its own peak rate a job's sync gets on the links it crosses now
     *        (1 when no data traffic is in its way). Remembered: when a later SetDataLoad()
     *        moves it, the sync model is asked to re-evaluate.
     * \param job a running job
     * \param traffic its sync traffic (the sync model's LinkTraffic())
     * \param node if not null: set to the node whose rails give the smallest share
     * \return the fraction, in (0, 1]
     */
    double SyncShare(Ptr<const ClusterJob> job,
                     const std::vector<SyncLinkTraffic>& traffic,
                     uint32_t* node = nullptr);

    /** \return the data load of the last SetDataLoad(), per node (out, in) [bytes/s] */
    const std::vector<double>& DataOut() const;
    /** \return the data load received per node [bytes/s] */
    const std::vector<double>& DataIn() const;

    /** Figures of the run so far, for summary.json. */
    struct Figures
    {
        uint64_t slowedSyncs{0};    //!< sync evaluations that got less than their peak
        double minSyncShare{1};     //!< smallest share of its peak a sync got
        double peakDataShare{0};    //!< busiest node's rail bundle: data load / capacity
        double peakReserveShare{0}; //!< busiest node: bandwidth kept for sync / capacity
    };

    /** \return the figures of the run so far */
    const Figures& GetFigures() const;

  protected:
    void DoDispose() override;

  private:
    /** \return the share of one link for a sync burst of peak p against data load d */
    double BurstShare(double p, double d) const;
    /** \return the smallest BurstShare() over a job's links now */
    double ShareOf(const std::vector<SyncLinkTraffic>& traffic, uint32_t* node = nullptr) const;
    /** Ask the sync model to re-evaluate if a remembered share has moved. */
    void CheckShares();
    /**
     * \param load a data load as SetDataLoad is given it \param kept one as it keeps it
     * \return true if keeping load would leave kept's values as they are
     */
    static bool SameLoad(const std::vector<double>& load, const std::vector<double>& kept);

    ClusterTopology m_topology;
    double m_capacity{0}; //!< one node's rail bundle, each direction [bytes/s]
    IterationTermModel* m_sync{nullptr};
    std::vector<double> m_dataOut; //!< per node [bytes/s]
    std::vector<double> m_dataIn;  //!< per node [bytes/s]
    bool m_checkPending{false};
    /// some node's data load moved since CheckShares last found every remembered share
    /// unmoved (until then it compares them)
    bool m_dataMoved{true};
    mutable Figures m_figures;

    /** A running job's share as its sync model last used it. */
    struct Used
    {
        Ptr<const ClusterJob> job;            //!< the job
        std::vector<SyncLinkTraffic> traffic; //!< its traffic
        double share;                         //!< the share used
    };

    std::map<uint64_t, Used> m_used; //!< by job id
};

/**
 * \ingroup aicluster
 * \brief LinkShare::SyncReserve of running jobs that start and stop one at a time, kept: a
 *        start or a stop sums again only the nodes that job's sync crosses, each node's terms
 *        in job-id order as SyncReserve adds them (given the jobs by id), so the same numbers,
 *        bit for bit, at the cost of the jobs that moved rather than all that span nodes.
 *
 * A running job's sync traffic is fixed by its placement and profile, so its terms are taken
 * once, at the first Update after it starts.
 */
class KeptSyncReserve
{
  public:
    /** Forget every job and the reserve (the next Update reports every node). */
    void Clear();
    /** \param job a running job whose sync may cross the rails (one already kept: ignored) */
    void Add(Ptr<const ClusterJob> job);
    /** \param id a job (not kept: nothing happens) */
    void Remove(uint64_t id);
    /**
     * \brief Bring the reserve up to date with the jobs added and removed since the last call.
     * \param links the links (others than the last call's: every job's terms taken again)
     * \param moved set to the nodes whose reserve differs from the last call's (output)
     * \return per node of the links' topology, its reserve [bytes/s]
     */
    const std::vector<double>& Update(const LinkShare& links, std::vector<uint32_t>& moved);

  private:
    /** \param node a node whose terms moved: it is summed again at the next Update */
    void MarkNode(uint32_t node);
    /** \param id a kept job: take its terms from the links */
    void TakeTerms(uint64_t id);

    /** A job's terms on one node, in SyncTerms' order (a ring job has one per node). */
    using NodeTerms = boost::container::small_vector<double, 1>;

    PooledMap<uint64_t, Ptr<const ClusterJob>> m_jobs;     //!< by id
    std::vector<uint64_t> m_untaken;                       //!< jobs added, terms not taken yet
    PooledMap<uint64_t, std::vector<uint32_t>> m_nodesOf;  //!< per job: the nodes of its terms
    std::vector<PooledMap<uint64_t, NodeTerms>> m_termsOn; //!< per node: its terms by job id
    std::vector<uint32_t> m_dirty;                         //!< nodes to sum again
    std::vector<uint8_t> m_isDirty;                        //!< per node: in m_dirty
    std::vector<double> m_reserve; //!< per node: the reserve of the last Update
    /// the links of the last Update (held, so that new links never share its address)
    Ptr<const LinkShare> m_from;
    std::vector<std::pair<uint32_t, double>> m_scratch; //!< SyncTerms' output
};

} // namespace ns3

#endif // AICLUSTER_LINK_SHARE_H
