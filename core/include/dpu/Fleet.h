// SPDX-License-Identifier: MIT
// The fleet simulation (docs/fleet.md): what N devices behind real links run, when, and at what airtime and energy.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/DeviceCpu.h"
#include "dpu/LinkModel.h"
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dpu {

// --- Limits (docs/fleet.md "Limits") ---
// What the simulation accepts from any caller (the CLI, the window, a plan's fleet keys, a trace
// file): within them a run's memory stays under about 2 GB and no count overflows; validateFleet()
// and AvailabilityTrace refuse anything beyond them naming the field, the accepted range and what
// they found (an SF mix's weights: kMaxSpreadingFactorWeight, dpu/LinkModel.h).

constexpr int kMaxFleetDevices = 1000000;   ///< devices over all groups
constexpr int kMaxFleetRound = 10000;       ///< the run's last round and every version's round (0 ..)
constexpr int kMaxDrainRounds = 1000;
constexpr int kMaxStaleness = 10000;        ///< policy.maxStaleness, in versions
constexpr int kMaxRepairSessions = 100;
constexpr double kMinRoundPeriodSeconds = 1;
constexpr double kMaxRoundPeriodSeconds = 3.6e9;   ///< 1,000,000 hours, as a plan's fleet.round_period_h
constexpr int64_t kMaxFleetBundleBytes = 10000000000; ///< 10 GB: a delta, a catch-up, the full model, the device file
constexpr int64_t kMaxSampleBytes = 1000000000;    ///< S_d, one sample's bytes
constexpr int64_t kMaxNewSamplesPerRound = 1000000000;
constexpr int64_t kMaxTraceFileBytes = int64_t{256} << 20; ///< 256 MiB
constexpr size_t kMaxTraceDevices = 1000000;       ///< devices (clients) a trace names

/// A whole number that arrives as a double (a command line's or a settings file's number) as an
/// integer field takes it: NaN, infinities, fractions and values outside [min, max] are refused
/// with LinkError(field, "expected a whole number in min .. max, found ...").
int64_t wholeFleetNumber(double value, const std::string& field, int64_t min, int64_t max);
/// The largest seed wholeFleetNumber() can take from a double exactly: 2^53.
constexpr int64_t kMaxExactSeed = int64_t{1} << 53;

// --- Availability ---

/// Which devices are on in which round: a CSV of `device,round` lines (the rounds each device is
/// on) or FedScale's client availability trace (per client `active` and `inactive` times in
/// seconds, repeating every `finish_time`), as JSON.
class AvailabilityTrace {
public:
    /// Trace devices, in the order the file first names them.
    size_t devices() const { return ids_.size(); }
    const std::string& deviceId(size_t device) const { return ids_[device]; }
    /// Whether trace device `device` is on in simulation round `round` (1-based), which starts
    /// `seconds` after the simulation's start (FedScale traces are read at that time, modulo
    /// the client's finish_time; CSV traces by the round).
    bool available(size_t device, int round, double seconds) const;

    /// Parses a CSV trace: lines `device,round` (round 1 or more), an optional header line
    /// `device,round`, blank lines and lines starting with '#' skipped. Throws LinkError
    /// naming `source:line` and what it found, or `source` for more than kMaxTraceDevices devices.
    static AvailabilityTrace parseCsv(const std::string& text, const std::string& source);
    /// Parses FedScale's availability trace as JSON: {"<client>": {"active": [s...],
    /// "inactive": [s...], "finish_time": s, ...}, ...} (FedScale ships it as a pickle of that
    /// dict: json.dump it). Throws LinkError naming `source` and the line of a syntax error or of
    /// a number out of a double's range, or the client and field and the value found.
    static AvailabilityTrace parseFedScale(const std::string& text, const std::string& source);
    /// Reads a file: FedScale JSON when its first non-blank character is '{', CSV otherwise.
    /// Refuses, naming the path, anything but a regular file (a FIFO, a device, a folder: checked
    /// before it is opened, and opened so that it cannot block) and a file over
    /// kMaxTraceFileBytes, naming its size.
    static AvailabilityTrace read(const std::string& path);

private:
    class FedScaleReader;
    std::vector<std::string> ids_;
    bool timed_ = false;
    std::vector<std::vector<int>> rounds_; ///< CSV: sorted rounds per device
    /// FedScale: per device its intervals [active[i], inactive[i]] in seconds, kept as the two
    /// lists the file gives (no copy into pairs: a large trace's memory is these numbers).
    std::vector<std::vector<double>> active_, inactive_;
    std::vector<double> finish_; ///< FedScale: finish_time per device
};

// --- The fleet ---

/// Devices that share a link (one gateway, one cell) and an availability.
struct FleetGroup {
    std::string name = "devices";
    int devices = 0;
    Link link; ///< the downlink: delivery, loss, duty cycle, energy (its SF unless sfMix)
    /// LoRa: devices per spreading factor (largest remainder); empty: every device at link's SF.
    std::vector<SpreadingFactorShare> sfMix;
    double availability = 1; ///< probability that a device is on in a round (when no trace)
    /// When set, device i of the fleet (counting over all groups) follows trace device
    /// i modulo the trace's devices.
    std::shared_ptr<const AvailabilityTrace> trace;
    /// The uplink for the paper's sample upload (empty: no upload cost); the same SF mix.
    std::shared_ptr<const Link> uplink;
    /// The devices' processor: a device runs a version only once it has applied its bundle, and
    /// the apply's energy is counted (clockHz 0, the default: applying takes no time).
    DeviceCpu cpu;
};

/// One deployed version of a strategy's run.
struct FleetVersion {
    int round = 0;            ///< the run's round that deployed it
    double testAccuracy = 0;  ///< of the model the devices run at this version (fraction)
    int64_t deltaBytes = 0;   ///< the bundle from the previous version to this one
};

/// What the fleet serves, filled by the caller from finished runs (it trains nothing).
struct FleetStrategy {
    std::string name;
    /// versions[0]: what every device runs at the start (its deltaBytes unused); later ones in
    /// increasing rounds, each released at the start of its round.
    std::vector<FleetVersion> versions;
    /// The bundle that installed versions[0] (the run's first deployment: what round 1 installs).
    /// Never sent by the simulation, which starts with every device on it; fleetMetrics() reports
    /// it apart from the update rounds.
    int64_t initialDeploymentBytes = 0;
    int64_t fullModelBytes = 0;
    /// Bytes of one bundle from version `from` to version `to` (indices into versions);
    /// empty: chainOrFullBytes().
    std::function<int64_t(int from, int to)> catchUpBytes;
    /// The value coding of its delta and catch-up bundles, and the device file's bytes: what an
    /// apply costs (DeviceCpu); full-model bundles are charged as fp32.
    Coding coding = Coding::Fp32;
    int64_t deviceFileBytes = 0;
};

/// The cheaper of the chain's sum (deltas from+1..to) and the full model.
int64_t chainOrFullBytes(const FleetStrategy& strategy, int from, int to);

struct FleetConfig {
    std::vector<FleetGroup> groups;
    FleetPolicy policy;
    double roundPeriodSeconds = 86400; ///< a round starts every period; its sessions start within it
    int lastRound = 0;   ///< the run's last round (0: the last version's round)
    int drainRounds = 0; ///< rounds after lastRound that only catch devices up
    uint64_t seed = 1;
    /// The paper's appendix: every node uploads sampleBytes x newSamplesPerRound / N per round
    /// from the second round on (S_d |dD^r| / N), over its group's uplink.
    int64_t sampleBytes = 0;
    int64_t newSamplesPerRound = 0;
};

/// One simulated round of one strategy.
struct FleetRound {
    int round = 0;
    double startSeconds = 0;   ///< since the simulation's start
    int latestVersion = 0;     ///< the server's latest version (index)
    std::vector<double> versionShare; ///< [v]: share of the fleet running version v after the round
    double fleetAccuracy = 0;  ///< mean test accuracy of the version each device runs
    double serverAccuracy = 0; ///< of the latest version
    double airtime = 0;        ///< transmitters' time on air, all groups (s)
    double wallTime = 0;       ///< from the round's start to its last session's end (s)
    double energyMean = 0;     ///< J per device, over the whole fleet (0 for a device not served)
    double energyMax = 0;
    double applyEnergyMean = 0; ///< J per device of applying bundles, over the fleet (in energyMean)
    double applySecondsMax = 0; ///< the longest apply of the round (s)
    int64_t bundleBytes = 0;   ///< bundle bytes sent: once per multicast, per device for unicast
    int64_t bytesOnAir = 0;    ///< frames x frame bytes, repairs included
    int64_t downloadBytes = 0; ///< bundle bytes the devices listened to, summed over devices
    int64_t receptions = 0;    ///< frames the devices listened to, summed over devices (repairs included)
    int sessions = 0;          ///< sessions started (repairs included)
    int available = 0;         ///< devices on
    int served = 0;            ///< devices a session was sent to
    int completed = 0;         ///< of which now run the latest version
    int deferred = 0;          ///< stale and on, but no session started within the round
    int fullModels = 0;        ///< devices sent the full model
    double uploadBytesPerNode = 0;   ///< S_d |dD^r| / N
    double uploadAirtimePerNode = 0; ///< s
    double uploadEnergyPerNode = 0;  ///< J
    std::vector<double> groupEnergy;       ///< [g]: J of group g's devices, summed (downloads and applies)
    std::vector<double> groupUploadEnergy; ///< [g]: J of group g's uploads, summed
};

/// One strategy's simulation. Its figures per update round and per year are fleetMetrics()'s
/// (dpu/FleetMetrics.h): every view asks that one function.
struct FleetResult {
    std::string strategy;
    int devices = 0;
    std::vector<FleetRound> rounds;
    /// rounds[0 .. runRounds) are the run's own rounds (through FleetConfig::lastRound or the
    /// last version's round); the drainRounds after them only catch devices up.
    int runRounds = 0;
    /// Seconds from each version's release until 50 / 90 / 99 % of the fleet run it or a later
    /// one; NaN when that share is not reached within the simulated rounds. [0] is the start.
    std::vector<std::array<double, 3>> timeToShare;
    std::array<double, 3> latestTimeToShare{}; ///< of the last version released
};

/// Checks the fleet, policy and strategy against their ranges and the limits above; throws
/// LinkError naming the field, the accepted range and the value found.
void validateFleet(const FleetConfig& config, const FleetStrategy& strategy);

/// Simulates one strategy on the fleet (docs/fleet.md "The simulation"). Deterministic for
/// config.seed on every platform: its draws come from a counter-based generator and its own
/// binomial tables. Devices' availability depends on the seed, device and round only, so every
/// strategy meets the same fleet.
FleetResult simulateFleet(const FleetConfig& config, const FleetStrategy& strategy);

} // namespace dpu
