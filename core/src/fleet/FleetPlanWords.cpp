// SPDX-License-Identifier: MIT
// The fleet planner's words: a strategy's label, why the recommendation wins, and what would move the target that binds.
#include "fleet/FleetPlanParts.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dpu::fleetplan {
namespace {

/// The targets a candidate meets, each with its figure and the target.
std::string targetsMet(const FleetPlanCandidate& c, const FleetTargets& t)
{
    std::vector<std::string> parts;
    if (t.freshShare) {
        const std::string measure = t.accuracyGapPoints ? "within " + number(*t.accuracyGapPoints) + " points of the server's accuracy"
                                                        : "within " + daysText(*t.freshDays) + " of the server";
        parts.push_back(percent(c.freshShare) + " of the fleet " + measure + " at worst (" + percent(*t.freshShare) + " asked)");
    }
    if (t.batteryPerYear)
        parts.push_back(percent(c.batteryPerYear) + " of a battery a year (" + percent(*t.batteryPerYear) + " allowed)");
    if (t.airtimePerDaySeconds)
        parts.push_back(number(c.airtimePerDaySeconds) + " s of airtime a day per gateway (" + number(*t.airtimePerDaySeconds)
                        + " s allowed)");
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

/// The candidate's figure for the target at `path`, in words.
std::string figureWords(const FleetPlanCandidate& c, const std::string& path)
{
    if (path == "fleet.targets.battery_per_year")
        return percent(c.batteryPerYear) + " of a battery a year";
    if (path == "fleet.targets.airtime_per_day_s")
        return number(c.airtimePerDaySeconds) + " s of airtime a day";
    return percent(c.freshShare) + " fresh";
}

/// Whether a higher figure is better for the target at `path`.
bool higherIsBetter(const std::string& path)
{
    return path == "fleet.targets.fresh_share";
}

/// One change between two candidates: which part (0 strategy, 1 period, 2 delivery, 3 sub-band,
/// 4 catch-up, 5 order, 6 staleness, 7 repairs) and in words.
struct Change {
    int part = -1; ///< -1: none, or more than one
    std::string words;
};

/// What `to` changes of `from`'s strategy and setting, when it changes exactly one thing.
Change changeOf(const FleetPlanCandidate& from, const FleetPlanCandidate& to)
{
    const FleetPlanSetting& a = from.setting;
    const FleetPlanSetting& b = to.setting;
    std::vector<Change> changes;
    if (from.strategy != to.strategy)
        changes.push_back({0, to.label + " instead of " + from.label});
    if (a.roundPeriodHours != b.roundPeriodHours)
        changes.push_back({1, "a round every " + number(b.roundPeriodHours) + " h instead of " + number(a.roundPeriodHours) + " h"});
    if (a.delivery != b.delivery)
        changes.push_back({2, fleetDeliveryText(b.delivery) + " instead of " + fleetDeliveryText(a.delivery)});
    if (a.dutyCycle != b.dutyCycle)
        changes.push_back({3, b.dutyCycle ? "the " + number(*b.dutyCycle * 100) + " % sub-band" : "the preset's duty cycle"});
    if (a.catchUp != b.catchUp)
        changes.push_back({4, b.catchUp == CatchUpDelivery::MulticastPerVersion ? "catch-ups by one multicast per version"
                                                                                : "catch-ups by unicast"});
    if (a.order != b.order)
        changes.push_back({5, b.order == CatchUpOrder::MostStaleFirst ? "the most stale first" : "the smallest catch-ups first"});
    if (a.maxStaleness != b.maxStaleness)
        changes.push_back({6, b.maxStaleness > 0 ? "the full model past " + std::to_string(b.maxStaleness) + " versions behind"
                                                 : "never the full model"});
    if (a.repairSessions != b.repairSessions)
        changes.push_back({7, std::to_string(b.repairSessions) + " repair sessions instead of " + std::to_string(a.repairSessions)});
    return changes.size() == 1 ? changes.front() : Change{};
}

/// The relaxed target that the nearest candidate would meet.
std::string relaxation(const FleetPlanCandidate& c, const FleetTargetMiss& m, const FleetTargets& t)
{
    if (m.target == "fleet.targets.fresh_share") {
        std::string text = "fleet.targets.fresh_share " + number(std::floor(c.freshShare * 1000) / 1000);
        if (t.freshDays)
            text += " (or fleet.targets.fresh_days " + number(std::ceil(c.freshDays * 100) / 100) + ": the days within which "
                    + percent(*t.freshShare) + " of its fleet always is)";
        return text;
    }
    return m.target + " " + number(m.achieved * (1 + 1e-3));
}

} // namespace

std::string labelOf(const FleetPlanStrategy& s)
{
    std::string label = s.strategy.name;
    if (!s.coding.empty() || s.k > 0) {
        char k[32];
        std::snprintf(k, sizeof k, "k %g", s.k);
        label += " (" + s.coding + (s.coding.empty() ? "" : ", ") + k + ")";
    }
    return s.estimated ? label + " (estimated)" : label;
}

std::string recommendationWords(const FleetPlan& plan, size_t best, const FleetTargets& targets)
{
    const std::vector<FleetPlanCandidate>& c = plan.candidates;
    const FleetPlanCandidate& r = c[best];
    size_t meeting = 0;
    for (const FleetPlanCandidate& x : c)
        meeting += !x.estimated && x.meetsTargets();
    std::string text = "Recommended: " + r.label + ", with " + fleetSettingText(r.setting) + ". ";
    text += targets.any() ? "It meets every target: " + targetsMet(r, targets) + ". " : "No target is set. ";
    text += "Its devices run at " + percent(r.fleetAccuracy) + " mean accuracy over the run's rounds (the server at "
            + percent(r.serverAccuracy) + "), the most accurate fleet of the " + std::to_string(meeting) + " candidates "
            + (targets.any() ? "that meet every target" : "simulated")
            + " (among equals: the least battery, then the freshest fleet, then the least airtime)";
    // The best of another strategy, for a sense of the margin.
    const FleetPlanCandidate* next = nullptr;
    for (size_t i : plan.pareto)
        if (i != best && c[i].meetsTargets() && c[i].strategy != r.strategy && (!next || c[i].fleetAccuracy > next->fleetAccuracy))
            next = &c[i];
    if (next)
        text += "; the best other strategy, " + next->label + ", " + percent(next->fleetAccuracy) + " at "
                + percent(next->batteryPerYear) + " of a battery a year";
    if (!targets.batteryPerYear)
        text += "; " + percent(r.batteryPerYear) + " of a battery a year";
    if (!targets.freshShare)
        text += "; 90 % of the fleet " + (r.freshDays < 1e-9 ? std::string("on the server's latest version")
                                                             : "within " + daysText(r.freshDays) + " of the server")
                + " at every round's end";
    text += ".";
    return text;
}

std::vector<std::string> movesFor(const FleetPlan& plan, size_t nearest, const FleetTargets& targets)
{
    const std::vector<FleetPlanCandidate>& c = plan.candidates;
    const FleetPlanCandidate& n = c[nearest];
    const FleetTargetMiss& m = n.misses.front();
    const bool up = higherIsBetter(m.target);
    auto gain = [&](const FleetPlanCandidate& x) { return (figureFor(x, m.target) - figureFor(n, m.target)) * (up ? 1 : -1); };
    // One change at a time: the best of each part changed, the largest gains first, three at most.
    std::vector<size_t> bestOf(8, c.size());
    for (size_t i = 0; i < c.size(); ++i) {
        const Change change = changeOf(n, c[i]);
        if (c[i].estimated || change.part < 0 || gain(c[i]) <= 1e-12)
            continue;
        size_t& b = bestOf[static_cast<size_t>(change.part)];
        if (b == c.size() || gain(c[i]) > gain(c[b]) + 1e-12)
            b = i;
    }
    std::vector<size_t> steps;
    for (size_t b : bestOf)
        if (b < c.size())
            steps.push_back(b);
    std::stable_sort(steps.begin(), steps.end(), [&](size_t a, size_t b) { return gain(c[a]) > gain(c[b]); });
    std::vector<std::string> moves;
    for (size_t k = 0; k < steps.size() && k < 3; ++k) {
        const FleetPlanCandidate& x = c[steps[k]];
        const std::string rest = x.meetsTargets()                  ? ", meeting every target"
                                 : x.misses.front().target == m.target ? ", not yet enough"
                                                                       : ", still missing " + x.misses.front().words;
        moves.push_back(changeOf(n, x).words + ": " + figureWords(x, m.target) + rest);
    }
    // The best any candidate reaches on the binding target.
    size_t top = nearest;
    for (size_t i = 0; i < c.size(); ++i)
        if (!c[i].estimated && gain(c[i]) > gain(c[top]) + 1e-12)
            top = i;
    const bool reachable = (figureFor(c[top], m.target) - m.asked) * (up ? 1 : -1) >= -1e-9;
    moves.push_back("The best any candidate reaches is " + figureWords(c[top], m.target) + " (" + c[top].label + ", with "
                    + fleetSettingText(c[top].setting) + ")"
                    + (reachable ? "" : ": no candidate of this space meets " + m.target + "; smaller bundles (a smaller k or a "
                                        "coarser coding, see the cells to run) or a relaxed target would"));
    moves.push_back("Relaxing the target to " + relaxation(n, m, targets) + " would let the nearest meet it.");
    return moves;
}

} // namespace dpu::fleetplan
