// SPDX-License-Identifier: MIT
// The fleet planner's parts (dpu/FleetPlanner.h): its space, each candidate's figures, pruning and the decision, shared by its sources.
#pragma once
#include "dpu/FleetPlanner.h"
#include <cstddef>
#include <string>
#include <vector>

namespace dpu::fleetplan {

// --- FleetPlanSpace.cpp ---

/// Checks the space's values against what a deployment takes; throws LinkError naming
/// "space.<list>" and the value found.
void validateSpace(const FleetPlanSpace& space);
/// Every setting of the space, in search order (period, delivery, sub-band, catch-up, order,
/// staleness, repairs; each list ascending as given), an empty list taking the deployment's value.
/// Settings the link makes the same as another (one multicast per SF without a mix) are left out.
std::vector<FleetPlanSetting> settingsOf(const FleetPlanSpace& space, const Deployment& deployment);
/// `deployment` with `setting` applied (a delivery or sub-band the preset already has stays
/// "as the preset"). Throws LinkError as linkOf().
Deployment withSetting(const Deployment& deployment, const FleetPlanSetting& setting);

// --- FleetPlanFigures.cpp ---

/// Fills the candidate's figures from the simulation of `strategy` under `config`: fleet and
/// server accuracy, battery and energy per year (fleetMetrics()), freshness, time to 90 %,
/// airtime per day per gateway; then its misses of `targets`. Throws nothing.
void measure(FleetPlanCandidate& candidate, const FleetConfig& config, const FleetStrategy& strategy,
             const FleetResult& result, const FleetTargets& targets);
/// The candidate's figure for the target at `path` (fleet.targets.*), in the target's unit.
double figureFor(const FleetPlanCandidate& candidate, const std::string& path);
/// A share as "72.5 %", a number as "%.3g". Throws nothing.
std::string percent(double share);
std::string number(double value);
/// "1 day", "2.5 days".
std::string daysText(double days);

// --- FleetPlanPruning.cpp ---

/// [i]: strategy i is dominated by a measured one (released in the same rounds, no version more
/// accurate, no bundle smaller, one of them strictly; with `applyCounts`, the devices' processor
/// applying bundles, of the same coding and device file no larger) or is the copy of an earlier
/// one; `notes` gets a line per pruned strategy.
std::vector<bool> dominatedStrategies(const std::vector<FleetPlanStrategy>& strategies, bool applyCounts,
                                      std::vector<std::string>& notes);
/// Whether a round period of `hours` cannot keep the freshness target's share of the fleet within
/// its days: only devices on in a release's round can run it at the round's end, and with a
/// period longer than the days those are all that count. Availability bounds them (five standard
/// deviations of the devices' draw over it). False with a trace or without a days target.
bool periodCannotBeFresh(double hours, const Deployment& deployment);

// --- FleetPlanDecision.cpp ---

/// The Pareto set of the measured candidates (fleet accuracy up, battery down, fresh share up),
/// of exact copies on those axes the one that ranks first (less airtime, then earlier); fleet
/// accuracy descending.
std::vector<size_t> paretoSet(const std::vector<FleetPlanCandidate>& candidates);
/// Fills plan.recommended or plan.nearest, binding, why, moves and cellsToRun from
/// plan.candidates. Throws nothing.
void decide(FleetPlan& plan, const FleetPlanInput& input);

// --- FleetPlanWords.cpp ---

/// A strategy as the plan names it: "q4/dpu (q4, k 0.01)", "(estimated)" added when so.
std::string labelOf(const FleetPlanStrategy& strategy);

/// The recommendation's words: why `best` wins among those that meet the targets.
std::string recommendationWords(const FleetPlan& plan, size_t best, const FleetTargets& targets);
/// What would move the binding target of the nearest candidate: changes of one setting (or the
/// strategy) that improve it most, the relaxed target that it would meet.
std::vector<std::string> movesFor(const FleetPlan& plan, size_t nearest, const FleetTargets& targets);

} // namespace dpu::fleetplan
