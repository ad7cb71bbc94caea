/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AICLUSTER_TEST_TEMP_DIR_H
#define AICLUSTER_TEST_TEMP_DIR_H

// A scratch folder of one test run: under the system's temporary folder, named by the test and
// the process id, so that suites run side by side (several checkouts, ctest -j) never share it.

#include <filesystem>
#include <string>
#include <unistd.h>

namespace ns3
{

/**
 * \param name what the folder is for (a test's short name)
 * \return an empty folder path of this process (removed first if a previous run left it)
 */
inline std::string
TestTempDir(const std::string& name)
{
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("aicluster-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir.string();
}

} // namespace ns3

#endif // AICLUSTER_TEST_TEMP_DIR_H
