// SPDX-License-Identifier: MIT
// dpu-cli fleet plan's output: the plan (core's planFleet) in words and tables, or as JSON.
#pragma once
#include "dpu/FleetPlanner.h"
#include <string>
#include <vector>

namespace dpu::cli {

/// The planner's answer with what it was asked: the input (its deployment is the base every
/// candidate's changes are named against) and the notes on the runs read.
struct FleetPlanReport {
    const FleetPlanInput* input = nullptr; ///< not owned
    const FleetPlan* plan = nullptr;       ///< not owned
    std::vector<std::string> notes;
    bool all = false; ///< the whole Pareto set in text, every candidate in JSON
    std::string sweepOut; ///< --sweep-out's file the cells to run go to (empty: none)
};

/// The plan as text: the fleet and targets, the search, the recommendation (or the nearest, the
/// target that binds and what would move it), the cells to run and the Pareto set. Throws nothing.
std::string fleetPlanText(const FleetPlanReport& report);

/// The same as JSON (one object, two-space indented, ending in a newline). Throws nothing.
std::string fleetPlanJson(const FleetPlanReport& report);

/// The dpu-cli options that make `candidate`'s deployment of `base` ("--period 259200 --duty-cycle 0.1"),
/// and the plan keys no option can say (an unset duty cycle) as "fleet.duty_cycle none". Throws nothing.
std::string optionsOf(const Deployment& base, const Deployment& candidate);

} // namespace dpu::cli
