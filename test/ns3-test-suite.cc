/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */

// Inside an ns-3 source tree (contrib/aicluster, ns-3 configured with --enable-tests), the
// Catch2 suite runs as the ns-3 TestSuite "aicluster": ./test.py -s aicluster. The standalone
// build does not compile this file (test/CMakeLists.txt takes test-*.cc and catch-main.cc).

#define CATCH_CONFIG_RUNNER
#include "ns3/log.h"
#include "ns3/test.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AiclusterTestSuite");

/**
 * \ingroup aicluster
 * \brief Runs every Catch2 test case of aicluster as one ns-3 test case.
 *
 * The tests run from the module's folder (they read traces/ and test/data there, as under
 * ctest). AICLUSTER_CATCH_ARGS, when set, is passed to Catch2 (e.g. a tag: "[engine]").
 */
class AiclusterCatchTestCase : public TestCase
{
  public:
    AiclusterCatchTestCase()
        : TestCase("aicluster Catch2 suite (test/test-*.cc)")
    {
        NS_LOG_FUNCTION(this);
    }

  private:
    void DoRun() override
    {
        NS_LOG_FUNCTION(this);
        std::vector<char> cwd(4096);
        const bool haveCwd = getcwd(cwd.data(), cwd.size()) != nullptr;
        NS_TEST_ASSERT_MSG_EQ(chdir(AICLUSTER_SOURCE_DIR), 0, "cannot enter " AICLUSTER_SOURCE_DIR);

        std::vector<std::string> args{"aicluster-catch2"};
        if (const char* extra = std::getenv("AICLUSTER_CATCH_ARGS"))
        {
            args.emplace_back(extra);
        }
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        Catch::Session session;
        const int failed = session.run(static_cast<int>(argv.size()), argv.data());

        if (haveCwd)
        {
            NS_TEST_EXPECT_MSG_EQ(chdir(cwd.data()), 0, "cannot return to " << cwd.data());
        }
        NS_TEST_ASSERT_MSG_EQ(failed, 0, failed << " Catch2 test case(s) of aicluster failed");
    }
};

/**
 * \ingroup aicluster
 * \brief The TestSuite "aicluster" (./test.py -s aicluster).
 */
class AiclusterTestSuite : public TestSuite
{
  public:
    AiclusterTestSuite()
        : TestSuite("aicluster") // a unit test suite (the default type, on every release)
    {
        AddTestCase(new AiclusterCatchTestCase()); // quick: runs by default in test.py
    }
};

/// The one instance, registered with ns-3's test runner.
static AiclusterTestSuite g_aiclusterTestSuite;

} // namespace ns3
