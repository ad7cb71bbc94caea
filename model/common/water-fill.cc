/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "water-fill.h"

#include <algorithm>

namespace ns3
{

double
WaterFill(std::vector<double>& wants, double capacity)
{
    return WeightedWaterFill(wants, capacity, [](size_t) { return 1.0; });
}

std::vector<double>
MaxMinFair(const std::vector<double>& needs, double capacity, double cap)
{
    std::vector<double> share(needs.size());
    for (size_t i = 0; i < needs.size(); ++i)
    {
        share[i] = cap > 0 ? std::min(needs[i], cap) : needs[i];
    }
    WaterFill(share, capacity);
    return share;
}

} // namespace ns3
