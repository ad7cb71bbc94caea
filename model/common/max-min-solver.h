/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_MAX_MIN_SOLVER_H
#define AICLUSTER_MAX_MIN_SOLVER_H

#include "ns3/huge-pages.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Weighted max-min fair rates by progressive filling (water-filling), recomputed
 * incrementally.
 *
 * Resources have capacities; a flow uses a set of resources, each with a weight (bytes of
 * that resource per byte of flow rate, e.g. 1 for the data direction of a link, the ACK
 * fraction for the reverse direction), and may have its own rate cap. All rates rise
 * together until a resource saturates or a flow reaches its cap; those flows freeze; repeat.
 * Priority usages (ACKs on a strict-priority class) count against a resource's capacity
 * while it fills but do not freeze their flow when it saturates; once a resource's
 * constrained flows are frozen, later growth of priority load on it is not charged (at most
 * the ACK share, 62/(MTU+62), of that growth). The allocation decomposes over connected components
 * of the flow-resource graph, so when a flow starts or ends only its component is refilled.
 *
 * Flows with identical usages, priority usages and cap always get the same rate, so they are
 * solved as one class with a multiplicity (SetMergeIdenticalFlows). Each refill copies its
 * component into contiguous arrays (resources renumbered locally) and fills there, reusing
 * the buffers from one solve to the next. Results equal MaxMinReferenceSolver's
 * (test/max-min-reference-solver.h) up to floating-point summation order.
 */
class MaxMinSolver
{
  public:
    /** A flow's use of one resource: (resource id, weight) */
    using Usage = std::pair<uint32_t, double>;

    /** \param capacities per resource, units per second (> 0) */
    explicit MaxMinSolver(std::vector<double> capacities);

    /**
     * Start again as a solver constructed with these capacities (no flows, default
     * settings), keeping the buffers it has allocated: same results as a new one.
     * \param capacities per resource, units per second (> 0)
     */
    void Reset(const std::vector<double>& capacities);

    /**
     * Add a flow (rates are updated by the next Solve()).
     * \param usage resources and weights (weights > 0) that constrain the flow
     * \param cap rate cap (> 0)
     * \param priorityUsage resources the flow loads with strict priority (its ACKs): they
     *        take capacity from the others but never hold this flow back
     * \return flow handle
     */
    uint32_t AddFlow(const std::vector<Usage>& usage,
                     double cap,
                     const std::vector<Usage>& priorityUsage = {});
    /** \param flow handle of an active flow to remove */
    void RemoveFlow(uint32_t flow);
    /** Refill the components touched since the last call. */
    void Solve();
    /** Refill everything from scratch (for benchmarks and checks). */
    void SolveAll();

    /** \param flow handle \return its rate (0 before the first Solve) */
    double GetRate(uint32_t flow) const
    {
        const FlowRec& f = m_flows.at(flow);
        return f.active && f.rated ? m_classes[f.cls].rate : 0.0;
    }

    /**
     * The loads of all resources are computed together, in one pass over the classes, the
     * first time one is asked for after a change; later calls read them.
     * \param resource id
     * \return sum of weight x rate of its flows (those a Solve() has rated)
     */
    double GetLoad(uint32_t resource) const;

    /**
     * Whether a resource is loaded to its capacity, less a relative margin: the answer of
     * GetLoad(resource) >= GetCapacity(resource) x (1 - relTol), without the pass over every
     * class's usages GetLoad's first call after a solve makes. Where the last fill covered the
     * resource and nothing changed on it since, it reads the capacity that fill left over;
     * elsewhere (a skipped fill, flows added or removed since) it asks GetLoad. The leftover
     * subtracts the same products the load adds, in another order, so the two can answer
     * differently only for a load within rounding (~1e-13 relative) of the threshold.
     * \param resource id
     * \param relTol margin, relative to the capacity
     * \return whether the load is at least capacity x (1 - relTol)
     */
    bool IsFull(uint32_t resource, double relTol) const;

    /**
     * \param resource id
     * \return sum of weight x cap of its flows (constrained and priority usages): the load
     *         if every flow got its cap, kept up to date as flows come and go
     */
    double GetDemand(uint32_t resource) const
    {
        return m_res.at(resource).demand;
    }

