/*
 * Copyright (c) 2026 The aicluster authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Authors: The aicluster developers (see AUTHORS)
 */
#include "strict-options.h"

#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/trace-reader.h"
#include "ns3/type-id.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StrictOptions");

UsageError::UsageError(const std::string& message)
    : std::invalid_argument(message)
{
}

namespace
{

/** "'text'" for a message, shortened if long. */
std::string
Quoted(const std::string& text)
{
    return "'" + (text.size() > 80 ? text.substr(0, 80) + "..." : text) + "'";
}

std::string
UnitSuffix(const std::string& unit)
{
    return unit.empty() ? "" : " " + unit;
}

/** "an integer in [1, 64] nodes" */
template <typename T>
std::string
IntegerRange(T min, T max, const std::string& unit)
{
    return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]" +
           UnitSuffix(unit);
}

std::string
RealRange(double min, double max, const std::string& unit)
{
    const double big = std::numeric_limits<double>::max();
    std::string range;
    if (min <= -big && max >= big)
    {
        range = "a finite number";
    }
    else if (max >= big)
    {
        range = "a finite number >= " + strict::NumberText(min);
    }
    else if (min <= -big)
    {
        range = "a finite number <= " + strict::NumberText(max);
    }
    else
    {
        range = "a number in [" + strict::NumberText(min) + ", " + strict::NumberText(max) + "]";
    }
    return range + UnitSuffix(unit);
}

std::string
JoinWords(const std::vector<std::string>& words, const std::string& sep)
{
    std::string text;
    for (const auto& w : words)
    {
        text += (text.empty() ? "" : sep) + w;
    }
    return text;
}

/** ns-3's Time text: a decimal number and an optional unit; false if Time would abort. */
bool
TimeTextOk(const std::string& text, std::string& why)
{
    size_t n = text.find_first_not_of("+-0123456789.eE");
    std::string number = text.substr(0, n);
    std::string unit = n == std::string::npos ? "" : text.substr(n);
    double v;
    if (!strict::ParseDouble(number, v))
    {
        why = "a decimal number";
        return false;
    }
    static const std::map<std::string, double> units = {{"", 1},
                                                        {"s", 1},
                                                        {"ms", 1e-3},
                                                        {"us", 1e-6},
                                                        {"ns", 1e-9},
                                                        {"ps", 1e-12},
                                                        {"fs", 1e-15},
                                                        {"min", 60},
                                                        {"h", 3600},
                                                        {"d", 86400},
                                                        {"y", 365 * 86400.0}};
    auto it = units.find(unit);
    if (it == units.end())
    {
        why = "a unit among s, ms, us, ns, ps, fs, min, h, d, y";
        return false;
    }
    if (std::fabs(v * it->second) >= strict::NS3_TIME_LIMIT_SECONDS)
    {
        why = "a time below ns-3's limit of 9.2e9 s";
        return false;
    }
    return true;
}

/** Parses a bool as ns-3 does (true/false/t/f/1/0); false if it is none of them. */
bool
BoolText(const std::string& text, bool& value)
{
    if (text == "true" || text == "t" || text == "1" || text.empty())
    {
        value = true;
        return true;
    }
    if (text == "false" || text == "f" || text == "0")
    {
        value = false;
        return true;
    }
    return false;
}

/** Names ns-3's CommandLine answers itself (help and introspection). */
const std::set<std::string>&
BuiltinOptions()
{
    static const std::set<std::string> names = {"help",
                                                "PrintHelp",
                                                "PrintGlobals",
                                                "PrintGroups",
                                                "PrintGroup",
                                                "PrintTypeIds",
                                                "PrintAttributes",
                                                "PrintVersion",
                                                "version"};
    return names;
}

/** The message of a failed check of a global value (RngSeed, RngRun, ...); "" if fine. */
bool
FindGlobal(const std::string& name, Ptr<const AttributeChecker>& checker)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            checker = (*it)->GetChecker();
            return true;
        }
    }
    return false;
}

