// SPDX-License-Identifier: MIT
// The fleet planner's command-line options, shared by dpu-cli fleet plan and report --fleet-plan, so both plan alike.
#include "FleetPlanArgs.h"
#include "dpu/Error.h"
#include <algorithm>
#include <sstream>

namespace dpu::cli {
namespace {

std::vector<std::string> listOf(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        out.push_back(item);
    return out;
}

/// The default space narrowed as asked: an emptied list keeps the deployment's own value.
void applySpaceChoice(const FleetPlanArgs& choice, FleetPlanSpace& space)
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

FleetPlanArgs readFleetPlanArgs(ArgList& args)
{
    FleetPlanArgs out;
    out.given = readDeploymentOptions(args, OptionScope::Deployment);
    if (const std::optional<int64_t> seed = args.integer("--seed"))
        out.input.seed = static_cast<uint64_t>(*seed);
    out.input.estimates = !args.flag("--no-estimates");
    out.exhaustive = args.flag("--exhaustive");
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

std::vector<RunFolder> fleetPlanRunsOf(const std::vector<std::string>& folders)
{
    if (folders.empty())
        throw UsageError("fleet plan needs at least one run folder (or a folder of runs)");
    std::vector<RunFolder> runs;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            runs.push_back(loadRunFolder(dir));
    return runs;
}

FleetPlanInput fleetPlanInputFor(const FleetPlanArgs& args, const std::vector<RunFolder>& runs, std::vector<std::string>* notes)
{
    if (runs.empty())
        throw UsageError("the fleet plan needs at least one run folder (or a folder of runs)");
    const Deployment deployment = deploymentOf(args.given, runs.front().plan.fleet);
    FleetPlanInputOptions options = args.input;
    options.realCatchUps = deployment.catchUpSizes == CatchUpSizing::Real;
    FleetPlanInput input;
    try {
        input = fleetPlanInputOf(runs, deployment, options, notes);
    } catch (const LinkError& e) {
        if (e.field() == "seed")
            throw UsageError(std::string("--seed: ") + e.what());
        throw;
    }
    applySpaceChoice(args, input.space);
    input.exhaustive = args.exhaustive;
    return input;
}

std::string fleetPlanSearchUsage()
{
    return "  --periods H,...       the round periods to try, in hours (default: the deployment's, 24, 48, 72, 168)\n"
           "  --keep PART,...       hold these as the deployment has them: period, delivery, sub-band,\n"
           "                        catch-up, order, repairs\n"
           "  --no-estimates        leave out the cells nobody ran\n"
           "  --exhaustive          simulate every candidate, pruning nothing (the grid the pruning is\n"
           "                        measured against: bench/fleet-plan)\n";
}

} // namespace dpu::cli
