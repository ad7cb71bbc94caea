/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROVISIONING_LEVEL_H
#define AICLUSTER_PROVISIONING_LEVEL_H

#include "provisioning-model.h"

#include "ns3/node-pool.h"

#include <array>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The running jobs' data flows kept between scheduling passes, for the case where one
 *        resource alone binds them: then every flow gets min(its cap, one level L).
 *
 * Under KSpeed's Spread every flow uses the pool's cores (one constraint for all pool nodes
 * when they are alike), and at a replay's defaults those cores are what binds; without a pool
 * (local, Alluxio) every flow that reads storage uses the backend, the level's resource then
 * (ProvisioningModel::LevelResource). Max-min
 * fairness is then a water level: the flows rise together in solver units until the cores
 * are full, each stopping at its cap, so L solves sum_f a_f min(c_f, L) = C, with a_f the
 * flow's weight on the cores. The flows are kept ordered by cap, split where their cap meets
 * the level, so an arrival or a departure costs O(log n) plus the flows the level crosses,
 * not a solve over every running flow.
 *
 * Every resource's load is kept as two sums over the split, capped + L x rising (the flows
 * below the split give weight x cap, those above weight x L), so its load at the level is
 * known at once. The level is the max-min allocation exactly when no other resource is over
 * capacity at it (the filling raises every load monotonically, so none saturated on the way):
 * OtherResourcesFit() says so, checking only the resources over capacity at full demand,
 * whose set is kept as flows come and go. One kind of other resource still gives a level: one
 * used by exactly the level's flows (the storage backend when every pool flow reads from it,
 * DPP's case). If the level overloads it, it saturates first in the filling and freezes every
 * rising flow at once, so the max-min allocation is again a level, its own (Binding() names
 * it). Otherwise the caller solves in full. The running sums are recomputed from the flows
 * every RefreshEvery() updates, so their rounding does not accumulate.
 */
class ProvisioningLevel
{
  public:
    /** A (job, node) flow, as ProvisioningModel::DescribeJob gives it. */
    using Flow = ProvisioningModel::LevelFlow;

    ProvisioningLevel() = default;
    /// Not copied: the kept jobs and the split hold iterators into the level's own tree.
    ProvisioningLevel(const ProvisioningLevel&) = delete;
    /// Not copied (see the copy constructor). \return never
    ProvisioningLevel& operator=(const ProvisioningLevel&) = delete;

    /**
     * \brief Forget every flow.
     * \param caps capacity of every resource a flow may use [its units per second]
     * \param level the resource that may bind (ProvisioningModel::kNoResource: none)
     */
    void Reset(std::vector<double> caps, uint32_t level);

    /**
     * \brief New capacities (gradient sync keeps part of the rails, say); the flows stay.
     * \param caps capacity of every resource, as for Reset
     */
    void SetCapacities(std::vector<double> caps);

    /**
     * \brief New capacities of some resources (those a node's rail reserve moved); the
     *        other resources' and the flows stay. Costs the resources named, not all.
     * \param caps capacity of every resource, as for Reset (at least as many)
     * \param moved the resources whose capacity may differ from the kept one
     */
    void SetCapacities(const std::vector<double>& caps, const std::vector<uint32_t>& moved);

    /**
     * \param job a job not kept yet (a kept one is replaced)
     * \param flows its flows (resource ids below caps.size())
     */
    void Add(uint64_t job, std::vector<Flow> flows);
    /** \param job a job kept (else nothing happens) */
    void Remove(uint64_t job);
    /**
     * \brief Hand over the flows of a job removed before, for their storage: a description
     *        filled into them (ProvisioningModel::DescribeJob) allocates nothing where they
     *        have room, and a Tiresias replay describes and removes 1,000,000 flows.
     * \param flows set to a removed job's flows if it has none and one is kept (else as it is)
     */
    void TakeSpareFlows(std::vector<Flow>& flows);
    /**
     * \param job a job
     * \return its kept flows, nullptr if it is not kept (valid until the next update)
     */
    const std::vector<Flow>* FlowsOf(uint64_t job) const;

    /**
     * \return the level L in solver units; +infinity when the level's resource fits every
     *         flow's cap (every flow gets its cap)
     */
    double Level();
    /**
     * \return true if, at the level Level() gave last, no resource but the one that gave it
     *         is over capacity (the level is then the max-min allocation)
     */
    bool OtherResourcesFit() const;

