// SPDX-License-Identifier: MIT
// The fleet planner's figures of one candidate: fleet accuracy, battery, freshness, airtime per day, and the targets it misses.
#include "dpu/FleetMetrics.h"
#include "fleet/FleetPlanParts.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace dpu::fleetplan {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDay = 86400;

/// [v]: when version v stopped being the server's latest (the next one's release), +inf for
/// the last; [0] is 0 when version 1 was released in the first simulated round.
std::vector<double> supersededAt(const FleetResult& result, size_t versions)
{
    std::vector<double> at(versions, kInf);
    for (const FleetRound& r : result.rounds)
        for (int v = 1; v <= r.latestVersion && static_cast<size_t>(v) <= versions; ++v)
            if (at[static_cast<size_t>(v) - 1] == kInf)
                at[static_cast<size_t>(v) - 1] = r.startSeconds;
    return at;
}

/// Freshness over the run's rounds, each at its end (its start plus the period): the lowest share
/// of the fleet fresh, and the most days the share asked needed.
struct Freshness {
    double share = 1;
    double days = 0;
};

Freshness freshnessOf(const FleetConfig& config, const FleetStrategy& strategy, const FleetResult& result, const FleetTargets& t)
{
    const std::vector<double> superseded = supersededAt(result, strategy.versions.size());
    const double freshDays = t.accuracyGapPoints ? kInf : t.freshDays.value_or(kDefaultFreshDays);
    const double shareAsked = t.freshShare.value_or(0.9);
    Freshness out;
    const size_t runRounds = std::min(result.rounds.size(), static_cast<size_t>(std::max(result.runRounds, 0)));
    for (size_t i = 0; i < runRounds; ++i) {
        const FleetRound& r = result.rounds[i];
        if (r.versionShare.empty() || r.versionShare.size() > strategy.versions.size())
            continue;
        const double end = r.startSeconds + config.roundPeriodSeconds;
        const size_t latest = std::min(static_cast<size_t>(std::max(r.latestVersion, 0)), r.versionShare.size() - 1);
        double fresh = 0, held = 0, needed = 0;
        bool reached = false;
        for (size_t v = latest + 1; v-- > 0;) { // newest first: staleness grows
            const double share = r.versionShare[v];
            const double stale = v == latest ? 0 : std::max(0.0, end - superseded[v]);
            bool isFresh = stale <= freshDays * kDay + 1e-6;
            if (t.accuracyGapPoints)
                isFresh = strategy.versions[v].testAccuracy >= r.serverAccuracy - *t.accuracyGapPoints / 100 - 1e-12;
            fresh += isFresh ? share : 0;
            held += share;
            if (!reached && share > 0 && held >= shareAsked - 1e-9) {
                reached = true;
                needed = stale;
            }
        }
        out.share = std::min(out.share, fresh);
        out.days = std::max(out.days, needed / kDay);
    }
    return out;
}

/// Mean over the update releases of the time until 90 % of the fleet ran them; NaN when one never did.
double meanTimeTo90(const FleetResult& result)
{
    double sum = 0;
    size_t n = 0;
    for (size_t v = 1; v < result.timeToShare.size(); ++v) {
        if (std::isnan(result.timeToShare[v][1]))
            return std::numeric_limits<double>::quiet_NaN();
        sum += result.timeToShare[v][1];
        ++n;
    }
    return n == 0 ? 0 : sum / static_cast<double>(n);
}

double airtimePerDay(const FleetConfig& config, const FleetResult& result)
{
    const size_t runRounds = std::min(result.rounds.size(), static_cast<size_t>(std::max(result.runRounds, 0)));
    if (runRounds == 0 || config.groups.empty())
        return 0;
    double airtime = 0;
    for (size_t i = 0; i < runRounds; ++i)
        airtime += result.rounds[i].airtime;
    const double days = static_cast<double>(runRounds) * config.roundPeriodSeconds / kDay;
    return airtime / days / static_cast<double>(config.groups.size());
}

void judge(FleetPlanCandidate& c, const FleetTargets& t)
{
    c.misses.clear();
    c.shortfall = 0;
    auto miss = [&c](const char* path, double asked, double achieved, std::string words) {
        FleetTargetMiss m{path, asked, achieved, std::abs(achieved - asked) / asked, std::move(words)};
        c.shortfall += m.shortfall;
        c.misses.push_back(std::move(m));
    };
    if (t.freshShare && c.freshShare < *t.freshShare - 1e-9) {
        const std::string what = t.accuracyGapPoints ? "within " + number(*t.accuracyGapPoints) + " points of the server's accuracy"
                                                     : "within " + daysText(t.freshDays.value_or(kDefaultFreshDays)) + " of the server";
        miss("fleet.targets.fresh_share", *t.freshShare, c.freshShare,
             percent(c.freshShare) + " of the fleet " + what + " at worst, " + number((*t.freshShare - c.freshShare) * 100)
                 + " points short of the " + percent(*t.freshShare) + " asked");
    }
    if (t.batteryPerYear && c.batteryPerYear > *t.batteryPerYear * (1 + 1e-9))
        miss("fleet.targets.battery_per_year", *t.batteryPerYear, c.batteryPerYear,
             percent(c.batteryPerYear) + " of a battery a year, " + number(c.batteryPerYear / *t.batteryPerYear)
                 + " times the " + percent(*t.batteryPerYear) + " allowed");
    if (t.airtimePerDaySeconds && c.airtimePerDaySeconds > *t.airtimePerDaySeconds * (1 + 1e-9))
        miss("fleet.targets.airtime_per_day_s", *t.airtimePerDaySeconds, c.airtimePerDaySeconds,
             number(c.airtimePerDaySeconds) + " s of airtime a day per gateway, " + number(c.airtimePerDaySeconds / *t.airtimePerDaySeconds)
                 + " times the " + number(*t.airtimePerDaySeconds) + " s allowed");
    std::stable_sort(c.misses.begin(), c.misses.end(), [](const FleetTargetMiss& a, const FleetTargetMiss& b) { return a.shortfall > b.shortfall; });
}

} // namespace

std::string percent(double share)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, share < 0.1 ? "%.2f %%" : "%.1f %%", share * 100);
    return buf;
}

std::string daysText(double days)
{
    return number(days) + (number(days) == "1" ? " day" : " days");
}

std::string number(double value)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g", value);
    return buf;
}

void measure(FleetPlanCandidate& c, const FleetConfig& config, const FleetStrategy& strategy, const FleetResult& result,
             const FleetTargets& targets)
{
    const FleetMetrics m = fleetMetrics(config, strategy, result);
    c.fleetAccuracy = m.meanFleetAccuracy;
    c.serverAccuracy = m.meanServerAccuracy;
    c.batteryPerYear = m.batteryPerYear;
    c.energyPerYear = m.energyPerYear;
    const Freshness f = freshnessOf(config, strategy, result, targets);
    c.freshShare = f.share;
    c.freshDays = f.days;
    c.timeTo90Seconds = meanTimeTo90(result);
    c.airtimePerDaySeconds = airtimePerDay(config, result);
    judge(c, targets);
}

double figureFor(const FleetPlanCandidate& c, const std::string& path)
{
    if (path == "fleet.targets.battery_per_year")
        return c.batteryPerYear;
    if (path == "fleet.targets.airtime_per_day_s")
        return c.airtimePerDaySeconds;
    return c.freshShare;
}

} // namespace dpu::fleetplan
