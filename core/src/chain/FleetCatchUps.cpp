// SPDX-License-Identifier: MIT
// useRealCatchUps: the fleet simulation's catch-up sizes from catch-up bundles built of the run's own files.
#include "dpu/FleetCatchUps.h"
#include "dpu/CatchUp.h"
#include <algorithm>
#include <vector>

namespace dpu {

void useRealCatchUps(FleetStrategy& strategy, const RunFolder& run, const std::string& recordStrategy, uint64_t seed,
                     std::shared_ptr<CatchUpSizes> sizes)
{
    // versions[i] of the simulation is the strategy's i-th deployed round: its device version.
    std::vector<const RoundRecord*> deployed;
    for (const RoundRecord& r : run.records)
        if (r.seed == seed && r.strategy == recordStrategy && r.deployed)
            deployed.push_back(&r);
    std::sort(deployed.begin(), deployed.end(), [](const RoundRecord* a, const RoundRecord* b) { return a->round < b->round; });
    std::vector<uint64_t> deviceVersions;
    for (const RoundRecord* r : deployed)
        deviceVersions.push_back(r->deviceVersion);
    if (!sizes)
        sizes = std::make_shared<CatchUpSizes>();
    const std::string dir = run.dir;
    strategy.catchUpBytes = [dir, recordStrategy, seed, deviceVersions, sizes](int from, int to) -> int64_t {
        const uint64_t fromVersion = deviceVersions.at(static_cast<size_t>(from));
        const uint64_t toVersion = deviceVersions.at(static_cast<size_t>(to));
        const auto key = std::make_tuple(dir, recordStrategy, seed, fromVersion, toVersion);
        if (auto it = sizes->bytes.find(key); it != sizes->bytes.end())
            return it->second;
        CatchUpRequest request;
        request.runDir = dir;
        request.strategy = recordStrategy;
        request.seed = seed;
        request.anySeed = false;
        request.fromVersion = fromVersion;
        request.toVersion = toVersion;
        request.toLatest = false;
        const CatchUpResult result = buildCatchUp(request);
        const int64_t bytes = std::min({result.catchUpBytes, result.chainBytes, result.fullBytes});
        ++sizes->built;
        sizes->bytes.emplace(key, bytes);
        return bytes;
    };
}

} // namespace dpu
