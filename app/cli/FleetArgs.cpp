// SPDX-License-Identifier: MIT
// FleetArgs: dpu-cli's fleet options into core's FleetConfig (one group, the server's policy) and the runs' strategies through simulateFleet.
#include "FleetArgs.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetRuns.h"
#include "dpu/FleetSettings.h"
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <utility>

namespace dpu::cli {
namespace {

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

/// The option checks that come before the link model's own (validateLink, validateFleet); the
/// numbers given are in range already (read through CommandNumbers.cpp). `complete`: the devices,
/// link and period must be there (after withPlanFleet), and a plan's are checked here.
void checkFleetArgs(const FleetArgs& o, bool complete)
{
    if (complete && (!o.devices || *o.devices < 1 || *o.devices > kMaxSimulatedDevices))
        throw UsageError("fleet.devices: the plan's " + (o.devices ? std::to_string(*o.devices) : std::string("(none)"))
                         + " devices are not 1 to " + std::to_string(kMaxSimulatedDevices)
                         + ", the fleets dpu-cli simulates; give --devices N");
    if (complete && o.link.settings.link.empty())
        throw UsageError("--link: expected lorawan-eu868, lorawan-us915 or a preset (dpu-cli fleet --help lists them)");
    if (complete && !(o.period && *o.period > 0 && std::isfinite(*o.period)))
        throw UsageError("--period: expected seconds between rounds, more than 0");
    if (o.catchUp != "unicast" && o.catchUp != "multicast")
        throw UsageError("--catch-up: expected unicast or multicast, found '" + o.catchUp + "'");
    if (o.catchUpBytes != "estimate" && o.catchUpBytes != "real")
        throw UsageError("--catch-up-bytes: expected estimate or real, found '" + o.catchUpBytes + "'");
    if (o.order != "most-stale" && o.order != "smallest")
        throw UsageError("--order: expected most-stale or smallest, found '" + o.order + "'");
}

} // namespace

void checkGivenFleetArgs(const FleetArgs& given)
{
    checkFleetArgs(given, false);
}

FleetArgs withPlanFleet(FleetArgs o, const PlanFleet& plan)
{
    const FleetSettings p = fleetSettingsOf(plan);
    if (!o.link.linkGiven) {
        LinkSettings s = p.link;
        const LinkSettings& given = o.link.settings;
        if (o.link.sfGiven)
            s.spreadingFactor = given.spreadingFactor;
        if (o.link.mixGiven)
            s.sfMix = given.sfMix;
        if (o.link.dutyGiven)
            s.dutyCycle = given.dutyCycle;
        if (o.link.lossGiven)
            s.frameLoss = given.frameLoss;
        if (o.link.deliveryGiven)
            s.delivery = given.delivery;
        if (o.link.spreadGiven)
            s.frameLossSpread = given.frameLossSpread;
        if (o.link.classGiven)
            s.deviceClass = given.deviceClass;
        if (o.link.periodicityGiven)
            s.pingPeriodicity = given.pingPeriodicity;
        if (o.link.listenGiven)
            s.leaveWhenDecoded = given.leaveWhenDecoded;
        o.link.settings = s;
    }
    if (!o.devices)
        o.devices = p.devices;
    if (o.availability.empty()) {
        char text[32];
        // Shortest text that reads back to the same double, in any locale (as numberInText reads it).
        const auto written = std::to_chars(text, text + sizeof text, p.availability);
        o.availability.assign(text, written.ptr);
    }
    if (!o.period)
        o.period = p.roundPeriodSeconds;
    return o;
}

FleetArgs readFleetArgs(ArgList& args)
{
    FleetArgs o;
    o.devices = args.integer("--devices"); // nullopt: the plan's
    o.link = readLinkArgs(args);
    o.cpu = readCpuArgs(args);
    o.availability = args.value("--availability"); // "": the plan's
    // A number is a probability, read as every number is; any other text names a trace file.
    if (!o.availability.empty() && numberInText(o.availability))
        args.realItem("--availability", o.availability);
    o.catchUp = args.value("--catch-up", "unicast");
    o.order = args.value("--order", "most-stale");
    o.catchUpBytes = args.value("--catch-up-bytes", "estimate");
    o.maxStaleness = args.integer("--max-staleness", 0);
    o.repairs = args.integer("--repairs", 1);
    o.target = args.real("--target", 0.99);
    o.period = args.real("--period"); // nullopt: the plan's
    o.drain = args.integer("--drain", 0);
    o.fleetSeed = static_cast<uint64_t>(args.integer("--fleet-seed", 1));
    o.sampleBytes = args.integer("--sample-bytes", 0);
    o.perSf = args.flag("--multicast-per-sf");
    return o;
}

FleetConfig fleetConfigFromArgs(const FleetArgs& o)
{
    checkFleetArgs(o, true);
    FleetGroup group;
    group.name = "devices";
    group.devices = static_cast<int>(*o.devices); // at most kMaxSimulatedDevices (checkFleetArgs)
    group.sfMix = sfMixOf(o.link.settings);
    group.link = linkOf(o.link.settings);
    group.cpu = deviceCpuOf(o.cpu);
    if (const std::optional<double> p = numberInText(o.availability))
        group.availability = *p; // in [0, 1]: read through its table entry, or the plan's (validateFleet checks)
    else
        group.trace = std::make_shared<AvailabilityTrace>(AvailabilityTrace::read(o.availability));
    if (o.sampleBytes > 0)
        group.uplink = uplinkOf(group.link);

    FleetConfig config;
    config.groups.push_back(group);
    config.policy.catchUp = o.catchUp == "multicast" ? CatchUpDelivery::MulticastPerVersion : CatchUpDelivery::Unicast;
    config.policy.order = o.order == "smallest" ? CatchUpOrder::SmallestFirst : CatchUpOrder::MostStaleFirst;
    config.policy.maxStaleness = static_cast<int>(o.maxStaleness); // ranges: CommandNumbers.cpp, all within int
    config.policy.repairSessions = static_cast<int>(o.repairs);
    config.policy.target.probability = o.target;
    config.policy.multicastPerSpreadingFactor = o.perSf;
    config.roundPeriodSeconds = *o.period;
    config.drainRounds = static_cast<int>(o.drain);
    config.seed = o.fleetSeed;
    config.sampleBytes = o.sampleBytes;
    return config;
}

FleetOfRuns simulateRunsOnFleet(const std::vector<RunFolder>& runs, FleetConfig config, std::optional<int64_t> seedArg,
                                bool labelled, bool realCatchUps)
{
    FleetOfRuns out;
    const auto sizes = realCatchUps ? std::make_shared<CatchUpSizes>() : nullptr;
    int lastRound = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunFolder& run = runs[i];
        if (!run.complete())
            out.notes.push_back(run.label() + " stopped early: simulated over its finished rounds");
        const uint64_t seed = seedArg ? static_cast<uint64_t>(*seedArg) : run.plan.seeds.front();
        if (std::find(run.plan.seeds.begin(), run.plan.seeds.end(), seed) == run.plan.seeds.end())
            throw UsageError("--seed: " + run.label() + " has no seed " + std::to_string(seed));
        const std::string prefix = labelled ? run.label() + "/" : std::string();
        FleetRunInput input = fleetStrategiesOf(run, seed, prefix);
        if (sizes)
            for (FleetStrategy& s : input.strategies)
                useRealCatchUps(s, run, s.name.substr(prefix.size()), seed, sizes);
        for (const std::string& name : input.neverDeployed)
            out.notes.push_back(name + " never deployed: left out");
        lastRound = std::max(lastRound, input.lastRound);
        config.newSamplesPerRound = input.newSamplesPerRound;
        for (FleetStrategy& s : input.strategies) {
            out.strategies.push_back(std::move(s));
            out.runOf.push_back(i);
        }
    }
    for (const std::string& note : out.notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    if (out.strategies.empty())
        throw Error("no strategy of these runs deployed a version");
    config.lastRound = lastRound;
    if (!sizes)
        std::fprintf(stderr, "note: catch-up bundles are estimated as the cheaper of the chain of missed bundles and the full "
                             "model (--catch-up-bytes real builds them)\n");
    for (const FleetStrategy& s : out.strategies) {
        out.results.push_back(simulateFleet(config, s));
        out.metrics.push_back(fleetMetrics(config, s, out.results.back()));
    }
    if (sizes)
        std::fprintf(stderr, "note: %d catch-up bundles built from the runs' files; each size is its cheapest route\n",
                     sizes->built);
    out.config = std::move(config);
    return out;
}

} // namespace dpu::cli
