/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_TRACE_FIXTURE_H
#define AICLUSTER_TEST_TRACE_FIXTURE_H

// The path of a trace the reader tests read from test/data/traces.

#include <string>

/**
 * \param name a file name under test/data/traces
 * \return its path
 */
inline std::string
Fixture(const std::string& name)
{
    return std::string(AICLUSTER_TEST_DATA) + "/traces/" + name;
}

#endif // AICLUSTER_TEST_TRACE_FIXTURE_H