    /**
     * \return the resource whose capacity gave the level Level() returned last: the level's
     *         own, or one used by exactly the level's flows that it would overload;
     *         ProvisioningModel::kNoResource when that level was +infinity
     */
    uint32_t Binding() const
    {
        return m_binding;
    }

    /**
     * \param job a kept job
     * \return the least unit (samples/s per GPU per solver unit) of its flows that use the
     *         level's resource: at level L its GPUs receive min(demand, L x this); +infinity
     *         if none of its flows uses it
     */
    double SlowestUnit(uint64_t job) const;
    /** \param r a resource \return its load at full demand (sum of weight x cap) */
    double DemandOf(uint32_t r) const;
    /** \param r a resource \return its load at the level Level() gave last */
    double LoadOf(uint32_t r) const;
    /**
     * The LoadOf() sums of a node's rails, for a pass over every node: the level is read
     * once, and the sums get the same additions in the same order as LoadOf's would.
     * \param first first of the node's directed uplinks \param last one past its last
     * \param out set to 0 + each uplink's load, in order
     * \param in set to 0 + each uplink's reverse (id ^ 1) load, in order
     */
    void UplinkLoads(const uint32_t* first, const uint32_t* last, double& out, double& in) const;
    /**
     * \brief Group the resources in classes for BusiestShares (after Reset, which forgets
     *        them).
     * \param classOf per resource (as many as Reset's capacities): its class, below classes
     * \param classes number of classes
     */
    void SetClasses(const std::vector<uint8_t>& classOf, uint32_t classes);
    /**
     * \brief The busiest share (LoadOf(r) / capacity at the level Level() gave last) per class
     *        of resource, over the resources some flow uses.
     *
     * Kept incrementally: per class a tree over its resources holds, in every node, bounds
     * on the shares below it (largest capped load / capacity, largest rising load per unit
     * of L / capacity), refreshed only on the paths of the resources whose sums moved since
     * the last call. The call walks down from the root into the subtrees whose bound at L
     * exceeds the best share found so far and computes only the shares it reaches, each as
     * LoadOf(r) / capacity: the same numbers, so the same largest, as a pass over every used
     * resource (BusiestSharesScanned), bit for bit. When more sums moved since the last call
     * than a rebuild of the tree is worth (an Alluxio flow lists every node's resources), the
     * call is that pass (BusiestSharesByLoad), and the tree is rebuilt at a later call after
     * fewer moves.
     * \param busiest per class: the largest share, 0 if none is above 0 (output)
     * \param classes the classes to compute, a bit each (bit c: class c); the others are 0
     *        (a whole-cluster series that records a few classes need not walk the
     *        thousands of PCIe device links)
     */
    void BusiestShares(std::vector<double>& busiest, uint64_t classes = kAllClasses) const;
    /**
     * \brief BusiestShares computed from scratch: one pass over every used resource (the
     *        reference of the tests, and the answer when L is not a finite number >= 0).
     * \param busiest per class: the largest share, 0 if none is above 0 (output)
     * \param classes the classes to compute, a bit each; the others are 0
     */
    void BusiestSharesScanned(std::vector<double>& busiest, uint64_t classes = kAllClasses) const;
    /**
     * \brief BusiestSharesScanned's answer, bit for bit, with one division per class whose
     *        resources share one capacity (identical nodes): there the largest load gives the
     *        largest share, as a division by a positive number rounds monotonically.
     * \param busiest per class: the largest share, 0 if none is above 0 (output)
     * \param classes the classes to compute, a bit each; the others are 0
     */
    void BusiestSharesByLoad(std::vector<double>& busiest, uint64_t classes) const;
    /** Every class (BusiestShares); SetClasses allows at most 64 */
    static constexpr uint64_t kAllClasses = ~uint64_t(0);

    /**
     * \param c a class (SetClasses)
     * \return how many resources of class c some kept flow uses (0 before SetClasses)
     */
    uint32_t UsedInClass(uint32_t c) const
    {
        return c < m_usedInClass.size() ? m_usedInClass[c] : 0;
    }

    /** \param r a resource \return how many kept flows use it */
    uint32_t UsersOf(uint32_t r) const
    {
        return r < m_users.size() ? m_users[r] : 0;
    }

    /** \return the resources some kept flow uses (unordered) */
    const std::vector<uint32_t>& Used() const
    {
        return m_used;
    }

    /**
     * \return a count that moves whenever a resource's running sums (capped, rising, demand)
     *         may have moved: equal counts, the same sums to the bit
     */
    uint64_t SumsMoves() const
    {
        return m_sumsMoves;
    }

