// SPDX-License-Identifier: MIT
// The fleet planner's input from finished runs (dpu/FleetPlanInputs.h): measured strategies, estimated cells, the default space.
#include "dpu/FleetPlanInputs.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetRuns.h"
#include "dpu/Frontier.h"
#include "dpu/LinkModel.h"
#include "dpu/RoundEstimate.h"
#include "dpu/Sweep.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace dpu {
namespace {

std::string text(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

const RunFolder* runNamed(const std::vector<RunFolder>& runs, const std::string& label)
{
    for (const RunFolder& r : runs)
        if (r.label() == label)
            return &r;
    return nullptr;
}

/// Whether a measured strategy of that name already ran that coding at that k.
bool measuredAt(const std::vector<FleetPlanStrategy>& measured, const std::string& strategy, const std::string& coding, double k)
{
    return std::any_of(measured.begin(), measured.end(), [&](const FleetPlanStrategy& s) {
        return !s.estimated && s.strategyName == strategy && s.coding == coding && std::abs(s.k - k) <= 1e-12 * std::max(k, s.k);
    });
}

/// `plan` with one strategy, as the cost model estimates its rounds.
Plan withStrategy(Plan plan, const std::string& strategy)
{
    plan.strategies = {strategy};
    return plan;
}

} // namespace

std::vector<FleetPlanStrategy> fleetPlanStrategiesOf(const std::vector<RunFolder>& runs, const FleetPlanInputOptions& options,
                                                     std::vector<std::string>* notes)
{
    std::vector<FleetPlanStrategy> out;
    const auto sizes = options.realCatchUps ? std::make_shared<CatchUpSizes>() : nullptr;
    for (const RunFolder& run : runs) {
        if (!run.complete() && notes)
            notes->push_back(runDisplayName(run.dir) + " stopped early: planned over its finished rounds");
        const uint64_t seed = options.seed ? *options.seed : run.plan.seeds.front();
        // People read the strategies by these names: a sweep's cell by its keys, not its hash.
        const std::string prefix = runs.size() > 1 ? runDisplayName(run.dir) + "/" : std::string();
        FleetRunInput input = fleetStrategiesOf(run, seed, prefix);
        for (const std::string& name : input.neverDeployed)
            if (notes)
                notes->push_back(name + " never deployed: left out");
        for (FleetStrategy& s : input.strategies) {
            const std::string recordName = s.name.substr(prefix.size());
            if (sizes)
                useRealCatchUps(s, run, recordName, seed, sizes);
            FleetPlanStrategy p;
            p.strategy = std::move(s);
            p.run = run.label();
            p.runName = runDisplayName(run.dir);
            p.strategyName = recordName;
            p.coding = nameOf(run.plan.bundle.values);
            p.k = run.plan.k;
            out.push_back(std::move(p));
        }
    }
    return out;
}

std::vector<FleetPlanStrategy> estimatedFleetCells(const std::vector<RunFolder>& runs, const std::vector<FleetPlanStrategy>& measured)
{
    std::vector<FrontierRun> frontierRuns;
    for (const RunFolder& r : runs)
        frontierRuns.push_back({r.label(), r.plan, r.records, r.complete(), runCostModel(r)});
    const std::vector<FrontierGroup> groups = frontierGroups(frontierRuns);
    std::vector<FleetPlanStrategy> out;
    for (const FleetPlanStrategy& m : measured) {
        const RunFolder* run = runNamed(runs, m.run);
        if (m.estimated || !run || run->status.partialWeights <= 0 || m.strategy.versions.size() < 2)
            continue;
        const double k = roundKDown(m.k / 2);
        if (k <= 0 || measuredAt(measured, m.strategyName, m.coding, k))
            continue;
        const CostModel cost = runCostModel(*run);
        const Plan plan = withStrategy(run->plan, m.strategyName);
        Plan cell = plan;
        cell.k = k;
        const RoundEstimate now = estimateRound(plan, cost, groups);
        const RoundEstimate then = estimateRound(cell, cost, groups);
        if (now.basis == RoundEstimate::Basis::None || then.basis == RoundEstimate::Basis::None || now.bytes <= 0)
            continue;
        const double ratio = then.bytes / now.bytes;
        FleetPlanStrategy e = m;
        e.strategy.catchUpBytes = nullptr; // no run's files to build them from: the chain's estimate
        for (size_t v = 1; v < e.strategy.versions.size(); ++v)
            e.strategy.versions[v].deltaBytes = std::llround(static_cast<double>(e.strategy.versions[v].deltaBytes) * ratio);
        e.strategy.initialDeploymentBytes = std::llround(static_cast<double>(e.strategy.initialDeploymentBytes) * ratio);
        e.k = k;
        e.estimated = true;
        e.cellKeys = {{"k", text(k)}};
        e.estimateNote = "Estimated: its bundles are " + text(std::round(ratio * 1000) / 1000) + " of the run's at k " + text(m.k)
                         + " (" + then.why + "); its accuracy is assumed to be the run's, and a smaller k is usually somewhat "
                           "less accurate: run the cell to know";
        out.push_back(std::move(e));
    }
    return out;
}

FleetPlanInput fleetPlanInputOf(const std::vector<RunFolder>& runs, const Deployment& deployment, const FleetPlanInputOptions& options,
                                std::vector<std::string>* notes)
{
    FleetPlanInput input;
    input.strategies = fleetPlanStrategiesOf(runs, options, notes);
    if (input.strategies.empty())
        throw LinkError("strategies", "no strategy of these runs deployed a version");
    if (options.estimates) {
        std::vector<FleetPlanStrategy> cells = estimatedFleetCells(runs, input.strategies);
        input.strategies.insert(input.strategies.end(), cells.begin(), cells.end());
    }
    for (const RunFolder& run : runs) {
        const uint64_t seed = options.seed ? *options.seed : run.plan.seeds.front();
        const FleetRunInput r = fleetStrategiesOf(run, seed);
        input.lastRound = std::max(input.lastRound, r.lastRound);
        input.newSamplesPerRound = r.newSamplesPerRound;
    }
    input.deployment = deployment;
    input.space = defaultFleetPlanSpace(deployment);
    return input;
}

} // namespace dpu