    /**
     * \return whether a resource with this summed demand (members' weight x cap) is over its
     *         capacity, less a 1e-9 margin: the test that decides whether Solve fills at all
     *         (a caller that sums the same demands in the same order can skip building the
     *         problem when it says no)
     */
    static bool IsOver(double demand, double capacity)
    {
        return demand > capacity * (1 - 1e-9);
    }

    /** \return resources whose demand exceeds their capacity (IsOver) */
    uint32_t GetNOverloaded() const
    {
        return m_overloaded;
    }

    /**
     * \param skip when no resource's demand exceeds its capacity (GetNOverloaded() == 0),
     *        let Solve() give every flow of the refilled component its cap instead of
     *        filling (default true). The rates are the same: with every demand strictly
     *        within capacity, progressive filling freezes each class at its cap.
     */
    void SetSkipFillWhenFeasible(bool skip)
    {
        m_skipFeasible = skip;
    }

    /** \return Solve() calls that skipped the fill because nothing was overloaded */
    uint64_t GetNSkippedFills() const
    {
        return m_skippedFills;
    }

    /** \param resource id \return capacity */
    double GetCapacity(uint32_t resource) const
    {
        return m_res.at(resource).cap;
    }

    /** \return flows whose rates the last Solve() recomputed */
    const std::vector<uint32_t>& GetLastComponent() const
    {
        return m_component;
    }

    /** \return number of active flows */
    uint32_t GetNActiveFlows() const
    {
        return m_active;
    }

    /** \return number of resources */
    uint32_t GetNResources() const
    {
        return static_cast<uint32_t>(m_res.size());
    }

    /**
     * \param merge solve flows with identical usages, priority usages and cap as one class
     *        (default true); false gives every flow its own class. Only without flows.
     */
    void SetMergeIdenticalFlows(bool merge);

    /** \return flow classes (distinct usage sets) among the active flows */
    uint32_t GetNClasses() const
    {
        return m_liveClasses;
    }

  private:
    static constexpr uint32_t kNone = 0xffffffffu;
    /// distinct weights looked up in m_weightIndex; later ones are stored without lookup
    static constexpr uint32_t kWeightsIndexed = 1024;

    struct FlowRec
    {
        uint32_t cls{kNone};
        uint32_t prev{kNone}; //!< previous member of the class
        uint32_t next{kNone}; //!< next member of the class
        bool active{false};
        bool rated{false}; //!< a Solve() has computed its rate since it was added
    };

    /**
     * Flows with the same usages, priority usages and cap: the part of the record the fill's
     * freezes read and write, in 32 aligned bytes. The freezes visit classes in the order of a
     * resource's list, at random in memory: one cache line per record instead of the two that
     * most 56-byte records straddled. The rest is in ClassInfo.
     */
    struct alignas(32) Class
    {
        uint64_t pool{0};  //!< first of its usages in m_pool (priority usages follow)
        uint32_t nUse{0};  //!< constraining usages
        uint32_t nPrio{0}; //!< priority usages
        uint32_t mult{0};  //!< member flows
        uint32_t rated{0}; //!< member flows a Solve() has rated
        double rate{0};
    };

    /** The rest of a class's record (Class): read per class, not per freeze */
    struct ClassInfo
    {
        uint64_t key{0}; //!< hash of usages and cap
        double cap{0};
        uint32_t head{kNone}; //!< first member flow
    };

    struct Resource
    {
        double cap{0};
        std::vector<uint32_t> classes;         //!< classes constrained by this resource
        std::vector<uint32_t> priorityClasses; //!< classes loading it with priority
        double demand{0};                      //!< sum of weight x cap of its flows
        bool dirty{false};
        bool over{false}; //!< IsOver(demand, capacity)
    };

