// SPDX-License-Identifier: MIT
// The fleet planner's cells to run as a listed-cells sweep (docs/fleet.md "Planning for the fleet"), so that dpu-cli sweep runs them.
#pragma once
#include "dpu/FleetPlanner.h"
#include "dpu/RunFolder.h"
#include "dpu/Sweep.h"
#include <string>
#include <vector>

namespace dpu {

/// A listed-cells sweep (docs/sweep-format.md "Listed cells") with one cell per
/// plan.cellsToRun entry, best first. Each cell is the plan of the cell's run (found among `runs`
/// by its folder's name, RunFolder::label()) limited to the cell's strategy, with the cell's keys
/// applied. Only that strategy is kept: the planner takes every deployed strategy of a run as a
/// candidate of its own and compares strategies across runs, so no baseline ("fu") is needed to
/// plan with the cell's run, and leaving it out spends the cell's time on the cell alone.
/// The sweep's base is the first cell's plan; each entry holds its cell's keys (FleetPlanCell::keys)
/// and the plan keys (dotted paths of planToJson()) where its cell's plan differs from the base. `strategies` are the planner's input strategies
/// (FleetPlanInput::strategies, which the plan's candidates index); `source` is what the
/// sweep's errors name (Sweep::source). The sweep is checked as parseSweep() checks a file.
/// Throws Error naming what is wrong when the plan names no cell to run, a cell's candidate or
/// strategy is out of range, a cell's run is not among `runs`, or a cell's keys do not make a
/// valid plan (naming the cell, its run and the plan's field).
Sweep fleetPlanSweep(const FleetPlan& plan, const std::vector<FleetPlanStrategy>& strategies,
                     const std::vector<RunFolder>& runs, const std::string& source);

} // namespace dpu
