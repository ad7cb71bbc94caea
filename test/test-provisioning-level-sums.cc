/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningLevel with flows that list many resources (an Alluxio flow lists every peer
// node's): its running sums are those of the plain event-by-event sums, to the bit, and its
// busiest shares those of a pass over every used resource, whether it keeps its share trees
// or scans (#13).

#include "ns3/provisioning-level.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/**
 * The level's demand sums as plain code computes them: each Add adds w x unit x cap per
 * entry, each Remove takes it away, a resource's sum is 0 when its last flow leaves, and every
 * RefreshEvery() updates the sums are added again from scratch in job id order.
 */
class ReferenceSums
{
  public:
    /** \param resources number of resources */
    explicit ReferenceSums(uint32_t resources)
        : m_sum(resources, 0.0),
          m_users(resources, 0)
    {
    }

    /** \param id a new job \param flows its flows */
    void Add(uint64_t id, const std::vector<ProvisioningLevel::Flow>& flows)
    {
        m_jobs[id] = flows;
        for (const auto& f : flows)
        {
            for (const auto& [r, w] : f.usage)
            {
                ++m_users[r];
                m_sum[r] += w * f.unit * f.cap;
            }
        }
        Updated();
    }

    /** \param id a kept job */
    void Remove(uint64_t id)
    {
        for (const auto& f : m_jobs.at(id))
        {
            for (const auto& [r, w] : f.usage)
            {
                m_sum[r] = --m_users[r] == 0 ? 0.0 : m_sum[r] - w * f.unit * f.cap;
            }
        }
        m_jobs.erase(id);
        Updated();
    }

    /** \param r a resource \return its sum */
    double Sum(uint32_t r) const
    {
        return m_sum[r];
    }

  private:
    /** Count an update; add every sum again every RefreshEvery() */
    void Updated()
    {
        if (++m_updates < ProvisioningLevel::RefreshEvery())
        {
            return;
        }
        m_updates = 0;
        std::fill(m_sum.begin(), m_sum.end(), 0.0);
        for (const auto& [id, flows] : m_jobs)
        {
            for (const auto& f : flows)
            {
                for (const auto& [r, w] : f.usage)
                {
                    m_sum[r] += w * f.unit * f.cap;
                }
            }
        }
    }

    std::vector<double> m_sum;                                       //!< per resource
    std::vector<uint32_t> m_users;                                   //!< per resource
    std::map<uint64_t, std::vector<ProvisioningLevel::Flow>> m_jobs; //!< by id
    uint32_t m_updates{0};                                           //!< since the refresh
};

/**
 * \param rng random source \param resources resources (0 is the level's, left out)
 * \param wide list most resources (as an Alluxio flow lists every peer's), else a few
 * \return a flow off the level's resource, at its cap whatever the level
 */
ProvisioningLevel::Flow
RandomFlow(std::mt19937& rng, uint32_t resources, bool wide)
{
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    ProvisioningLevel::Flow f;
    f.unit = 0.3 + unif(rng);
    f.cap = 0.01 + unif(rng) * 3;
    uint32_t skip = 1 + rng() % resources; // a peer flow leaves out its own node's
    for (uint32_t r = 2; r < resources; ++r)
    {
        if (wide ? r != skip : rng() % 40 == 0)
        {
            f.usage.emplace_back(r, 1e-3 + unif(rng) * (r % 7 == 0 ? 5 : 0.01));
        }
    }
    return f;
}

} // namespace

