// SPDX-License-Identifier: MIT
// Recommend: every family's best fit within the budget, the most accurate one, and the cost model's estimate below the runs.
#include "dpu/Recommend.h"
#include "dpu/DeployedForms.h"
#include "dpu/StrategyId.h"
#include "planning/FamilyFitter.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dpu {
namespace {

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * fraction);
    return buf;
}

std::string kText(double k)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", k);
    return buf;
}

const char* per(const Budget& b)
{
    return b.scope == Budget::Scope::PerRound ? "/update round" : "/run";
}

/// The configuration's name in a why line: FU has no k.
std::string configText(const std::string& family, const std::string& strategy, double k)
{
    return isBaseline(strategy) ? family : family + " at k=" + kText(k);
}

Recommendation fromFit(const FrontierFamily& family, const planning::Candidate& c, int rounds)
{
    Recommendation r;
    r.found = r.measured = true;
    r.family = family.label;
    r.strategy = family.strategy;
    r.values = family.values;
    r.k = c.k;
    r.expectedAccuracy = c.accuracy;
    r.accuracyToFu = c.accuracyToFu;
    r.bytesPerRound = c.bytesPerRound;
    r.bytesPerRun = c.bytesPerRun > 0 ? c.bytesPerRun : c.bytesPerRound * rounds;
    return r;
}

/// The answer from the cost model alone: the largest k whose calibrated bytes fit.
void estimate(Recommendation& r, const CostModel& cost, const Budget& budget, int rounds, const std::string& basis)
{
    const double perRound = budget.scope == Budget::Scope::PerRound ? budget.bytes : budget.bytes / std::max(1, rounds);
    if (isBaseline(r.strategy)) {
        const double full = r.realToAnalytic * fullRoundBits(cost) / 8.0;
        r.found = full <= perRound;
        r.k = 1;
        r.bytesPerRound = full;
    } else {
        r.k = largestKForBudget(cost, 8.0 * perRound / r.realToAnalytic);
        r.found = r.k > 0;
        r.bytesPerRound = r.realToAnalytic * partialRoundBits(cost, r.k) / 8.0;
    }
    r.bytesPerRun = r.bytesPerRound * rounds;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3g", r.realToAnalytic);
    if (!r.found) {
        const double dense = r.realToAnalytic * partialRoundBits(cost, 0) / 8.0;
        r.why += "nothing fits: " + (isBaseline(r.strategy) ? "a full round of " + r.family + " needs " + humanBytes(r.bytesPerRound)
                                                               : "the always-shipped weights alone need " + humanBytes(dense))
                 + " a round (estimate, " + basis + ")";
        r.bytesPerRound = r.bytesPerRun = 0;
        return;
    }
    r.why += "estimate: " + configText(r.family, r.strategy, r.k) + " fits, " + humanBytes(r.bytesPerRound) + "/update round by the "
             + basis + " (real = " + ratio + " x analytic)";
}

const char* const kUnknownAccuracy = "; accuracy unknown: run it to measure";

/// No finished runs: the plan's own configuration on the analytic (fp32) formula.
Recommendation fromPlanAlone(const Plan& reference, const CostModel& cost, const Budget& budget, int rounds)
{
    Recommendation r;
    const auto partial = std::find_if(reference.strategies.begin(), reference.strategies.end(),
                                      [](const std::string& s) { return !isBaseline(s); });
    r.strategy = partial != reference.strategies.end() ? *partial : baselineStrategyName();
    r.values = familyValuesOf(r.strategy, reference);
    r.family = familyLabel(r.strategy, r.values);
    r.realToAnalytic = 1;
    if (cost.partialWeights <= 0) {
        r.why = "no finished runs, and the plan's model has no known size: nothing to estimate from";
        return r;
    }
    r.why = "no finished runs; ";
    estimate(r, cost, budget, rounds, "uncalibrated analytic cost model");
    if (r.found)
        r.why += kUnknownAccuracy;
    return r;
}

/// The cheapest finished point (of any family, a larger k of the chosen one included) that
/// beats `accuracy` above the budget: what more bytes would buy ("" when none).
std::string whatMoreBuys(const FrontierGroup& group, double accuracy, const Budget& budget)
{
    const FrontierFamily* dearer = nullptr;
    const FrontierPoint* dearerPoint = nullptr;
    for (const FrontierFamily& family : group.families)
        for (const FrontierPoint& p : family.points) {
            const double b = planning::scopedBytes(p, budget);
            if (p.meanAccuracy > accuracy && b > budget.bytes && (!dearerPoint || b < planning::scopedBytes(*dearerPoint, budget))) {
                dearer = &family;
                dearerPoint = &p;
            }
        }
    if (!dearer)
        return {};
    return "; " + configText(dearer->label, dearer->strategy, dearerPoint->k) + " needs "
           + humanBytes(planning::scopedBytes(*dearerPoint, budget)) + " for " + percent(dearerPoint->meanAccuracy);
}

/// The best finished point that fits (`chosen`, of family `chosenFamily`), with the counts and
/// fits of `counted`, and why in words.
Recommendation fromFinishedPoint(const FrontierGroup& group, const Recommendation& counted, const planning::Candidate& chosen,
                                 size_t chosenFamily, const Budget& budget, int rounds)
{
    Recommendation r = fromFit(group.families[chosenFamily], chosen, rounds);
    r.familiesConsidered = counted.familiesConsidered;
    r.familiesFitting = counted.familiesFitting;
    r.fits = counted.fits;
    const double bytes = r.fits[chosenFamily].bytes;
    r.why = configText(r.family, r.strategy, r.k) + ": " + percent(r.expectedAccuracy) + " expected";
    if (!std::isnan(r.accuracyToFu)) {
        char d[32];
        std::snprintf(d, sizeof d, " (%+.2f points to FU)", 100.0 * r.accuracyToFu);
        r.why += d;
    }
    r.why += ", " + humanBytes(bytes) + per(budget) + ", best of " + std::to_string(r.familiesFitting)
             + (r.familiesFitting == 1 ? " family that fits (" : " families that fit (")
             + std::to_string(r.familiesConsidered) + " in all)";
    r.why += whatMoreBuys(group, r.expectedAccuracy, budget);
    const auto& pts = group.families[chosenFamily].points;
    if (std::any_of(pts.begin(), pts.end(), [](const FrontierPoint& p) { return !p.measuredBytes; }))
        r.why += " (analytic bytes where runs measured no bundle)";
    return r;
}

