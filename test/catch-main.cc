/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// The one translation unit that compiles Catch2's main().
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
