// SPDX-License-Identifier: MIT
// dpu-cli fleet's output: the fleet in words, each strategy's figures under the names the window and the report use, optionally every round; or JSON.
#pragma once
#include "RunsOnFleet.h"
#include <string>

namespace dpu::cli {

/// Prints the fleet, the policy, what the figures mean and per strategy its figures
/// (fleetMetrics(): the initial deployment, bytes, airtime and energy per update round, energy
/// and battery per year at the cadence, the catch-up after the last release apart); with
/// `rounds`, every strategy's rounds too.
void printFleetResults(const FleetOfRuns& fleet, bool rounds);

/// The fleet and every strategy's result and figures as JSON (NaN, a share never reached or a
/// figure without an update round, is null).
std::string fleetResultsToJson(const FleetOfRuns& fleet);

} // namespace dpu::cli