TEST_CASE("provisioning level: sums over flows of thousands of entries keep the event-by-event "
          "bits",
          "[provisioning]")
{
    // Jobs with wide and narrow flows come and go, more than RefreshEvery() times; one job,
    // kept throughout, is the level's only flow (resource 0 and 1) and rises above every cap,
    // so that the level is finite and LoadOf(r) of every other resource is its capped sum.
    const uint32_t resources = 600;
    std::mt19937 rng(7);
    std::vector<double> caps(resources, 1e12);
    caps[0] = 1.0;
    ProvisioningLevel level;
    level.Reset(caps, 0);
    ReferenceSums reference(resources);
    ProvisioningLevel::Flow rising;
    rising.unit = 1.0;
    rising.cap = 1e9;
    rising.usage = {{0, 1.0}, {1, 1.0}};
    level.Add(0, {rising});
    reference.Add(0, {rising});
    std::vector<uint64_t> kept;
    uint64_t next = 1;
    for (uint32_t step = 0; step < 2500; ++step)
    {
        if (!kept.empty() && rng() % 2 == 0)
        {
            size_t k = rng() % kept.size();
            level.Remove(kept[k]);
            reference.Remove(kept[k]);
            kept.erase(kept.begin() + k);
        }
        else
        {
            std::vector<ProvisioningLevel::Flow> flows;
            for (uint32_t f = 1 + rng() % 2; f > 0; --f)
            {
                flows.push_back(RandomFlow(rng, resources, rng() % 3 != 0));
            }
            level.Add(next, flows);
            reference.Add(next, flows);
            kept.push_back(next++);
        }
        double l = level.Level();
        REQUIRE(std::isfinite(l));
        INFO("step " << step);
        for (uint32_t r = 2; r < resources; ++r)
        {
            INFO("resource " << r);
            REQUIRE(level.DemandOf(r) == reference.Sum(r)); // the same number, not close
            REQUIRE(level.LoadOf(r) == reference.Sum(r));   // capped flows only
        }
    }
}

TEST_CASE("provisioning level: busiest shares with wide flows, busy and quiet passes, are a "
          "scan's",
          "[provisioning]")
{
    // Passes that move most sums (wide flows come or go: BusiestShares scans) alternate with
    // passes that move a few (narrow flows) or none (the tree is rebuilt, then kept up to date
    // from its marks), in random runs, at a finite level and at an infinite one.
    const uint32_t resources = 400;
    const uint32_t classes = 4;
    for (uint32_t seed = 1; seed <= 4; ++seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unif(0.0, 1.0);
        std::vector<uint8_t> classOf(resources);
        std::vector<double> caps(resources);
        for (uint32_t r = 0; r < resources; ++r)
        {
            classOf[r] = r == 0 ? 0 : uint8_t(1 + rng() % (classes - 1));
            caps[r] = rng() % 3 == 0 ? 2.0 : 0.5 + unif(rng) * 10;
        }
        caps[0] = seed % 2 == 0 ? 1e12 : 0.5; // the level: infinite, or binding
        ProvisioningLevel level;
        level.Reset(caps, 0);
        level.SetClasses(classOf, classes);
        std::vector<uint64_t> kept;
        uint64_t next = 0;
        uint32_t quietRuns = 0;
        std::mt19937 askRng(seed + 100); // which classes a pass asks for: a stream of its own
        for (uint32_t pass = 0; pass < 600; ++pass)
        {
            INFO("seed " << seed << ", pass " << pass);
            uint32_t kind = rng() % 4; // 0: wide, 1: narrow, 2-3: quiet
            if (kind < 2 && !kept.empty() && rng() % 2 == 0)
            {
                size_t k = rng() % kept.size();
                level.Remove(kept[k]);
                kept.erase(kept.begin() + k);
            }
            else if (kind < 2)
            {
                ProvisioningLevel::Flow f = RandomFlow(rng, resources, kind == 0);
                f.usage.insert(f.usage.begin(), {0, 0.2 + unif(rng)}); // on the level
                level.Add(next, {f});
                kept.push_back(next++);
            }
            quietRuns += kind >= 2;
            level.Level();
            std::vector<double> busiest;
            // a third of the passes ask for some classes only (a series that records a few)
            uint64_t asked =
                askRng() % 3 == 0 ? askRng() % (1u << classes) : ProvisioningLevel::kAllClasses;
            level.BusiestShares(busiest, asked);
            std::vector<double> scanned(classes, 0.0);
            for (uint32_t r : level.Used())
            {
                scanned[classOf[r]] = std::max(scanned[classOf[r]], level.LoadOf(r) / caps[r]);
            }
            for (uint32_t c = 0; c < classes; ++c)
            {
                INFO("class " << c << ", asked " << asked);
                // the same number, not close to it; 0 for a class not asked for
                REQUIRE(busiest[c] == ((asked >> c) & 1 ? scanned[c] : 0.0));
            }
        }
        CHECK(quietRuns > 100);
    }
}
