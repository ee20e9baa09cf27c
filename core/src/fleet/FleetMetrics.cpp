// SPDX-License-Identifier: MIT
// fleetMetrics: a simulation's figures per update round, per year at the cadence, the initial deployment and the catch-up after the last release, apart.
#include "dpu/FleetMetrics.h"
#include "dpu/DeploymentModel.h"
#include <algorithm>
#include <cstdio>

namespace dpu {
namespace {

constexpr double kSecondsPerYear = 365.25 * 86400;

/// Sums of the rounds [first, last) of a result.
struct RoundSums {
    int rounds = 0;
    double energy = 0;       ///< J per device (fleet means, summed)
    double airtime = 0;      ///< s, all transmitters
    double downloadBytes = 0; ///< over the devices
    double uploadBytes = 0;  ///< per device
    double uploadEnergy = 0; ///< J per device
    double fleetAccuracy = 0, serverAccuracy = 0;
    std::vector<double> groupJoules; ///< [g]: downloads, applies and uploads of the group's devices
};

RoundSums sumRounds(const FleetResult& result, size_t first, size_t last, size_t groups)
{
    RoundSums s;
    s.groupJoules.assign(groups, 0.0);
    for (size_t i = first; i < last && i < result.rounds.size(); ++i) {
        const FleetRound& r = result.rounds[i];
        ++s.rounds;
        s.energy += r.energyMean;
        s.airtime += r.airtime;
        s.downloadBytes += static_cast<double>(r.downloadBytes);
        s.uploadBytes += r.uploadBytesPerNode;
        s.uploadEnergy += r.uploadEnergyPerNode;
        s.fleetAccuracy += r.fleetAccuracy;
        s.serverAccuracy += r.serverAccuracy;
        for (size_t g = 0; g < groups; ++g) {
            s.groupJoules[g] += g < r.groupEnergy.size() ? r.groupEnergy[g] : 0.0;
            s.groupJoules[g] += g < r.groupUploadEnergy.size() ? r.groupUploadEnergy[g] : 0.0;
        }
    }
    return s;
}

/// linkRound() of the initial deployment on each group: time on air summed, energy per device
/// averaged over the fleet's devices. A link it cannot be planned on (no device, no bytes) adds
/// nothing.
void addInitialDeployment(const FleetConfig& config, int64_t bytes, FleetMetrics& m)
{
    if (bytes <= 0)
        return;
    double joules = 0;
    int devices = 0;
    for (const FleetGroup& g : config.groups) {
        if (g.devices <= 0)
            continue;
        const Link link = atSlowestSpreadingFactor(g.link, g.sfMix);
        const LinkRound r = linkRound(link, bytes, g.devices, config.policy.target);
        m.initialDeploymentAirtime += r.airtime; // once (multicast) or per device (unicast)
        joules += r.energyPerDevice * g.devices;
        devices += g.devices;
    }
    m.initialDeploymentEnergy = devices > 0 ? joules / devices : 0;
}

} // namespace

FleetMetrics fleetMetrics(const FleetConfig& config, const FleetStrategy& strategy, const FleetResult& result)
{
    FleetMetrics m;
    m.initialDeploymentBytes = strategy.initialDeploymentBytes;
    addInitialDeployment(config, strategy.initialDeploymentBytes, m);
    m.updateRounds = std::max(0, static_cast<int>(strategy.versions.size()) - 1);
    m.roundPeriodSeconds = config.roundPeriodSeconds;
    m.roundsPerYear = config.roundPeriodSeconds > 0 ? kSecondsPerYear / config.roundPeriodSeconds : 0;
    const size_t groups = config.groups.size();
    const auto runRounds = static_cast<size_t>(std::clamp<int>(result.runRounds, 0, static_cast<int>(result.rounds.size())));
    const RoundSums run = sumRounds(result, 0, runRounds, groups);
    const RoundSums drain = sumRounds(result, runRounds, result.rounds.size(), groups);
    m.runRounds = run.rounds;
    const double devices = std::max(1, result.devices);
    m.downloadBytesPerDevice = run.downloadBytes / devices;
    if (m.updateRounds > 0) {
        double deltas = 0;
        for (size_t v = 1; v < strategy.versions.size(); ++v)
            deltas += static_cast<double>(strategy.versions[v].deltaBytes);
        m.bytesPerUpdateRound = deltas / m.updateRounds;
        m.airtimePerUpdateRound = run.airtime / m.updateRounds;
        m.energyPerUpdateRound = run.energy / m.updateRounds;
    }
    if (run.rounds > 0) {
        const double perRound = 1.0 / run.rounds;
        m.energyPerYear = run.energy * perRound * m.roundsPerYear;
        m.uploadEnergyPerYear = run.uploadEnergy * perRound * m.roundsPerYear;
        m.uploadBytesPerRound = run.uploadBytes * perRound;
        m.meanFleetAccuracy = run.fleetAccuracy * perRound;
        m.meanServerAccuracy = run.serverAccuracy * perRound;
        for (size_t g = 0; g < groups; ++g) {
            const double battery = batteryJoules(config.groups[g].link);
            if (battery > 0)
                m.batteryPerYear += run.groupJoules[g] * perRound * m.roundsPerYear / battery / devices;
        }
    }
    m.catchUpRounds = drain.rounds;
    m.catchUpEnergy = drain.energy;
    m.catchUpBytes = drain.downloadBytes / devices;
    return m;
}

std::string cadenceText(double seconds)
{
    const auto text = [](double value, const char* unit) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.4g %s", value, unit);
        return std::string(buf);
    };
    if (seconds < 60)
        return text(seconds, "s");
    if (seconds < 3600)
        return text(seconds / 60, "min");
    if (seconds < 172800)
        return text(seconds / 3600, "h");
    return text(seconds / 86400, "d");
}

std::string fleetFiguresText(double roundPeriodSeconds)
{
    return "Bytes per update round: the update bundle a device receives; airtime and energy per update round: the run's "
           "rounds (their catch-ups and repairs included) over its update rounds; per year: at one round every "
           + cadenceText(roundPeriodSeconds) + "; the initial deployment (round 1's bundle, with its time on air and energy as one session to "
           "every device) in no per-round figure; the "
           "catch-up after the last release apart. Energy per device, the fleet's mean.";
}

} // namespace dpu
