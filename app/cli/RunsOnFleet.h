// SPDX-License-Identifier: MIT
// The runs of dpu-cli fleet and report --fleet simulated on the deployment's fleet (core's simulateFleet), each with its figures.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/FleetMetrics.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpu::cli {

/// Every deployed strategy of the runs (one seed each) simulated on the fleet.
struct FleetOfRuns {
    FleetConfig config;                   ///< with the runs' last round and |dD|
    std::vector<FleetStrategy> strategies;
    std::vector<size_t> runOf;            ///< [i]: the index in runs of strategies[i]
    std::vector<FleetResult> results;     ///< [i]: strategies[i] on the fleet
    std::vector<FleetMetrics> metrics;    ///< [i]: fleetMetrics() of results[i], what every view prints
    std::vector<std::string> notes;       ///< runs stopped early, strategies that never deployed
};

/// Reads each run's strategies at `seed` (nullopt: each run's first; core's
/// fleetStrategiesOf, named "LABEL/strategy" when `labelled`), sizes their catch-ups by real
/// bundles when `realCatchUps` (useRealCatchUps, built from the runs' files) and simulates them
/// with simulateFleet, each result's figures by fleetMetrics. Prints the notes on stderr as "note: ...". Throws UsageError("--seed") for a
/// seed a run lacks, Error when no strategy deployed, LinkError from the simulation's checks.
FleetOfRuns simulateRunsOnFleet(const std::vector<RunFolder>& runs, FleetConfig config, std::optional<int64_t> seed,
                                bool labelled, bool realCatchUps = false);

} // namespace dpu::cli
