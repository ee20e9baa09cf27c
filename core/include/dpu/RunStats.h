// SPDX-License-Identifier: MIT
// Per-strategy figures of a finished run, as the paper's Table 2 reports them (difference and ratio to FU).
#pragma once
#include "dpu/Events.h"
#include <string>
#include <vector>

namespace dpu {

/// One strategy's figures over a run's records. Each is computed per seed, then averaged over
/// the seeds; the "to FU" ones compare with FU's record of the same seed (and round), and are
/// NaN when the run has no FU (or FU sent nothing).
struct StrategyStats {
    std::string strategy;
    int seeds = 0;
    double meanTestAccuracy = 0;       ///< test accuracy on the devices, mean over rounds
    double accuracyDifferenceToFu = 0; ///< (accuracy - FU's) of the same round, mean over rounds
    double ratioToFu = 0;              ///< bits sent over all rounds / FU's bits (the paper's ratio)
    double ratioToFullEveryRound = 0;  ///< bits sent over all rounds / a full model every round
};

/// The strategies in the order they first appear in `records` (any order of records).
std::vector<StrategyStats> strategyStats(const std::vector<RoundRecord>& records);

} // namespace dpu
