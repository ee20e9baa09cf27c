// SPDX-License-Identifier: MIT
// An export folder with catch-up bundles for chosen versions and catchup.json, the fleet server's index.
#include "dpu/CatchUp.h"
#include "dpu/Error.h"
#include "runs/BundlePaths.h"
#include "chain/CatchUpBuilder.h"
#include "chain/RunExport.h"
#include "util/AtomicFile.h"
#include "bundle/BundleEnvelope.h"
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

/// Reports steps to the observer and stops between them when asked.
class ExportSteps {
public:
    ExportSteps(int total, ExportObserver* observer, const RunControl* control)
        : total_(total), observer_(observer), control_(control)
    {
    }
    /// Starts the next step: throws Cancelled when cancelling was asked (nothing is written yet).
    void next(const std::string& what)
    {
        if (control_ && control_->cancelRequested())
            throw Cancelled();
        if (observer_)
            observer_->onExportStep(done_, total_, what);
        ++done_;
    }

private:
    int done_ = 0, total_;
    ExportObserver* observer_;
    const RunControl* control_;
};

} // namespace

CatchUpExport exportRunBundlesWithCatchUp(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                          bool anySeed, const std::string& outDir, const CatchUpSelection& selection)
{
    return exportRunBundlesWithOptions(runDir, strategy, seed, anySeed, outDir, {selection, {}});
}

CatchUpExport exportRunBundlesWithOptions(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                          bool anySeed, const std::string& outDir, const ExportOptions& options,
                                          ExportObserver* observer, const RunControl* control)
{
    // A key to read is checked before the minute of work it would otherwise end.
    const std::vector<uint8_t> chosenKey =
        options.secretKeyPath.empty() ? std::vector<uint8_t>{} : readSecretKeyFile(options.secretKeyPath, "the signing key");
    if (control && control->cancelRequested())
        throw Cancelled();
    DeployedChain chain = DeployedChain::load(runDir, strategy, seed, anySeed);
    const std::vector<uint64_t> versions = chosenVersions(chain, options.catchUp);
    ExportSteps steps(static_cast<int>(versions.size()) + 2, observer, control);
    steps.next("checking every bundle with the device decoder");
    if (!chosenKey.empty())
        for (DeployedRound& r : chain.rounds)
            r.bundle = bundle::envelope::signedCopy(r.bundle, chosenKey);
    CatchUpExport ex;
    ExportExtras extras;
    if (!versions.empty()) {
        const std::vector<uint8_t> key = chosenKey.empty() ? chainSigningKey(chain) : chosenKey;
        nlohmann::json entries = nlohmann::json::array();
        bool fullNeeded = false;
        for (uint64_t v : versions) {
            steps.next("building the catch-up bundle from version " + std::to_string(v));
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
    steps.next("writing the export");
    ex.rounds = exportChain(chain, outDir, extras);
    return ex;
}

} // namespace dpu
