// SPDX-License-Identifier: MIT
// The fleet planner's command-line options (fleet plan, report --fleet-plan), read once, and the planner's input they make.
#pragma once
#include "ArgList.h"
#include "DeploymentOptions.h"
#include "dpu/FleetPlanInputs.h"
#include "dpu/RunFolder.h"
#include <string>
#include <vector>

namespace dpu::cli {

/// What the fleet planner's options ask, read and checked before any run is.
struct FleetPlanArgs {
    DeploymentOptions given;       ///< every option of dpu-cli fleet, the targets among them
    FleetPlanInputOptions input;   ///< --seed and --no-estimates (real catch-ups follow the deployment)
    std::vector<double> periods;   ///< --periods; empty: the default space's
    std::vector<std::string> keep; ///< --keep: period, delivery, sub-band, catch-up, order, repairs
    bool exhaustive = false;       ///< --exhaustive
};

/// Reads the deployment's options (readDeploymentOptions(args, OptionScope::Deployment)), --seed,
/// --no-estimates, --periods, --keep and --exhaustive from `args` (its command's number table
/// must hold fleet plan's: CommandNumbers.cpp). Throws UsageError naming the option.
FleetPlanArgs readFleetPlanArgs(ArgList& args);

/// The runs `folders` name (each a run folder or a folder of runs, findRunFolders()), read as
/// the planner takes them. Throws UsageError for no folder, Error naming a folder that cannot be read.
std::vector<RunFolder> fleetPlanRunsOf(const std::vector<std::string>& folders);

/// The planner's input over `runs` (at least one): the deployment the options state over the
/// first run's plan's `fleet` keys (deploymentOf()), its targets, the runs' strategies
/// (fleetPlanInputOf()) and the default space narrowed as asked. `notes` (may be null) gets
/// what was left out of the runs and why. Throws UsageError naming the option (--seed for a seed
/// a run lacks) and LinkError as fleetPlanInputOf().
FleetPlanInput fleetPlanInputFor(const FleetPlanArgs& args, const std::vector<RunFolder>& runs, std::vector<std::string>* notes);

/// The help lines of --periods, --keep, --no-estimates and --exhaustive (fleet plan --help,
/// report --help).
std::string fleetPlanSearchUsage();

} // namespace dpu::cli
