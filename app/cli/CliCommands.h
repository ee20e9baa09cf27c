// SPDX-License-Identifier: MIT
// The dpu-cli subcommands; each returns the process exit code and throws on errors.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace dpu::cli {

/// Wrong or missing command-line arguments (exit code 2).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string usage();

/// The part of usage() about one command ("sweep") or one of its subcommands ("sweep", "run"):
/// every entry whose first line starts with it, under "Usage:". Empty when none does.
std::string commandUsage(const std::string& command, const std::string& subcommand);

/// CliDispatch.cpp: whether `command` is one of dpu-cli's commands ("cost", "sweep", ...).
bool isCommand(const std::string& command);
/// CliDispatch.cpp: runs `command` with the arguments after it (what main does after --help
/// and --version), in this process: returns its exit code, throws what it throws (UsageError:
/// exit 2). Throws UsageError for an unknown command.
int dispatchCommand(const std::string& command, const std::vector<std::string>& args);

int runCommand(const std::vector<std::string>& args);
int modelsCommand(const std::vector<std::string>& args);
int costCommand(const std::vector<std::string>& args);
int planCommand(const std::vector<std::string>& args);
int bundleCommand(const std::vector<std::string>& args);
/// BudgetCommand.cpp: the budget planner's recommendation from run folders (exit 3: nothing fits).
int budgetCommand(const std::vector<std::string>& args);
/// FrontierCommand.cpp: the frontier table (--json) and chart image (--image, needs the GUI build).
int frontierCommand(const std::vector<std::string>& args);
/// SweepCommand.cpp: sweep run (local backend), status and merge.
int sweepCommand(const std::vector<std::string>& args);
/// FleetCommand.cpp: the fleet simulation over run folders (docs/fleet.md); `fleet plan ...` is fleetPlanCommand().
int fleetCommand(const std::vector<std::string>& args);
/// FleetPlanCommand.cpp: the fleet planner over run folders and the deployment's targets (exit 3: nothing meets them).
int fleetPlanCommand(const std::vector<std::string>& args);
/// DataCommand.cpp: what a dataset folder or file holds (kind, samples, shape, classes, balance).
int dataCommand(const std::vector<std::string>& args);
/// ReportCommand.cpp: the PDF report (needs a build with the GUI).
int reportCommand(const std::vector<std::string>& args);

} // namespace dpu::cli