    /** \return updates between two recomputations of the running sums */
    static constexpr uint32_t RefreshEvery()
    {
        return 1024;
    }

  private:
    /** A flow on the level's resource, ordered by cap (ties by arrival). */
    struct Entry
    {
        double cap;       //!< c_f [solver units]
        uint64_t seq;     //!< arrival number (unique)
        const Flow* flow; //!< the flow (kept in its Job)

        /** \param o another entry \return true if this one comes first */
        bool operator<(const Entry& o) const
        {
            return cap < o.cap || (cap == o.cap && seq < o.seq);
        }
    };

    /** A kept job. */
    struct Job
    {
        std::vector<Flow> flows; //!< its flows
        /// per flow: its entry in m_byCap (flow null: none); inline for a job's first two
        /// flows (one per node it spans), so that most jobs' entries take no allocation
        boost::container::small_vector<Entry, 2> entries;
        /// per flow with an entry: where it sits in m_byCap, so that an erase need not search
        boost::container::small_vector<PooledSet<Entry>::iterator, 2> at;
        double slowestUnit; //!< see SlowestUnit()
    };

    /**
     * Per class of resource, a tournament tree of bounds on the shares (BusiestShares): one
     * for the loads at a finite level (capped + L x rising), one for the loads at full demand
     * (the level infinite). A leaf is one resource; an inner node holds the largest bounds of
     * its two children, so its bound holds for every share below it. The classes' trees
     * (SetClasses) lie one after the other in nodes: class c's node k (1: its root, its leaf
     * i at m_shareWidth[c] + i) is nodes[m_shareBase[c] + k].
     */
    struct ShareTree
    {
        /** The bounds of a node: every share below it is at most a + L x b, for L >= 0. */
        struct Bound
        {
            double a; //!< bound on the load at L = 0, over capacity
            double b; //!< bound on the load per unit of L, over capacity
        };

        std::vector<Bound> nodes; //!< every class's tree
        /// Per node: kNoTop (no leaf below is above 0), kMixed, or a resource whose share is
        /// the largest below it at every L >= from (at every L >= 0 when from is 0), bit for
        /// bit: every leaf above 0 below it has its capacity and sums at most its sums, or a
        /// load at most its load from that level on (JoinTops). A query computes that one share
        /// for the subtree: identical nodes tie by the hundred, and busy nodes tie with each
        /// other across idler ones between them (issue #13).
        std::vector<uint32_t> top;
        /// Per node whose top is a resource: the least L from which that share is the largest
        /// below it (0: at every L >= 0). Below it the query walks down: a busy node whose
        /// flows rise with L passes an idler one whose flows are capped higher at a level it
        /// computes (JoinTops), and the levels of a run lie far above most such crossings.
        std::vector<double> from;
        std::vector<uint32_t> dirty;  //!< resources whose sums moved since the last Flush
        std::vector<uint8_t> isDirty; //!< per resource: in dirty
        bool allDirty{true};          //!< every leaf to recompute (dirty no longer kept)
        /// per class: its tree to rebuild before it is read (Flush did not ask for it)
        std::vector<uint8_t> stale;
        /// marks since the tree was last used or rebuilt (a sum moved several times counts
        /// several times): many, and BusiestShares scans rather than rebuilds it
        uint64_t moved{0};
        uint64_t movedBefore{0}; //!< moved at the call before (scans while either is many)

        /**
         * \return how many moved leaves are many: past it a scan of the used resources costs
         * less than the walks up the tree from each (a walk is a dozen levels of bounds and
         * tops, a scan one share per resource). Measured on Philly: an Alluxio pass moves
         * 2,048 or more of 26,969 (every peer's resources), a DPP pass fewer than 32 in 94% of
         * the passes.
         */
        uint64_t Many() const
        {
            return isDirty.size() / 32;
        }

        /** \param r a resource whose sums (or capacity) moved */
        void Mark(uint32_t r)
        {
            ++moved;
            if (!allDirty && !isDirty[r])
            {
                isDirty[r] = 1;
                dirty.push_back(r);
                if (dirty.size() > Many())
                {
                    allDirty = true; // the paths cost more than a scan or a rebuild
                }
            }
        }

        /** \param all every leaf to recompute (else none) */
        void Clear(bool all);
    };

