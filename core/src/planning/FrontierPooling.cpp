// SPDX-License-Identifier: MIT
// FrontierPooling: per (strategy, seed) of each run, then pooled per (family, k); FU of the same seed and round as reference.
#include "planning/FrontierPooling.h"
#include "dpu/StrategyId.h"
#include "dpu/UpdateBytes.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace dpu::planning {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Family = std::pair<std::string, FamilyValues>; // strategy, values
using SeedRound = std::pair<uint64_t, int>;

struct FuRound {
    double accuracy = 0;
    double cumulativeBits = 0;
    int n = 0;
};
using FuRounds = std::map<SeedRound, FuRound>;

struct Sum {
    double accuracy = 0;
    double analyticBytes = 0;
    int rounds = 0;
    std::set<const FrontierRun*> runs;
    int deployed = 0;
    UpdateBytes bytes; // the initial deployment apart from the update rounds
    std::vector<double> totals; // real bytes of all rounds, per (run, seed)
    double difference = 0;
    int differences = 0;
    std::vector<double> toFu, toFull;
    std::vector<double> unitDifferences; // one unit's mean difference to FU, per (run, seed)
    double partialReal = 0, partialAnalytic = 0;
    bool unmeasured = false; // a deployed round without a bundle size (runs from before bundles)
};

double mean(const std::vector<double>& v)
{
    if (v.empty())
        return kNaN;
    double s = 0;
    for (double x : v)
        s += x;
    return s / static_cast<double>(v.size());
}

/// Sample standard deviation; NaN with fewer than two values.
double sampleStd(const std::vector<double>& v)
{
    if (v.size() < 2)
        return kNaN;
    const double m = mean(v);
    double s = 0;
    for (double x : v)
        s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

/// Analytic bits of one full-model round: from the model's size, else from a record's ratio
/// (cumulativeRatio = cumulativeBits / (round x full bits)); 0 when neither says.
double fullBitsOf(const FrontierRun& run)
{
    if (run.cost.partialWeights > 0)
        return fullRoundBits(run.cost);
    for (const RoundRecord& r : run.records)
        if (r.cumulativeRatio > 0 && r.cumulativeBits > 0 && r.round > 0)
            return r.cumulativeBits / (r.cumulativeRatio * r.round);
    return 0;
}

/// FU's rounds of every family-value set in the group, averaged over the runs that have them
/// (FU ignores k, and a dense model's FU the coding: each run of a sweep or of another coding repeats it).
std::map<FamilyValues, FuRounds> fuRounds(const std::vector<const FrontierRun*>& runs, const std::vector<std::string>& keys)
{
    std::map<FamilyValues, FuRounds> fu;
    for (const FrontierRun* run : runs) {
        const FamilyValues values = familyValuesOf(baselineStrategyName(), run->plan, keys);
        for (const RoundRecord& r : run->records)
            if (isBaseline(r.strategy)) {
                FuRound& f = fu[values][{r.seed, r.round}];
                f.accuracy += r.testAccuracy;
                f.cumulativeBits += r.cumulativeBits;
                ++f.n;
            }
    }
    return fu;
}

/// Adds one strategy and seed of a run (its records by round) to its point's sums.
void addSeed(Sum& s, const FrontierRun& run, const std::map<int, const RoundRecord*>& rounds, const FuRounds* fu)
{
    s.runs.insert(&run);
    double total = 0;
    double unitDifference = 0;
    int unitDifferences = 0;
    std::vector<const RoundRecord*> unit;
    for (const auto& [round, r] : rounds)
        unit.push_back(r);
    s.bytes.addUnit(unit);
    for (const auto& [round, r] : rounds) {
        s.accuracy += r->testAccuracy;
        s.analyticBytes += r->analyticBits / 8.0;
        ++s.rounds;
        const double bytes = roundBytes(*r);
        total += bytes;
        if (r->deployed) {
            ++s.deployed;
            s.unmeasured = s.unmeasured || r->bundleBytes <= 0;
            if (!isBaseline(r->strategy) && r->bundleKind != "full" && r->analyticBits > 0 && r->bundleBytes > 0) {
                s.partialReal += static_cast<double>(r->bundleBytes);
                s.partialAnalytic += r->analyticBits / 8.0;
            }
        }
        if (fu) {
            const auto f = fu->find({r->seed, round});
            if (f != fu->end()) {
                const double d = r->testAccuracy - f->second.accuracy / f->second.n;
                s.difference += d;
                ++s.differences;
                unitDifference += d;
                ++unitDifferences;
            }
        }
    }
    s.totals.push_back(total);
    if (unitDifferences > 0)
        s.unitDifferences.push_back(unitDifference / unitDifferences);
    const uint64_t seed = rounds.begin()->second->seed;
    if (fu) {
        // FU's analytic bits over the rounds both have (the paper's denominator).
        const FuRound* last = nullptr;
        int lastRound = 0;
        for (const auto& [key, f] : *fu)
            if (key.first == seed && key.second <= rounds.rbegin()->first && key.second > lastRound) {
                last = &f;
                lastRound = key.second;
            }
        double mine = 0;
        for (const auto& [round, r] : rounds)
            if (round <= lastRound)
                mine += 8.0 * roundBytes(*r);
        if (last && last->cumulativeBits > 0)
            s.toFu.push_back(mine / (last->cumulativeBits / last->n));
    }
    const double full = fullBitsOf(run);
    if (full > 0)
        s.toFull.push_back(8.0 * total / (static_cast<double>(rounds.size()) * full));
}

} // namespace

