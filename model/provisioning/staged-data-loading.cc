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
    m_paces.clear();
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
    m_loader->JobStopped(job); // a loader that keeps its jobs (PaceGroups) drops it
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
StagedDataLoading::Floor(const Stages& s)
{
    // A checkpoint write stops the job whatever its loader caches (writes bypass the loader).
    return std::max(s.miss * s.storage, s.checkpoint);
}

double
StagedDataLoading::LoaderTerm(const Stages& s) const
{
    if (s.loaderGroup < 0)
    {
        return s.loader;
    }
    auto it = m_paces.find(uint32_t(s.loaderGroup));
    return it == m_paces.end() ? s.loader : s.loaderWork * it->second;
}

double
StagedDataLoading::Compose(const Stages& s) const
{
    return std::max({LoaderTerm(s), s.miss * s.storage, s.checkpoint});
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
            if (m_loader->ReportsChanges())
            {
                Report(it->second); // its floor moved (the paced path reports what moved)
            }
        }
    }
    m_scratch.clear();
    if (m_loader->ReportsChanges())
    {
        // Loader stage: the started jobs; it reports what else moved (and its pace).
        EvaluateKeptLoader(topology, running);
        m_runningChanged = false;
        for (size_t i = 0; i < running.size(); ++i)
        {
            Slot& slot = m_slots[running[i]->record.id];
            Report(slot);
            seconds[i] = Compose(slot.stages);
        }
        return;
    }
    // Loader stage: the whole running set, when it changed.
    if (m_runningChanged && !m_slots.empty())
    {
        EvaluateWholeLoader(topology);
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

void
StagedDataLoading::EvaluateWholeLoader(const ClusterTopology& topology)
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

void
StagedDataLoading::EvaluateKeptLoader(const ClusterTopology& topology,
                                      const std::vector<Ptr<const ClusterJob>>& running)
{
    std::vector<double> loader(running.size(), 0.0);
    m_loader->Evaluate(topology, running, loader);
    std::vector<PaceChange> paces;
    m_loader->TakePaceChanges(paces);
    for (const PaceChange& p : paces)
    {
        m_paces[p.group] = p.pace; // the engine gets it as the loader gave it
        m_paceChanges.push_back(p);
    }
    m_scratch.clear();
    m_loader->TakeChanges(m_scratch);
    for (const auto& change : m_scratch)
    {
        auto it = m_slots.find(change.job->record.id);
        if (it == m_slots.end())
        {
            continue;
        }
        Stages& s = it->second.stages;
        s.loader = change.seconds;
        s.loaderGroup = change.group;
        s.loaderWork = change.work;
        s.miss = m_loader->MissOf(change.job->record.id);
        Report(it->second);
    }
    m_scratch.clear();
}

void
StagedDataLoading::Report(Slot& slot)
{
    const Stages& s = slot.stages;
    double floor = Floor(s);
    if (s.loaderGroup >= 0 && m_paces.count(uint32_t(s.loaderGroup)))
    {
        // the loader's pace binds it, unless the storage stage's term (its floor) is longer
        if (slot.reportedGroup == s.loaderGroup && slot.reportedWork == s.loaderWork &&
            slot.reportedFloor == floor)
        {
            return;
        }
        slot.reportedGroup = s.loaderGroup;
        slot.reportedWork = s.loaderWork;
        slot.reportedFloor = floor;
        slot.reported = Compose(s);
        m_changes.emplace_back(slot.job, slot.reported, s.loaderGroup, s.loaderWork, floor);
        return;
    }
    double term = Compose(s);
    if (slot.reportedGroup == -1 && slot.reported == term)
    {
        return;
    }
    slot.reportedGroup = -1;
    slot.reported = term;
    m_changes.emplace_back(slot.job, term);
}

std::string
StagedDataLoading::Bottleneck(const ClusterJob& job) const
{
    const Stages* s = StagesOf(job.record.id);
    std::string loader = m_loader->Bottleneck(job);
    if ((s && s->miss * s->storage > LoaderTerm(*s)) || loader == "gpu")
    {
        return m_storage->Bottleneck(job);
    }
    return loader;
}

void
StagedDataLoading::TakePaceChanges(std::vector<PaceChange>& changes)
{
    HandOver(m_paceChanges, changes);
}

void
StagedDataLoading::TakeChanges(std::vector<TermChange>& changes)
{
    HandOver(m_changes, changes);
}

} // namespace ns3
