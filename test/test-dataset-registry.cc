/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
// DatasetRegistry, the storage model's datasets: numbered in the order of registration, found
// by name, registered again only with the same numbers, and never with a negative or
// non-finite size.

#include "ns3/dataset-registry.h"

#include <catch2/catch.hpp>
#include <limits>
#include <stdexcept>

using namespace ns3;

TEST_CASE("datasets are numbered in the order they are registered and found by name", "[storage]")
{
    DatasetRegistry r;
    CHECK(r.Size() == 0);
    CHECK(r.Add({"imagenet", 1.4e11, 1.1e5}));
    CHECK(r.Add({"coco", 2.0e10, 1.6e5}));
    REQUIRE(r.Size() == 2);
    CHECK(r.IndexOf("imagenet") == 0);
    CHECK(r.IndexOf("coco") == 1);
    CHECK(r.At(1).name == "coco");
    CHECK(r.At(1).bytes == 2.0e10);
    CHECK(r.At(0).bytesPerSample == 1.1e5);
    uint32_t index = 7;
    CHECK(r.Find("coco", index));
    CHECK(index == 1);
    CHECK(r.Has("imagenet"));
    CHECK_FALSE(r.Has("wikitext"));
    CHECK_FALSE(r.Find("wikitext", index));
    CHECK(index == 1); // left as it was
    CHECK_THROWS_AS(r.IndexOf("wikitext"), std::out_of_range);
}

TEST_CASE("a dataset registered again keeps its index; with other numbers it is an error",
          "[storage]")
{
    DatasetRegistry r;
    REQUIRE(r.Add({"imagenet", 1.4e11, 1.1e5}));
    CHECK_FALSE(r.Add({"imagenet", 1.4e11, 1.1e5}));
    CHECK(r.Size() == 1);
    CHECK_THROWS_WITH(r.Add({"imagenet", 1.5e11, 1.1e5}),
                      "dataset 'imagenet' registered twice with different numbers "
                      "(140000000000.000000 vs 150000000000.000000 bytes)");
    CHECK_THROWS_AS(r.Add({"imagenet", 1.4e11, 1.2e5}), std::invalid_argument);
    CHECK(r.Size() == 1);
    CHECK(r.At(0).bytesPerSample == 1.1e5);
}

TEST_CASE("a negative or non-finite dataset size is refused and not registered", "[storage]")
{
    DatasetRegistry r;
    CHECK_THROWS_WITH(r.Add({"bad", -1, 10}),
                      "dataset 'bad': expected size and bytes per sample >= 0, got "
                      "-1.000000 and 10.000000");
    CHECK_THROWS_AS(r.Add({"bad", std::numeric_limits<double>::quiet_NaN(), 10}),
                    std::invalid_argument);
    CHECK_THROWS_AS(r.Add({"bad", 10, std::numeric_limits<double>::infinity()}),
                    std::invalid_argument);
    CHECK_THROWS_AS(r.Add({"bad", 10, -2}), std::invalid_argument);
    CHECK(r.Size() == 0);
    CHECK_FALSE(r.Has("bad"));
}