void poolPoints(FrontierGroup& group, const std::vector<const FrontierRun*>& runs, const std::vector<std::string>& keys)
{
    const std::map<FamilyValues, FuRounds> fu = fuRounds(runs, keys);
    const FuRounds* reference = nullptr;
    if (!fu.empty()) {
        // Exact FU, the paper's reference, where it ran: a lossy FU (a sparse model's, whose
        // updates are coded deltas) would hide the coding's loss.
        const auto exact = fu.find(familyValuesOf(baselineStrategyName(), defaultPlan(), keys));
        const auto chosen = exact != fu.end() ? exact : fu.begin();
        reference = &chosen->second;
        group.fuReference = familyLabel(baselineStrategyName(), chosen->first);
    }
    std::map<std::pair<Family, double>, Sum> sums; // order: strategy, values, k
    for (const FrontierRun* run : runs) {
        std::map<std::string, std::map<uint64_t, std::map<int, const RoundRecord*>>> by; // strategy, seed, round
        for (const RoundRecord& r : run->records)
            by[r.strategy][r.seed][r.round] = &r;
        for (const auto& [strategy, seeds] : by) {
            // FU of every coding of a dense model is one family: its records are the same.
            const FamilyValues values = familyValuesOf(strategy, run->plan, keys);
            for (const auto& [seed, rounds] : seeds)
                addSeed(sums[{{strategy, values}, run->plan.k}], *run, rounds, reference);
        }
    }
    for (const auto& [key, s] : sums) {
        FrontierPoint p;
        p.strategy = key.first.first;
        p.familyValues = key.first.second;
        p.family = familyLabel(p.strategy, p.familyValues);
        p.k = key.second;
        p.meanAccuracy = s.accuracy / s.rounds;
        p.meanBytesPerRound = s.analyticBytes / s.rounds;
        p.runs = static_cast<int>(s.runs.size());
        p.rounds = s.rounds;
        p.deployedRounds = s.deployed;
        p.updateRounds = s.bytes.updateRounds();
        p.initialDeploymentBytes = s.bytes.initialDeploymentBytes();
        p.realBytesPerUpdateRound = s.bytes.bytesPerUpdateRound();
        p.maxRealBytesPerUpdateRound = s.bytes.maxBytesPerUpdateRound();
        p.realBytesPerRun = mean(s.totals);
        if (s.differences > 0)
            p.accuracyToFu = s.difference / s.differences;
        p.ratioToFu = mean(s.toFu);
        p.accuracyToFuStd = sampleStd(s.unitDifferences);
        p.ratioToFuStd = sampleStd(s.toFu);
        p.seedUnits = static_cast<int>(s.totals.size());
        p.ratioToFull = mean(s.toFull);
        p.realToAnalytic = s.partialAnalytic > 0 ? s.partialReal / s.partialAnalytic : 0;
        p.measuredBytes = !s.unmeasured;
        if (group.families.empty() || group.families.back().label != p.family
            || group.families.back().strategy != p.strategy || group.families.back().values != p.familyValues)
            group.families.push_back({p.family, p.strategy, p.familyValues, {}});
        group.families.back().points.push_back(p);
        group.points.push_back(std::move(p));
    }
}

} // namespace dpu::planning