    /**
     * \param demand the loads at full demand (else capped + L x rising)
     * \param r a resource
     * \return bounds on its share
     */
    ShareTree::Bound LeafBound(bool demand, uint32_t r) const;
    /** No leaf below a node is above 0 (ShareTree::top). */
    static constexpr uint32_t kNoTop = ProvisioningModel::kNoResource;
    /** No leaf below a node has the largest share at every L (ShareTree::top). */
    static constexpr uint32_t kMixed = ProvisioningModel::kNoResource - 1;
    /**
     * \param r a resource \param bound its LeafBound
     * \return its ShareTree::top as a leaf
     */
    static uint32_t LeafTop(uint32_t r, const ShareTree::Bound& bound);
    /**
     * \param demand the loads at full demand (else capped + L x rising)
     * \param x a node's top \param fx its ShareTree::from
     * \param y its sibling's top \param fy the sibling's from
     * \param from set to the parent's ShareTree::from (output)
     * \return their parent's top: at the same capacity, the one whose sums are at least the
     *         other's, both ways (then its share is at least the other's at any L >= 0,
     *         rounding included: L x b, a + m and m / capacity round monotonically), or
     *         failing that the one whose rising sum is larger, from the level where its load
     *         passes the other's with room for the roundings (Passes); of the two, the one
     *         that tops both children from the lower level
     */
    uint32_t JoinTops(bool demand, uint32_t x, double fx, uint32_t y, double fy, double& from)
        const;
    /**
     * \param p a resource \param q another, of p's capacity
     * \return a level from which p's load at the level is at least q's, rounding included
     *         (0: at every level; +infinity: none found)
     */
    double Passes(uint32_t p, uint32_t q) const;
    /**
     * \brief Bring a share tree's nodes up to date with the sums, in the classes asked for
     *        (the others are brought up to date when they are asked for).
     * \param tree m_atLevel or m_atDemand
     * \param demand true for m_atDemand
     * \param classes the classes about to be read, a bit each
     */
    void Flush(ShareTree& tree, bool demand, uint64_t classes) const;
    /**
     * \brief Recompute one class's tree from its leaves up.
     * \param tree m_atLevel or m_atDemand \param demand true for m_atDemand \param c a class
     */
    void Rebuild(ShareTree& tree, bool demand, uint32_t c) const;

    /** \param l a node's bounds \param r its sibling's \return their parent's */
    static ShareTree::Bound JoinBounds(const ShareTree::Bound& l, const ShareTree::Bound& r)
    {
        return {std::max(l.a, r.a), std::max(l.b, r.b)};
    }

    /** \return whether bit c of classes is set (BusiestShares) */
    static bool Asked(uint64_t classes, uint32_t c)
    {
        return (classes >> c) & 1;
    }

    /**
     * \param tree an up-to-date share tree
     * \param level L for its bounds (0 for m_atDemand, whose bounds have b = 0)
     * \param busiest per class: the largest share, 0 for a class not asked for (output)
     * \param classes the classes to compute, a bit each
     */
    void Query(const ShareTree& tree,
               double level,
               std::vector<double>& busiest,
               uint64_t classes) const;

    /** \param r a resource whose demand or capacity moved (and so maybe all its sums) */
    void MarkBoth(uint32_t r) const
    {
        m_atLevel.Mark(r);
        m_atDemand.Mark(r);
    }

    /** \param r a resource whose capacity moves: its class's one capacity is found again */
    void ForgetClassCapacity(uint32_t r)
    {
        if (!m_classCap.empty())
        {
            m_classCap[m_classOf[r]] = std::numeric_limits<double>::quiet_NaN();
        }
    }

