// SPDX-License-Identifier: MIT
// Per-strategy run figures: means over rounds per seed, then over seeds; FU of the same seed as reference.
#include "dpu/RunStats.h"
#include "dpu/StrategyId.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace dpu {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double mean(const std::vector<double>& v)
{
    if (v.empty())
        return kNaN;
    double s = 0;
    for (double x : v)
        s += x;
    return s / static_cast<double>(v.size());
}

// One strategy and seed: its records by round.
using Rounds = std::map<int, const RoundRecord*>;

} // namespace

std::vector<StrategyStats> strategyStats(const std::vector<RoundRecord>& records)
{
    std::vector<std::string> order;
    std::map<std::string, std::map<uint64_t, Rounds>> by; // strategy -> seed -> round
    for (const auto& r : records) {
        if (!by.count(r.strategy))
            order.push_back(r.strategy);
        by[r.strategy][r.seed][r.round] = &r;
    }
    const auto fu = by.find(baselineStrategyName());
    std::vector<StrategyStats> out;
    for (const auto& name : order) {
        StrategyStats s;
        s.strategy = name;
        std::vector<double> accuracy, difference, toFu, toFull;
        for (const auto& [seed, rounds] : by[name]) {
            std::vector<double> acc, diff;
            for (const auto& [round, r] : rounds)
                acc.push_back(r->testAccuracy);
            accuracy.push_back(mean(acc));
            toFull.push_back(rounds.rbegin()->second->cumulativeRatio);
            const Rounds* reference = nullptr;
            if (fu != by.end() && fu->second.count(seed))
                reference = &fu->second.at(seed);
            if (!reference)
                continue;
            for (const auto& [round, r] : rounds)
                if (reference->count(round))
                    diff.push_back(r->testAccuracy - reference->at(round)->testAccuracy);
            if (!diff.empty())
                difference.push_back(mean(diff));
            // Over the rounds both have (a stopped run may end FU earlier or later).
            const int last = std::min(rounds.rbegin()->first, reference->rbegin()->first);
            const auto mine = rounds.upper_bound(last);
            const auto theirs = reference->upper_bound(last);
            if (mine != rounds.begin() && theirs != reference->begin()) {
                const double fuBits = std::prev(theirs)->second->cumulativeBits;
                if (fuBits > 0)
                    toFu.push_back(std::prev(mine)->second->cumulativeBits / fuBits);
            }
        }
        s.seeds = static_cast<int>(by[name].size());
        s.meanTestAccuracy = mean(accuracy);
        s.accuracyDifferenceToFu = mean(difference);
        s.ratioToFu = mean(toFu);
        s.ratioToFullEveryRound = mean(toFull);
        out.push_back(s);
    }
    return out;
}

} // namespace dpu
