// SPDX-License-Identifier: MIT
// Bundle files of a run: inspect, verify, export with a chain check, and signing keys.
#include "dpu/Bundles.h"
#include "bundle/BundleApplier.h"
#include "bundle/BundleInspector.h"
#include "bundle/BundleWriter.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "runs/BundlePaths.h"
#include "chain/RunExport.h"
#include "util/AtomicFile.h"
#include "util/Sha256Hex.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace dpu {

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> readBytes(const std::string& path)
{
    const std::string s = readWholeFile(path);
    return {s.begin(), s.end()};
}

/// The round files in `outDir` that an export writing `exporting` leaves behind. A device that
/// applies a folder's bundles in order would apply those too, and a full bundle of another
/// strategy applies to any device file: exporting one strategy over another's export left its
/// extra rounds beside the new ones. Those a previous export wrote (named in the bundles.json
/// there) are returned, for removal; any other is the user's, and is refused before anything is
/// written.
std::vector<std::string> previousExportRounds(const std::string& outDir, const std::set<std::string>& exporting)
{
    std::error_code ec;
    if (!fs::is_directory(outDir, ec))
        return {};
    std::set<std::string> listed;
    try {
        const auto index = nlohmann::json::parse(readBytes(outDir + "/bundles.json"));
        for (const auto& r : index.at("rounds"))
            listed.insert(r.at("file").get<std::string>());
    } catch (const std::exception&) {
        // no index, or not ours: nothing there was written by an export
    }
    std::vector<std::string> stale;
    for (const auto& entry : fs::directory_iterator(outDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!bundlepaths::isRoundFileName(name) || exporting.count(name))
            continue;
        if (!listed.count(name))
            throw Error(outDir + "/" + name + ": a bundle that is not part of this export, nor of the export "
                        "recorded in bundles.json there; a device applying the folder in order would apply it "
                        "too: choose another folder or remove it");
        stale.push_back(outDir + "/" + name);
    }
    if (ec)
        throw Error(outDir + ": cannot list the folder: " + ec.message());
    return stale;
}

/// Catch-up files of an earlier export (listed in its catchup.json) that this one does not write.
std::vector<std::string> previousCatchUpFiles(const std::string& outDir, const ExportExtras& extras)
{
    std::set<std::string> writing;
    for (const auto& [name, bytes] : extras.files)
        writing.insert(name);
    std::vector<std::string> stale;
    try {
        const auto index = nlohmann::json::parse(readBytes(outDir + "/catchup.json"));
        for (const auto& v : index.at("versions")) {
            std::vector<std::string> names{v.at("catchup").at("file").get<std::string>()};
            for (const auto& f : v.at("files"))
                names.push_back(f.at("file").get<std::string>());
            for (const std::string& name : names) // only what an export writes there, never a round file
                if (name.rfind("catchup/", 0) == 0 && name.find("..") == std::string::npos && !writing.count(name))
                    stale.push_back(outDir + "/" + name);
        }
    } catch (const std::exception&) {
        // no index, or not ours: nothing to remove
    }
    return stale;
}

} // namespace

std::string runBundlePath(const std::string& runDir, uint64_t seed, const std::string& strategy, int round)
{
    return bundlepaths::roundFile(runDir, seed, strategy, round);
}

