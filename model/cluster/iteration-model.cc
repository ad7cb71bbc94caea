/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "iteration-model.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IterationTermModel");
NS_OBJECT_ENSURE_REGISTERED(IterationTermModel);
NS_OBJECT_ENSURE_REGISTERED(ReportingTermModel);

TypeId
IterationTermModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IterationTermModel").SetParent<Object>().SetGroupName("Aicluster");
    return tid;
}

void
IterationTermModel::JobStopped(const ClusterJob& /* job */)
{
    NS_LOG_FUNCTION(this);
}

bool
IterationTermModel::DependsOnOtherJobs() const
{
    return true;
}

bool
IterationTermModel::IsCoupled(const ClusterJob& /* job */) const
{
    return DependsOnOtherJobs();
}

std::string
IterationTermModel::Bottleneck(const ClusterJob& /* job */) const
{
    std::string name = GetInstanceTypeId().GetName();
    return name.rfind("ns3::", 0) == 0 ? name.substr(5) : name;
}

void
IterationTermModel::SetLinkShare(Ptr<LinkShare> links)
{
    NS_LOG_FUNCTION(this << links);
    m_links = links;
}

Ptr<LinkShare>
IterationTermModel::GetLinkShare() const
{
    return m_links;
}

void
IterationTermModel::LinkTraffic(const ClusterJob& /* job */,
                                std::vector<SyncLinkTraffic>& /* traffic */) const
{
}

void
IterationTermModel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_links = nullptr;
    Object::DoDispose();
}

void
IterationTermModel::SetChangeCallback(Callback<void> onChange)
{
    NS_LOG_FUNCTION(this);
    m_onChange = onChange;
}

TypeId
ReportingTermModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ReportingTermModel").SetParent<IterationTermModel>().SetGroupName("Aicluster");
    return tid;
}

void
ReportingTermModel::SetJobsChangedCallback(Callback<void> onJobsChanged)
{
    NS_LOG_FUNCTION(this);
    m_onJobsChanged = onJobsChanged;
}

bool
ReportingTermModel::ReportsChanges() const
{
    return true;
}

void
ReportingTermModel::TakePaceChanges(std::vector<PaceChange>& /* changes */)
{
}

void
ReportingTermModel::NotifyJobsChanged()
{
    NS_LOG_FUNCTION(this);
    if (!m_onJobsChanged.IsNull())
    {
        m_onJobsChanged();
    }
}

void
IterationTermModel::NotifyChanged()
{
    NS_LOG_FUNCTION(this);
    if (!m_onChange.IsNull())
    {
        m_onChange();
    }
}

} // namespace ns3
