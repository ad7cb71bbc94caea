/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// Doxygen only: ns-3's doxygen run (doc/doxygen.conf of an ns-3 tree) reads every header
// under contrib/, so this file gives the module's \ingroup tags their group.

/**
 * \defgroup aicluster AI training clusters
 *
 * Whole-cluster simulation of AI training: production job traces replayed through a
 * rate-level cluster engine (model/cluster, model/trace) with three components, each
 * also modelled at packet level:
 *
 * - shared in-network aggregation on P4 switches with a bounded aggregator pool
 *   (ESA, ATP, SwitchML; model/ina),
 * - RDMA multi-rail data provisioning with the PCIe, host-memory and CPU bottlenecks
 *   (KSpeed, DPP, Alluxio, local loading; model/rdma, model/provisioning),
 * - disaggregated storage with per-job, per-dataset choice between local cache and
 *   remote IO bandwidth (CBA, AutoCBA and baselines; model/storage).
 *
 * helper/ holds the ClusterBuilder that composes them on one topology, the trace
 * replay and the sweep runner. The user documentation is in doc/*.md; doc/cluster.md
 * shows the whole cluster and the data flow from trace line to result file.
 */
