// SPDX-License-Identifier: MIT
// Finished runs reduced to (strategy, k) -> mean accuracy and bytes: the budget planner's data.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include <map>
#include <string>
#include <vector>

namespace dpu::ui {

/// One point of the accuracy-against-bytes frontier: every finished run of a strategy at one k,
/// pooled over their rounds and seeds.
struct FrontierPoint {
    std::string strategy;
    double k = 0;
    double meanAccuracy = 0;      ///< test accuracy (fraction) averaged over rounds and seeds
    double meanBytesPerRound = 0; ///< analytic bytes averaged over rounds (0 for rounds that did not deploy)
    int runs = 0;
    int rounds = 0;
};

/// Accuracy to expect at a k, interpolated between the finished runs that bracket it.
struct Expectation {
    bool bracketed = false;
    double accuracy = 0; ///< fraction; valid when bracketed
    double kLow = 0;
    double kHigh = 0;
};

/// Plain data class (no Qt): fed with the run queue's events, it keeps every run that finished
/// (cancelled and failed runs are dropped, as their means would favour the early rounds).
class FrontierModel {
public:
    void runQueued(int runId, const dpu::Plan& plan);
    void addRecord(int runId, const dpu::RoundRecord& record);
    /// Keeps the run when it finished, forgets it when it was cancelled or failed.
    void runEnded(int runId, bool finished);
    void clear();
    int finishedRuns() const;

    /// Points of the finished runs whose model and dataset kind match (empty strings match all),
    /// one per (strategy, k), sorted by strategy then k.
    std::vector<FrontierPoint> points(const std::string& model = {}, const std::string& datasetKind = {}) const;

    /// Interpolates linearly in log k between the nearest points at or below and at or above k
    /// (points of one strategy, any order); not bracketed when k lies outside their range.
    static Expectation expectedAccuracy(const std::vector<FrontierPoint>& points, double k);

private:
    struct Run {
        dpu::Plan plan;
        std::vector<dpu::RoundRecord> records;
        bool finished = false;
    };
    std::map<int, Run> runs_;
};

} // namespace dpu::ui