std::string inspectBundleFile(const std::string& path, const std::string& basePath, bool bytes)
{
    const std::vector<uint8_t> base = basePath.empty() ? std::vector<uint8_t>{} : readBytes(basePath);
    try {
        return bundle::BundleInspector::inspect(readBytes(path), basePath.empty() ? nullptr : &base, bytes);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

BundleVerification verifyBundleFile(const std::string& bundlePath, const std::string& basePath,
                                    const std::string& publicKeyPath)
{
    const auto bytes = readBytes(bundlePath);
    const auto base = basePath.empty() ? std::vector<uint8_t>{} : readBytes(basePath);
    bundle::BundleApplier::Options options;
    if (!publicKeyPath.empty()) {
        options.publicKey = readBytes(publicKeyPath);
        if (options.publicKey.size() != 32)
            throw Error(publicKeyPath + ": expected a 32-byte Ed25519 public key, found "
                        + std::to_string(options.publicKey.size()) + " bytes");
    }
    const auto r = bundle::BundleApplier::apply(bytes, base, options);
    BundleVerification v;
    v.ok = r.status == 0;
    v.message = r.message;
    v.updateVersion = r.updateVersion;
    if (v.ok)
        v.targetSha256 = sha256Hex(r.file);
    return v;
}

BundleExport exportRunBundles(const std::string& runDir, const std::string& strategyWanted, uint64_t seedWanted,
                              bool anySeed, const std::string& outDir)
{
    // The whole chain is checked in memory before a single file is written.
    const DeployedChain chain = DeployedChain::load(runDir, strategyWanted, seedWanted, anySeed);
    return exportChain(chain, outDir, {});
}

BundleExport exportChain(const DeployedChain& chain, const std::string& outDir, const ExportExtras& extras)
{
    BundleExport ex;
    ex.folder = outDir;
    ex.seed = chain.seed;
    ex.strategy = chain.strategy;
    std::vector<std::pair<std::string, std::vector<uint8_t>>> files;
    files.emplace_back("initial.safetensors", chain.files.front());
    for (const DeployedRound& r : chain.rounds) {
        ex.rounds.push_back({r.round, r.version, bundlepaths::roundFileName(r.round), static_cast<int64_t>(r.bundle.size()),
                             r.kind, r.deviceSha256});
        ex.totalBytes += static_cast<int64_t>(r.bundle.size());
        files.emplace_back(bundlepaths::roundFileName(r.round), r.bundle);
    }

    std::set<std::string> exporting;
    for (const auto& [name, bytes] : files)
        exporting.insert(name);
    std::vector<std::string> stale = previousExportRounds(outDir, exporting);
    for (const std::string& path : previousCatchUpFiles(outDir, extras))
        stale.push_back(path);
    fs::create_directories(outDir);
    if (!extras.files.empty())
        fs::create_directories(outDir + "/catchup");
    for (const auto& [name, bytes] : files)
        writeFileAtomic(outDir + "/" + name, std::string(bytes.begin(), bytes.end()));
    for (const auto& [name, bytes] : extras.files)
        writeFileAtomic(outDir + "/" + name, std::string(bytes.begin(), bytes.end()));
    for (const auto& path : stale) { // before the index that no longer names them
        std::error_code ec;
        if (!fs::remove(path, ec) && ec)
            throw Error(path + ": cannot remove this file of the previous export: " + ec.message());
    }
    nlohmann::json rounds = nlohmann::json::array();
    for (const auto& r : ex.rounds)
        rounds.push_back({{"round", r.round}, {"update_version", r.updateVersion}, {"file", r.file},
                          {"bytes", r.bytes}, {"kind", r.kind}, {"device_sha256", r.deviceSha256}});
    const nlohmann::json index{{"seed", ex.seed}, {"strategy", ex.strategy},
                               {"initial", {{"file", "initial.safetensors"}, {"sha256", sha256Hex(files.front().second)}}},
                               {"rounds", rounds}, {"total_bytes", ex.totalBytes}};
    writeFileAtomic(outDir + "/bundles.json", index.dump(2) + "\n");
    if (!extras.catchUpIndex.empty()) {
        writeFileAtomic(outDir + "/catchup.json", extras.catchUpIndex);
    } else {
        std::error_code ec; // an index of an earlier export would name files no longer there
        fs::remove(outDir + "/catchup.json", ec);
    }
    return ex;
}

void generateSigningKeys(const std::string& secretPath, const std::string& publicPath)
{
    std::error_code ec; // none: cannot tell (no access); creating the file then says why
    const fs::file_type there = fs::symlink_status(secretPath, ec).type();
    if (there != fs::file_type::not_found && there != fs::file_type::none)
        throw Error(secretPath + ": exists already; refusing to overwrite a signing key");
    std::vector<uint8_t> secretKey, publicKey;
    bundle::BundleWriter::generateKeyPair(secretKey, publicKey);
    // The secret first and private from creation: if it cannot be made, no public key is left
    // that has no secret.
    writeNewPrivateFile(secretPath, std::string(secretKey.begin(), secretKey.end()));
    writeFileAtomic(publicPath, std::string(publicKey.begin(), publicKey.end()));
}

} // namespace dpu
