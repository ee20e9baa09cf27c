// SPDX-License-Identifier: MIT
// Pieces the sweep subcommands share: the cell labels and the Slurm subcommands.
#pragma once
#include "ArgList.h"
#include "dpu/Sweep.h"
#include <string>

namespace dpu::cli {

/// "k = 0.01, bundle.values = "q8"": a cell's axis values.
std::string axesLabel(const SweepCell& cell);

/// SlurmSweepCommand.cpp: `sweep run SWEEP.json --out DIR --backend slurm [options]` (args: the rest).
int sweepRunSlurm(const std::string& out, ArgList& args);
/// SlurmSweepCommand.cpp: `sweep task DIR ID`, the body of one Slurm array task.
int sweepTask(ArgList& args);
/// SlurmSweepCommand.cpp: throws Error when a folder sent to Slurm still has cells queued or
/// running there (or the queue cannot be read), so that a local run does not run them twice.
void refuseWhileInSlurm(const Sweep& sweep, const std::string& dir);
/// SlurmSweepCommand.cpp: scancel the folder's live jobs.
int sweepCancelSlurm(const Sweep& sweep, const std::string& dir);

} // namespace dpu::cli
