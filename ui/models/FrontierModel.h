// SPDX-License-Identifier: MIT
// The runs the budget planner knows (queued and opened), handed to core's frontier (dpu/Frontier.h).
#pragma once
#include "dpu/Events.h"
#include "dpu/Frontier.h"
#include "dpu/Plan.h"
#include <map>
#include <string>
#include <vector>

namespace dpu::ui {

using FrontierPoint = dpu::FrontierPoint;
using Expectation = dpu::Expectation;

/// Plain data class (no Qt): fed with the run queue's events and with opened run folders, it
/// keeps every run that finished (cancelled and failed runs are dropped, as their means would
/// favour the early rounds). Ids are the queue's (1, 2, ...) or any other the caller picks
/// (opened folders use negative ones).
class FrontierModel {
public:
    void runQueued(int runId, const dpu::Plan& plan);
    void addRecord(int runId, const dpu::RoundRecord& record);
    /// Keeps the run when it finished, forgets it when it was cancelled or failed.
    void runEnded(int runId, bool finished);
    /// A run read back from its folder; kept only when `finished`.
    void addRun(int runId, const dpu::Plan& plan, const std::vector<dpu::RoundRecord>& records, bool finished);
    /// Forgets one run (taken off screen).
    void removeRun(int runId) { runs_.erase(runId); }
    void clear();
    int finishedRuns() const;

    /// The finished runs grouped by plan minus the swept keys (core's frontierGroups); a group's
    /// runIds are the ids given here, as text.
    std::vector<dpu::FrontierGroup> groups() const;
    /// Points of the group `plan` belongs to (its runs differ at most in k, the strategies and the
    /// bundle settings: every family); empty when none.
    std::vector<FrontierPoint> points(const dpu::Plan& plan) const;

    static Expectation expectedAccuracy(const std::vector<FrontierPoint>& points, double k)
    {
        return dpu::expectedAccuracy(points, k);
    }

private:
    struct Run {
        dpu::Plan plan;
        std::vector<dpu::RoundRecord> records;
        bool finished = false;
        int order = 0; // when it finished: groups list runs in that order
    };
    std::map<int, Run> runs_;
    int nextOrder_ = 0;
};

} // namespace dpu::ui
