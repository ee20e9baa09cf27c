// SPDX-License-Identifier: MIT
// dpu-cli fleet: the fleet simulation (dpu/Fleet.h) over finished runs' deployed versions, on a link as configured.
#include "ArgList.h"
#include "CliCommands.h"
#include "FleetOutput.h"
#include "LinkArgs.h"
#include "dpu/Fleet.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetRuns.h"
#include "dpu/FleetSettings.h"
#include "dpu/RunFolder.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>

namespace dpu::cli {
namespace {

bool isNumber(const std::string& s, double& out)
{
    try {
        size_t used = 0;
        out = std::stod(s, &used);
        return used == s.size();
    } catch (const std::exception&) {
        return false;
    }
}

/// Every strategy and the chosen seed of one run as the fleet's input (core's
/// fleetStrategiesOf), the strategies that never deployed named on stderr.
std::vector<FleetStrategy> strategiesOf(const RunFolder& run, int64_t seedWanted, bool labelled, int& lastRound,
                                        int64_t& perRound, const std::shared_ptr<CatchUpSizes>& realCatchUps)
{
    const uint64_t seed = seedWanted >= 0 ? static_cast<uint64_t>(seedWanted) : run.plan.seeds.front();
    if (std::find(run.plan.seeds.begin(), run.plan.seeds.end(), seed) == run.plan.seeds.end())
        throw UsageError("--seed: " + run.label() + " has no seed " + std::to_string(seed));
    const std::string prefix = labelled ? run.label() + "/" : std::string();
    FleetRunInput input = fleetStrategiesOf(run, seed, prefix);
    for (const std::string& name : input.neverDeployed)
        std::fprintf(stderr, "note: %s never deployed: left out\n", name.c_str());
    if (realCatchUps)
        for (FleetStrategy& s : input.strategies)
            useRealCatchUps(s, run, s.name.substr(prefix.size()), seed, realCatchUps);
    lastRound = std::max(lastRound, input.lastRound);
    perRound = input.newSamplesPerRound;
    return std::move(input.strategies);
}

/// The uplink of the appendix's sample upload: the region's uplink at the group's SF for LoRa,
/// the downlink turned around otherwise.
std::shared_ptr<const Link> uplinkOf(const Link& down)
{
    if (down.lora && down.region == LinkRegion::Eu868)
        return std::make_shared<Link>(lorawanEu868Uplink(down.modulation.spreadingFactor));
    if (down.lora)
        return std::make_shared<Link>(lorawanUs915Uplink(3));
    Link up = down;
    up.direction = LinkDirection::Uplink;
    up.delivery = LinkDelivery::Unicast;
    up.listening = LinkListening::Frames;
    return std::make_shared<Link>(up);
}

std::string fleetUsage()
{
    std::string presets;
    for (const std::string& key : linkPresetKeysList())
        presets += (presets.empty() ? "" : ", ") + key;
    return "Usage: dpu-cli fleet RUN_DIR... --devices N --link KEY [OPTIONS]\n"
           "\n"
           "Simulates N devices behind a link receiving the deployed versions of finished runs (every\n"
           "strategy of each run, one seed): devices start on a strategy's first deployed version, each\n"
           "later deployed round is released at the start of its round and multicast to the devices\n"
           "that ran the previous one; devices that were off get catch-up bundles (estimated as the\n"
           "cheaper of the chain of missed bundles and the full model, or built: --catch-up-bytes real)\n"
           "or the full model. Prints per\n"
           "strategy the time until 50/90/99 % of the fleet run the last version, the energy per device\n"
           "per round and per year, the fleet's mean accuracy beside the server's, the bytes per node.\n"
           "Model, rules and sources: docs/fleet.md.\n"
           "\n"
           "Link:\n"
           "  --link KEY            lorawan-eu868, lorawan-us915 (SF from --sf or --sf-mix), or a preset:\n"
           "                        " + presets + "\n"
           "  --sf N                one spreading factor for every device (LoRa)\n"
           "  --sf-mix SF:W,...     devices per spreading factor, e.g. 7:45,8:22,9:11,10:8,11:8,12:6;\n"
           "                        fuotasim: that mix (FUOTASim's default)\n"
           "  --duty-cycle D        EU868: 0.001, 0.01 (default) or 0.1; other links: any share\n"
           "  --loss P              frame loss probability (default 0)\n"
           "  --multicast, --unicast  how the round's delta goes out (LoRaWAN presets: multicast)\n"
           "  --multicast-per-sf    one multicast per spreading factor instead of one at the slowest\n"
           "Fleet:\n"
           "  --devices N           devices (required)\n"
           "  --availability P|FILE probability that a device is on in a round (default 1), or a trace:\n"
           "                        a CSV of device,round lines or FedScale's availability trace as JSON\n"
           "  --period S            seconds between rounds (default 86400)\n"
           "  --drain R             rounds after the run's last that only catch devices up (default 0)\n"
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
           + cpuArgsUsage() +
           "Runs and output:\n"
           "  --seed N              the runs' seed to read (default: each run's first)\n"
           "  --sample-bytes B      the paper's appendix: each node also uploads B x |dD| / N bytes per round\n"
           "  --rounds              print every round\n"
           "  --json                everything as JSON\n";
}

} // namespace

namespace {

/// The fleet's and the server's options as given (checked by fleetConfigOf, after the folders).
struct FleetOptions {
    double devicesArg = NAN;
    LinkArgs link;
    CpuSettings cpu;
    std::string availabilityText, catchUp, order, catchUpBytes;
    double maxStaleness = 0, repairs = 1, target = 0.99, period = 86400, drain = 0, fleetSeed = 1, sampleBytes = 0;
    bool perSf = false;
};

FleetOptions readFleetOptions(ArgList& args)
{
    FleetOptions o;
    o.devicesArg = args.number("--devices", NAN);
    o.link = readLinkArgs(args);
    o.cpu = readCpuArgs(args);
    o.availabilityText = args.value("--availability", "1");
    o.catchUp = args.value("--catch-up", "unicast");
    o.order = args.value("--order", "most-stale");
    o.catchUpBytes = args.value("--catch-up-bytes", "estimate");
    o.maxStaleness = args.number("--max-staleness", 0);
    o.repairs = args.number("--repairs", 1);
    o.target = args.number("--target", 0.99);
    o.period = args.number("--period", 86400);
    o.drain = args.number("--drain", 0);
    o.fleetSeed = args.number("--fleet-seed", 1);
    o.sampleBytes = args.number("--sample-bytes", 0);
    o.perSf = args.flag("--multicast-per-sf");
    return o;
}

/// The simulation's fleet and policy; throws UsageError naming the option that is wrong.
FleetConfig fleetConfigOf(const FleetOptions& o)
{
    const double devicesArg = o.devicesArg, maxStaleness = o.maxStaleness, repairs = o.repairs, target = o.target,
                 period = o.period, drain = o.drain, fleetSeed = o.fleetSeed, sampleBytes = o.sampleBytes;
    const LinkArgs& link = o.link;
    const CpuSettings& cpu = o.cpu;
    const std::string &availabilityText = o.availabilityText, &catchUp = o.catchUp, &order = o.order;
    const bool perSf = o.perSf;
    if (std::isnan(devicesArg) || devicesArg < 1 || devicesArg > 1e8 || devicesArg != std::floor(devicesArg))
        throw UsageError("--devices: expected a number of devices (1 or more)");
    if (link.settings.link.empty())
        throw UsageError("--link: expected lorawan-eu868, lorawan-us915 or a preset (dpu-cli fleet --help lists them)");
    if (catchUp != "unicast" && catchUp != "multicast")
        throw UsageError("--catch-up: expected unicast or multicast, found '" + catchUp + "'");
    if (o.catchUpBytes != "estimate" && o.catchUpBytes != "real")
        throw UsageError("--catch-up-bytes: expected estimate or real, found '" + o.catchUpBytes + "'");
    if (order != "most-stale" && order != "smallest")
        throw UsageError("--order: expected most-stale or smallest, found '" + order + "'");
    for (const auto& [value, name] : {std::pair{maxStaleness, "--max-staleness"}, {repairs, "--repairs"}, {drain, "--drain"},
                                      {sampleBytes, "--sample-bytes"}})
        if (!(value >= 0) || value != std::floor(value))
            throw UsageError(std::string(name) + ": expected a whole number, 0 or more");

    FleetGroup group;
    group.name = "devices";
    group.devices = static_cast<int>(devicesArg);
    group.sfMix = sfMixOf(link.settings);
    group.link = linkOf(link.settings);
    group.cpu = deviceCpuOf(cpu);
    double availability = 1;
    if (isNumber(availabilityText, availability))
        group.availability = availability;
    else
        group.trace = std::make_shared<AvailabilityTrace>(AvailabilityTrace::read(availabilityText));
    if (sampleBytes > 0)
        group.uplink = uplinkOf(group.link);

    FleetConfig config;
    config.groups.push_back(group);
    config.policy.catchUp = catchUp == "multicast" ? CatchUpDelivery::MulticastPerVersion : CatchUpDelivery::Unicast;
    config.policy.order = order == "smallest" ? CatchUpOrder::SmallestFirst : CatchUpOrder::MostStaleFirst;
    config.policy.maxStaleness = static_cast<int>(maxStaleness);
    config.policy.repairSessions = static_cast<int>(repairs);
    config.policy.target.probability = target;
    config.policy.multicastPerSpreadingFactor = perSf;
    config.roundPeriodSeconds = period;
    config.drainRounds = static_cast<int>(drain);
    config.seed = static_cast<uint64_t>(fleetSeed);
    config.sampleBytes = static_cast<int64_t>(sampleBytes);

    return config;
}

} // namespace

int fleetCommand(const std::vector<std::string>& argv)
{
    if (std::find(argv.begin(), argv.end(), "--help") != argv.end() || std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
        std::fputs(fleetUsage().c_str(), stdout);
        return 0;
    }
    ArgList args(argv);
    const FleetOptions options = readFleetOptions(args);
    const double seedArg = args.number("--seed", -1);
    const bool rounds = args.flag("--rounds");
    const bool json = args.flag("--json");
    const auto folders = args.positional();
    if (folders.empty())
        throw UsageError("fleet needs at least one run folder (or a folder of runs)");
    FleetConfig config = fleetConfigOf(options);

    // Read every folder first: a bad one is reported before anything is simulated.
    std::vector<RunFolder> runs;
    for (const std::string& f : folders)
        for (const std::string& dir : findRunFolders(f))
            runs.push_back(loadRunFolder(dir));
    std::vector<FleetStrategy> strategies;
    std::vector<FleetResult> results;
    int lastRound = 0;
    int64_t perRound = 0;
    const auto realCatchUps = options.catchUpBytes == "real" ? std::make_shared<CatchUpSizes>() : nullptr;
    for (const RunFolder& run : runs) {
        if (!run.complete())
            std::fprintf(stderr, "note: %s stopped early: simulated over its finished rounds\n", run.label().c_str());
        for (FleetStrategy& s : strategiesOf(run, static_cast<int64_t>(seedArg), runs.size() > 1, lastRound, perRound, realCatchUps))
            strategies.push_back(std::move(s));
    }
    if (strategies.empty())
        throw Error("no strategy of these runs deployed a version");
    config.lastRound = lastRound;
    config.newSamplesPerRound = perRound;
    if (!realCatchUps)
        std::fprintf(stderr, "note: catch-up bundles are estimated as the cheaper of the chain of missed bundles and the full "
                             "model (--catch-up-bytes real builds them)\n");
    for (const FleetStrategy& s : strategies)
        results.push_back(simulateFleet(config, s));
    if (realCatchUps)
        std::fprintf(stderr, "note: %d catch-up bundles built from the runs' files; each size is its cheapest route\n",
                     realCatchUps->built);
    if (json)
        std::fputs(fleetResultsToJson(config, results).c_str(), stdout);
    else
        printFleetResults(config, results, rounds);
    return 0;
}

} // namespace dpu::cli