/** Strict syntax of a value of the checker's type, then the checker itself; "" if fine. */
std::string
CheckedValueProblem(Ptr<const AttributeChecker> checker,
                    const std::string& value,
                    const std::string& help)
{
    std::string type = checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) != 0)
    {
        type = "ns3::" + type; // some checkers (StringValue, EnumValue) give it unqualified
    }
    std::string expected =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : type;
    bool ok = true;
    std::string why;
    if (type == "ns3::UintegerValue")
    {
        uint64_t v;
        ok = strict::ParseUint64(value, v);
        expected = "a whole number (" + expected + ")";
    }
    else if (type == "ns3::IntegerValue")
    {
        int64_t v;
        ok = strict::ParseInt64(value, v);
        expected = "a whole number (" + expected + ")";
    }
    else if (type == "ns3::DoubleValue")
    {
        double v;
        ok = strict::ParseDouble(value, v);
        expected = "a finite decimal number (" + expected + ")";
    }
    else if (type == "ns3::TimeValue")
    {
        ok = TimeTextOk(value, why);
        expected = "a time: " + (why.empty() ? std::string("number and unit") : why);
    }
    else if (type == "ns3::DataRateValue")
    {
        size_t n = value.find_first_not_of("0123456789.");
        double v;
        ok = n != 0 && strict::ParseDouble(value.substr(0, n), v) && v > 0;
        expected = "a data rate such as 100Gbps";
    }
    else if (type == "ns3::TypeIdValue")
    {
        TypeId tid;
        ok = TypeId::LookupByNameFailSafe(value, &tid);
        expected = "the name of an ns-3 type";
    }
    else if (type == "ns3::BooleanValue")
    {
        bool v;
        ok = !value.empty() && BoolText(value, v);
        expected = "true or false";
    }
    else if (type != "ns3::StringValue" && type != "ns3::EnumValue")
    {
        return "cannot be set from text (an attribute of type " + type + ")";
    }
    if (ok)
    {
        ok = checker->CreateValidValue(StringValue(value)) != nullptr;
    }
    if (!ok)
    {
        return "expected " + expected + (help.empty() ? "" : " (" + help + ")") + ", got " +
               Quoted(value);
    }
    return "";
}

} // namespace

// ---- strictopt ----------------------------------------------------------------------------

