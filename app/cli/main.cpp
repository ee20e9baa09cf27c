// SPDX-License-Identifier: MIT
// dpu-cli: headless command line over the engine (run plans, list models, compute costs).
#include "CliCommands.h"
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/Process.h"
#include "dpu/Version.h"
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

/// The exit status of a defect (sysexits.h's EX_SOFTWARE): 1 is a user's error, 2 a usage error.
constexpr int kInternalErrorStatus = 70;

} // namespace

int main(int argc, char** argv)
{
    dpu::ensurePassiveOpenMP(argc, argv);
    dpu::reportWriteLimitsAsErrors();
    dpu::omitLibTorchBacktraces();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(dpu::cli::usage().c_str(), stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::printf("dpu-cli %s\n", DPU_VERSION_STRING);
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    // Every command answers --help with its own entries; bundle and fleet print their own.
    const bool help = std::find(args.begin(), args.end(), "--help") != args.end()
                      || std::find(args.begin(), args.end(), "-h") != args.end();
    if (help && command != "bundle" && command != "fleet") {
        const std::string sub = !args.empty() && args[0][0] != '-' ? args[0] : std::string();
        std::string text = dpu::cli::commandUsage(command, sub);
        if (text.empty())
            text = dpu::cli::commandUsage(command, "");
        if (!text.empty()) {
            std::fputs(text.c_str(), stdout);
            return 0;
        }
    }
    if (!dpu::cli::isCommand(command)) {
        std::fprintf(stderr, "dpu-cli: unknown command '%s' (try --help)\n", command.c_str());
        return 2;
    }
    // Errors carry the subcommand too ("dpu-cli fleet plan: ..."), when the first argument is one
    // that usage() lists, so that the message names what was run.
    std::string name = command;
    if (!args.empty() && !args[0].empty() && args[0][0] != '-' && !dpu::cli::commandUsage(command, args[0]).empty())
        name += " " + args[0];
    try {
        return dpu::cli::dispatchCommand(command, args);
    } catch (const dpu::cli::UsageError& e) {
        std::fprintf(stderr, "dpu-cli %s: %s (try --help)\n", name.c_str(), e.what());
        return 2;
    } catch (const dpu::InternalError& e) {
        // A defect, not the user's mistake: said as such (the message asks to report it), and
        // with its own status (EX_SOFTWARE) so that scripts and sweep cells tell it apart.
        std::fprintf(stderr, "dpu-cli %s: %s\n", name.c_str(), dpu::failureText(e).c_str());
        return kInternalErrorStatus;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dpu-cli %s: error: %s\n", name.c_str(), e.what());
        return 1;
    } catch (...) { // nothing in the engine throws this: a defect too, but never an abort
        std::fprintf(stderr, "dpu-cli %s: internal error: an exception of unknown type (please report it)\n",
                     name.c_str());
        return kInternalErrorStatus;
    }
}