/// No finished point fits: the calibrated cost model below the runs, for the family whose runs
/// reach lowest (the least extrapolation; ties: the more accurate there).
Recommendation fromCalibratedModel(const FrontierGroup& group, const Recommendation& counted, const CostModel& cost,
                                   const Budget& budget, int rounds)
{
    const FrontierFamily* pick = nullptr;
    size_t pickIndex = 0;
    for (size_t f = 0; f < group.families.size(); ++f) {
        const FrontierFamily& family = group.families[f];
        const FamilyFit& fit = counted.fits[f];
        if (isBaseline(family.strategy) || planning::calibration(family) <= 0 || std::isnan(fit.cheapestBytes))
            continue;
        const FamilyFit* held = pick ? &counted.fits[pickIndex] : nullptr;
        if (!held || fit.cheapestBytes < held->cheapestBytes
            || (fit.cheapestBytes == held->cheapestBytes
                && planning::cheapestAccuracy(family, budget) > planning::cheapestAccuracy(*pick, budget))) {
            pick = &family;
            pickIndex = f;
        }
    }
    const FamilyFit* cheapest = nullptr;
    for (const FamilyFit& fit : counted.fits)
        if (!std::isnan(fit.cheapestBytes) && (!cheapest || fit.cheapestBytes < cheapest->cheapestBytes))
            cheapest = &fit;
    const std::string none = "no finished run fits " + humanBytes(budget.bytes) + per(budget)
                             + (cheapest ? " (the cheapest, " + cheapest->family + ", needs " + humanBytes(cheapest->cheapestBytes) + "); "
                                         : std::string(" (no finished run has an update round after its initial deployment); "));
    Recommendation r;
    r.fits = counted.fits;
    r.familiesConsidered = counted.familiesConsidered;
    if (!pick || cost.partialWeights <= 0) {
        r.familiesFitting = counted.familiesFitting;
        r.why = none + (cost.partialWeights <= 0 ? "the model's size is unknown" : "no partial-update family to calibrate")
                + ": nothing to estimate from";
        return r;
    }
    r.family = pick->label;
    r.strategy = pick->strategy;
    r.values = pick->values;
    r.realToAnalytic = planning::calibration(*pick);
    r.why = none;
    estimate(r, cost, budget, rounds, "cost model calibrated on " + pick->label + "'s runs");
    if (r.found) {
        const Expectation e = expectedAccuracy(pick->points, r.k);
        if (e.bracketed) { // bytes need not grow with k everywhere: k may still lie between runs
            r.expectedAccuracy = e.accuracy;
            r.why += "; " + percent(e.accuracy) + " expected between its runs";
        } else {
            r.why += kUnknownAccuracy;
        }
    }
    return r;
}


} // namespace

std::string humanBytes(double bytes)
{
    char buf[32];
    if (bytes >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f MB", bytes / 1e6);
    else if (bytes >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1f KB", bytes / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    return buf;
}

Recommendation recommend(const FrontierGroup* group, const Plan& reference, const CostModel& modelCost, const Budget& budget)
{
    Recommendation r;
    // A form with its own value codes (INT8's 8-bit codes) is priced as its records' analytic bits count them.
    const DeployedFormInfo& form = deployedFormInfo((group ? group->plan : reference).deployed);
    CostModel cost = modelCost;
    if (form.ownValueCodes)
        cost.valueBits = form.valueBits;
    if (!(budget.bytes > 0) || !std::isfinite(budget.bytes)) {
        r.why = "no budget: expected bytes > 0";
        return r;
    }
    const int rounds = group ? group->plan.split.rounds : reference.split.rounds;
    if (!group || group->families.empty())
        return fromPlanAlone(reference, cost, budget, rounds);
    std::vector<planning::Candidate> best(group->families.size());
    const planning::Candidate* chosen = nullptr;
    size_t chosenFamily = 0;
    for (size_t f = 0; f < group->families.size(); ++f) {
        const FrontierFamily& family = group->families[f];
        FamilyFit fit = planning::describeFamily(family, budget);
        if (planning::bestWithin(family, budget, best[f])) {
            fit.fits = true;
            fit.k = best[f].k;
            fit.accuracy = best[f].accuracy;
            fit.bytes = budget.scope == Budget::Scope::PerRound ? best[f].bytesPerRound : best[f].bytesPerRun;
            ++r.familiesFitting;
            const bool better = !chosen || best[f].accuracy > chosen->accuracy
                                || (best[f].accuracy == chosen->accuracy && fit.bytes < r.fits[chosenFamily].bytes);
            if (better) {
                chosen = &best[f];
                chosenFamily = f;
            }
        }
        r.fits.push_back(fit);
    }
    r.familiesConsidered = static_cast<int>(group->families.size());
    if (chosen)
        return fromFinishedPoint(*group, r, *chosen, chosenFamily, budget, rounds);
    return fromCalibratedModel(*group, r, cost, budget, rounds);
}

} // namespace dpu
