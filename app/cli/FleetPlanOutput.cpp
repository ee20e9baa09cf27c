// SPDX-License-Identifier: MIT
// dpu-cli fleet plan's output: the fleet planner's answer in words and a Pareto table, or as JSON, from core's FleetPlan.
#include "FleetPlanOutput.h"
#include "dpu/DeploymentFields.h"
#include "dpu/PlanFields.h"
#include <nlohmann/json.hpp>
#include <cmath>
#include <cstdio>

namespace dpu::cli {
namespace {

using json = nlohmann::json;

std::string format(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string pct(double share)
{
    return format(share < 0.1 ? "%.2f %%" : "%.1f %%", share * 100);
}

std::string targetsLine(const FleetTargets& t)
{
    std::string out;
    auto add = [&out](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
    if (t.freshShare)
        add(pct(*t.freshShare) + " of the fleet "
            + (t.accuracyGapPoints ? "within " + format("%g", *t.accuracyGapPoints) + " points of the server's accuracy"
                                   : "within " + format("%g", t.freshDays.value_or(kDefaultFreshDays)) + (t.freshDays.value_or(kDefaultFreshDays) == 1 ? " day" : " days") + " of the server")
            + " at every round's end");
    if (t.batteryPerYear)
        add("at most " + pct(*t.batteryPerYear) + " of a battery a year");
    if (t.airtimePerDaySeconds)
        add("at most " + format("%g", *t.airtimePerDaySeconds) + " s of airtime a day per gateway");
    return out.empty() ? "none (the most accurate fleet wins; --fresh-share, --battery-per-year, --airtime-per-day set them)" : out;
}

std::string fleetLine(const Deployment& d)
{
    std::string link = d.link.link;
    if (!d.link.sfMix.empty())
        link += " (SF mix " + d.link.sfMix + ")";
    else if (d.link.spreadingFactor > 0)
        link += " at SF" + std::to_string(d.link.spreadingFactor);
    return std::to_string(d.devices) + " devices on " + link + ", " + pct(d.link.frameLoss) + " frame loss, "
           + (d.availabilityTrace.empty() ? "each on in a round with probability " + format("%g", d.availability)
                                          : "availability from " + d.availabilityTrace);
}

/// One row of the Pareto table.
std::string row(const FleetPlanCandidate& c)
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %9s %8s %11s %8s %9.2f d %11.0f s  ", pct(c.fleetAccuracy).c_str(), pct(c.serverAccuracy).c_str(),
                  pct(c.batteryPerYear).c_str(), pct(c.freshShare).c_str(), c.freshDays, c.airtimePerDaySeconds);
    return buf + c.label + ": " + fleetSettingText(c.setting) + "\n";
}

std::string deliveryName(FleetDelivery d)
{
    return d == FleetDelivery::Unicast ? "unicast" : d == FleetDelivery::MulticastPerSf ? "multicast-per-sf" : "multicast";
}

json number(double v)
{
    return std::isfinite(v) ? json(v) : json();
}

json candidateJson(const FleetPlanCandidate& c, size_t index, const FleetPlanInput& input)
{
    const FleetPlanSetting& s = c.setting;
    json keys = json::object();
    for (const std::string& path : deploymentDifferences(input.deployment, c.deployment))
        keys[path] = json::parse(deploymentFieldText(c.deployment, path), nullptr, false);
    json misses = json::array();
    for (const FleetTargetMiss& m : c.misses)
        misses.push_back({{"target", m.target}, {"asked", m.asked}, {"achieved", m.achieved}, {"shortfall", m.shortfall}, {"words", m.words}});
    return {{"index", index},
            {"strategy", c.label},
            {"run", input.strategies[c.strategy].run},
            {"estimated", c.estimated},
            {"setting",
             {{"round_period_h", s.roundPeriodHours},
              {"delivery", deliveryName(s.delivery)},
              {"duty_cycle", s.dutyCycle ? json(*s.dutyCycle) : json()},
              {"catch_up", s.catchUp == CatchUpDelivery::Unicast ? "unicast" : "multicast"},
              {"order", s.order == CatchUpOrder::MostStaleFirst ? "most-stale" : "smallest"},
              {"max_staleness", s.maxStaleness},
              {"repairs", s.repairSessions}}},
            {"setting_text", fleetSettingText(s)},
            {"plan_keys", keys},
            {"options", optionsOf(input.deployment, c.deployment)},
            {"fleet_accuracy", c.fleetAccuracy},
            {"server_accuracy", c.serverAccuracy},
            {"battery_per_year", c.batteryPerYear},
            {"energy_per_year_j", c.energyPerYear},
            {"fresh_share", c.freshShare},
            {"fresh_days", c.freshDays},
            {"time_to_90_s", number(c.timeTo90Seconds)},
            {"airtime_per_day_s", c.airtimePerDaySeconds},
            {"meets_targets", c.meetsTargets()},
            {"misses", misses}};
}

json targetsJson(const FleetTargets& t)
{
    auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(); };
    return {{"fresh_share", opt(t.freshShare)},           {"fresh_days", opt(t.freshDays)},
            {"accuracy_gap", opt(t.accuracyGapPoints)},   {"battery_per_year", opt(t.batteryPerYear)},
            {"airtime_per_day_s", opt(t.airtimePerDaySeconds)}};
}

/// The decision in words: the recommendation, or the nearest with what binds and would move it;
/// the cells to run and how to queue them.
std::string decisionText(const FleetPlan& p, const FleetPlanInput& input, const std::string& sweepOut)
{
    std::string out = "\n" + p.why + "\n";
    if (p.recommended)
        out += "  use it    " + optionsOf(input.deployment, p.candidates[*p.recommended].deployment) + "\n";
    if (p.nearest) {
        out += "  nearest   " + optionsOf(input.deployment, p.candidates[*p.nearest].deployment) + "\n";
        out += "What would move " + p.binding + ":\n";
        for (const std::string& m : p.moves)
            out += "  - " + m + "\n";
    }
    if (!p.cellsToRun.empty()) {
        out += "\nCells to run (nobody ran them; their bytes are estimated from the calibrated cost model):\n";
        for (const FleetPlanCell& c : p.cellsToRun)
            out += "  - " + c.why + "\n";
        out += sweepOut.empty() ? "  queue them: --sweep-out FILE writes them as a sweep file\n"
                                : "  queue them: dpu-cli sweep run " + sweepOut + " --out DIR (the sweep file --sweep-out writes)\n";
    }
    return out;
}

} // namespace

