// SPDX-License-Identifier: MIT
// report --fleet-plan's page: fleet plan's options, input and planner, handed to the report writer that only draws them.
#include "ReportFleetPlanOf.h"
#include "StopOnSignals.h"

namespace dpu::cli {

std::optional<dpu::ui::ReportFleetPlan> reportFleetPlanOf(const FleetPlanArgs& given, const std::vector<RunFolder>& runs)
{
    dpu::ui::ReportFleetPlan out;
    const FleetPlanInput input = fleetPlanInputFor(given, runs, &out.notes);
    StopOnSignals stop;
    out.plan = planFleet(input, nullptr, stop.control());
    if (out.plan.cancelled)
        return std::nullopt;
    out.targets = input.deployment.targets;
    return out;
}

} // namespace dpu::cli