    uint32_t FindOrCreateClass(const std::vector<Usage>& usage,
                               const std::vector<Usage>& priority,
                               double cap);
    uint32_t WeightIndex(double w);
    void ReleaseClass(uint32_t c);
    void CompactPool();
    void MarkDirty(uint32_t c);
    void AddDemand(uint32_t c, double sign);
    void MarkRated(uint32_t f);
    void ComputeLoads() const;
    /** Every resource its own component again (no classes, or after Reset) */
    void RestartSets();
    /** \param r resource \return the root of its component (union-find, path halving) */
    uint32_t FindSet(uint32_t r);
    /** \param c a new class: joins the components of its resources and counts it there */
    void JoinSets(uint32_t c);
    /**
     * \return the live classes of the components the changed (dirty) resources belong to, if
     *         the components are tracked (no class released since RestartSets), else 0
     */
    uint32_t DirtyComponentClasses();
    void CollectComponent();
    /** Progressive filling of the component's classes (m_componentClass): sets their rates */
    void Fill();
    /**
     * Starts a fill: every resource of the component at its capacity, no class frozen.
     * \return the lowest cap of the component's classes
     */
    double StartFill();
    /** Queues the component's resources with unfrozen weight at their levels (after SumWeights) */
    void QueueLevels();
    /** Drops the top of the level heap */
    void PopHeap();
    /** Drops spent resources and re-keys stale levels until the heap's top is current */
    void SettleTop();
    /** Heaps the caps of the component's classes not frozen yet */
    void BuildCapHeap();
    /**
     * Freezes class c at rate: takes its usages off its resources' capacity and weights.
     * \param c the class \param rate its rate
     */
    void Freeze(uint32_t c, double rate);
    /** \param level the current fill level \return classes frozen at their caps up to it */
    std::size_t FreezeCapped(double level);
    /**
     * Freezes the classes of every resource that saturates at level.
     * \param level the current fill level \return the classes frozen
     */
    std::size_t FreezeSaturated(double level);
    /**
     * Ends a fill: marks the leftovers current, and lays the pool out in freeze order when the
     * fill read it scattered (RelayoutPool).
     * \param everyClass the fill covered every live class \param allFrozen every class froze
     */
    void FinishFill(bool everyClass, bool allFrozen);

    /** \param r a resource \return its fill level now: capacity left over unfrozen weight */
    double LevelOf(uint32_t r) const
    {
        return std::max(0.0, m_left[r]) / (m_weight[r] + std::max(0.0, m_prioWeight[r]));
    }

    /**
     * Sets m_weight and m_prioWeight of the component's resources to their sums over the
     * component's classes (m_componentClass), in that order; where the component is every live
     * class, from the kept sums of the resources nothing changed on.
     * \return whether the sums cover every live class (and were kept)
     */
    bool SumWeights();
    /** Copies the usages into a new pool in m_freezeOrder's order (every live class) */
    void RelayoutPool();

    /// the large per-class and per-usage arrays, read at random: huge pages (HugePageAllocator)
    template <class T>
    using HugeVector = std::vector<T, HugePageAllocator<T>>;

    HugeVector<FlowRec> m_flows;
    std::vector<uint32_t> m_freeFlows;
    HugeVector<Class> m_classes;
    HugeVector<ClassInfo> m_classInfo;  //!< indexed as m_classes
    std::vector<uint32_t> m_classStamp; //!< BFS marks, apart from m_classes to stay in cache
    std::vector<uint32_t> m_freeClasses;
    std::unordered_multimap<uint64_t, uint32_t> m_byKey; //!< key -> class

    /** One usage in the pool: weights are few distinct values, stored once */
    struct PoolEntry
    {
        uint32_t res;
        uint32_t weight; //!< index in m_weights
    };

    /**
     * Appends class k's usages to a new pool and points k at them there (CompactPool,
     * RelayoutPool)
     * \param k a live class \param pool the new pool
     */
    void CopyUsages(Class& k, HugeVector<PoolEntry>& pool) const;

