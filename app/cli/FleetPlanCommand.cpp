// SPDX-License-Identifier: MIT
// dpu-cli fleet plan: the fleet planner (dpu/FleetPlanner.h) over finished runs, the deployment's options and its targets.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "FleetPlanArgs.h"
#include "FleetPlanOutput.h"
#include "StopOnSignals.h"
#include "dpu/AtomicWrite.h"
#include "dpu/FleetPlanSweep.h"
#include "dpu/RunFolder.h"
#include "dpu/Sweep.h" // kCellStoppedExit: a stopped search exits as a stopped run
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

namespace dpu::cli {
namespace {

std::string fleetPlanUsage()
{
    return "Usage: dpu-cli fleet plan RUN_DIR... [TARGETS] [OPTIONS]\n"
           "\n"
           "Which configuration keeps the fleet within its targets at the best accuracy on the devices?\n"
           "Simulates every deployed strategy of the runs (one seed) on every setting the deployment may\n"
           "vary: the round period (its own, 24, 48, 72 and 168 h, or --periods), the delivery (one\n"
           "multicast at the slowest SF, one per SF with an SF mix, unicast), EU868's 1 % and 10 %\n"
           "sub-bands, catch-ups by unicast or by one multicast per version in either order, and 0 to 2\n"
           "repair sessions. Strategies another run dominates and periods that cannot hold the freshness\n"
           "target are pruned, not simulated. Prints the recommendation in words (the most accurate fleet\n"
           "that meets every target) with the options that make it, or, when nothing meets them, the\n"
           "nearest candidate, the target that binds, by how much, and what would move it (exit 3); the\n"
           "cells nobody ran that would do better (half the run's k, bytes estimated from the calibrated\n"
           "cost model); and the Pareto set of fleet accuracy, battery a year and freshness.\n"
           "The deployment is the first run's plan's, each option given set over it (dpu-cli fleet --help\n"
           "lists them); the targets too are its fleet.targets keys. Model and rules: docs/fleet.md,\n"
           "\"Planning for the fleet\".\n"
           "\n"
           + targetArgsUsage() +
           "Search:\n"
           + fleetPlanSearchUsage() +
           "Runs and output:\n"
           "  --seed N              the runs' seed to read (default: each run's first)\n"
           "  --json                everything as JSON\n"
           "  --all                 the whole Pareto set (text), every candidate (JSON)\n"
           "  --sweep-out FILE      also write the cells to run as a sweep file, atomically (docs/sweep-format.md,\n"
           "                        \"Listed cells\"): dpu-cli sweep run FILE --out DIR runs them, locally or on\n"
           "                        Slurm. Without cells to run it writes nothing and exits 4. FILE may not\n"
           "                        be a folder, a link or a device node\n"
           "  --quiet               no progress on stderr\n"
           "Every option of dpu-cli fleet sets the deployment the search starts from.\n";
}

/// Progress on stderr once a search has taken a second, then about once a second.
class Progress : public FleetPlanObserver {
public:
    explicit Progress(bool quiet) : quiet_(quiet) {}
    void planStarted(size_t space, size_t toSimulate) override
    {
        space_ = space;
        start_ = last_ = std::chrono::steady_clock::now();
        (void)toSimulate;
    }
    void candidateDone(size_t done, size_t toSimulate, const FleetPlanCandidate&) override
    {
        const auto now = std::chrono::steady_clock::now();
        if (quiet_ || now - last_ < std::chrono::seconds(1))
            return;
        last_ = now;
        std::fprintf(stderr, "fleet plan: %zu of %zu candidates simulated (%zu in the space), %.0f s\n", done, toSimulate, space_,
                     std::chrono::duration<double>(now - start_).count());
    }

private:
    bool quiet_;
    size_t space_ = 0;
    std::chrono::steady_clock::time_point start_, last_;
};

/// --sweep-out's FILE, checked before the search: a new file or a regular one to replace, never a
/// folder, a link or a device node (a sweep file is read back by dpu-cli sweep: it must be a file).
void checkSweepOut(const std::string& path)
{
    if (path.empty())
        throw UsageError("--sweep-out: expected the path of the sweep file to write, found ''");
    std::error_code ec;
    const std::filesystem::file_type type = std::filesystem::symlink_status(path, ec).type();
    const char* found = type == std::filesystem::file_type::directory ? "a folder"
                        : type == std::filesystem::file_type::symlink ? "a symbolic link"
                        : type == std::filesystem::file_type::character || type == std::filesystem::file_type::block
                            ? "a device node"
                        : type == std::filesystem::file_type::fifo   ? "a FIFO"
                        : type == std::filesystem::file_type::socket ? "a socket"
                                                                     : nullptr;
    if (found)
        throw UsageError("--sweep-out: expected a new file or a regular file to replace, found " + std::string(found) + ": " + path);
}

/// Writes the plan's cells to run as a sweep file (atomically): 0, or 4 with a message and
/// nothing written when the plan names no cell.
int writeSweepOut(const std::string& path, const FleetPlan& plan, const FleetPlanInput& input, const std::vector<RunFolder>& runs)
{
    if (plan.cellsToRun.empty()) {
        std::fprintf(stderr, "fleet plan: --sweep-out %s: the plan names no cell to run (no cell nobody ran would do better "
                             "than every run): nothing written\n", path.c_str());
        return 4;
    }
    checkSweepOut(path); // again: it may have changed during the search
    writeFileAtomic(path, fleetPlanSweep(plan, input.strategies, runs, path).toJson());
    std::fprintf(stderr, "fleet plan: %zu cell(s) to run written to %s\n", plan.cellsToRun.size(), path.c_str());
    return 0;
}

} // namespace

int fleetPlanCommand(const std::vector<std::string>& argv)
{
    if (std::find(argv.begin(), argv.end(), "--help") != argv.end() || std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
        std::fputs(fleetPlanUsage().c_str(), stdout);
        return 0;
    }
    ArgList args(argv, numberOptionsOf("fleet plan"));
    const FleetPlanArgs given = readFleetPlanArgs(args);
    FleetPlanReport report;
    const bool json = args.flag("--json");
    report.all = args.flag("--all");
    const bool quiet = args.flag("--quiet");
    const std::optional<std::string> sweepOut = args.optionalValue("--sweep-out");
    if (sweepOut)
        checkSweepOut(*sweepOut);
    report.sweepOut = sweepOut.value_or("");
    const std::vector<RunFolder> runs = fleetPlanRunsOf(args.positional());
    const FleetPlanInput input = fleetPlanInputFor(given, runs, &report.notes);
    for (const std::string& note : report.notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());

    StopOnSignals stop;
    Progress progress(quiet);
    const FleetPlan plan = planFleet(input, &progress, stop.control());
    report.input = &input;
    report.plan = &plan;
    std::fputs((json ? fleetPlanJson(report) : fleetPlanText(report)).c_str(), stdout);
    if (plan.cancelled)
        return kCellStoppedExit;
    if (sweepOut && writeSweepOut(*sweepOut, plan, input, runs) != 0)
        return 4;
    return plan.recommended ? 0 : 3;
}

} // namespace dpu::cli
