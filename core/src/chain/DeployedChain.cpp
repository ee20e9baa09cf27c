// SPDX-License-Identifier: MIT
// Loads a run's deployed chain and applies it in order with the device decoder.
#include "chain/DeployedChain.h"
#include "bundle/BundleApplier.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "runs/BundlePaths.h"
#include "util/AtomicFile.h"
#include "util/Sha256Hex.h"
#include <algorithm>
#include <filesystem>
#include <set>

namespace dpu {

namespace {

std::vector<uint8_t> fileBytes(const std::string& path)
{
    const std::string s = readWholeFile(path);
    return {s.begin(), s.end()};
}

} // namespace

DeployedChain DeployedChain::load(const std::string& runDir, const std::string& strategyWanted, uint64_t seedWanted,
                                  bool anySeed)
{
    const auto records = loadRunRecords(runDir);
    if (records.empty())
        throw Error(runDir + "/results.jsonl: no finished rounds to export");
    std::set<std::string> strategies;
    for (const auto& r : records)
        strategies.insert(r.strategy);
    DeployedChain c;
    c.runDir = runDir;
    c.seed = anySeed ? records.front().seed : seedWanted;
    c.strategy = strategyWanted;
    if (c.strategy.empty()) {
        if (strategies.size() != 1)
            throw Error(runDir + ": the run has several strategies; name one to export");
        c.strategy = *strategies.begin();
    } else if (!strategies.count(c.strategy)) {
        throw Error(runDir + ": the run has no strategy \"" + c.strategy + "\"");
    }
    c.initialPath = bundlepaths::initialFile(runDir, c.seed);
    if (!std::filesystem::exists(c.initialPath))
        throw Error(c.initialPath + ": missing (was the run's plan \"bundle.write\" false, or the seed not run?)");
    c.files.push_back(fileBytes(c.initialPath));
    bool any = false;
    for (const auto& r : records) {
        if (r.seed != c.seed || r.strategy != c.strategy)
            continue;
        any = true;
        if (!r.deployed)
            continue;
        DeployedRound d{r.round, c.latest() + 1, bundlepaths::roundFile(runDir, c.seed, c.strategy, r.round), {},
                        r.bundleKind, r.deviceSha256};
        if (!std::filesystem::exists(d.path))
            throw Error(d.path + ": missing (round " + std::to_string(r.round) + " was deployed)");
        d.bundle = fileBytes(d.path);
        bundle::BundleApplier::Options options;
        options.currentVersion = c.latest();
        auto applied = bundle::BundleApplier::apply(d.bundle, c.files.back(), options);
        if (applied.status != 0)
            throw Error(d.path + ": rejected by the device decoder: " + applied.message);
        const std::string produced = sha256Hex(applied.file);
        if (produced != r.deviceSha256)
            throw Error(d.path + ": applying it gives a device file with SHA-256 " + produced + ", the run recorded "
                        + r.deviceSha256);
        if (applied.updateVersion != c.latest() + 1)
            throw Error(d.path + ": moves a device to update version " + std::to_string(applied.updateVersion)
                        + ", expected " + std::to_string(c.latest() + 1) + " (one version per deployed round)");
        d.version = applied.updateVersion;
        c.files.push_back(std::move(applied.file));
        c.rounds.push_back(std::move(d));
    }
    if (!any)
        throw Error(runDir + ": the run has no rounds of seed " + std::to_string(c.seed) + " and strategy \""
                    + c.strategy + "\"");
    return c;
}

} // namespace dpu
