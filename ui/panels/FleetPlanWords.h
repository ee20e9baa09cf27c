// SPDX-License-Identifier: MIT
// The Fleet plan tab's answer in words, as its text under the chart shows it.
#pragma once
#include "workers/FleetPlanWorker.h"
#include <QString>

namespace dpu::ui {

struct FleetPlanWords {
    /// The plan's why; when nothing meets the targets, what would move the binding one; the cells
    /// nobody ran that would do better, with their keys; the notes. The error when the plan
    /// failed. Throws nothing.
    static QString of(const FleetPlanAnswer& answer);
    /// The line under the buttons: how many candidates were simulated, pruned, how long it took
    /// (or the error), prefixed "Cancelled: " or, for a search that plans again because of
    /// `again` (non-empty), "Planned again (a run finished). ". Throws nothing.
    static QString status(const FleetPlanAnswer& answer, const QString& again);
};

} // namespace dpu::ui
