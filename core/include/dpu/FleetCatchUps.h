// SPDX-License-Identifier: MIT
// Real catch-up bundle sizes for the fleet simulation: built from a run's own bundles, instead of estimated.
#pragma once
#include "dpu/Fleet.h"
#include "dpu/RunFolder.h"
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace dpu {

/// Sizes already built, by run folder, strategy, seed and device versions (from, to): shared by
/// the simulations of one session (the window re-simulates at every edit; a catch-up bundle of the
/// MLP takes about a second to build and check). Used by one thread at a time.
struct CatchUpSizes {
    std::map<std::tuple<std::string, std::string, uint64_t, uint64_t, uint64_t>, int64_t> bytes;
    int built = 0; ///< bundles built, not taken from the map
};

/// Makes `strategy` (from fleetStrategiesOf(run, seed), its name `prefix + recordStrategy`) answer
/// the simulation's catch-up sizes with real bundles: for versions (from, to) it builds the
/// catch-up bundle of the run's strategy `recordStrategy` (buildCatchUp: every weight changed in
/// between, checked against the device file) and answers the cheapest route's bytes, the catch-up
/// bundle, the chain of missed bundles or the full model, as `dpu-cli bundle export --catchup`
/// would send. `sizes` (may be null) memoizes across calls. The function it sets throws Error as
/// buildCatchUp() does (a run folder without its bundles names the missing file).
void useRealCatchUps(FleetStrategy& strategy, const RunFolder& run, const std::string& recordStrategy, uint64_t seed,
                     std::shared_ptr<CatchUpSizes> sizes = {});

} // namespace dpu
