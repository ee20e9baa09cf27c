// SPDX-License-Identifier: MIT
// The fleet's input from finished runs: each strategy's deployed versions with their real bundle bytes, the full model's bytes.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/RunFolder.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// What one run gives the fleet simulation, for one seed.
struct FleetRunInput {
    /// Every strategy of that seed that deployed, in the order the run's records first name it.
    std::vector<FleetStrategy> strategies;
    /// Strategies left out because they never deployed (their names as `strategies` would be).
    std::vector<std::string> neverDeployed;
    int lastRound = 0;               ///< the run's last recorded round (any strategy, that seed)
    int64_t newSamplesPerRound = 0;  ///< the plan's |dD| (the appendix's upload)
};

/// Turns a run's records into FleetStrategy values (docs/fleet.md "The command line"): devices
/// start on the strategy's first deployed version, each later deployed round is a version with
/// its bundle's real bytes and test accuracy; rounds that deployed nothing keep the server's
/// version. The first deployed round's bundle is the initial deployment (initialDeploymentBytes,
/// dpu/UpdateBytes.h), reported apart and never simulated; a round's bytes are UpdateBytes'
/// (its bundle, or its analytic bytes where it measured none). The full model is the run's largest `full` bundle (FU's), else its fp32 weights
/// (4 x (I + dense) bytes from run.status); the value coding is the plan's bundle.values and the
/// device file 4 x (I + dense) bytes (the full model's bytes when I is unknown). Each strategy is
/// named `namePrefix + strategy`. Catch-up bytes are left to chainOrFullBytes().
/// Throws LinkError("seed") when the plan has no seed `seed`.
FleetRunInput fleetStrategiesOf(const RunFolder& run, uint64_t seed, const std::string& namePrefix = {});

} // namespace dpu
