// SPDX-License-Identifier: MIT
// dpu-cli's commands by name: main's dispatch, in the library so that tests call a command in-process.
#include "CliCommands.h"
#include <utility>

namespace dpu::cli {
namespace {

using Command = int (*)(const std::vector<std::string>&);

const std::pair<const char*, Command> kCommands[] = {
    {"run", runCommand},           {"models", modelsCommand}, {"cost", costCommand},     {"plan", planCommand},
    {"bundle", bundleCommand},     {"budget", budgetCommand}, {"frontier", frontierCommand}, {"sweep", sweepCommand},
    {"fleet", fleetCommand},       {"data", dataCommand},     {"report", reportCommand},
};

} // namespace

bool isCommand(const std::string& command)
{
    for (const auto& [name, run] : kCommands)
        if (command == name)
            return true;
    return false;
}

int dispatchCommand(const std::string& command, const std::vector<std::string>& args)
{
    for (const auto& [name, run] : kCommands)
        if (command == name)
            return run(args);
    throw UsageError("unknown command '" + command + "'");
}

} // namespace dpu::cli
