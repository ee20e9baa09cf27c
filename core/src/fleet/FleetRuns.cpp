// SPDX-License-Identifier: MIT
// fleetStrategiesOf: a finished run's records as the fleet simulation's strategies (versions, real bundle bytes, full model).
#include "dpu/FleetRuns.h"
#include "dpu/DeployedForms.h"
#include "dpu/UpdateBytes.h"
#include "link/Text.h"
#include <algorithm>
#include <cmath>

namespace dpu {

namespace {

/// The weights as the devices store them, from run.json's counts: the deployed form's bytes per
/// partial weight (4, or 1 for an INT8 model's codes, whose float scales, one per output channel,
/// are not counted there and weigh little beside them) and 4 per dense value. 0 when the counts
/// are unknown.
int64_t storedWeightBytes(const RunFolder& run)
{
    const int64_t partial = run.status.partialWeights, dense = run.status.denseWeights;
    if (partial <= 0)
        return 0;
    return deployedFormInfo(run.plan.deployed).storedBytesPerWeight * partial + 4 * dense;
}

/// The run's largest `full` bundle (FU ships the whole model), else its weights as the devices
/// store them; 0 when neither is known.
int64_t fullModelBytesOf(const RunFolder& run)
{
    int64_t full = 0;
    for (const RoundRecord& r : run.records)
        if (r.deployed && r.bundleKind == "full")
            full = std::max(full, r.bundleBytes);
    if (full == 0 && run.status.partialWeights > 0)
        full = storedWeightBytes(run);
    return full;
}

} // namespace

FleetRunInput fleetStrategiesOf(const RunFolder& run, uint64_t seed, const std::string& namePrefix)
{
    const auto& seeds = run.plan.seeds;
    link::require(std::find(seeds.begin(), seeds.end(), seed) != seeds.end(), "seed",
                   "the run has no seed " + std::to_string(seed));
    FleetRunInput out;
    out.newSamplesPerRound = run.plan.split.perRound;
    const int64_t fullModel = fullModelBytesOf(run);
    // The device file, what an apply hashes and streams (DeviceCpu): the stored weights (a sparse
    // model keeps its zeros); a form with scales (INT8's codes and scales) has its full bundle
    // carry it whole, the closest size the run folder records.
    const int64_t stored = storedWeightBytes(run);
    const bool scaled = deployedFormInfo(run.plan.deployed).scalesPerChannel > 0;
    const int64_t deviceFile = scaled && fullModel > 0 ? fullModel : stored > 0 ? stored : fullModel;
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
            if (!r.deployed)
                continue;
            // The first deployed version is what the devices were installed with (the initial
            // deployment, as dpu/UpdateBytes.h has it): no delta; its bundle is reported apart.
            if (s.versions.empty())
                s.initialDeploymentBytes = static_cast<int64_t>(std::llround(roundBytes(r)));
            s.versions.push_back({r.round, r.testAccuracy, s.versions.empty() ? 0 : static_cast<int64_t>(std::llround(roundBytes(r)))});
        }
        if (s.versions.empty())
            out.neverDeployed.push_back(s.name);
        else
            out.strategies.push_back(std::move(s));
    }
    return out;
}

} // namespace dpu