    /** \param e an entry in m_byCap \return true if it is below the split (capped) */
    bool Capped(const Entry& e) const;
    /**
     * \param flow a flow \param capped on the capped side (else rising) \param sign +1 to add
     * its load, -1 to take it away; its resources are marked in m_atLevel
     */
    void AddLoad(const Flow& flow, bool capped, double sign);
    /**
     * \brief Count a flow (enter) or take away what was counted (leave): its demand, its load
     *        on one side of the split and, if it is on the level's resource, its resources'
     *        level users, in one pass over its usage.
     * \param flow a flow (its resources checked) \param capped on the capped side (else
     * rising) \param onLevel it uses the level's resource \param enter count it (else take
     * it away)
     */
    void Count(const Flow& flow, bool capped, bool onLevel, bool enter);
    /**
     * \param job a job kept (else nothing happens)
     * \param keep if not null, set to its flows (else they are dropped)
     */
    void RemoveKeeping(uint64_t job, std::vector<Flow>* keep);
    /** \param r a resource that got its first user: list it in m_used */
    void ListUsed(uint32_t r);
    /** \param r a resource that lost its last user: take it out of m_used */
    void UnlistUsed(uint32_t r);
    /** \param r a resource \return true if it is not the level's and over capacity */
    bool Over(uint32_t r) const;
    /**
     * \param r a resource \param level a level L (+infinity: every flow at its cap)
     * \return r's load at L with the current split (capped + L x rising)
     */
    double LoadAt(uint32_t r, double level) const;
    /**
     * \param c a class
     * \return the one capacity of all of c's resources, if it is a finite number > 0; else 0
     */
    double ClassCapacity(uint32_t c) const;
    /**
     * \param c a class
     * \return the largest LoadOf() of c's resources, 0 if none is above 0 (the class's
     *         resources fill its leaves from the first, kNoResource after them)
     */
    double LargestLoad(uint32_t c) const;
    /**
     * \param r a resource
     * \return true if the flows using r are exactly the flows on the level's resource
     */
    bool CarriesTheLevelsFlows(uint32_t r) const;
    /**
     * \brief Move the split until the capped flows are those with cap <= L, for the level
     *        that fills resource r.
     * \param r a resource every flow on the level's resource uses (or the level's own)
     * \return the level L at which r is full (+infinity if the flows fit at their caps)
     */
    double WaterLevel(uint32_t r);
    /** Recompute every running sum from the kept flows. */
    void Refresh();
    /** Count an update; refresh every RefreshEvery(). */
    void Updated();

    std::vector<double> m_caps;
    uint32_t m_level{ProvisioningModel::kNoResource};
    PooledMap<uint64_t, Job> m_jobs;    //!< by id: refreshed sums in a fixed order
    PooledSet<Entry> m_byCap;           //!< flows on the level's resource, by cap
    PooledSet<Entry>::iterator m_split; //!< first entry on the rising side (cap > L)
    std::vector<double> m_capped;       //!< per resource: sum of weight x cap, capped flows
    std::vector<double> m_rising;       //!< per resource: sum of weight per unit of L, rising
    std::vector<double> m_demand;       //!< per resource: sum of weight x cap, every flow
    /// Refresh's scratch: per used resource, its sums (capped, rising, demand) before
    std::vector<std::array<double, 3>> m_sumsBefore;
    std::vector<uint32_t> m_users;       //!< per resource: flows using it
    std::vector<uint32_t> m_levelUsers;  //!< per resource: flows on the level's using it
    std::vector<uint32_t> m_used;        //!< resources with users, unordered
    std::vector<uint32_t> m_usedAt;      //!< per resource: its index in m_used
    std::set<uint32_t> m_over;           //!< resources but the level's over capacity
    uint64_t m_seq{0};                   //!< entries made
    uint32_t m_updates{0};               //!< since the last Refresh
    uint64_t m_sumsMoves{0};             //!< see SumsMoves()
    double m_lastLevel{0};               //!< what Level() returned last
    std::vector<uint8_t> m_classOf;      //!< per resource: its class (SetClasses)
    std::vector<uint32_t> m_usedInClass; //!< per class: its resources in m_used (SetClasses)
    uint32_t m_classes{0};               //!< number of classes (SetClasses)
    std::vector<uint32_t> m_shareBase;   //!< per class: its tree's node 0 in ShareTree::nodes
    std::vector<uint32_t> m_shareWidth;  //!< per class: its tree's leaves (a power of two)
    std::vector<uint32_t> m_leafRes;     //!< per class, per leaf (at m_shareBase / 2): resource
    std::vector<uint32_t> m_classSize;   //!< per class: its resources (its first leaves)
    std::vector<uint32_t> m_slotOf;      //!< per resource: its leaf in its class's tree
    /// per class: the one capacity of all its resources if that is a finite number > 0, else
    /// 0 (mixed); NaN while a capacity of the class moved since (ClassCapacity)
    mutable std::vector<double> m_classCap;
    std::vector<std::vector<Flow>> m_spareFlows; //!< removed jobs' flows (TakeSpareFlows)
    mutable ShareTree m_atLevel;  //!< shares at a finite level (kept up to date lazily)
    mutable ShareTree m_atDemand; //!< shares at full demand (kept up to date lazily)
    /// the resource that gave the last level (Binding())
    uint32_t m_binding{ProvisioningModel::kNoResource};
};

} // namespace ns3

#endif // AICLUSTER_PROVISIONING_LEVEL_H
