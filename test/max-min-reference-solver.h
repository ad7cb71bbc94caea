/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_MAX_MIN_REFERENCE_SOLVER_H
#define AICLUSTER_TEST_MAX_MIN_REFERENCE_SOLVER_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The original flow-by-flow MaxMinSolver (one fill entry per flow, node-based
 * containers), kept unchanged as the oracle for tests and the baseline of rdma-bench: it lives with
 * the tests, not in the library.
 *
 * Same interface and results as MaxMinSolver; MaxMinSolver is the one to use.
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
 */
/**
 * \brief A flow as the max-min tests give it to both solvers: its usages, its priority usages
 * (ACKs) and its cap (MaxMinSolver::AddFlow's arguments).
 */
struct MaxMinFlowSpec
{
    std::vector<std::pair<uint32_t, double>> usage;    //!< (resource, weight)
    std::vector<std::pair<uint32_t, double>> priority; //!< (resource, weight), strict priority
    double cap;                                        //!< the flow's own rate cap
};

class MaxMinReferenceSolver
{
  public:
    /** A flow's use of one resource: (resource id, weight) */
    using Usage = std::pair<uint32_t, double>;

    /** \param capacities per resource, units per second (> 0) */
    explicit MaxMinReferenceSolver(std::vector<double> capacities);

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
        return m_flows.at(flow).rate;
    }

    /** \param resource id \return sum of weight x rate of its flows */
    double GetLoad(uint32_t resource) const;

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

  private:
    struct Flow
    {
        std::vector<Usage> usage;
        std::vector<Usage> priority;
        double cap{0};
        double rate{0};
        bool active{false};
        bool frozen{false};
        uint32_t stamp{0};
    };

    struct Resource
    {
        double cap{0};
        std::vector<uint32_t> flows;         //!< flows constrained by this resource
        std::vector<uint32_t> priorityFlows; //!< flows loading it with priority
        bool dirty{false};
        uint32_t stamp{0};
        double left{0};
        double weight{0};
        double priorityWeight{0};
        uint32_t version{0}; //!< invalidates stale heap entries
        uint32_t touched{0}; //!< last fill round that changed this resource
    };

    void CollectComponent();
    void Fill();

    std::vector<Flow> m_flows;
    std::vector<uint32_t> m_freeFlows;
    std::vector<Resource> m_res;
    std::vector<uint32_t> m_dirty;
    std::vector<uint32_t> m_component;    //!< flows of the component(s) being refilled
    std::vector<uint32_t> m_componentRes; //!< their resources
    uint32_t m_stamp{0};
    uint32_t m_round{0}; //!< fill rounds so far (marks touched resources)
    uint32_t m_active{0};
};

} // namespace ns3

#endif // AICLUSTER_TEST_MAX_MIN_REFERENCE_SOLVER_H
