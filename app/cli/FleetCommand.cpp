// SPDX-License-Identifier: MIT
// dpu-cli fleet: the fleet simulation (dpu/Fleet.h) over finished runs' deployed versions, on a link as configured.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "DeploymentOptions.h"
#include "RunsOnFleet.h"
#include "dpu/DeploymentModel.h"
#include "FleetOutput.h"
#include "dpu/Fleet.h"
#include "dpu/RunFolder.h"
#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

namespace dpu::cli {
namespace {

std::string fleetUsage()
{
    std::string presets;
    for (const std::string& key : linkPresetKeysList())
        presets += (presets.empty() ? "" : ", ") + key;
    return "Usage: dpu-cli fleet RUN_DIR... [--devices N] [--link KEY] [OPTIONS]\n"
           "       dpu-cli fleet plan RUN_DIR... [TARGETS] [OPTIONS]  (dpu-cli fleet plan --help)\n"
           "\n"
           "Simulates N devices behind a link receiving the deployed versions of finished runs (every\n"
           "strategy of each run, one seed): devices start on a strategy's first deployed version, each\n"
           "later deployed round is released at the start of its round and multicast to the devices\n"
           "that ran the previous one; devices that were off get catch-up bundles (estimated as the\n"
           "cheaper of the chain of missed bundles and the full model, or built: --catch-up-bytes real)\n"
           "or the full model. Prints per\n"
           "strategy, under the names the window's Fleet tab and the report use: the initial deployment\n"
           "(round 1's bundle, in no per-round figure), the bytes, airtime and energy per update round,\n"
           "the energy and battery per year at one round every period, the time until 50/90/99 % of the\n"
           "fleet run the last version, the fleet's mean accuracy beside the server's, and the catch-up\n"
           "after the last release (--drain).\n"
           "Model, rules and sources: docs/fleet.md. What the options leave out, the first run's plan\n"
           "says: each option sets one of its fleet.* keys (dpu-cli plan --fields lists them with their\n"
           "options; without them: 200 devices on LoRaWAN EU868), checked as a plan file's are.\n"
           "\n"
           "Link:\n"
           "  --link KEY            lorawan-eu868, lorawan-us915 (SF from --sf or --sf-mix), or a preset\n"
           "                        (default: the plan's fleet.link with its SF, sub-band, loss, delivery):\n"
           "                        " + presets + "\n"
           "                        and the older keys " + linkKeyAliasesText() + "\n"
           "  --sf N                one spreading factor for every device (LoRa)\n"
           "  --sf-mix SF:W,...     devices per spreading factor, e.g. 7:45,8:22,9:11,10:8,11:8,12:6;\n"
           "                        fuotasim: that mix (FUOTASim's default)\n"
           "  --duty-cycle D        EU868: 0.001, 0.01 (default) or 0.1; other links: any share\n"
           "  --loss P              frame loss probability (default 0)\n"
           "  --delivery preset|multicast|unicast  how the round's delta goes out (preset: as the link\n"
           "                        does, LoRaWAN multicast); --multicast and --unicast say the same\n"
           "  --multicast-per-sf    one multicast per spreading factor instead of one at the slowest\n"
           + deviceLinkArgsUsage() +
           "Fleet:\n"
           "  --devices N           devices, at most 1000000 (default: the plan's fleet.devices)\n"
           "  --availability P|FILE probability that a device is on in a round (default: the plan's), or a trace:\n"
           "                        a CSV of device,round lines or FedScale's availability trace as JSON\n"           "  --trace FILE          the trace alone (as --availability FILE)\n"
           "  --period S            seconds between rounds (default: the plan's fleet.round_period_h)\n"
           "  --drain R             rounds after the run's last that only catch devices up (default 0, at most\n"
           "                        1000): the catch-up after the last release, in no other figure\n"
           "  --fleet-seed N        seed of the fleet's draws (default 1)\n"
           "Server policy:\n"
           "  --catch-up unicast|multicast  stale devices: a bundle each, or one multicast per version\n"
           "  --order most-stale|smallest   which stale devices a busy gateway serves first\n"
           "  --max-staleness V     the full model for devices more than V versions behind (0: never)\n"
           "  --catch-up-bytes estimate|real  a catch-up's size: estimated (the cheaper of the missed\n"
           "                        bundles and the full model; default), or the cheapest route of the real\n"
           "                        catch-up bundle built from the run's files (about a second per pair)\n"
           "  --repairs N           repair sessions for devices that missed fragments (default 1)\n"
           "  --target Q            completion probability per device the redundancy aims at (0.99)\n"
           + cpuArgsUsage() + targetArgsUsage() +
           "Runs and output:\n"
           "  --seed N              the runs' seed to read (default: each run's first)\n"
           "  --sample-bytes B      the paper's appendix: each node also uploads B x |dD| / N bytes per round\n"
           "  --rounds              print every round\n"
           "  --json                everything as JSON\n";
}

} // namespace

int fleetCommand(const std::vector<std::string>& argv)
{
    if (!argv.empty() && argv.front() == "plan") // fleet plan: FleetPlanCommand.cpp
        return fleetPlanCommand(std::vector<std::string>(argv.begin() + 1, argv.end()));
    if (std::find(argv.begin(), argv.end(), "--help") != argv.end() || std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
        std::fputs(fleetUsage().c_str(), stdout);
        return 0;
    }
    ArgList args(argv, numberOptionsOf("fleet"));
    const DeploymentOptions given = readDeploymentOptions(args, OptionScope::Deployment);
    const std::optional<int64_t> seedArg = args.integer("--seed"); // nullopt: each run's first
    const bool rounds = args.flag("--rounds");
    const bool json = args.flag("--json");
    const auto folders = args.positional();
    if (folders.empty())
        throw UsageError("fleet needs at least one run folder (or a folder of runs)");

    // Read every folder first: a bad one is reported before anything is simulated.
    std::vector<RunFolder> runs;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            runs.push_back(loadRunFolder(dir));
    // What the options leave out, the first run's plan says (its `fleet` keys, or their defaults).
    const Deployment deployment = deploymentOf(given, runs.front().plan.fleet);
    const FleetOfRuns fleet = simulateRunsOnFleet(runs, fleetConfigOf(deployment, 0, 0), seedArg, runs.size() > 1,
                                                  deployment.catchUpSizes == CatchUpSizing::Real);
    if (json)
        std::fputs(fleetResultsToJson(fleet).c_str(), stdout);
    else
        printFleetResults(fleet, rounds);
    return 0;
}

} // namespace dpu::cli
