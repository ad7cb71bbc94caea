/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// ProvisioningModel::Client: one storage client per (job, node) in a Solve, found again by every
// later request of the same pair, a new one for every other pair, sized by the reads in flight
// of all its requests; and nothing kept from one Solve to the next. Checked against the
// requests a test loader makes (hundreds of clients, so the model's index grows while a Solve
// runs), not against another model.

#include "provisioning-job.h"

#include "ns3/provisioning-model.h"
#include "ns3/uinteger.h"
#include "ns3/workload-catalog.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Requests kClientNodes clients per sample and records what the model returned.
class ClientProbeLoader : public ProvisioningLoader
{
  public:
    static constexpr uint32_t kClientNodes = 150;

    std::string Name() const override
    {
        return "client-probe";
    }

    void AddSampleUsage(const ProvisioningModel& m,
                        const ProvisioningJob& job,
                        const CachePlan&,
                        uint32_t node,
                        uint32_t gpu,
                        UsageBuilder& u) const override
    {
        for (uint32_t q = 0; q < kClientNodes; ++q)
        {
            // node and GPU vary the reads, so every client's sum is its own
            double samples = 0.25 * (1 + (q + node + gpu) % 5);
            uint32_t id = m.Client(job, q, samples);
            auto key = std::make_pair(job.name, q);
            auto [it, fresh] = ids.emplace(key, id);
            if (!fresh && it->second != id)
            {
                ++mismatches; // the same (job, node) got another client
            }
            inFlight[key] += samples;
            u.Add(id, job.profile->rawBytesPerSample * samples);
        }
        u.Add(m.Res().cpu.at(node), 1e-3);
    }

    void Reset()
    {
        ids.clear();
        inFlight.clear();
        mismatches = 0;
    }

    mutable std::map<std::pair<std::string, uint32_t>, uint32_t> ids;
    mutable std::map<std::pair<std::string, uint32_t>, double> inFlight;
    mutable uint32_t mismatches{0};
};

} // namespace

TEST_CASE("provisioning: one storage client per (job, node) and Solve, sized by its reads",
          "[provisioning]")
{
    RailClusterConfig c;
    c.nodes = 4;
    auto storage = CreateObject<StorageBackend>();
    auto model = CreateObject<ProvisioningModel>();
    model->SetAttribute("PoolNodes", UintegerValue(0));
    model->SetCluster(c, storage);
    auto loader = CreateObject<ClientProbeLoader>();
    model->SetLoader(loader);
    UintegerValue depth;
    model->GetAttribute("PrefetchDepth", depth);

    std::vector<std::vector<ProvisioningJob>> passes = {
        {ProvisioningJobOn("a", "resnet50-imagenet", {{0, 2}, {1, 1}}),
         ProvisioningJobOn("b", "bert-squad", {{2, 2}})},
        // other jobs, in another order: the first Solve's clients must not be found again
        {ProvisioningJobOn("c", "yolov3-voc", {{3, 1}}),
         ProvisioningJobOn("b", "bert-squad", {{0, 1}, {2, 1}}),
         ProvisioningJobOn("a", "resnet50-imagenet", {{1, 2}})},
    };
    for (size_t p = 0; p < passes.size(); ++p)
    {
        INFO("pass " << p);
        loader->Reset();
        auto results = model->Solve(passes[p]);
        REQUIRE(results.size() == passes[p].size());
        CHECK(loader->mismatches == 0);
        const uint32_t pairs = passes[p].size() * ClientProbeLoader::kClientNodes;
        REQUIRE(loader->ids.size() == pairs);
        std::set<uint32_t> distinct;
        for (const auto& [key, id] : loader->ids)
        {
            distinct.insert(id);
        }
        CHECK(distinct.size() == pairs); // every other pair its own client
        // each client sized by the reads in flight of all of its requests (SizeClients)
        uint32_t wrong = 0;
        for (const auto& [key, id] : loader->ids)
        {
            const ProvisioningJob* job = nullptr;
            for (const auto& j : passes[p])
            {
                job = j.name == key.first ? &j : job;
            }
            REQUIRE(job != nullptr);
            double outstanding =
                depth.Get() * std::max(1u, job->profile->localBatch) * loader->inFlight.at(key);
            double want = storage->ClientThroughput(job->profile->rawBytesPerSample,
                                                    static_cast<uint32_t>(std::ceil(outstanding)));
            want = std::min(std::max(want, 1e-12), 1e18);
            REQUIRE(id < model->Capacities().size());
            wrong += model->Capacities()[id] == want ? 0 : 1;
        }
        CHECK(wrong == 0);
        CHECK(results.front().perGpu > 0);
    }
}
