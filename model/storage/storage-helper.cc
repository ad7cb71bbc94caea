/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "storage-helper.h"

#include "auto-cba-sizing.h"
#include "cba-policy.h"

#include "ns3/boolean.h"
#include "ns3/component-registry.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{

void
RequireNonNegative(double x, const std::string& option)
{
    if (!std::isfinite(x) || x < 0)
    {
        throw std::invalid_argument("storage option " + option +
                                    ": expected a finite number >= 0, got " + std::to_string(x));
    }
}

} // namespace

void
StorageOptions::Validate() const
{
    StorageAllocationPolicy::TypeNameOf(policy); // throws on an unknown one, listing them all
    RequireNonNegative(cacheBytes, "cache size");
    if (!(bandwidth > 0) || !std::isfinite(bandwidth))
    {
        throw std::invalid_argument("storage option bandwidth: expected a number > 0 [bytes/s], "
                                    "got " +
                                    std::to_string(bandwidth));
    }
    RequireNonNegative(clientBandwidth, "client bandwidth");
    RequireNonNegative(ioBudgetPerHour, "io budget");
    if (medium != "ssd" && medium != "memory")
    {
        throw std::invalid_argument("storage option cache medium: expected ssd or memory, got '" +
                                    medium + "'");
    }
    JobUtility::KindOf(utility);
    if (!(deadlineSlack >= 1))
    {
        throw std::invalid_argument("storage option deadline slack: expected >= 1, got " +
                                    std::to_string(deadlineSlack));
    }
}

StorageHelper::StorageHelper(const StorageOptions& options)
    : m_options(options)
{
    m_options.Validate();
}

std::vector<std::string>
StorageHelper::PolicyNames()
{
    return StorageAllocationPolicy::Names();
}

Ptr<StorageDataLoading>
StorageHelper::Install(Ptr<ClusterEngine> engine,
                       const std::vector<JobRecord>& jobs,
                       const TraceAnnotator& annotator) const
{
    const StorageOptions& o = m_options;
    ObjectFactory factory(StorageAllocationPolicy::TypeNameOf(o.policy));
    Ptr<StorageAllocationPolicy> policy = factory.Create<StorageAllocationPolicy>();
    // The GPU sizing the choice brings (autocba: AutoCbaSizing), from the one alias table.
    const std::string& sizingType = ComponentRegistry::Find("storage", o.policy).jobSizing;
    if (Ptr<CbaPolicy> cba = DynamicCast<CbaPolicy>(policy))
    {
        cba->SetAttribute("Budget", DoubleValue(o.ioBudgetPerHour));
    }
    Ptr<StorageBackend> backend = CreateObject<StorageBackend>();
    backend->SetAttribute("AggregateBandwidth", DataRateValue(DataRate(uint64_t(o.bandwidth * 8))));
    backend->SetAttribute("ClientBandwidth",
                          DataRateValue(DataRate(uint64_t(o.clientBandwidth * 8))));
    if (o.bandwidthPrice >= 0)
    {
        backend->SetAttribute("BandwidthPrice", DoubleValue(o.bandwidthPrice));
    }
    Ptr<CacheTier> cache = CreateObject<CacheTier>();
    cache->SetAttribute("Capacity", DoubleValue(o.cacheBytes));
    cache->SetAttribute("Medium",
                        EnumValue(o.medium == "memory" ? CacheTier::MEMORY : CacheTier::SSD));
    cache->SetAttribute("Price", DoubleValue(o.cachePrice));

    Ptr<StorageDataLoading> model = CreateObject<StorageDataLoading>();
    model->SetPolicy(policy);
    model->SetBackend(backend);
    model->SetCacheTier(cache);
    model->SetAttribute("Prefetch", BooleanValue(o.prefetch));
    model->AddDatasetsOf(jobs, annotator);
    engine->SetDataLoadingModel(model);
    if (!sizingType.empty())
    {
        Ptr<AutoCbaSizing> sizing = ObjectFactory(sizingType).Create<AutoCbaSizing>();
        sizing->SetAttribute("Utility", StringValue(o.utility));
        sizing->SetAttribute("DeadlineSlack", DoubleValue(o.deadlineSlack));
        sizing->SetStorage(model);
        engine->SetAttribute("JobSizingPolicy", PointerValue(sizing));
    }
    return model;
}

StorageRunSummary
StorageHelper::Summarize(Ptr<const ClusterEngine> engine,
                         Ptr<StorageDataLoading> model,
                         const StorageOptions& options)
{
    model->Settle();
    const StorageTotals& t = model->Totals();
    StorageRunSummary s;
    s.policy = options.policy;
    s.ioCost = t.IoCost();
    s.bandwidthCost = t.bandwidthCost + t.prefetchCost;
    s.cacheCost = t.cacheCost;
    s.hitRatio = t.HitRatio();
    s.meanBandwidth = t.activeSeconds > 0 ? t.bytesRemote / t.activeSeconds : 0.0;
    s.peakBandwidth = t.peakBandwidth;
    s.peakCache = t.peakCache;
    s.solves = t.solves;
    double jctSum = 0;
    double firstSubmit = std::numeric_limits<double>::infinity();
    double lastFinish = 0;
    for (const auto& job : engine->Jobs())
    {
        firstSubmit = std::min(firstSubmit, job->record.submitTime);
        if (job->state != ClusterJob::FINISHED)
        {
            continue;
        }
        ++s.finished;
        double jct = job->finishTime - job->record.submitTime;
        jctSum += jct;
        lastFinish = std::max(lastFinish, job->finishTime);
        // Ideal: the job's work at compute speed on the GPUs it asked for.
        double ideal = job->record.iterations * job->profile->ComputeTime(job->record.numGpus);
        s.welfareLinear += jct > 0 ? ideal / jct : 1.0;
        s.welfareDeadline += jct <= options.deadlineSlack * ideal * (1 + 1e-9) ? 1.0 : 0.0;
    }
    s.meanJct = s.finished ? jctSum / s.finished : 0.0;
    s.makespan = s.finished ? lastFinish - firstSubmit : 0.0;
    return s;
}

} // namespace ns3
