/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "dataset-registry.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

bool
DatasetRegistry::Add(const DatasetSpec& spec)
{
    if (!(spec.bytes >= 0) || !std::isfinite(spec.bytes) || !(spec.bytesPerSample >= 0) ||
        !std::isfinite(spec.bytesPerSample))
    {
        throw std::invalid_argument(
            "dataset '" + spec.name + "': expected size and bytes per sample >= 0, got " +
            std::to_string(spec.bytes) + " and " + std::to_string(spec.bytesPerSample));
    }
    auto it = m_index.find(spec.name);
    if (it != m_index.end())
    {
        const DatasetSpec& known = m_datasets[it->second];
        if (known.bytes != spec.bytes || known.bytesPerSample != spec.bytesPerSample)
        {
            throw std::invalid_argument("dataset '" + spec.name +
                                        "' registered twice with "
                                        "different numbers (" +
                                        std::to_string(known.bytes) + " vs " +
                                        std::to_string(spec.bytes) + " bytes)");
        }
        return false;
    }
    m_index[spec.name] = m_datasets.size();
    m_datasets.push_back(spec);
    return true;
}

bool
DatasetRegistry::Has(const std::string& name) const
{
    return m_index.count(name) > 0;
}

bool
DatasetRegistry::Find(const std::string& name, uint32_t& index) const
{
    auto it = m_index.find(name);
    if (it == m_index.end())
    {
        return false;
    }
    index = it->second;
    return true;
}

uint32_t
DatasetRegistry::IndexOf(const std::string& name) const
{
    return m_index.at(name);
}

} // namespace ns3
