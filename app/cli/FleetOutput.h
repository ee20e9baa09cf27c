// SPDX-License-Identifier: MIT
// dpu-cli fleet's output: the fleet in words, a headline table per strategy, optionally every round; or JSON.
#pragma once
#include "dpu/Fleet.h"
#include <string>
#include <vector>

namespace dpu::cli {

/// Prints the fleet, the policy and one headline line per strategy; with `rounds`, every
/// strategy's rounds too.
void printFleetResults(const FleetConfig& config, const std::vector<FleetResult>& results, bool rounds);

/// The fleet and every strategy's result as JSON (NaN, a share never reached, is null).
std::string fleetResultsToJson(const FleetConfig& config, const std::vector<FleetResult>& results);

} // namespace dpu::cli
