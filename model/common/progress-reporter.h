/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_PROGRESS_REPORTER_H
#define AICLUSTER_PROGRESS_REPORTER_H

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief The one way progress of a long run reaches the user: one line on stderr per call,
 * prefixed by its source ("[aicluster] simulated ...", "[sweep] 3/8 done ..."), and none at all
 * once SetQuiet(true) (the examples' `--quiet`).
 *
 * Progress is neither a result nor an error: results go to files and stdout, which it never
 * touches; a user error is an exception that RunMain (strict-options.h) turns into one line and
 * a non-zero exit; model events are NS_LOG output (doc/contributing.md, Logging). Notice() is
 * for the rarer lines a quiet run must still show (a sweep point that failed, an interrupted
 * sweep). The state is process-wide, as the command line it comes from.
 */
class ProgressReporter
{
  public:
    /**
     * \brief Turn progress lines off (true) or on (false, the default).
     * \param quiet true for no Report() lines
     */
    static void SetQuiet(bool quiet);

    /**
     * \return true if Report() writes nothing
     */
    static bool IsQuiet();

    /**
     * \brief Write one progress line "[source] text", unless quiet.
     * \param source who reports (aicluster, sweep)
     * \param text the line, without the prefix and the newline
     */
    static void Report(const std::string& source, const std::string& text);

    /**
     * \brief Write one line "[source] text" even when quiet: something the user must see.
     * \param source who reports
     * \param text the line, without the prefix and the newline
     */
    static void Notice(const std::string& source, const std::string& text);

    /**
     * \brief Where the lines go: std::cerr by default; a test may capture them.
     * \param stream the stream, or nullptr for std::cerr
     */
    static void SetStream(std::ostream* stream);
};

} // namespace ns3

#endif // AICLUSTER_PROGRESS_REPORTER_H
