/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "staged-data-loading.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StagedDataLoading");
NS_OBJECT_ENSURE_REGISTERED(StagedDataLoading);

TypeId
StagedDataLoading::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StagedDataLoading")
                            .SetParent<ReportingTermModel>()
                            .SetGroupName("Aicluster")
                            .AddConstructor<StagedDataLoading>();
    return tid;
}

StagedDataLoading::StagedDataLoading()
{
    NS_LOG_FUNCTION(this);
}

StagedDataLoading::~StagedDataLoading()
{
    NS_LOG_FUNCTION(this);
}

void
StagedDataLoading::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_slots.clear();
    m_storage = nullptr;
    m_loader = nullptr;
    IterationTermModel::DoDispose();
}

void
StagedDataLoading::SetStages(Ptr<StorageDataLoading> storage, Ptr<ProvisioningDataLoading> loader)
{
    NS_LOG_FUNCTION(this << storage << loader);
    if (!storage || !loader)
    {
        throw std::invalid_argument("StagedDataLoading::SetStages: a stage is null");
    }
    m_storage = storage;
    m_loader = loader;
    // Composed terms are not proportional to one shared pace: every change comes as a term.
    m_storage->SetAttribute("SharedPace", BooleanValue(false));
    m_loader->SetAttribute("PaceGroups", BooleanValue(false));
    m_storage->SetChangeCallback(MakeCallback(&StagedDataLoading::OnStageChanged, this));
    m_storage->SetJobsChangedCallback(MakeCallback(&StagedDataLoading::OnStageJobsChanged, this));
    m_loader->SetChangeCallback(MakeCallback(&StagedDataLoading::OnStageChanged, this));
}

Ptr<StorageDataLoading>
StagedDataLoading::GetStorageStage() const
{
    return m_storage;
}

Ptr<ProvisioningDataLoading>
StagedDataLoading::GetLoaderStage() const
{
    return m_loader;
}

void
StagedDataLoading::JobStopped(const ClusterJob& job)
{
    NS_LOG_FUNCTION(this << job.record.id);
    m_storage->JobStopped(job);
    if (m_slots.erase(job.record.id) > 0)
    {
        m_runningChanged = true;
    }
}

void
StagedDataLoading::OnStageChanged()
{
    NotifyChanged();
}

void
StagedDataLoading::OnStageJobsChanged()
{
    NotifyJobsChanged();
}

bool
StagedDataLoading::DependsOnOtherJobs() const
{
    return true;
}

bool
StagedDataLoading::ReportsChanges() const
{
    return true;
}

double
StagedDataLoading::Compose(const Stages& s)
{
    // A checkpoint write stops the job whatever its loader caches (writes bypass the loader).
    return std::max({s.loader, s.miss * s.storage, s.checkpoint});
}

const StagedDataLoading::Stages*
StagedDataLoading::StagesOf(uint64_t id) const
{
    auto it = m_slots.find(id);
    return it == m_slots.end() ? nullptr : &it->second.stages;
}

void
StagedDataLoading::Evaluate(const ClusterTopology& topology,
                            const std::vector<Ptr<const ClusterJob>>& running,
                            std::vector<double>& seconds)
{
    NS_LOG_FUNCTION(this << running.size());
    if (!m_storage || !m_loader)
    {
        throw std::logic_error("StagedDataLoading: call SetStages(storage, loader) first");
    }
    for (const auto& job : running)
    {
        auto [it, added] = m_slots.try_emplace(job->record.id);
        if (added)
        {
            it->second.job = job;
            m_runningChanged = true;
        }
    }
    // Storage stage: the subjects' terms, then whatever else it moved.
    std::vector<double> storage(running.size(), 0.0);
    m_storage->Evaluate(topology, running, storage);
    for (size_t i = 0; i < running.size(); ++i)
    {
        Stages& stages = m_slots[running[i]->record.id].stages;
        stages.storage = storage[i];
        stages.checkpoint = m_storage->CheckpointTerm(running[i]->record.id);
    }
    m_scratch.clear();
    m_storage->TakeChanges(m_scratch);
    for (const auto& change : m_scratch)
    {
        auto it = m_slots.find(change.job->record.id);
        if (it != m_slots.end())
        {
            it->second.stages.storage = change.seconds;
            it->second.stages.checkpoint = m_storage->CheckpointTerm(change.job->record.id);
        }
    }
    m_scratch.clear();
    // Loader stage: the whole running set, when it changed.
    if (m_runningChanged && !m_slots.empty())
    {
        std::vector<Ptr<const ClusterJob>> all;
        all.reserve(m_slots.size());
        for (const auto& [id, slot] : m_slots)
        {
            all.push_back(slot.job);
        }
        std::vector<double> loader(all.size(), 0.0);
        m_loader->Evaluate(topology, all, loader);
        const auto& results = m_loader->LastResults();
        size_t k = 0;
        for (auto& [id, slot] : m_slots)
        {
            slot.stages.loader = loader[k];
            if (k < results.size())
            {
                const CachePlan& c = results[k].cache;
                slot.stages.miss = std::clamp(1.0 - c.rawHit - c.decodedHit, 0.0, 1.0);
                slot.stages.loaderBottleneck = results[k].bottleneck;
            }
            ++k;
        }
    }
    m_runningChanged = false;
    // Compose: the subjects get their terms here, everyone else whose term moved a change.
    for (size_t i = 0; i < running.size(); ++i)
    {
        Slot& slot = m_slots[running[i]->record.id];
        seconds[i] = Compose(slot.stages);
        slot.reported = seconds[i];
    }
    for (auto& [id, slot] : m_slots)
    {
        double term = Compose(slot.stages);
        if (term != slot.reported)
        {
            slot.reported = term;
            m_changes.emplace_back(slot.job, term);
        }
    }
}

std::string
StagedDataLoading::Bottleneck(const ClusterJob& job) const
{
    const Stages* s = StagesOf(job.record.id);
    std::string loader = m_loader->Bottleneck(job);
    if ((s && s->miss * s->storage > s->loader) || loader == "gpu")
    {
        return m_storage->Bottleneck(job);
    }
    return loader;
}

void
StagedDataLoading::TakeChanges(std::vector<TermChange>& changes)
{
    changes.insert(changes.end(), m_changes.begin(), m_changes.end());
    m_changes.clear();
}

} // namespace ns3
