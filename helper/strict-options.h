/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#ifndef AICLUSTER_STRICT_OPTIONS_H
#define AICLUSTER_STRICT_OPTIONS_H

#include "ns3/command-line.h"
#include "ns3/ns3-compat.h"
#include "ns3/strict-parse.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup aicluster
 * \brief A bad command-line option (or scenario setting): the message names the option and
 *        says what was expected; examples exit with status 2 on it.
 */
class UsageError : public std::invalid_argument
{
  public:
    /** \param message one line: "--option: expected ..., got '...'" */
    explicit UsageError(const std::string& message);
};

/**
 * \ingroup aicluster
 * \brief ns-3's CommandLine with strict values: every option of an example goes through it.
 *
 * The AddValue overloads for bool, integers and doubles replace ns-3's stream parsing (which
 * takes "1e3" as 1, "16abc" as 16 and "-1" as 4294967295) with a check of the whole token
 * against the type and an optional range; a bad value throws a UsageError naming the option,
 * the range and its unit. Every other AddValue of CommandLine still works (and the help text
 * too). Parse() first checks every argument: unknown options, stray words and
 * `--ns3::Class::Attribute=value` settings (against the attribute's checker, before ns-3
 * would abort on them) give a UsageError.
 */
class StrictCommandLine : public CommandLine
{
  public:
    /** \param filename the program's source file (__FILE__), as for CommandLine */
    explicit StrictCommandLine(const std::string& filename = "");

    using CommandLine::AddValue;

    /**
     * \brief A flag: --name, --name=true|false|1|0.
     * \param name option name
     * \param help help text
     * \param value the variable to set
     */
    void AddValue(const std::string& name, const std::string& help, bool& value);

    /**
     * \brief A whole number in [min, max].
     * \param name option name
     * \param help help text (the range and unit are appended)
     * \param value the variable to set
     * \param min smallest value accepted
     * \param max largest value accepted
     * \param unit unit for the help and messages ("" for none)
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  uint32_t& value,
                  uint32_t min = 0,
                  uint32_t max = std::numeric_limits<uint32_t>::max(),
                  const std::string& unit = "");
    /** \copydoc AddValue(const std::string&,const std::string&,uint32_t&,uint32_t,uint32_t,const
     * std::string&) */
    void AddValue(const std::string& name,
                  const std::string& help,
                  uint64_t& value,
                  uint64_t min = 0,
                  uint64_t max = std::numeric_limits<uint64_t>::max(),
                  const std::string& unit = "");
    /** \copydoc AddValue(const std::string&,const std::string&,uint32_t&,uint32_t,uint32_t,const
     * std::string&) */
    void AddValue(const std::string& name,
                  const std::string& help,
                  int32_t& value,
                  int32_t min = std::numeric_limits<int32_t>::min(),
                  int32_t max = std::numeric_limits<int32_t>::max(),
                  const std::string& unit = "");
    /** \copydoc AddValue(const std::string&,const std::string&,uint32_t&,uint32_t,uint32_t,const
     * std::string&) */
    void AddValue(const std::string& name,
                  const std::string& help,
                  int64_t& value,
                  int64_t min = std::numeric_limits<int64_t>::min(),
                  int64_t max = std::numeric_limits<int64_t>::max(),
                  const std::string& unit = "");

    /**
     * \brief A finite decimal number in [min, max].
     * \param name option name
     * \param help help text (the range and unit are appended)
     * \param value the variable to set
     * \param min smallest value accepted
     * \param max largest value accepted
     * \param unit unit for the help and messages ("" for none)
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  double& value,
                  double min = -std::numeric_limits<double>::max(),
                  double max = std::numeric_limits<double>::max(),
                  const std::string& unit = "");

    /**
     * \brief Free text (a path, a name checked later by the example).
     * \param name option name
     * \param help help text
     * \param value the variable to set
     */
    void AddValue(const std::string& name, const std::string& help, std::string& value);

