// SPDX-License-Identifier: MIT
// report --fleet-plan's page: the runs planned as dpu-cli fleet plan plans them (GUI builds only: the page is the renderer's).
#pragma once
#include "FleetPlanArgs.h"
#include "report/ReportFleetPlan.h"
#include <optional>
#include <vector>

namespace dpu::cli {

/// The fleet plan page's plan of `runs` (fleetPlanRunsOf()): the planner's input made from
/// `given` exactly as dpu-cli fleet plan makes it (fleetPlanInputFor()), planned by core's
/// planFleet(), with the targets it planned for and the notes on what was left out: one answer
/// per question. Ctrl-C or SIGTERM stops the search: nullopt then. Throws as fleetPlanInputFor()
/// and planFleet().
std::optional<dpu::ui::ReportFleetPlan> reportFleetPlanOf(const FleetPlanArgs& given, const std::vector<RunFolder>& runs);

} // namespace dpu::cli
