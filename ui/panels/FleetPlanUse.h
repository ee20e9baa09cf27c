// SPDX-License-Identifier: MIT
// What the Fleet plan tab's Use this configuration writes: the chosen run's plan, limited to the chosen strategy, at the chosen deployment.
#pragma once
#include "dpu/Plan.h"
#include "workers/FleetPlanWorker.h"
#include <QString>
#include <cstddef>

namespace dpu::ui {

/// The whole plan a fleet plan's candidate stands for, and the sentence that says so.
struct FleetPlanUse {
    dpu::Plan plan;  ///< what the form is to hold
    QString summary; ///< "The plan is now q4/dpu at k 0.01 with q4 bundles (...), deployed with ..."

    /// The plan of the run the candidate's strategy comes from (answer.runs, by its label()):
    /// its data, model, training, seeds, k and bundle coding as the run had them, its name kept
    /// (a name made from the fields goes on following them), its strategies limited to the
    /// candidate's and the baseline (fu) when the run had it, its deployment the candidate's
    /// with `targets`. Throws dpu::Error naming what is missing when the candidate or its
    /// strategy is out of range, the strategy is estimated (no run has its plan) or its run is not
    /// among answer.runs.
    static FleetPlanUse of(const FleetPlanAnswer& answer, size_t candidate, const dpu::FleetTargets& targets);
};

} // namespace dpu::ui
