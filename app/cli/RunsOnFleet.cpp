// SPDX-License-Identifier: MIT
// The runs' deployed strategies (core's fleetStrategiesOf) simulated on a deployment's fleet, with their figures and notes.
#include "RunsOnFleet.h"
#include "CliCommands.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetRuns.h"
#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

namespace dpu::cli {

FleetOfRuns simulateRunsOnFleet(const std::vector<RunFolder>& runs, FleetConfig config, std::optional<int64_t> seedArg,
                                bool labelled, bool realCatchUps)
{
    FleetOfRuns out;
    const auto sizes = realCatchUps ? std::make_shared<CatchUpSizes>() : nullptr;
    int lastRound = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunFolder& run = runs[i];
        if (!run.complete())
            out.notes.push_back(run.label() + " stopped early: simulated over its finished rounds");
        const uint64_t seed = seedArg ? static_cast<uint64_t>(*seedArg) : run.plan.seeds.front();
        if (std::find(run.plan.seeds.begin(), run.plan.seeds.end(), seed) == run.plan.seeds.end())
            throw UsageError("--seed: " + run.label() + " has no seed " + std::to_string(seed));
        const std::string prefix = labelled ? run.label() + "/" : std::string();
        FleetRunInput input = fleetStrategiesOf(run, seed, prefix);
        if (sizes)
            for (FleetStrategy& s : input.strategies)
                useRealCatchUps(s, run, s.name.substr(prefix.size()), seed, sizes);
        for (const std::string& name : input.neverDeployed)
            out.notes.push_back(name + " never deployed: left out");
        lastRound = std::max(lastRound, input.lastRound);
        config.newSamplesPerRound = input.newSamplesPerRound;
        for (FleetStrategy& s : input.strategies) {
            out.strategies.push_back(std::move(s));
            out.runOf.push_back(i);
        }
    }
    for (const std::string& note : out.notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    if (out.strategies.empty())
        throw Error("no strategy of these runs deployed a version");
    config.lastRound = lastRound;
    if (!sizes)
        std::fprintf(stderr, "note: catch-up bundles are estimated as the cheaper of the chain of missed bundles and the full "
                             "model (--catch-up-bytes real builds them)\n");
    for (const FleetStrategy& s : out.strategies) {
        out.results.push_back(simulateFleet(config, s));
        out.metrics.push_back(fleetMetrics(config, s, out.results.back()));
    }
    if (sizes)
        std::fprintf(stderr, "note: %d catch-up bundles built from the runs' files; each size is its cheapest route\n",
                     sizes->built);
    out.config = std::move(config);
    return out;
}

} // namespace dpu::cli
