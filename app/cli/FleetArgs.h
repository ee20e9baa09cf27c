// SPDX-License-Identifier: MIT
// The fleet options dpu-cli fleet and report --fleet share: read, turned into core's FleetConfig, and the runs simulated on it.
#pragma once
#include "ArgList.h"
#include "LinkArgs.h"
#include "dpu/Fleet.h"
#include "dpu/FleetMetrics.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpu::cli {

/// The largest fleet dpu-cli simulates (its --devices range, CommandNumbers.cpp): the simulation
/// follows every device, so a plan's fleet.devices above it is refused too.
constexpr int64_t kMaxSimulatedDevices = 1000000;

/// The fleet's and the server's options as given, each in its range (CommandNumbers.cpp);
/// nullopt: not given, the plan's.
struct FleetArgs {
    std::optional<int64_t> devices;
    LinkArgs link;
    CpuSettings cpu;
    std::string availability, catchUp, order;
    std::string catchUpBytes = "estimate"; ///< estimate, or real: built from the runs' files
    int64_t maxStaleness = 0, repairs = 1, drain = 0, sampleBytes = 0;
    uint64_t fleetSeed = 1;
    double target = 0.99;
    std::optional<double> period;
    bool perSf = false;
};

/// Reads --devices, the link options (readLinkArgs), the processor (readCpuArgs),
/// --availability, --catch-up, --catch-up-bytes, --order, --max-staleness, --repairs, --target, --period,
/// --drain, --fleet-seed, --sample-bytes and --multicast-per-sf. Throws UsageError naming the
/// option for a number outside its range (an --availability that is a number: a probability)
/// or a malformed processor.
FleetArgs readFleetArgs(ArgList& args);

/// Checks the options given, before any run folder is read (devices, availability and the
/// period may still be missing: the plan's fleet keys fill them in). Throws UsageError naming
/// the option.
void checkGivenFleetArgs(const FleetArgs& given);

/// The options given, completed by a plan's `fleet` keys (dpu/Plan.h PlanFleet): without
/// --link, the plan's link with its SF or mix, duty cycle, loss and delivery, each replaced by
/// the option of its own when given; without --devices, --availability or --period, the plan's.
/// With --link, the link is the options' alone (the plan's SF or sub-band belong to its link).
FleetArgs withPlanFleet(FleetArgs given, const PlanFleet& plan);

/// The simulation's fleet (one group) and policy. Throws UsageError naming the option that is
/// wrong, LinkError naming the field (an SF the region lacks), or Error naming an unreadable
/// availability trace.
FleetConfig fleetConfigFromArgs(const FleetArgs& given);

/// Every deployed strategy of the runs (one seed each) simulated on the fleet.
struct FleetOfRuns {
    FleetConfig config;                   ///< with the runs' last round and |dD|
    std::vector<FleetStrategy> strategies;
    std::vector<size_t> runOf;            ///< [i]: the index in runs of strategies[i]
    std::vector<FleetResult> results;     ///< [i]: strategies[i] on the fleet
    std::vector<FleetMetrics> metrics;    ///< [i]: fleetMetrics() of results[i], what every view prints
    std::vector<std::string> notes;       ///< runs stopped early, strategies that never deployed
};

/// Reads each run's strategies at `seed` (nullopt: each run's first; core's
/// fleetStrategiesOf, named "LABEL/strategy" when `labelled`), sizes their catch-ups by real
/// bundles when `realCatchUps` (useRealCatchUps, built from the runs' files) and simulates them
/// with simulateFleet, each result's figures by fleetMetrics. Prints the notes on stderr as "note: ...". Throws UsageError("--seed") for a
/// seed a run lacks, Error when no strategy deployed, LinkError from the simulation's checks.
FleetOfRuns simulateRunsOnFleet(const std::vector<RunFolder>& runs, FleetConfig config, std::optional<int64_t> seed,
                                bool labelled, bool realCatchUps = false);

} // namespace dpu::cli