    HugeVector<PoolEntry> m_pool;                         //!< usages of all classes, 8 bytes each
    std::vector<double> m_weights;                        //!< distinct weights
    std::unordered_map<uint64_t, uint32_t> m_weightIndex; //!< weight bits -> index
    uint64_t m_poolDead{0};                               //!< pool entries of released classes
    std::vector<Resource> m_res;
    std::vector<uint32_t> m_resStamp;
    std::vector<uint32_t> m_dirty;
    std::vector<uint32_t> m_component;      //!< flows of the component(s) being refilled
    std::vector<uint32_t> m_componentClass; //!< their classes
    std::vector<uint32_t> m_componentRes;   //!< their resources (local index -> global id)
    uint32_t m_stamp{0};
    uint32_t m_active{0};
    uint32_t m_liveClasses{0};
    bool m_merge{true};
    bool m_skipFeasible{true};
    uint32_t m_overloaded{0};            //!< resources with Resource::over set
    uint64_t m_skippedFills{0};          //!< Solve() calls that gave every flow its cap
    mutable std::vector<double> m_loads; //!< GetLoad's values, valid while m_loadsValid
    mutable bool m_loadsValid{false};

    uint32_t m_nonEmptyRes{0}; //!< resources some class uses

    // The connected components of the resources while classes are only added (they merge,
    // never split): CollectComponent learns from them, without walking, that the changed
    // components hold more than a quarter of the classes and the refill takes everything.
    std::vector<uint32_t> m_setParent;  //!< union-find parent of each resource
    std::vector<uint32_t> m_setClasses; //!< at a root: live classes of its component
    bool m_setsTracked{true};           //!< no class released since RestartSets

    // Fill state, indexed by resource or class id (only the component's entries are set).
    std::vector<double> m_left;        //!< capacity not yet allocated
    std::vector<double> m_weight;      //!< weight of unfrozen constrained flows
    std::vector<double> m_prioWeight;  //!< priority weight of unfrozen flows
    std::vector<char> m_frozen;        //!< per class
    std::vector<uint32_t> m_stack;     //!< BFS stack of CollectComponent
    std::vector<uint32_t> m_saturated; //!< resources saturating in the current round
    /// classes of one resource's list still to visit: not frozen yet (Fill), not reached yet
    /// (CollectComponent)
    std::vector<uint32_t> m_todo;
    std::vector<std::pair<double, uint32_t>> m_capHeap; //!< (cap, class), min-heap
    /// per resource: m_left is its capacity less its current load (a fill that froze every
    /// class covered it and nothing changed on it since), which IsFull reads
    std::vector<char> m_leftCurrent;

    // The fill's starting weight sums, kept from the last fill of every live class (the
    // classes in id order, as Fill sums them): a resource keeps its sums until a class using it
    // changes (MarkDirty), and the next such fill re-sums only the changed ones.
    std::vector<double> m_weightSum;     //!< per resource: sum of weight x mult, constrained
    std::vector<double> m_prioWeightSum; //!< per resource: the same over priority usages
    std::vector<char> m_sumCurrent;      //!< per resource: the two sums above are current
    std::vector<uint32_t> m_resum;       //!< classes of the resources to re-sum

    // The usage pool in the order the last fill froze the classes (RelayoutPool): the next
    // fills, which freeze in nearly the same order, read it nearly in sequence.
    std::vector<uint32_t> m_freezeOrder; //!< classes in the order the current fill froze them
    /// fills of every class since the last RelayoutPool (kNone: none yet)
    uint32_t m_fillsSinceRelayout{kNone};
    bool m_relayoutOff{false}; //!< a relayout did not hold for 8 such fills

    /** A resource's fill level when queued (a lower bound of its current level) */
    struct HeapEntry
    {
        double level;
        uint32_t res;
    };

    /** The level heap's order: the lowest level on top, ties by resource id */
    struct Later
    {
        /** \param a an entry \param b another \return whether a comes after b */
        bool operator()(const HeapEntry& a, const HeapEntry& b) const
        {
            return std::tie(a.level, a.res) > std::tie(b.level, b.res);
        }
    };

    std::vector<HeapEntry> m_heap; //!< min-heap of resource levels, re-keyed lazily
    uint64_t m_fillJumps{0};       //!< freezes of this fill whose usages did not follow the last
    uint64_t m_fillNextPool{0};    //!< where the usages of a class frozen in sequence start
};

} // namespace ns3

#endif // AICLUSTER_MAX_MIN_SOLVER_H
