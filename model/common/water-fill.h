/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_WATER_FILL_H
#define AICLUSTER_WATER_FILL_H

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace ns3
{

/**
 * \file
 * \ingroup aicluster
 * Max-min fair split of ONE capacity (the storage tier's remote bandwidth): the
 * single-resource case of MaxMinSolver (max-min-solver.h), solved in closed form.
 *
 * Why not MaxMinSolver with one resource: it fills progressively (the level grows by the
 * smallest remaining headroom each round), which reaches the same shares in exact arithmetic
 * but not always in doubles: on 20,000 random problems of 1-40 wants, 34% differed in the last
 * bits (largest relative difference 4.5e-15), and storage's callers need every bottlenecked
 * consumer to get the very same double as the level (they tell them apart by equality).
 */

/**
 * \ingroup aicluster
 * \brief WaterFill() with want i standing for countOf(i) consumers (the same operations as
 *        WaterFill() for count 1).
 * \param wants what one consumer of each entry could use, overwritten with its share
 * \param capacity what there is to split
 * \param countOf i -> number of consumers entry i stands for (a double >= 1)
 * \return the level, or +infinity if every want fits (shares = wants)
 */
template <typename CountOf>
double
WeightedWaterFill(std::vector<double>& wants, double capacity, CountOf countOf)
{
    double total = 0;
    double consumers = 0;
    for (size_t i = 0; i < wants.size(); ++i)
    {
        total += countOf(i) * wants[i];
        consumers += countOf(i);
    }
    if (total <= capacity)
    {
        return std::numeric_limits<double>::infinity(); // everyone fits: no level binds
    }
    // Newton on f(L) = sum min(w, L) - capacity from the left: L' = (capacity - sum of the
    // wants at or below L) / (number above L). Stops when a step no longer moves L.
    double level = capacity / consumers;
    while (true)
    {
        double below = 0;
        double above = 0;
        for (size_t i = 0; i < wants.size(); ++i)
        {
            if (wants[i] <= level)
            {
                below += countOf(i) * wants[i];
            }
            else
            {
                above += countOf(i);
            }
        }
        double next = above > 0 ? (capacity - below) / above : level;
        if (!(next > level))
        {
            break;
        }
        level = next;
    }
    for (double& w : wants)
    {
        w = std::min(w, level);
    }
    return level;
}

/**
 * \ingroup aicluster
 * \brief Max-min fair split in place: each want becomes its share.
 *
 * The level L solves sum_i min(want_i, L) = capacity. Newton's method from L = capacity / n
 * finds it without sorting: the sum is concave and piecewise linear in L, so each step stays
 * at or below the level and passes at least one want, and the last step lands on it exactly
 * (a few passes over the wants in practice). Every want at or above the level gets exactly L,
 * the same double, so callers can tell the bottlenecked consumers by equality.
 * \param wants what each consumer could use (already capped), overwritten with the shares
 * \param capacity what there is to split
 * \return the level, or +infinity if every want fits (shares = wants)
 */
double WaterFill(std::vector<double>& wants, double capacity);

/**
 * \ingroup aicluster
 * \brief Max-min fair (water-filling) split of a capacity among needs, each also capped.
 * \param needs what each consumer could use
 * \param capacity what there is to split
 * \param cap per-consumer cap (0 = none)
 * \return the shares (sum <= capacity, share_i <= min(need_i, cap))
 */
std::vector<double> MaxMinFair(const std::vector<double>& needs, double capacity, double cap);

} // namespace ns3

#endif // AICLUSTER_WATER_FILL_H
