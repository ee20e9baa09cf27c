// SPDX-License-Identifier: MIT
// An export folder with catch-up bundles for chosen versions and catchup.json, the fleet server's index.
#include "dpu/CatchUp.h"
#include "dpu/Error.h"
#include "experiment/BundlePaths.h"
#include "experiment/CatchUpBuilder.h"
#include "experiment/RunExport.h"
#include "util/Sha256Hex.h"
#include <nlohmann/json.hpp>
#include <cstdio>
#include <set>

namespace dpu {

namespace {

std::string catchUpFileName(uint64_t from)
{
    char name[48];
    std::snprintf(name, sizeof name, "catchup/from-%03llu.dpub", static_cast<unsigned long long>(from));
    return name;
}

std::string fullFileName(uint64_t version)
{
    char name[48];
    std::snprintf(name, sizeof name, "catchup/full-v%03llu.dpub", static_cast<unsigned long long>(version));
    return name;
}

nlohmann::json fileEntry(const std::string& name, const std::vector<uint8_t>& bytes)
{
    return {{"file", name}, {"bytes", bytes.size()}, {"sha256", sha256Hex(bytes)}};
}

// One version's entry: the route's files in the order a device applies them, and the sizes weighed.
nlohmann::json versionEntry(const DeployedChain& chain, const CatchUpResult& r)
{
    nlohmann::json files = nlohmann::json::array();
    int64_t bytes = 0;
    if (r.route == CatchUpRoute::CatchUp) {
        files.push_back(fileEntry(catchUpFileName(r.fromVersion), r.bundle));
        bytes = r.catchUpBytes;
    } else if (r.route == CatchUpRoute::Full) {
        files.push_back(fileEntry(fullFileName(r.toVersion), r.fullBundle));
        bytes = r.fullBytes;
    } else {
        for (const DeployedRound& d : chain.rounds)
            for (int round : r.chainRounds)
                if (d.round == round)
                    files.push_back(fileEntry(bundlepaths::roundFileName(round), d.bundle));
        bytes = r.chainBytes;
    }
    return {{"from_version", r.fromVersion}, {"to_version", r.toVersion}, {"route", catchUpRouteName(r.route)},
            {"reason", r.reason}, {"bytes", bytes}, {"files", files},
            {"catchup", {{"file", catchUpFileName(r.fromVersion)}, {"kind", r.kind}, {"bytes", r.catchUpBytes},
                         {"sha256", sha256Hex(r.bundle)}}},
            {"catchup_bytes", r.catchUpBytes}, {"chain_bytes", r.chainBytes}, {"chain_rounds", r.chainRounds},
            {"full_bytes", r.fullBytes},
            {"device_sha256", r.deviceSha256}};
}

std::vector<uint64_t> chosenVersions(const DeployedChain& chain, const CatchUpSelection& s)
{
    std::set<uint64_t> versions;
    if (s.all)
        for (uint64_t v = 0; v < chain.latest(); ++v)
            versions.insert(v);
    for (uint64_t v : s.fromVersions) {
        checkVersions(chain, v, chain.latest(), "--catchup", "the latest version");
        versions.insert(v);
    }
    return {versions.begin(), versions.end()};
}

} // namespace

CatchUpExport exportRunBundlesWithCatchUp(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                          bool anySeed, const std::string& outDir, const CatchUpSelection& selection)
{
    const DeployedChain chain = DeployedChain::load(runDir, strategy, seed, anySeed);
    const std::vector<uint64_t> versions = chosenVersions(chain, selection);
    CatchUpExport ex;
    ExportExtras extras;
    if (!versions.empty()) {
        const std::vector<uint8_t> key = chainSigningKey(chain);
        nlohmann::json entries = nlohmann::json::array();
        bool fullNeeded = false;
        for (uint64_t v : versions) {
            CatchUpResult r = catchUpOf(chain, v, chain.latest(), key);
            entries.push_back(versionEntry(chain, r));
            extras.files.emplace_back(catchUpFileName(v), r.bundle);
            if (r.route == CatchUpRoute::Full && !fullNeeded) {
                extras.files.emplace_back(fullFileName(r.toVersion), r.fullBundle);
                fullNeeded = true;
            }
            r.fullBundle.clear(); // one copy is enough, and only when a route sends it
            ex.versions.push_back(std::move(r));
        }
        const nlohmann::json index{{"strategy", chain.strategy}, {"seed", chain.seed},
                                   {"latest_version", chain.latest()},
                                   {"latest_device_sha256", sha256Hex(chain.files.back())}, {"versions", entries}};
        extras.catchUpIndex = index.dump(2) + "\n";
    }
    ex.rounds = exportChain(chain, outDir, extras);
    return ex;
}

} // namespace dpu
