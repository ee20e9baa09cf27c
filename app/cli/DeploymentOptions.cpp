// SPDX-License-Identifier: MIT
// DeploymentOptions: the deployment's dpu-cli options read through the plan field table, set onto a plan's deployment and checked as a plan file's.
#include "DeploymentOptions.h"
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

namespace dpu::cli {
namespace {

/// The last link field in the table's order: fleet.link .. this one are OptionScope::Link's.
constexpr const char* kLastLinkField = "fleet.leave_when_decoded";

/// A number as JSON text that reads back to the same double.
std::string jsonNumber(double v)
{
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, v);
    return std::string(text, written.ptr);
}

std::string jsonString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned char>(c));
            out += esc;
            continue;
        }
        out += c;
    }
    return out + "\"";
}

/// The fleet.* fields with an option, in table order, up to the scope's last.
std::vector<const PlanField*> scopedFields(OptionScope scope)
{
    std::vector<const PlanField*> out;
    for (const PlanField& f : planFields()) {
        if (f.path.rfind("fleet.", 0) != 0 || f.option.empty())
            continue;
        out.push_back(&f);
        if (scope == OptionScope::Link && f.path == kLastLinkField)
            break;
    }
    return out;
}

/// The choice a command line wrote in an older or looser spelling, as the table names it.
std::string canonicalChoice(const std::string& option, std::string value)
{
    if (option == "--class" && (value == "B" || value == "C"))
        value[0] = static_cast<char>(value[0] - 'A' + 'a');
    if (option == "--cpu" && value == "cortex-m4f")
        return "cortex-m4";
    if (option == "--cpu" && value == "cortex-m0+")
        return "cortex-m0";
    return value;
}

/// The field's option as JSON text, nullopt when not given.
std::optional<std::string> readField(ArgList& args, const PlanField& f)
{
    switch (f.type) {
    case FieldType::Boolean:
        if (!args.flag(f.option))
            return std::nullopt;
        return std::string(f.optionFlagValue ? "true" : "false");
    case FieldType::Number:
        if (const std::optional<double> v = args.real(f.option))
            return jsonNumber(*v / f.optionScale);
        return std::nullopt;
    case FieldType::Integer:
        if (const std::optional<int64_t> v = args.integer(f.option))
            return std::to_string(*v);
        return std::nullopt;
    case FieldType::Choice:
    case FieldType::String:
    case FieldType::List:
        break;
    }
    const std::optional<std::string> text = args.optionalValue(f.option);
    if (!text)
        return std::nullopt;
    if (f.type == FieldType::Choice) {
        const std::string value = canonicalChoice(f.option, *text);
        if (std::find(f.choices.begin(), f.choices.end(), value) == f.choices.end()) {
            std::string names;
            for (size_t i = 0; i < f.choices.size(); ++i)
                names += (i == 0 ? "" : i + 1 == f.choices.size() ? " or " : ", ") + f.choices[i];
            throw UsageError(f.option + ": expected " + names + ", found '" + *text + "'");
        }
        return jsonString(value);
    }
    return jsonString(*text);
}

/// --multicast/--unicast (fleet.delivery) and --availability FILE (fleet.availability_trace):
/// the spellings before the table, read beside it.
void readOlderSpellings(ArgList& args, OptionScope scope, DeploymentOptions& out)
{
    const bool multicast = args.flag("--multicast");
    const bool unicast = args.flag("--unicast");
    if (multicast && unicast)
        throw UsageError("--multicast and --unicast exclude each other");
    if ((multicast || unicast) && out.has("fleet.delivery"))
        throw UsageError(std::string(multicast ? "--multicast" : "--unicast") + " and --delivery exclude each other");
    if (multicast || unicast)
        out.fields.push_back({"fleet.delivery", multicast ? "--multicast" : "--unicast", multicast ? "\"multicast\"" : "\"unicast\""});
    if (scope != OptionScope::Deployment)
        return;
    // A number is a probability, read as every number is; any other text names a trace file.
    const std::optional<std::string> availability = args.optionalValue("--availability");
    if (!availability)
        return;
    if (numberInText(*availability))
        out.fields.push_back({"fleet.availability", "--availability", jsonNumber(args.realItem("--availability", *availability))});
    else
        out.fields.push_back({"fleet.availability_trace", "--availability", jsonString(*availability)});
}