namespace strictopt
{

uint64_t
Unsigned(const std::string& option,
         const std::string& text,
         uint64_t min,
         uint64_t max,
         const std::string& unit)
{
    uint64_t v = 0;
    if (!strict::ParseUint64(text, v) || v < min || v > max)
    {
        throw UsageError(option + ": expected " + IntegerRange(min, max, unit) + ", got " +
                         Quoted(text));
    }
    return v;
}

int64_t
Signed(const std::string& option,
       const std::string& text,
       int64_t min,
       int64_t max,
       const std::string& unit)
{
    int64_t v = 0;
    if (!strict::ParseInt64(text, v) || v < min || v > max)
    {
        throw UsageError(option + ": expected " + IntegerRange(min, max, unit) + ", got " +
                         Quoted(text));
    }
    return v;
}

double
Real(const std::string& option,
     const std::string& text,
     double min,
     double max,
     const std::string& unit)
{
    double v = 0;
    if (!strict::ParseDouble(text, v) || v < min || v > max)
    {
        throw UsageError(option + ": expected " + RealRange(min, max, unit) + ", got " +
                         Quoted(text));
    }
    return v;
}

std::vector<std::string>
List(const std::string& option, const std::string& text, bool allowEmpty)
{
    std::vector<std::string> items;
    if (text.empty())
    {
        if (!allowEmpty)
        {
            throw UsageError(option + ": expected a comma-separated list of at least one item, "
                                      "got nothing");
        }
        return items;
    }
    size_t start = 0;
    while (true)
    {
        size_t comma = text.find(',', start);
        std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
        {
            throw UsageError(option + ": expected comma-separated non-empty items, got " +
                             Quoted(text));
        }
        items.push_back(item);
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
    return items;
}

void
Choice(const std::string& option, const std::string& text, const std::vector<std::string>& choices)
{
    if (std::find(choices.begin(), choices.end(), text) == choices.end())
    {
        throw UsageError(option + ": expected one of " + JoinWords(choices, ", ") + ", got " +
                         Quoted(text));
    }
}

void
CheckDataRate(const std::string& option, const std::string& text)
{
    std::string problem = CheckedValueProblem(MakeDataRateChecker(), text, "");
    if (!problem.empty())
    {
        throw UsageError(option +
                         ": expected a positive data rate such as 100Gbps or 25GB/s, "
                         "got " +
                         Quoted(text));
    }
}

std::string
AttributeProblem(const std::string& path, const std::string& value)
{
    size_t pos = path.rfind("::");
    if (pos == std::string::npos || pos == 0)
    {
        return "expected an attribute named ns3::Class::Attribute";
    }
    const std::string typeName = path.substr(0, pos);
    const std::string attribute = path.substr(pos + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return "no ns-3 type is named '" + typeName + "' (see --PrintTypeIds)";
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        return typeName + " has no attribute '" + attribute +
               "' (see --PrintAttributes=" + typeName + ")";
    }
    if (!(info.flags & TypeId::ATTR_CONSTRUCT) && !(info.flags & TypeId::ATTR_SET))
    {
        return "the attribute cannot be set";
    }
    std::string problem = CheckedValueProblem(info.checker, value, info.help);
    if (!problem.empty())
    {
        return problem;
    }
    std::string type = info.checker->GetValueTypeName();
    if ((type == "ns3::StringValue" || type == "StringValue") && tid.HasConstructor() &&
        tid.IsChildOf(Object::GetTypeId()))
    {
        // Text attributes parse their text in their setter: try it on a fresh object, so
        // that a bad value is reported here rather than when the simulation builds it.
        // The object is built with its defaults and owned by a Ptr before the value is set
        // through the attribute's accessor: ObjectFactory::Create() with the value would run
        // the throwing setter inside ns-3's construction, before any Ptr owns the object,
        // and leak it (LeakSanitizer: the object and its aggregate array on every bad value).
        try
        {
            ObjectFactory factory;
            factory.SetTypeId(tid);
            Ptr<Object> probe = factory.Create();
            Ptr<AttributeValue> checked = info.checker->CreateValidValue(StringValue(value));
            if (!checked || !info.accessor->Set(PeekPointer(probe), *checked))
            {
                return "cannot set " + path + " to " + Quoted(value);
            }
        }
        catch (const std::exception& e)
        {
            std::string message = e.what();
            if (message.rfind(path + ": ", 0) == 0)
            {
                message = message.substr(path.size() + 2); // the setter named it already
            }
            return message;
        }
    }
    return "";
}

} // namespace strictopt

// ---- StrictCommandLine --------------------------------------------------------------------

StrictCommandLine::StrictCommandLine(const std::string& filename)
    : CommandLine(filename)
{
    NS_LOG_FUNCTION(this << filename);
}

void
StrictCommandLine::Register(const std::string& name)
{
    m_names.insert(name);
}

void
StrictCommandLine::AddValue(const std::string& name, const std::string& help, bool& value)
{
    NS_LOG_FUNCTION(this << name);
    Register(name);
    m_flags.insert(name);
    bool* target = &value;
    CommandLine::AddValue(
        name,
        help,
        ns3::AiclusterCommandLineCallback([name, target](std::string text) -> bool {
            if (!BoolText(text, *target))
            {
                throw UsageError("--" + name + ": expected true or false, got " + Quoted(text));
            }
            return true;
        }),
        value ? "true" : "false");
}

namespace
{

std::string
WithRange(const std::string& help, const std::string& range)
{
    return help + " {" + range + "}";
}

} // namespace

template <typename T>
void
StrictCommandLine::AddInteger(const std::string& name,
                              const std::string& help,
                              T& value,
                              T min,
                              T max,
                              const std::string& unit)
{
    NS_LOG_FUNCTION(this << name);
    Register(name);
    T* target = &value;
    auto parse = [=](std::string text) -> bool {
        if constexpr (std::is_signed_v<T>)
        {
            *target = static_cast<T>(strictopt::Signed("--" + name, text, min, max, unit));
        }
        else
        {
            *target = static_cast<T>(strictopt::Unsigned("--" + name, text, min, max, unit));
        }
        return true;
    };
    CommandLine::AddValue(name,
                          WithRange(help, IntegerRange(min, max, unit)),
                          ns3::AiclusterCommandLineCallback(parse),
                          std::to_string(value));
}

void
StrictCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            uint32_t& value,
                            uint32_t min,
                            uint32_t max,
                            const std::string& unit)
{
    NS_LOG_FUNCTION(this << name);
    AddInteger<uint32_t>(name, help, value, min, max, unit);
}

