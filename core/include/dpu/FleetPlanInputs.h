// SPDX-License-Identifier: MIT
// The fleet planner's input from finished runs: their strategies, and cells nobody ran estimated by the calibrated cost model.
#pragma once
#include "dpu/FleetPlanner.h"
#include "dpu/RunFolder.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpu {

/// How fleetPlanInputOf() reads the runs.
struct FleetPlanInputOptions {
    std::optional<uint64_t> seed; ///< the runs' seed to read; unset: each run's first
    /// Catch-up sizes from real catch-up bundles built of the runs' files (dpu/FleetCatchUps.h),
    /// each pair built once over the whole search; false: chainOrFullBytes().
    bool realCatchUps = false;
    /// Add estimatedFleetCells(): cells nobody ran, which the plan may name as cells to run.
    bool estimates = true;
};

/// Every deployed strategy of `runs` at the seed (fleetStrategiesOf(); named "RUN/strategy" when
/// there are several runs), with the run's label, coding and k. `notes` (may be null) gets the
/// strategies that never deployed and the runs stopped early. Throws LinkError("seed") for a
/// seed a run lacks.
std::vector<FleetPlanStrategy> fleetPlanStrategiesOf(const std::vector<RunFolder>& runs, const FleetPlanInputOptions& options,
                                                     std::vector<std::string>* notes = nullptr);

/// Cells nobody ran, estimated: for each measured strategy with a partial update, its run at half
/// its k (roundKDown()) unless a run measured that (strategy, coding, k). Its deltas are the
/// measured ones scaled by estimateRound() of the cell over estimateRound() of the run (calibrated
/// on the runs' frontier where it can be, else the coding's nominal bits); its accuracies are
/// assumed to be the run's (a smaller k is usually somewhat less accurate), and its note says so.
/// Strategies whose round the cost model cannot estimate are skipped. Throws nothing.
std::vector<FleetPlanStrategy> estimatedFleetCells(const std::vector<RunFolder>& runs, const std::vector<FleetPlanStrategy>& measured);

/// The planner's input: the runs' strategies (and, with options.estimates, the estimated
/// cells), `deployment` with its targets, the default space (defaultFleetPlanSpace()), the
/// runs' last round and the last run's |dD|. Throws as fleetPlanStrategiesOf(), and
/// LinkError("strategies") when no strategy deployed.
FleetPlanInput fleetPlanInputOf(const std::vector<RunFolder>& runs, const Deployment& deployment,
                                const FleetPlanInputOptions& options, std::vector<std::string>* notes = nullptr);

} // namespace dpu
