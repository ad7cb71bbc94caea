/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "progress-reporter.h"

#include "ns3/log.h"

#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgressReporter");

namespace
{

bool g_quiet = false;
std::ostream* g_stream = nullptr;

void
WriteLine(const std::string& source, const std::string& text)
{
    std::ostream& out = g_stream ? *g_stream : std::cerr;
    out << "[" << source << "] " << text << std::endl;
}

} // namespace

void
ProgressReporter::SetQuiet(bool quiet)
{
    NS_LOG_FUNCTION(quiet);
    g_quiet = quiet;
}

bool
ProgressReporter::IsQuiet()
{
    return g_quiet;
}

void
ProgressReporter::Report(const std::string& source, const std::string& text)
{
    NS_LOG_FUNCTION(source << text);
    if (!g_quiet)
    {
        WriteLine(source, text);
    }
}

void
ProgressReporter::Notice(const std::string& source, const std::string& text)
{
    NS_LOG_FUNCTION(source << text);
    WriteLine(source, text);
}

void
ProgressReporter::SetStream(std::ostream* stream)
{
    NS_LOG_FUNCTION(stream);
    g_stream = stream;
}

} // namespace ns3
