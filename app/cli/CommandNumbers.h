// SPDX-License-Identifier: MIT
// The table of every numeric option of every dpu-cli command: what ArgList reads numbers through and what the tests walk.
#pragma once
#include "NumberOption.h"
#include <string>
#include <vector>

namespace dpu::cli {

/// The numeric options of one command as it is called: the words that come first (the command,
/// its subcommand, and a flag the options belong to, such as report's --fleet) and the options.
struct CommandNumbers {
    std::vector<std::string> words; ///< {"sweep", "run", "--backend", "slurm"}
    std::vector<NumberOption> options;
};

/// Every command's numeric options, in the order of `dpu-cli --help` (a command this build
/// lacks, such as report without the GUI, is left out).
const std::vector<CommandNumbers>& commandNumbers();

/// The numeric options `command` ("cost", "sweep run", "bundle export") may read: those of every
/// entry whose words start with its words ("report" includes "report --fleet"). Throws
/// dpu::InternalError when two entries describe one name differently.
std::vector<NumberOption> numberOptionsOf(const std::string& command);

/// The largest seed or update version the command line takes: 2^53 - 1, the largest whole
/// number a double holds exactly, so no seed is rounded on its way in.
constexpr double kMaxWholeOption = 9007199254740991.0;

} // namespace dpu::cli