std::string optionsOf(const Deployment& base, const Deployment& candidate)
{
    std::string out;
    for (const std::string& path : deploymentDifferences(base, candidate)) {
        const PlanField* f = findPlanField(path);
        const std::string text = deploymentFieldText(candidate, path);
        const json v = json::parse(text, nullptr, false);
        std::string part = path + " " + text; // what no option says
        if (f && !f->option.empty() && !v.is_discarded()) {
            if (v.is_boolean() && v.get<bool>() == f->optionFlagValue)
                part = f->option;
            else if (v.is_number())
                part = f->option + " " + format("%g", v.get<double>() * f->optionScale);
            else if (v.is_string())
                part = f->option + " " + v.get<std::string>();
        }
        out += (out.empty() ? "" : " ") + part;
    }
    return out.empty() ? "(the deployment as given)" : out;
}

std::string fleetPlanText(const FleetPlanReport& r)
{
    const FleetPlan& p = *r.plan;
    const FleetPlanInput& input = *r.input;
    std::string out = "fleet     " + fleetLine(input.deployment) + "\n";
    out += "targets   " + targetsLine(input.deployment.targets) + "\n";
    out += "search    " + std::to_string(p.space) + " candidates: " + std::to_string(p.simulated) + " simulated, "
           + std::to_string(p.pruned) + " pruned, in " + format("%.2f s", p.seconds) + (p.cancelled ? " (stopped)" : "") + "\n";
    for (const std::string& line : p.pruning)
        out += "  pruned  " + line + "\n";
    for (const std::string& note : r.notes)
        out += "  note    " + note + "\n";
    out += decisionText(p, input, r.sweepOut);
    out += "\nPareto set: " + std::to_string(p.pareto.size())
           + " candidates (fleet accuracy against battery a year against freshness, most accurate first):\n"
           "  fleet acc   server  battery/yr    fresh  days for " + pct(input.deployment.targets.freshShare.value_or(0.9))
           + "  airtime/day  candidate\n";
    const size_t shown = r.all ? p.pareto.size() : std::min<size_t>(p.pareto.size(), 15);
    for (size_t i = 0; i < shown; ++i)
        out += row(p.candidates[p.pareto[i]]);
    if (shown < p.pareto.size())
        out += "  ... and " + std::to_string(p.pareto.size() - shown) + " more (--all lists them)\n";
    return out;
}

std::string fleetPlanJson(const FleetPlanReport& r)
{
    const FleetPlan& p = *r.plan;
    const FleetPlanInput& input = *r.input;
    auto candidate = [&](std::optional<size_t> i) { return i ? candidateJson(p.candidates[*i], *i, input) : json(); };
    json cells = json::array();
    for (const FleetPlanCell& c : p.cellsToRun) {
        json keys = json::object();
        for (const auto& [path, value] : c.keys)
            keys[path] = json::parse(value, nullptr, false);
        cells.push_back({{"run", c.run}, {"keys", keys}, {"why", c.why}, {"candidate", candidate(c.candidate)}});
    }
    json pareto = json::array();
    for (size_t i : p.pareto)
        pareto.push_back(candidate(i));
    json j = {{"targets", targetsJson(input.deployment.targets)},
              {"space", p.space},
              {"simulated", p.simulated},
              {"pruned", p.pruned},
              {"pruning", p.pruning},
              {"seconds", p.seconds},
              {"cancelled", p.cancelled},
              {"notes", r.notes},
              {"recommended", candidate(p.recommended)},
              {"nearest", candidate(p.nearest)},
              {"binding", p.binding.empty() ? json() : json(p.binding)},
              {"why", p.why},
              {"moves", p.moves},
              {"cells_to_run", cells},
              {"sweep_out", r.sweepOut.empty() || p.cellsToRun.empty() ? json() : json(r.sweepOut)},
              {"pareto", pareto}};
    if (r.all) {
        json all = json::array();
        for (size_t i = 0; i < p.candidates.size(); ++i)
            all.push_back(candidateJson(p.candidates[i], i, input));
        j["candidates"] = all;
    }
    return j.dump(2) + "\n";
}

} // namespace dpu::cli
