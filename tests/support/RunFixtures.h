// SPDX-License-Identifier: MIT
// Hand-built runs for planner, run-folder and chart tests: round records, sweep plans and run folders on disk.
#pragma once
#include "dpu/Events.h"
#include "dpu/Frontier.h"
#include "dpu/Plan.h"
#include "dpu/RunControl.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::test {

/// A record as results.jsonl holds it, without its wall time: what two runs of one plan share.
std::string withoutTiming(RoundRecord record);

/// An observer that cancels the run through its token after `n` rounds (pass `control` as
/// RunOptions::control).
struct CancelAfterRounds : RunObserver {
    explicit CancelAfterRounds(size_t n) : limit(n) {}
    size_t limit;
    size_t rounds = 0;
    RunControl control;
    void roundDone(const RoundRecord&) override
    {
        if (++rounds >= limit)
            control.requestCancel();
    }
};

/// The records of `plan` run in a temporary folder, stopped (through CancelAfterRounds) after
/// `units` rounds and resumed there to the end: for comparing with an uninterrupted run.
std::vector<RoundRecord> stoppedAndResumed(const Plan& plan, size_t units);

/// A record of a round that deployed when analyticBytes > 0 (real bundle size bundleBytes),
/// at test accuracy `accuracy`; cumulative fields are left 0 (see strategyRounds()).
RoundRecord roundRecord(const std::string& strategy, uint64_t seed, int round, double accuracy,
                        double analyticBytes = 0, int64_t bundleBytes = 0);

/// One strategy and seed over rounds 1..n: accuracies[i], analytic and real bytes of round
/// i + 1 (0: it did not deploy), with the cumulative bits, bytes and ratio filled in as the
/// runner does; `fullRoundBytes` is a full-model round's analytic size (for the ratio).
std::vector<RoundRecord> strategyRounds(const std::string& strategy, uint64_t seed, const std::vector<double>& accuracies,
                                        const std::vector<double>& analyticBytes, const std::vector<int64_t>& bundleBytes,
                                        double fullRoundBytes);

/// Concatenates record lists (a run's records of several strategies).
std::vector<RoundRecord> joined(std::initializer_list<std::vector<RoundRecord>> parts);

/// The tiny real plan the fleet, catch-up and FUOTA tests train: DPU at k 0.02 for three rounds
/// (100 samples, then 300 a round, 200 for validation) on a 1,200/400 slice of Fashion-MNIST, one
/// epoch, seed 3, one thread; a few seconds a run. Callers change what their case needs.
Plan tinyRealPlan(const std::string& name);

/// The default plan at k with `rounds` rounds, one seed, the given strategies and value coding,
/// named "sweep-<values>-k<k>".
Plan sweepPlan(double k, int rounds = 2, std::vector<std::string> strategies = {"dpu", "fu"},
               const std::string& values = "fp32");

/// A finished frontier run.
FrontierRun frontierRun(const std::string& id, const Plan& plan, std::vector<RoundRecord> records, bool finished = true);

/// The model codingSweep() runs on: I = 100000 partial weights, 100 dense values.
CostModel codingSweepCost();

/// A k sweep of two rounds (seed 1) on codingSweepCost(): dpu exact ("fp32") and "q8" at
/// k = 0.001 and 0.01, FU (exact) beside each exact run; analytic bytes from the cost model.
/// Real bytes per round: exact 1000 B and 5000 B, q8 400 B and 2000 B, FU 400500 B. Test
/// accuracy mean-5 and mean+5 points, means: exact 75 % and 85 %, q8 74 % and 84 %, FU 90 %.
/// Runs are named "<coding>-k<k>" and carry the cost model.
std::vector<FrontierRun> codingSweep();

/// Writes a run folder (plan.json, results.jsonl, and run.json with `state` unless it is empty;
/// run.json names the model's sizes `cost`); returns `dir`. Throws std::runtime_error on failure.
std::string writeRunFolder(const std::string& dir, const Plan& plan, const std::vector<RoundRecord>& records,
                           const std::string& state = "finished", const CostModel& cost = {1000, 10});

} // namespace dpu::test
