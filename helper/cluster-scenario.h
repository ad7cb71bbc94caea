/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_CLUSTER_SCENARIO_H
#define AICLUSTER_CLUSTER_SCENARIO_H

#include "ns3/cluster-builder.h"
#include "ns3/cluster-topology.h"
#include "ns3/storage-helper.h"
#include "ns3/strict-options.h"
#include "ns3/trace-annotator.h"
#include "ns3/trace-reader.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief Everything a whole-cluster trace replay needs, from a JSON scenario file and/or the
 *        command line (the command line wins). Fields and units: doc/scenario.md.
 */
struct ClusterScenario
{
    ClusterTopology topology;      //!< cluster shape
    std::string tracePath;         //!< trace file (default: the bundled sample)
    TraceReadOptions traceOptions; //!< format, window, filters, error policy
    std::string catalogPath;       //!< workload catalog ("" = bundled)
    AnnotatorOptions annotator;    //!< model rule and weights (seed = seed below)
    std::vector<std::string> policies{"fifo", "sjf", "tiresias"}; //!< policies to run, in order
    std::string placement{"consolidated"};                        //!< consolidated | spread
    /**
     * Gradient synchronisation: ideal (free, the trace's run time as recorded), none (ring
     * all-reduce over the network, no in-network aggregation), or in-network aggregation on
     * a switch per rack under switchml, atp or esa.
     */
    std::string ina{"ideal"};
    uint32_t inaPoolSize{0}; //!< aggregators per switch; 0 = ns3::InaGradientSync::PoolSize
    /**
     * Data provisioning: ideal (never stalls), or a loader on the rail fabric (local, dpp,
     * alluxio, kspeed: doc/provisioning.md). With a storage policy too, the loader reads its
     * misses from the storage tier (StagedDataLoading, doc/cluster.md).
     */
    std::string provisioning{"ideal"};
    uint32_t provisioningPoolNodes{0}; //!< provisioning (DPP) pool nodes; 0 = model default
    StorageOptions storage;            //!< storage.policy "ideal" = no storage model
    bool storageEnabled{false};        //!< a storage policy other than ideal was chosen
    uint64_t seed{1};                  //!< ns-3 RngSeed and annotator seed
    uint64_t run{1};                   //!< ns-3 RngRun
    std::string outputDir{"results/trace-replay"}; //!< one sub-directory per policy
    std::map<std::string, std::string> attributes; //!< ns-3 attribute defaults to set

    ClusterScenario();

    /**
     * \param path a JSON scenario file
     * \return the scenario: defaults overridden by the file's fields
     * \throws TraceError naming the file and the field on a missing file, bad JSON,
     *         an unknown field or a value of the wrong kind
     */
    static ClusterScenario Load(const std::string& path);

    /** \return the bundled sample trace's path */
    static std::string DefaultTracePath();

    /**
     * \brief Register the scenario's fields as command-line options (they override the file).
     * \param cmd the command line to add to
     */
    void AddCommandLineOptions(StrictCommandLine& cmd);

    /**
     * \brief Check values and turn the command line's text fields into typed ones.
     * \throws std::invalid_argument naming the option and what was expected
     */
    void Finalize();

    /** \brief Config::SetDefault every entry of attributes (before objects are created). */
    void ApplyAttributes() const;

    /**
     * \return a ClusterBuilder describing this scenario's cluster and components (its other
     *         attributes keep their defaults or what --ns3::ClusterBuilder::... set)
     * \param scheduler the scheduling policy's short name (one of policies)
     */
    Ptr<ClusterBuilder> Builder(const std::string& scheduler) const;

    /**
     * \brief Read the trace with the scenario's filters and print what was kept and dropped.
     * \param out where the trace report goes
     * \param report if not null, receives the counts
     * \return the jobs kept
     * \throws TraceError naming the trace when no job is left after the filters
     */
    std::vector<JobRecord> ReadJobs(std::ostream& out, TraceReadReport* report = nullptr) const;

    /** \return the workload catalog: catalogPath's file, or the bundled catalog when empty */
    WorkloadCatalog Catalog() const;

    /**
     * \return every field as (dotted scenario-file key, command-line option without "--"; ""
     *         when the field has none), in the order files are read (doc/scenario.md lists
     *         them all)
     */
    static std::vector<std::pair<std::string, std::string>> FieldNames();

    /** \return the scenario as flat "key" -> value text, for result files */
    std::map<std::string, std::string> Settings() const;

  private:
    friend struct ScenarioFields; // the field table (cluster-scenario.cc) binds the text forms

    // Text forms of the list/enum fields, bound to the command line.
    std::string m_policiesText;
    std::string m_vcsText;
    std::string m_onErrorText;
    std::string m_windowEndText;
    // Signed copies of the counts, so that "--nodes=-3" is an error rather than 4294967293.
    int64_t m_nodes{0};
    int64_t m_gpusPerNode{0};
    int64_t m_nodesPerRack{0};
    std::string m_storagePolicyText{"ideal"};
};

/**
 * \param text a comma-separated list, as typed on a command line
 * \return its items in order, empty items dropped
 */
std::vector<std::string> SplitList(const std::string& text);

/**
 * \param argc argument count, as main() got it
 * \param argv the arguments
 * \return the command line as typed (arguments joined by spaces), for result files
 */
std::string CommandLineText(int argc, char* argv[]);

} // namespace ns3

#endif // AICLUSTER_CLUSTER_SCENARIO_H
