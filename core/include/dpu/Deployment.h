// SPDX-License-Identifier: MIT
// The deployment a plan is for, one plain struct: the link, the fleet, the cadence, the server's policy and the devices' processor (docs/fleet.md).
#pragma once
#include "dpu/PlanEnums.h"
#include <cstdint>
#include <optional>
#include <string>

namespace dpu {

/// What one round must reach: the share of its devices that hold the bundle afterwards.
struct RoundTarget {
    double probability = 0.99;
    bool everyDevice = false; ///< the probability that every device completes, not each one
};

/// The server's catch-up policy.
struct FleetPolicy {
    /// Devices behind by more than one version: one catch-up bundle each (unicast) or one
    /// multicast per version they run. A multicast needs a multicast link; otherwise unicast.
    CatchUpDelivery catchUp = CatchUpDelivery::Unicast;
    CatchUpOrder order = CatchUpOrder::MostStaleFirst;
    /// Versions behind after which a device gets the full model instead; 0: never.
    int maxStaleness = 0;
    /// Repair sessions after a session for the devices that did not complete (erasure-coded
    /// links): the server learns each one's missing fragments (TS004 FragSessionStatus) and
    /// sends enough for the largest at the target.
    int repairSessions = 1;
    RoundTarget target;
    /// A multicast runs once per spreading factor present among its devices instead of once
    /// at the slowest.
    bool multicastPerSpreadingFactor = false;
};

/// The link the devices sit behind, as a user states it: a LoRaWAN region or a link model preset
/// (dpu/LinkModel.h), moved to an SF or mix, a sub-band, a loss, a delivery and a device class.
/// Every "as the preset says" is a value of its own (Preset, an unset optional, 0 for the SF).
struct DeploymentLink {
    /// lorawan-eu868 or lorawan-us915 (the SF from spreadingFactor or the mix), or any key of
    /// linkPresetKeysList() (its aliases too: resolveLinkKey()).
    std::string link = "lorawan-eu868";
    int spreadingFactor = 0;  ///< 7..12; 0: the mix's first SF (SF7 without a mix), or the preset's own
    std::string sfMix;        ///< "", "fuotasim" or "SF:weight,..." (parseSpreadingFactorMix)
    std::optional<double> dutyCycle; ///< unset: the preset's; EU868 takes its sub-bands' 0.001, 0.01, 0.1
    double frameLoss = 0;
    double frameLossSpread = 0; ///< each device's own loss lies evenly in frameLoss +- this
    DeliveryChoice delivery = DeliveryChoice::Preset;
    DeviceClassChoice deviceClass = DeviceClassChoice::Preset; ///< LoRaWAN downlinks: Class C or B
    int pingPeriodicity = 0;      ///< Class B: a ping slot every 0.96 x 2^p s, p = 0..7
    bool leaveWhenDecoded = true; ///< false: devices listen to a session's end (the model before issue 41)
};

/// The processor applying bundles (dpu/DeviceCpu.h): none, or one of the measured Cortex-M
/// figures with the part's clock, cycles per instruction, run current and supply.
struct CpuSettings {
    CpuChoice cpu = CpuChoice::None;
    double clockMhz = 64;
    double cyclesPerInstruction = 1;
    double runMilliamps = 3;
    double volts = 3;
};

/// What the fleet must reach (docs/fleet.md "Planning for the fleet"), each unset: no target.
/// Part of the deployment (plan keys fleet.targets.*); the fleet planner (dpu/FleetPlanner.h)
/// recommends the configuration that meets every one set.
struct FleetTargets {
    /// Freshness: at every round's end, at least this share of the fleet is fresh, as freshDays
    /// or accuracyGapPoints (exactly one of them) says.
    std::optional<double> freshShare;
    /// Fresh: the version a device runs was the server's latest at most this many days before.
    std::optional<double> freshDays;
    /// Fresh: the version a device runs is within this many points (of test accuracy, in %) of
    /// the server's latest.
    std::optional<double> accuracyGapPoints;
    /// The share of a device's battery its downloads and uploads take in a year (fleet mean).
    std::optional<double> batteryPerYear;
    /// Seconds a gateway transmits per day (the run's rounds' airtime per day, per gateway).
    std::optional<double> airtimePerDaySeconds;

    /// Whether any target is set.
    bool any() const { return freshShare || batteryPerYear || airtimePerDaySeconds; }
};

/// The deployment: what the plan file's `fleet` keys, `dpu-cli fleet`'s options, the window's
/// Deployment dialog and Fleet tab, and the report's fleet page state. Its one description is
/// the plan field table's fleet.* entries (dpu/PlanFields.h), each with its dpu-cli option.
/// fleetConfigOf() (dpu/DeploymentModel.h) turns it into what the simulation reads.
struct Deployment {
    DeploymentLink link;
    int devices = 200;
    double availability = 1;     ///< probability a device is on in a round
    /// A trace of which devices are on in which round (AvailabilityTrace::read: a CSV of
    /// device,round lines or FedScale's JSON); given, it replaces `availability`. Empty: none.
    std::string availabilityTrace;
    double roundPeriodHours = 24; ///< the cadence: a round starts every period
    CpuSettings cpu;
    /// The server's catch-up policy: delivery, order, the full model past a staleness, repairs.
    FleetPolicy policy;
    /// Catch-up sizes from real catch-up bundles built of the runs' files (dpu/FleetCatchUps.h)
    /// instead of the estimate; the caller applies it (fleetConfigOf() does not read run folders).
    CatchUpSizing catchUpSizes = CatchUpSizing::Estimate;
    /// The paper's appendix: one sample's bytes each node uploads (S_d); 0: no upload.
    int64_t sampleBytes = 0;
    int drainRounds = 0; ///< simulated rounds after the run's last that only catch devices up
    uint64_t seed = 1;   ///< the simulation's draws (which devices are on, which frames are lost)
    /// What the fleet must reach (the fleet planner's targets); none set by default.
    FleetTargets targets;
};

} // namespace dpu