void
StrictCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            uint64_t& value,
                            uint64_t min,
                            uint64_t max,
                            const std::string& unit)
{
    NS_LOG_FUNCTION(this << name);
    AddInteger<uint64_t>(name, help, value, min, max, unit);
}

void
StrictCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            int32_t& value,
                            int32_t min,
                            int32_t max,
                            const std::string& unit)
{
    NS_LOG_FUNCTION(this << name);
    AddInteger<int32_t>(name, help, value, min, max, unit);
}

void
StrictCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            int64_t& value,
                            int64_t min,
                            int64_t max,
                            const std::string& unit)
{
    NS_LOG_FUNCTION(this << name);
    AddInteger<int64_t>(name, help, value, min, max, unit);
}

void
StrictCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            double& value,
                            double min,
                            double max,
                            const std::string& unit)
{
    NS_LOG_FUNCTION(this << name);
    Register(name);
    double* target = &value;
    CommandLine::AddValue(name,
                          WithRange(help, RealRange(min, max, unit)),
                          ns3::AiclusterCommandLineCallback([=](std::string text) -> bool {
                              *target = strictopt::Real("--" + name, text, min, max, unit);
                              return true;
                          }),
                          strict::NumberText(value));
}

void
StrictCommandLine::AddValue(const std::string& name, const std::string& help, std::string& value)
{
    NS_LOG_FUNCTION(this << name);
    Register(name);
    std::string* target = &value;
    CommandLine::AddValue(name,
                          help,
                          ns3::AiclusterCommandLineCallback([target](std::string text) -> bool {
                              *target = text;
                              return true;
                          }),
                          value);
}

void
StrictCommandLine::AddChoice(const std::string& name,
                             const std::string& help,
                             std::string& value,
                             const std::vector<std::string>& choices)
{
    NS_LOG_FUNCTION(this << name);
    Register(name);
    std::string* target = &value;
    CommandLine::AddValue(name,
                          help + " {" + JoinWords(choices, "|") + "}",
                          ns3::AiclusterCommandLineCallback([=](std::string text) -> bool {
                              strictopt::Choice("--" + name, text, choices);
                              *target = text;
                              return true;
                          }),
                          value);
}

void
StrictCommandLine::AddValue(const std::string& name,
                            const std::string& help,
                            ns3::AiclusterCommandLineCallback callback,
                            const std::string& defaultValue)
{
    NS_LOG_FUNCTION(this << name);
    Register(name);
    CommandLine::AddValue(name, help, callback, defaultValue);
}

void
StrictCommandLine::Parse(int argc, char* argv[])
{
    NS_LOG_FUNCTION(this << argc);
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
        if (dashes == 0 || arg.size() == dashes)
        {
            throw UsageError("unexpected argument " + Quoted(arg) +
                             ": options are written --name=value");
        }
        std::string body = arg.substr(dashes);
        size_t eq = body.find('=');
        std::string name = body.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : body.substr(eq + 1);
        if (m_flags.count(name) && eq != std::string::npos && value.empty())
        {
            // --flag alone means true; --flag= names no value (ns-3 would take it as true)
            throw UsageError("--" + name + ": expected true or false, got ''");
        }
        if (m_names.count(name))
        {
            continue; // its callback checks the value
        }
        if (BuiltinOptions().count(name))
        {
            TypeId tid;
            if (name == "PrintAttributes" && !TypeId::LookupByNameFailSafe(value, &tid))
            {
                throw UsageError("--PrintAttributes: expected the name of an ns-3 type, got " +
                                 Quoted(value));
            }
            continue;
        }
        if (name.find("::") != std::string::npos)
        {
            if (eq == std::string::npos)
            {
                throw UsageError("--" + name + ": expected --" + name + "=value");
            }
            std::string problem = strictopt::AttributeProblem(name, value);
            if (!problem.empty())
            {
                throw UsageError("--" + name + ": " + problem);
            }
            continue;
        }
        Ptr<const AttributeChecker> checker;
        if (FindGlobal(name, checker))
        {
            std::string problem = CheckedValueProblem(checker, value, "");
            if (!problem.empty())
            {
                throw UsageError("--" + name + ": " + problem);
            }
            continue;
        }
        throw UsageError("unknown option --" + name);
    }
    CommandLine::Parse(argc, argv);
}

