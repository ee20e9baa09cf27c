// SPDX-License-Identifier: MIT
// A finished fleet plan as the report's fleet plan page takes it: the planner's answer and the targets it planned for.
#pragma once
#include "dpu/FleetPlanner.h"
#include <string>
#include <vector>

namespace dpu::ui {

/// What the caller planned (the window's Fleet plan tab): the report only draws it and never
/// plans. No candidate: the report has no fleet plan page.
struct ReportFleetPlan {
    dpu::FleetPlan plan;
    dpu::FleetTargets targets;      ///< the targets it planned for
    std::vector<std::string> notes; ///< strategies left out and why
};

} // namespace dpu::ui
