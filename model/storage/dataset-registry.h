/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_DATASET_REGISTRY_H
#define AICLUSTER_DATASET_REGISTRY_H

#include "ns3/trace-annotator.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup aicluster
 * DatasetRegistry: the datasets the storage model knows, by name and by index.
 */

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The datasets StorageDataLoading knows: each registered once, numbered in the order
 *        of registration (its index), found by name.
 */
class DatasetRegistry
{
  public:
    /**
     * \brief Register a dataset (again with the same numbers is fine).
     * \param spec name, size, bytes per sample
     * \return true if it is new (its index is Size() - 1), false if it was registered
     * \throws std::invalid_argument on a negative size, or a name registered with other numbers
     */
    bool Add(const DatasetSpec& spec);

    /** \param name a dataset name \return true if registered */
    bool Has(const std::string& name) const;

    /**
     * \param name a dataset name \param index set to its index if registered
     * \return true if registered
     */
    bool Find(const std::string& name, uint32_t& index) const;

    /**
     * \param name a registered dataset's name \return its index
     * \throws std::out_of_range if it is not registered
     */
    uint32_t IndexOf(const std::string& name) const;

    /** \param index a dataset's index (< Size()) \return the dataset */
    const DatasetSpec& At(uint32_t index) const
    {
        return m_datasets[index];
    }

    /** \return datasets registered */
    size_t Size() const
    {
        return m_datasets.size();
    }

  private:
    std::unordered_map<std::string, uint32_t>
        m_index;                         //!< dataset name -> index (looked up, never walked)
    std::vector<DatasetSpec> m_datasets; //!< by index
};

} // namespace ns3

#endif // AICLUSTER_DATASET_REGISTRY_H