// ---- output -------------------------------------------------------------------------------

void
WriteTextFileChecked(const std::string& path, const std::string& content)
{
    NS_LOG_FUNCTION(path);
    if (path.empty())
    {
        throw std::runtime_error("cannot write a file with an empty name");
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        throw std::runtime_error("cannot write '" + path + "': it is a directory");
    }
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
    {
        throw std::runtime_error("cannot write '" + path +
                                 "': " + (errno ? std::strerror(errno) : "cannot create it"));
    }
    out << content;
    out.flush();
    out.close();
    if (!out)
    {
        throw std::runtime_error("cannot write '" + path + "': writing failed (" +
                                 (errno ? std::strerror(errno) : "unknown reason") + ")");
    }
}

void
PrepareOutputDirectory(const std::string& dir)
{
    NS_LOG_FUNCTION(dir);
    if (dir.empty())
    {
        throw std::runtime_error("cannot use an empty output directory name");
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
    {
        throw std::runtime_error("cannot create the output directory '" + dir +
                                 "': " + ec.message());
    }
    if (!std::filesystem::is_directory(dir, ec))
    {
        throw std::runtime_error("cannot use '" + dir + "' as output directory: not a directory");
    }
    // Try it: permission bits say nothing for root, nor for /proc and the like.
    const std::string probe = dir + "/.aicluster-write-probe-" + std::to_string(::getpid());
    int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
    {
        throw std::runtime_error("cannot write into the output directory '" + dir +
                                 "': " + std::strerror(errno));
    }
    ::close(fd);
    ::unlink(probe.c_str());
}

void
PrepareOutputFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    if (path.empty())
    {
        throw std::runtime_error("cannot write a file with an empty name");
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        throw std::runtime_error("cannot write '" + path + "': it is a directory");
    }
    std::string parent = std::filesystem::path(path).parent_path().string();
    try
    {
        PrepareOutputDirectory(parent.empty() ? "." : parent);
    }
    catch (const std::runtime_error& e)
    {
        throw std::runtime_error("cannot write '" + path + "': " + e.what());
    }
}

// ---- main ---------------------------------------------------------------------------------

namespace
{

/** One line: newlines and tabs become spaces. */
std::string
OneLine(std::string text)
{
    for (char& c : text)
    {
        if (c == '\n' || c == '\r' || c == '\t')
        {
            c = ' ';
        }
    }
    return text;
}

} // namespace

int
RunMain(const std::string& program,
        int argc,
        char* argv[],
        const std::function<int(int, char*[])>& body)
{
    NS_LOG_FUNCTION(program << argc);
    std::string message;
    int status = 1;
    try
    {
        return body(argc, argv);
    }
    catch (const UsageError& e)
    {
        message = std::string(e.what()) + " (see --help)";
        status = 2;
    }
    catch (const TraceError& e)
    {
        message = e.what();
    }
    catch (const std::invalid_argument& e)
    {
        message = e.what();
        status = 2;
    }
    catch (const std::bad_alloc&)
    {
        message = "out of memory (is a size or count option too large?)";
    }
    catch (const std::exception& e)
    {
        message = e.what();
    }
    catch (...)
    {
        message = "unknown error";
    }
    std::cout.flush();
    std::cerr << program << ": error: " << OneLine(message) << std::endl;
    return status;
}

} // namespace ns3