/// A processor's figures describe the processor given, and the clock and current have no
/// default worth simulating.
void checkProcessorOptions(const DeploymentOptions& o)
{
    if (!o.has("fleet.cpu")) {
        for (const char* path : {"fleet.clock_mhz", "fleet.cpi", "fleet.run_ma", "fleet.volts"})
            for (const GivenField& g : o.fields)
                if (g.path == path)
                    throw UsageError(g.option + " needs --cpu cortex-m4|cortex-m0 (the processor it describes)");
        return;
    }
    if (!o.has("fleet.clock_mhz") || !o.has("fleet.run_ma"))
        throw UsageError("--cpu needs --clock-mhz F (the part's clock) and --run-ma I (its run current from flash, mA)");
}

/// The message of `e` without its path.
std::string messageOf(const PlanError& e)
{
    const std::string what = e.what();
    return e.path().empty() ? what : what.substr(e.path().size() + 2); // "path: message"
}

/// The option that sets `path`, or the plan key itself (a plan's own value failed).
std::string optionOf(const DeploymentOptions& given, const std::string& path)
{
    for (const GivenField& g : given.fields)
        if (g.path == path)
            return g.option;
    return path;
}

} // namespace

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

bool DeploymentOptions::has(const std::string& path) const
{
    return std::any_of(fields.begin(), fields.end(), [&](const GivenField& g) { return g.path == path; });
}

DeploymentOptions readDeploymentOptions(ArgList& args, OptionScope scope)
{
    DeploymentOptions out;
    for (const PlanField* f : scopedFields(scope)) {
        if (f->option == "--availability")
            continue; // a number or a trace file: readOlderSpellings()
        if (const std::optional<std::string> json = readField(args, *f))
            out.fields.push_back({f->path, f->option, *json});
    }
    readOlderSpellings(args, scope, out);
    if (scope == OptionScope::Deployment)
        checkProcessorOptions(out);
    return out;
}

Deployment deploymentOf(const DeploymentOptions& given, const Deployment& base)
{
    Plan plan;
    plan.fleet = base;
    if (given.has("fleet.link"))
        plan.fleet.link = DeploymentLink{};
    try {
        for (const GivenField& g : given.fields)
            setPlanField(plan, g.path, g.json);
        validateDeployment(plan);
    } catch (const PlanError& e) {
        throw UsageError(optionOf(given, e.path()) + ": " + messageOf(e));
    }
    return plan.fleet;
}

LinkArgs readLinkArgs(ArgList& args)
{
    const DeploymentOptions given = readDeploymentOptions(args, OptionScope::Link);
    LinkArgs out;
    Plan plan;
    plan.fleet.link.link.clear(); // no --link: none (budget answers without a link model)
    try {
        for (const GivenField& g : given.fields) {
            setPlanField(plan, g.path, g.json);
            if (g.path != "fleet.link" && !out.anyModelOption) {
                out.anyModelOption = true;
                out.firstModelOption = g.option;
            }
        }
    } catch (const PlanError& e) {
        throw UsageError(optionOf(given, e.path()) + ": " + messageOf(e));
    }
    out.settings = plan.fleet.link;
    return out;
}

std::string deviceLinkArgsUsage()
{
    return "  --loss-spread W       devices differ: each device's own loss lies evenly in loss +- W (sessions\n"
           "                        are planned for the mean loss; the lossier devices are left behind)\n"
           "  --class b|c           LoRaWAN device class of the multicast: c listens all through a session\n"
           "                        (the preset's), b at its ping slots and beacons (frames wait for a slot)\n"
           "  --ping-periodicity P  Class B: a ping slot every 0.96 x 2^P s, P = 0..7 (default 0)\n"
           "  --listen-to-end       devices listen to a session's end instead of leaving once decoded\n";
}

std::string cpuArgsUsage()
{
    return "Device processor (applying a bundle keeps a node awake; docs/fleet.md \"The device side\"):\n"
           "  --cpu cortex-m4|cortex-m0  the QEMU-measured instructions per apply of that core\n"
           "  --clock-mhz F         its clock (required with --cpu)\n"
           "  --run-ma I            its run current from flash in mA (required with --cpu)\n"
           "  --cpi C               cycles per instruction (default 1: the lower bound)\n"
           "  --volts V             the supply the current is drawn at (default 3)\n";
}

std::string targetArgsUsage()
{
    return "Targets (the plan's fleet.targets; what `dpu-cli fleet plan` plans for; each left out: no target):\n"
           "  --fresh-share S       at every round's end at least this share of the fleet is fresh, as\n"
           "                        --fresh-days or --accuracy-gap (one of them) says\n"
           "  --fresh-days D        fresh: its version was the server's latest at most D days before\n"
           "  --accuracy-gap X      fresh: its version is within X points of the server's accuracy\n"
           "  --battery-per-year B  at most this share of a battery a year per device (0.2: 20 %)\n"
           "  --airtime-per-day S   at most S seconds of transmission a day per gateway\n";
}

} // namespace dpu::cli
