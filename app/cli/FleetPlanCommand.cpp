// SPDX-License-Identifier: MIT
// dpu-cli fleet plan: the fleet planner (dpu/FleetPlanner.h) over finished runs, the deployment's options and its targets.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "DeploymentOptions.h"
#include "FleetPlanOutput.h"
#include "StopOnSignals.h"
#include "dpu/FleetPlanInputs.h"
#include "dpu/LinkModel.h"
#include "dpu/RunFolder.h"
#include "dpu/Sweep.h" // kCellStoppedExit: a stopped search exits as a stopped run
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

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
           "  --periods H,...       the round periods to try, in hours (default: the deployment's, 24, 48, 72, 168)\n"
           "  --keep PART,...       hold these as the deployment has them: period, delivery, sub-band,\n"
           "                        catch-up, order, repairs\n"
           "  --no-estimates        leave out the cells nobody ran\n"
           "  --exhaustive          simulate every candidate, pruning nothing (the grid the pruning is\n"
           "                        measured against: bench/fleet-plan)\n"
           "Runs and output:\n"
           "  --seed N              the runs' seed to read (default: each run's first)\n"
           "  --json                everything as JSON\n"
           "  --all                 the whole Pareto set (text), every candidate (JSON)\n"
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

std::vector<std::string> listOf(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        out.push_back(item);
    return out;
}

/// What --periods and --keep ask of the space, read and checked before any run is.
struct SpaceChoice {
    std::vector<double> periods; ///< empty: the default space's
    std::vector<std::string> keep;
};

SpaceChoice readSpaceChoice(ArgList& args)
{
    SpaceChoice out;
    if (const std::optional<std::string> periods = args.optionalValue("--periods")) {
        for (const std::string& item : listOf(*periods))
            out.periods.push_back(args.realItem("--periods", item));
        if (out.periods.empty())
            throw UsageError("--periods: expected hours between rounds, such as 24,72,168, found ''");
    }
    const std::vector<std::string> parts{"period", "delivery", "sub-band", "catch-up", "order", "repairs"};
    if (const std::optional<std::string> keep = args.optionalValue("--keep"))
        for (const std::string& part : listOf(*keep)) {
            if (std::find(parts.begin(), parts.end(), part) == parts.end())
                throw UsageError("--keep: expected period, delivery, sub-band, catch-up, order or repairs, found '" + part + "'");
            out.keep.push_back(part);
        }
    return out;
}

/// The default space narrowed as asked: an emptied list keeps the deployment's own value.
void applySpaceChoice(const SpaceChoice& choice, FleetPlanSpace& space)
{
    if (!choice.periods.empty())
        space.roundPeriodHours = choice.periods;
    for (const std::string& part : choice.keep) {
        if (part == "period")
            space.roundPeriodHours.clear();
        else if (part == "delivery")
            space.deliveries.clear();
        else if (part == "sub-band")
            space.dutyCycles.clear();
        else if (part == "catch-up")
            space.catchUps.clear();
        else if (part == "order")
            space.orders.clear();
        else if (part == "repairs")
            space.repairSessions.clear();
    }
}

} // namespace

int fleetPlanCommand(const std::vector<std::string>& argv)
{
    if (std::find(argv.begin(), argv.end(), "--help") != argv.end() || std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
        std::fputs(fleetPlanUsage().c_str(), stdout);
        return 0;
    }
    ArgList args(argv, numberOptionsOf("fleet plan"));
    const DeploymentOptions given = readDeploymentOptions(args, OptionScope::Deployment);
    FleetPlanInputOptions options;
    if (const std::optional<int64_t> seed = args.integer("--seed"))
        options.seed = static_cast<uint64_t>(*seed);
    options.estimates = !args.flag("--no-estimates");
    FleetPlanReport report;
    const bool json = args.flag("--json");
    report.all = args.flag("--all");
    const bool quiet = args.flag("--quiet");
    const bool exhaustive = args.flag("--exhaustive");
    const SpaceChoice choice = readSpaceChoice(args);
    const auto folders = args.positional();
    if (folders.empty())
        throw UsageError("fleet plan needs at least one run folder (or a folder of runs)");

    std::vector<RunFolder> runs;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            runs.push_back(loadRunFolder(dir));
    const Deployment deployment = deploymentOf(given, runs.front().plan.fleet);
    options.realCatchUps = deployment.catchUpSizes == CatchUpSizing::Real;
    FleetPlanInput input;
    try {
        input = fleetPlanInputOf(runs, deployment, options, &report.notes);
    } catch (const LinkError& e) {
        if (e.field() == "seed")
            throw UsageError(std::string("--seed: ") + e.what());
        throw;
    }
    applySpaceChoice(choice, input.space);
    input.exhaustive = exhaustive;
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
    return plan.recommended ? 0 : 3;
}

} // namespace dpu::cli
