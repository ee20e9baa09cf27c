// SPDX-License-Identifier: MIT
// FamilyFitter: bytes linear in k and accuracy linear in log k between a family's neighbouring finished points.
#include "planning/FamilyFitter.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace dpu::planning {
namespace {

double logInterpolate(double k, double k0, double v0, double k1, double v1)
{
    if (k1 == k0)
        return v0;
    const double t = (std::log(k) - std::log(k0)) / (std::log(k1) - std::log(k0));
    return v0 + t * (v1 - v0);
}

bool better(const Candidate& a, const Candidate& b, const Budget& budget)
{
    const double ba = budget.scope == Budget::Scope::PerRound ? a.bytesPerRound : a.bytesPerRun;
    const double bb = budget.scope == Budget::Scope::PerRound ? b.bytesPerRound : b.bytesPerRun;
    return a.accuracy > b.accuracy || (a.accuracy == b.accuracy && ba < bb);
}

std::vector<FrontierPoint> byK(const FrontierFamily& family)
{
    std::vector<FrontierPoint> points = family.points;
    std::stable_sort(points.begin(), points.end(), [](const FrontierPoint& a, const FrontierPoint& b) { return a.k < b.k; });
    return points;
}

} // namespace

double scopedBytes(const FrontierPoint& p, const Budget& budget)
{
    return budget.scope == Budget::Scope::PerRound ? p.realBytesPerUpdateRound : p.realBytesPerRun;
}

bool hasScopedBytes(const FrontierPoint& p, const Budget& budget)
{
    return !std::isnan(scopedBytes(p, budget));
}

bool bestWithin(const FrontierFamily& family, const Budget& budget, Candidate& out)
{
    const std::vector<FrontierPoint> points = byK(family);
    bool found = false;
    const auto consider = [&](const Candidate& c) {
        if (!found || better(c, out, budget))
            out = c;
        found = true;
    };
    for (size_t i = 0; i < points.size(); ++i) {
        const FrontierPoint& p = points[i];
        if (!hasScopedBytes(p, budget))
            continue; // no update round: nothing to hold against a budget per round
        if (scopedBytes(p, budget) <= budget.bytes)
            consider({p.k, p.meanAccuracy, p.accuracyToFu, p.realBytesPerUpdateRound, p.realBytesPerRun});
        if (i + 1 == points.size())
            continue;
        const FrontierPoint& q = points[i + 1];
        const double b0 = scopedBytes(p, budget), b1 = scopedBytes(q, budget);
        if (q.k == p.k || !hasScopedBytes(q, budget) || (b0 <= budget.bytes) == (b1 <= budget.bytes))
            continue;
        // The budget falls between them: the k where the line between their bytes meets it.
        const double t = (budget.bytes - b0) / (b1 - b0);
        Candidate c;
        c.k = p.k + t * (q.k - p.k);
        c.accuracy = logInterpolate(c.k, p.k, p.meanAccuracy, q.k, q.meanAccuracy);
        c.accuracyToFu = logInterpolate(c.k, p.k, p.accuracyToFu, q.k, q.accuracyToFu);
        c.bytesPerRound = p.realBytesPerUpdateRound + t * (q.realBytesPerUpdateRound - p.realBytesPerUpdateRound);
        c.bytesPerRun = p.realBytesPerRun + t * (q.realBytesPerRun - p.realBytesPerRun);
        consider(c);
    }
    return found;
}

FamilyFit describeFamily(const FrontierFamily& family, const Budget& budget)
{
    FamilyFit fit;
    fit.family = family.label;
    fit.cheapestBytes = std::numeric_limits<double>::quiet_NaN(); // until a point has bytes (an update round)
    bool first = true;
    for (const FrontierPoint& p : family.points) {
        const double b = scopedBytes(p, budget);
        if (!std::isnan(b) && (std::isnan(fit.cheapestBytes) || b < fit.cheapestBytes)) {
            fit.cheapestBytes = b;
            fit.cheapestK = p.k;
        }
        if (first || p.meanAccuracy > fit.bestAccuracy) {
            fit.bestAccuracy = p.meanAccuracy;
            fit.bestBytes = b;
        }
        first = false;
    }
    return fit;
}

double cheapestAccuracy(const FrontierFamily& family, const Budget& budget)
{
    const FrontierPoint* cheapest = nullptr;
    for (const FrontierPoint& p : family.points)
        if (hasScopedBytes(p, budget) && (!cheapest || scopedBytes(p, budget) < scopedBytes(*cheapest, budget)))
            cheapest = &p;
    return cheapest ? cheapest->meanAccuracy : 0;
}

double calibration(const FrontierFamily& family)
{
    double sum = 0;
    int weight = 0;
    for (const FrontierPoint& p : family.points)
        if (p.realToAnalytic > 0) {
            sum += p.realToAnalytic * p.deployedRounds;
            weight += p.deployedRounds;
        }
    return weight > 0 ? sum / weight : 0;
}

} // namespace dpu::planning
