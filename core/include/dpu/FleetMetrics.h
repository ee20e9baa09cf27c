// SPDX-License-Identifier: MIT
// The figures every view reports of a fleet simulation (the Fleet tab, dpu-cli fleet, the report's fleet page): one function, one set of names.
#pragma once
#include "dpu/Fleet.h"
#include <cstdint>
#include <limits>
#include <string>

namespace dpu {

/// One strategy's simulation as the window, `dpu-cli fleet` and the PDF report name it
/// (docs/fleet.md "The figures"). Three parts that never mix:
///  - the **initial deployment**: what round 1 installed (FleetStrategy::initialDeploymentBytes),
///    never in a per-round figure;
///  - the **update rounds**: the releases after it. The bytes per update round are the update
///    bundle's (the releases' deltas, mean); airtime and energy per update round the run's own
///    rounds' totals (catch-ups and repairs of those rounds included) over the number of releases;
///    per year means the run's own rounds' mean at the round period (rounds that release nothing
///    count, at their cost); none depends on FleetConfig::drainRounds;
///  - the **catch-up after the last release**: the drain rounds, reported on their own.
struct FleetMetrics {
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

    int64_t initialDeploymentBytes = 0; ///< the bundle that installed version 0 (round 1's deployment)
    /// The initial deployment sent as one session to every device of each group (a multicast,
    /// or one session per device where the link unicasts), at the group's slowest SF and the
    /// policy's target (linkRound()): the transmitters' time on air (s, all groups) and the J
    /// per device (fleet mean). The simulation starts after it, so no other figure holds it;
    /// 0 without an initial deployment.
    double initialDeploymentAirtime = 0;
    double initialDeploymentEnergy = 0;
    int updateRounds = 0;               ///< versions released after version 0
    int runRounds = 0;                  ///< the run's simulated rounds (releases and the rounds between)

    /// The update bundle one device receives per update round: the releases' deltas, mean over
    /// the update rounds (the run's records' figure, dpu/UpdateBytes.h, which the frontier and
    /// the report's tables show too); NaN without an update round.
    double bytesPerUpdateRound = kNaN;
    /// The transmitters' time on air (s, all groups) in the run's rounds, per update round; NaN
    /// without an update round.
    double airtimePerUpdateRound = kNaN;
    /// J per device (fleet mean: downloads, repairs and applies) in the run's rounds, per update
    /// round; NaN without an update round.
    double energyPerUpdateRound = kNaN;

    double roundPeriodSeconds = 86400; ///< the cadence the per-year figures are at
    double roundsPerYear = 0;          ///< 365.25 days / roundPeriodSeconds
    double energyPerYear = 0;          ///< J per device: the run's rounds' mean x roundsPerYear (downloads)
    double uploadEnergyPerYear = 0;    ///< J per device, the paper's appendix's uploads
    /// Share of the battery per year, downloads and uploads, mean over the devices (each of its
    /// group's battery).
    double batteryPerYear = 0;
    double uploadBytesPerRound = 0;    ///< per device, mean over the run's rounds (the appendix's)
    /// Bundle bytes one device listened to (fleet mean) over the run's rounds: the deltas, the
    /// catch-ups and full models it was sent, sessions it did not complete included.
    double downloadBytesPerDevice = 0;

    double meanFleetAccuracy = 0;  ///< over the run's rounds
    double meanServerAccuracy = 0; ///< over the run's rounds

    int catchUpRounds = 0;      ///< the drain rounds after the run's last
    double catchUpEnergy = 0;   ///< J per device (fleet mean) over them
    double catchUpBytes = 0;    ///< bundle bytes per device (fleet mean) over them
};

/// The figures of `result`, the simulation of `strategy` on `config` (its groups' batteries, its
/// round period). Throws nothing.
FleetMetrics fleetMetrics(const FleetConfig& config, const FleetStrategy& strategy, const FleetResult& result);

/// The round period as the per-year figures name their cadence ("one round every 24 h"): seconds
/// below a minute ("30 s"), minutes below an hour ("30 min"), hours below 48 h ("12 h", "1.5 h"),
/// days from there ("7 d"), each to at most four significant digits.
std::string cadenceText(double roundPeriodSeconds);

/// What the figures mean, in the words the Fleet tab, dpu-cli fleet and the report's fleet page
/// print them with: "Bytes per update round: the update bundle a device receives; airtime and energy
/// per update round: the run's rounds (...) over its update rounds; per year: at one round every
/// 24 h; ...".
std::string fleetFiguresText(double roundPeriodSeconds);

} // namespace dpu
