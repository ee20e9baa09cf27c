// SPDX-License-Identifier: MIT
// The fleet's input: catch-up bytes by the chain or the full model, whole numbers, validation (the SF mixes are the link's).
#include "dpu/Fleet.h"
#include "link/Text.h"
#include <algorithm>
#include <cmath>

namespace dpu {
using link::exactNumber;
using link::number;
using link::require;

int64_t chainOrFullBytes(const FleetStrategy& strategy, int from, int to)
{
    int64_t chain = 0;
    for (int v = from + 1; v <= to; ++v)
        chain += strategy.versions[static_cast<size_t>(v)].deltaBytes;
    return strategy.fullModelBytes > 0 ? std::min(chain, strategy.fullModelBytes) : chain;
}

namespace {

std::string range(int64_t min, int64_t max)
{
    return std::to_string(min) + " .. " + std::to_string(max);
}

/// Throws LinkError(field, "expected min .. max[ what], found value") unless value is in range.
void requireIn(int64_t value, int64_t min, int64_t max, const std::string& field, const std::string& what = {})
{
    require(value >= min && value <= max, field, "expected " + range(min, max) + what + ", found " + std::to_string(value));
}

/// A group's SF mix: weights finite, 0 or more, bounded (so that their sum is finite), not all
/// 0, and each SF one the link's region has.
void validateMix(const FleetGroup& group)
{
    double total = 0;
    for (const SpreadingFactorShare& s : group.sfMix) {
        require(std::isfinite(s.share) && s.share >= 0 && s.share <= kMaxSpreadingFactorWeight, "sfMix",
                "weight of SF" + std::to_string(s.spreadingFactor) + " must be 0 or more, at most "
                    + std::to_string(static_cast<int64_t>(kMaxSpreadingFactorWeight)) + ", found " + exactNumber(s.share));
        validateLink(withSpreadingFactor(group.link, s.spreadingFactor));
        if (group.uplink)
            validateLink(withSpreadingFactor(*group.uplink, s.spreadingFactor));
        total += s.share;
    }
    require(group.sfMix.empty() || (std::isfinite(total) && total > 0), "sfMix", "the weights add up to " + number(total));
}

void validateGroup(const FleetGroup& group, const std::string& at, const FleetStrategy& strategy)
{
    requireIn(group.devices, 1, kMaxFleetDevices, at + ".devices");
    require(std::isfinite(group.availability) && group.availability >= 0 && group.availability <= 1, at + ".availability",
            "expected a probability in [0, 1], found " + number(group.availability));
    try {
        validateLink(group.link);
        if (group.uplink)
            validateLink(*group.uplink);
        validateMix(group);
        validateDeviceCpu(group.cpu);
    } catch (const LinkError& e) {
        throw LinkError(at, e.what());
    }
    if (group.trace)
        require(group.trace->devices() > 0, at + ".trace", "the trace names no device");
    require(group.cpu.clockHz == 0 || strategy.deviceFileBytes > 0, "strategy '" + strategy.name + "'.deviceFileBytes",
            "an apply's time grows with the device file (" + at + ".cpu): its bytes are needed");
}

/// The policy, the schedule and the upload: what bounds a run's rounds, sessions and bytes.
void validateSchedule(const FleetConfig& config)
{
    const FleetPolicy& p = config.policy;
    requireIn(p.maxStaleness, 0, kMaxStaleness, "policy.maxStaleness", " versions (0: never)");
    requireIn(p.repairSessions, 0, kMaxRepairSessions, "policy.repairSessions");
    require(p.target.probability > 0 && p.target.probability < 1, "policy.target.probability",
            "expected a probability in (0, 1), found " + number(p.target.probability));
    require(std::isfinite(config.roundPeriodSeconds) && config.roundPeriodSeconds >= kMinRoundPeriodSeconds
                && config.roundPeriodSeconds <= kMaxRoundPeriodSeconds,
            "roundPeriodSeconds", "expected " + exactNumber(kMinRoundPeriodSeconds) + " .. " + exactNumber(kMaxRoundPeriodSeconds)
                                      + " s (1,000,000 hours), found " + exactNumber(config.roundPeriodSeconds));
    requireIn(config.lastRound, 0, kMaxFleetRound, "lastRound", " (0: the last version's round)");
    requireIn(config.drainRounds, 0, kMaxDrainRounds, "drainRounds");
    requireIn(config.sampleBytes, 0, kMaxSampleBytes, "sampleBytes");
    requireIn(config.newSamplesPerRound, 0, kMaxNewSamplesPerRound, "newSamplesPerRound");
    // Both at most 1e9, so the product is exact in int64; one round's upload is one bundle at most.
    require(config.sampleBytes * config.newSamplesPerRound <= kMaxFleetBundleBytes, "sampleBytes",
            "a round's upload, sampleBytes x newSamplesPerRound = " + std::to_string(config.sampleBytes) + " x "
                + std::to_string(config.newSamplesPerRound) + ", is over " + std::to_string(kMaxFleetBundleBytes) + " B");
}

void validateStrategy(const FleetConfig& config, const FleetStrategy& strategy)
{
    const std::string at = "strategy '" + strategy.name + "'";
    require(!strategy.versions.empty(), at, "has no version (versions[0] is what the devices run at the start)");
    for (size_t v = 0; v < strategy.versions.size(); ++v) {
        const FleetVersion& version = strategy.versions[v];
        const std::string field = at + ".versions[" + std::to_string(v) + "]";
        require(std::isfinite(version.testAccuracy), field + ".testAccuracy", "not a number");
        requireIn(version.round, 0, kMaxFleetRound, field + ".round");
        if (v == 0)
            continue;
        require(version.round > strategy.versions[v - 1].round, field + ".round",
                "rounds must increase: " + std::to_string(version.round) + " after " + std::to_string(strategy.versions[v - 1].round));
        requireIn(version.deltaBytes, 0, kMaxFleetBundleBytes, field + ".deltaBytes", " B");
    }
    requireIn(strategy.initialDeploymentBytes, 0, kMaxFleetBundleBytes, at + ".initialDeploymentBytes", " B");
    requireIn(strategy.fullModelBytes, 0, kMaxFleetBundleBytes, at + ".fullModelBytes", " B");
    requireIn(strategy.deviceFileBytes, 0, kMaxFleetBundleBytes, at + ".deviceFileBytes", " B");
    require(config.policy.maxStaleness == 0 || strategy.fullModelBytes > 0, at + ".fullModelBytes",
            "a maximum staleness sends the full model: its bytes are needed");
    require(config.lastRound == 0 || config.lastRound >= strategy.versions.back().round, "lastRound",
            "the run's last round " + std::to_string(config.lastRound) + " is before its last version's round "
                + std::to_string(strategy.versions.back().round));
}

} // namespace

int64_t wholeFleetNumber(double value, const std::string& field, int64_t min, int64_t max)
{
    // Compared as doubles before any conversion: casting NaN or 1e300 to an integer is undefined.
    require(std::isfinite(value) && value == std::floor(value) && value >= static_cast<double>(min)
                && value <= static_cast<double>(max) && std::fabs(value) < 9223372036854775808.0,
            field, "expected a whole number in " + range(min, max) + ", found " + exactNumber(value));
    return static_cast<int64_t>(value);
}

void validateFleet(const FleetConfig& config, const FleetStrategy& strategy)
{
    require(!config.groups.empty(), "groups", "a fleet needs at least one group of devices");
    int64_t devices = 0;
    for (size_t g = 0; g < config.groups.size(); ++g) {
        const std::string at = "groups[" + std::to_string(g) + "]";
        validateGroup(config.groups[g], at, strategy);
        devices += config.groups[g].devices;
        require(devices <= kMaxFleetDevices, at + ".devices",
                "the groups hold " + std::to_string(devices) + " devices so far, over the fleet's limit of " + std::to_string(kMaxFleetDevices));
    }
    validateSchedule(config);
    validateStrategy(config, strategy);
}

} // namespace dpu
