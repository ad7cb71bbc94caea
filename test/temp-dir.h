/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_TEST_TEMP_DIR_H
#define AICLUSTER_TEST_TEMP_DIR_H

// A scratch folder of one test run: under the system's temporary folder, named by the test and
// the process id, so that suites run side by side (several checkouts, ctest -j) never share it.
// Every such folder is removed when the test process exits, unless AICLUSTER_KEEP_TEST_FILES is
// set (to look at what a failing test wrote).

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <unistd.h>

namespace ns3
{

/**
 * \brief The scratch folders this test process made; removes them as the process exits.
 */
class TestTempDirs
{
  public:
    /** \return the process's one registry (destroyed, and its folders removed, at exit) */
    static TestTempDirs& Get()
    {
        static TestTempDirs dirs;
        return dirs;
    }

    /** \param dir a folder to remove at exit */
    void Add(const std::string& dir)
    {
        m_dirs.insert(dir);
    }

    ~TestTempDirs()
    {
        if (std::getenv("AICLUSTER_KEEP_TEST_FILES"))
        {
            return;
        }
        for (const auto& dir : m_dirs)
        {
            std::error_code ignored; // a folder already gone is fine
            std::filesystem::remove_all(dir, ignored);
        }
    }

  private:
    TestTempDirs() = default;
    std::set<std::string> m_dirs; //!< folders made so far
};

/**
 * \param name what the folder is for (a test's short name)
 * \return an empty folder of this process, created (emptied first if a previous call or run
 *         left it), removed when the process exits
 */
inline std::string
TestTempDir(const std::string& name)
{
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("aicluster-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    TestTempDirs::Get().Add(dir.string());
    return dir.string();
}

} // namespace ns3

#endif // AICLUSTER_TEST_TEMP_DIR_H
