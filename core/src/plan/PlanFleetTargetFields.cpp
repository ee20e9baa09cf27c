// SPDX-License-Identifier: MIT
// The plan's fleet.targets.* fields: what the fleet must reach (dpu::FleetTargets), each optional, with its dpu-cli option and rules.
#include "plan/PlanFieldBuilders.h"
#include "plan/PlanFieldParts.h"

namespace dpu::plan {
namespace {

using OptionalRef = std::optional<double>& (*)(Plan&);

/// An optional number in `bounds`: unset (no target) by default, written only when set, a JSON
/// null read as unset; `option` sets it on the command line.
FieldBinding optionalNumber(const std::string& path, OptionalRef ref, Bounds bounds, const std::string& values,
                            const std::string& doc, const std::string& option)
{
    FieldBinding b = describedField(path, FieldType::Number, {}, values, "none", doc);
    b.read = [path, ref](const json& v, Plan& p) {
        require(v.is_number() || v.is_null(), path, std::string("expected a number, found ") + v.type_name());
        ref(p) = v.is_null() ? std::nullopt : std::optional<double>(v.get<double>());
    };
    b.write = [ref](const Plan& p, json& parent, const std::string& key) {
        if (const std::optional<double> v = ref(const_cast<Plan&>(p)))
            parent[key] = *v;
    };
    b.check = [path, ref, bounds, values](const Plan& p) {
        if (const std::optional<double> v = ref(const_cast<Plan&>(p)))
            require(bounds.contain(*v), path, "expected " + values + ", found " + showNumber(*v));
    };
    b.isDefault = [ref](const Plan& p) { return !ref(const_cast<Plan&>(p)); };
    b.reset = [ref](Plan& p) { ref(p).reset(); };
    b.info.option = option;
    b.info.advanced = true; // plan files and the command line until the window's fleet planner
    return b;
}

/// How freshness is measured means something only with a share to reach.
FieldBinding withFreshShare(FieldBinding b)
{
    return appliesWhen(std::move(b), {[](const Plan& p) { return p.fleet.targets.freshShare.has_value(); },
                                      "a freshness measure needs the share of the fleet it must hold for",
                                      "fleet.targets.fresh_share set",
                                      [](const Plan&) { return std::string("fleet.targets.fresh_share unset"); }});
}

/// fleet.targets.accuracy_gap, the last of the freshness fields, with the rule across them: a
/// share needs one measure, and two measures exclude each other. It is checked here, after the
/// fields it names (a command line sets them in the table's order, each checked as it is set).
FieldBinding accuracyGapField()
{
    FieldBinding b = withFreshShare(optionalNumber(
        "fleet.targets.accuracy_gap", [](Plan& p) -> std::optional<double>& { return p.fleet.targets.accuracyGapPoints; },
        {0, 100, true, true}, "points of accuracy in [0, 100]",
        "fresh: the version a device runs is within this many points of test accuracy of the server's latest",
        "--accuracy-gap"));
    const auto range = b.check;
    b.check = [range](const Plan& p) {
        range(p);
        const FleetTargets& t = p.fleet.targets;
        if (!t.freshShare)
            return;
        require(t.freshDays || t.accuracyGapPoints, "fleet.targets.fresh_share",
                "says what share of the fleet is fresh; expected fleet.targets.fresh_days or fleet.targets.accuracy_gap "
                "with it, found neither");
        require(!(t.freshDays && t.accuracyGapPoints), "fleet.targets.accuracy_gap",
                "measures freshness another way than fleet.targets.fresh_days; expected one of them, found both");
    };
    return b;
}

} // namespace

std::vector<FieldBinding> fleetTargetFields()
{
    std::vector<FieldBinding> t;
    t.push_back(optionalNumber(
        "fleet.targets.fresh_share", [](Plan& p) -> std::optional<double>& { return p.fleet.targets.freshShare; },
        {0, 1, false, true}, "a share in (0, 1]",
        "target: at every round's end at least this share of the fleet is fresh (fresh_days or accuracy_gap says "
        "what fresh is); none: no freshness target",
        "--fresh-share"));
    t.push_back(withFreshShare(optionalNumber(
        "fleet.targets.fresh_days", [](Plan& p) -> std::optional<double>& { return p.fleet.targets.freshDays; },
        {0, 3650, false, true}, "days in (0, 3650]",
        "fresh: the version a device runs was the server's latest at most this many days before", "--fresh-days")));
    t.push_back(accuracyGapField());
    t.push_back(optionalNumber(
        "fleet.targets.battery_per_year", [](Plan& p) -> std::optional<double>& { return p.fleet.targets.batteryPerYear; },
        {0, 1000, false, true}, "a share in (0, 1000] (1: a whole battery)",
        "target: at most this share of a device's battery a year for downloads and uploads (fleet mean); none: no "
        "battery target",
        "--battery-per-year"));
    t.push_back(optionalNumber(
        "fleet.targets.airtime_per_day_s", [](Plan& p) -> std::optional<double>& { return p.fleet.targets.airtimePerDaySeconds; },
        {0, 86400, false, true}, "seconds in (0, 86400]",
        "target: at most this many seconds of transmission a day per gateway over the run's rounds; none: no airtime "
        "target",
        "--airtime-per-day"));
    return t;
}

} // namespace dpu::plan
