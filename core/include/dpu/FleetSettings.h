// SPDX-License-Identifier: MIT
// A fleet as a user states it (link, SF or mix, duty cycle, loss, delivery, devices, availability or trace, period, processor, policy): one typed struct for the window and the CLI.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/Plan.h"
#include "dpu/PlanEnums.h"
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {


/// A link as `dpu-cli fleet --link ... --sf ... --sf-mix ... --duty-cycle ... --loss ...
/// --multicast|--unicast` and the window's Fleet tab state it.
struct LinkSettings {
    /// lorawan-eu868 or lorawan-us915 (the SF from spreadingFactor or the mix), or any key of
    /// linkPresetKeysList().
    std::string link = "lorawan-eu868";
    int spreadingFactor = 0;  ///< 0: the mix's first SF (SF7 without a mix), or the preset's own
    std::string sfMix;        ///< "", "fuotasim" or "SF:weight,..." (parseSpreadingFactorMix)
    double dutyCycle = NAN;   ///< NaN: the preset's; EU868 takes its sub-bands' 0.001, 0.01, 0.1
    double frameLoss = 0;
    double frameLossSpread = 0; ///< each device's own loss lies evenly in frameLoss +- this
    DeliveryChoice delivery = DeliveryChoice::Preset;
    DeviceClassChoice deviceClass = DeviceClassChoice::Preset; ///< LoRaWAN downlinks: Class C or B
    int pingPeriodicity = 0;      ///< Class B: a ping slot every 0.96 x 2^p s, p = 0..7
    bool leaveWhenDecoded = true; ///< false: devices listen to a session's end (the old model)
};

/// The processor applying bundles (dpu/DeviceCpu.h): none, or one of the measured Cortex-M
/// figures with the part's clock, cycles per instruction, run current and supply.
enum class CpuChoice { None, CortexM4, CortexM0 };
struct CpuSettings {
    CpuChoice cpu = CpuChoice::None;
    double clockMhz = 64;
    double cyclesPerInstruction = 1;
    double runMilliamps = 3;
    double volts = 3;
};

/// The Fleet tab's whole input: one group of devices behind one link, the default policy.
struct FleetSettings {
    LinkSettings link;
    int devices = 200;
    double availability = 1;            ///< probability a device is on in a round
    double roundPeriodSeconds = 86400;
    int drainRounds = 0;
    uint64_t seed = 1;
    CpuSettings cpu;
    /// A trace of which devices are on in which round (AvailabilityTrace::read: a CSV of
    /// device,round lines or FedScale's JSON); given, it replaces `availability`. Empty: none.
    std::string availabilityTrace;
    /// The server's catch-up policy: delivery, order, the full model past a staleness, repairs.
    FleetPolicy policy;
    /// Catch-up sizes from real catch-up bundles built of the runs' files (dpu/FleetCatchUps.h)
    /// instead of the estimate; the caller applies it (fleetConfigOf() does not read run folders).
    bool realCatchUps = false;
};

/// The link the settings name: the preset (or the region at the SF), moved to the SF, the duty
/// cycle (EU868: its sub-band preset), the loss, its spread, the delivery, the device class
/// (withLoRaDeviceClass()) and whether devices leave once decoded set. Throws LinkError naming
/// the field for an unknown key, an SF or a sub-band the region lacks, a device class on a link
/// without one; other ranges are checked by validateLink()/validateFleet() (the CLI reports
/// them in that order).
Link linkOf(const LinkSettings& settings);
/// linkOf() at the slowest spreading factor of the settings' mix (the pace a multicast to the
/// whole mix keeps, and the longest session one of its devices has): what the plan form's and
/// the report's per-device figures use. Without a mix, linkOf(). Throws as linkOf().
Link slowestLinkOf(const LinkSettings& settings);
/// `link` moved to the slowest spreading factor that has a share in `mix`; `link` itself for an
/// empty mix or a link without LoRa. Throws LinkError as withSpreadingFactor().
Link atSlowestSpreadingFactor(const Link& link, const std::vector<SpreadingFactorShare>& mix);
/// The SF mix the settings name, SF ascending (empty: none). Throws LinkError("sfMix").
std::vector<SpreadingFactorShare> sfMixOf(const LinkSettings& settings);
/// The processor (clockHz 0 for CpuChoice::None). Throws nothing; validateDeviceCpu() checks it.
DeviceCpu deviceCpuOf(const CpuSettings& settings);
/// "cortex-m4", "cortex-m0" or "" (none): what the CLI's --cpu and the settings file say.
std::string cpuChoiceKey(CpuChoice cpu);

/// The fleet a plan is for (its `fleet` keys) as the window's and the CLI's settings: link, SF
/// or mix, duty cycle (0: the preset's), loss, delivery, devices, availability and round period;
/// the rest (trace, policy, processor, seed, drain) at FleetSettings' defaults. Throws nothing.
FleetSettings fleetSettingsOf(const PlanFleet& fleet);
/// The plan keys of the link and fleet in `settings` (the inverse of fleetSettingsOf(); the
/// trace, policy and processor are no plan keys and are dropped). Throws nothing.
PlanFleet planFleetOf(const FleetSettings& settings);

/// One group of `settings.devices` devices with the link, mix, availability (or the trace, read
/// here) and processor, the settings' policy, the period, drain and seed; `lastRound` and
/// `newSamplesPerRound` from the runs (FleetRunInput). Throws LinkError as linkOf(), and naming
/// the trace's file and line for an unreadable or malformed trace; the rest is checked by
/// simulateFleet().
FleetConfig fleetConfigOf(const FleetSettings& settings, int lastRound, int64_t newSamplesPerRound);

} // namespace dpu