    /**
     * \brief One of a fixed set of words.
     * \param name option name
     * \param help help text (the choices are appended)
     * \param value the variable to set
     * \param choices the accepted words
     */
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string& value,
                   const std::vector<std::string>& choices);

    /**
     * \brief An option parsed by a callback (as CommandLine's), registered as known.
     * \param name option name
     * \param help help text
     * \param callback parses the value; it may throw a UsageError
     * \param defaultValue shown in the help
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  ns3::AiclusterCommandLineCallback callback,
                  const std::string& defaultValue = "");

    /**
     * \brief Check every argument (see the class), then parse them as ns-3 does.
     * \param argc argument count
     * \param argv arguments
     * \throws UsageError on an unknown option, a stray word, a bad value or a bad attribute
     */
    void Parse(int argc, char* argv[]);

  private:
    /** \brief Remember a registered option's name (for the unknown-option check). */
    void Register(const std::string& name);

    /**
     * \brief The integer AddValue overloads' one body: register, add the range to the help,
     * parse with strictopt::Signed or strictopt::Unsigned.
     * \tparam T the integer type
     * \param name option name
     * \param help help text (the range is appended)
     * \param value where the value goes; its current value is the default shown
     * \param min smallest accepted value
     * \param max largest accepted value
     * \param unit unit named in the help and in errors
     */
    template <typename T>
    void AddInteger(const std::string& name,
                    const std::string& help,
                    T& value,
                    T min,
                    T max,
                    const std::string& unit);

    std::set<std::string> m_names; //!< options registered so far
    std::set<std::string> m_flags; //!< the bool options among them
};

/**
 * \ingroup aicluster
 * \brief Strict conversions of option text, each throwing a UsageError naming the option.
 */
namespace strictopt
{

/**
 * \param option the option's name, with its dashes ("--nodes")
 * \param text the value
 * \param min smallest value accepted
 * \param max largest value accepted
 * \param unit unit for the message ("" for none)
 * \return the value
 */
uint64_t Unsigned(const std::string& option,
                  const std::string& text,
                  uint64_t min,
                  uint64_t max,
                  const std::string& unit = "");

/** \copydoc Unsigned */
int64_t Signed(const std::string& option,
               const std::string& text,
               int64_t min,
               int64_t max,
               const std::string& unit = "");

/** \copydoc Unsigned */
double Real(const std::string& option,
            const std::string& text,
            double min,
            double max,
            const std::string& unit = "");

/**
 * \param option the option's name ("--workloads")
 * \param text comma-separated items
 * \param allowEmpty whether an empty text (no items at all) is accepted
 * \return the items; an empty item ("a,,b", ",") is an error
 */
std::vector<std::string> List(const std::string& option,
                              const std::string& text,
                              bool allowEmpty = false);

/**
 * \param option the option's name
 * \param text the value
 * \param choices accepted words
 * \throws UsageError listing the choices if text is not one of them
 */
void Choice(const std::string& option,
            const std::string& text,
            const std::vector<std::string>& choices);

/**
 * \param option the option's name
 * \param text a data rate such as "100Gbps" (a positive decimal number and an ns-3 unit)
 * \throws UsageError if ns-3's DataRate would not read it (it aborts on such text)
 */
void CheckDataRate(const std::string& option, const std::string& text);

/**
 * \brief Check that `--ns3::Class::Attribute=value` (or a scenario's attributes entry) can
 *        be applied: the type and attribute exist, the text is strictly of the attribute's
 *        type and its checker accepts it; a text attribute is tried on a fresh object.
 * \param path "ns3::Class::Attribute"
 * \param value the text
 * \return "" if it can be applied, otherwise what is wrong and what was expected
 */
std::string AttributeProblem(const std::string& path, const std::string& value);

} // namespace strictopt

/**
 * \ingroup aicluster
 * \brief Write a whole text file, checking every step.
 * \param path the file
 * \param content its content
 * \throws std::runtime_error "cannot write '<path>': <reason>" if it cannot be created,
 *         written or closed (a directory, /proc, /dev/null/x, a full disk)
 */
void WriteTextFileChecked(const std::string& path, const std::string& content);

/**
 * \ingroup aicluster
 * \brief Create an output directory (and its parents) and check that files can be made in it.
 * \param dir the directory
 * \throws std::runtime_error naming the directory and the reason
 */
void PrepareOutputDirectory(const std::string& dir);

/**
 * \ingroup aicluster
 * \brief Check, before a run, that an output file can be written: not a directory, and its
 *        directory exists (it is created) and takes files.
 * \param path the file
 * \throws std::runtime_error naming the path and the reason
 */
void PrepareOutputFile(const std::string& path);

/**
 * \ingroup aicluster
 * \brief Run an example's main body and turn every error into one line on stderr.
 *
 * UsageError and std::invalid_argument (bad options) exit with 2, everything else
 * (TraceError: bad input files; failed writes; out of memory) with 1; the message is
 * "<program>: error: <what>" on one line.
 * \param program the example's name
 * \param argc argument count
 * \param argv arguments
 * \param body the example's main
 * \return body's return value, or 1 or 2
 */
int RunMain(const std::string& program,
            int argc,
            char* argv[],
            const std::function<int(int, char*[])>& body);

} // namespace ns3

#endif // AICLUSTER_STRICT_OPTIONS_H
