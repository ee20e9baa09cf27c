// SPDX-License-Identifier: MIT
// fleetStrategiesOf: a finished run's records as the fleet simulation's strategies (versions, real bundle bytes, full model).
#include "dpu/FleetRuns.h"
#include "fleet/Text.h"
#include <algorithm>

namespace dpu {

namespace {

/// The run's largest `full` bundle (FU ships the whole model), else its fp32 weights; 0 when
/// neither is known.
int64_t fullModelBytesOf(const RunFolder& run)
{
    int64_t full = 0;
    for (const RoundRecord& r : run.records)
        if (r.deployed && r.bundleKind == "full")
            full = std::max(full, r.bundleBytes);
    if (full == 0 && run.status.partialWeights > 0)
        full = 4 * (run.status.partialWeights + run.status.denseWeights);
    return full;
}

} // namespace

FleetRunInput fleetStrategiesOf(const RunFolder& run, uint64_t seed, const std::string& namePrefix)
{
    const auto& seeds = run.plan.seeds;
    fleet::require(std::find(seeds.begin(), seeds.end(), seed) != seeds.end(), "seed",
                   "the run has no seed " + std::to_string(seed));
    FleetRunInput out;
    out.newSamplesPerRound = run.plan.split.perRound;
    const int64_t fullModel = fullModelBytesOf(run);
    // The device file is the fp32 weights: what an apply hashes and streams (DeviceCpu).
    const int64_t deviceFile = run.status.partialWeights > 0 ? 4 * (run.status.partialWeights + run.status.denseWeights) : fullModel;
    std::vector<std::string> order;
    for (const RoundRecord& r : run.records)
        if (r.seed == seed && std::find(order.begin(), order.end(), r.strategy) == order.end())
            order.push_back(r.strategy);
    for (const std::string& name : order) {
        std::vector<RoundRecord> records;
        for (const RoundRecord& r : run.records)
            if (r.seed == seed && r.strategy == name)
                records.push_back(r);
        std::sort(records.begin(), records.end(), [](const RoundRecord& a, const RoundRecord& b) { return a.round < b.round; });
        FleetStrategy s;
        s.name = namePrefix + name;
        s.fullModelBytes = fullModel;
        s.coding = run.plan.bundle.values;
        s.deviceFileBytes = deviceFile;
        for (const RoundRecord& r : records) {
            out.lastRound = std::max(out.lastRound, r.round);
            // The first deployed version is what the devices were installed with: no delta.
            if (r.deployed)
                s.versions.push_back({r.round, r.testAccuracy, s.versions.empty() ? 0 : r.bundleBytes});
        }
        if (s.versions.empty())
            out.neverDeployed.push_back(s.name);
        else
            out.strategies.push_back(std::move(s));
    }
    return out;
}

} // namespace dpu
