// SPDX-License-Identifier: MIT
// Update bundles on disk: inspect, verify, export a run's rounds, and signing keys (no torch types).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// Multi-line human-readable summary of the bundle file at `path` (kind, versions, hashes, one
/// line per tensor). Tensor names and shapes of a delta need the device file it applies to
/// (`basePath`, may be empty: tensors are then numbered). With `bytes`, also where the bytes go
/// (each tensor's positions, values, headers, tables and padding, summed per role). Throws
/// Error naming the file and the field when a file is unreadable or the bundle malformed.
std::string inspectBundleFile(const std::string& path, const std::string& basePath = {}, bool bytes = false);

struct BundleVerification {
    bool ok = false;
    std::string message;        ///< the device decoder's reason when !ok
    uint64_t updateVersion = 0;
    std::string targetSha256;   ///< hex SHA-256 of the file applying it produces (when ok)
};

/// Checks a bundle the way a device does (signature when `publicKeyPath` is set, base hash,
/// the sections digest) and decodes it in memory. `basePath` is the device's current weight file
/// (may be empty for full and reinit+delta bundles). Rejection is a result, not an exception;
/// throws Error only when a file cannot be read.
BundleVerification verifyBundleFile(const std::string& bundlePath, const std::string& basePath,
                                    const std::string& publicKeyPath = {});

/// Where a run written to `runDir` keeps the bundle of one deployed round
/// (runDir/bundles/seed-S/STRATEGY/round-NNN.dpub).
std::string runBundlePath(const std::string& runDir, uint64_t seed, const std::string& strategy, int round);

/// One round of an exported run.
struct ExportedRound {
    int round = 0;
    uint64_t updateVersion = 0;
    std::string file;          ///< file name inside the export folder
    int64_t bytes = 0;
    std::string kind;          ///< "full", "delta", "reinit+delta"
    std::string deviceSha256;  ///< of the device file after applying it
};

struct BundleExport {
    std::string folder;
    uint64_t seed = 0;
    std::string strategy;
    std::vector<ExportedRound> rounds;
    int64_t totalBytes = 0;    ///< all bundles, without the initial device file
};

/// Copies the bundles a finished (or stopped) run wrote for one seed and strategy into `outDir`:
/// initial.safetensors (the round-0 device file), round-NNN.dpub per deployed round, and
/// bundles.json listing them. Before writing anything it applies every bundle in order to the
/// initial file with the device decoder and checks each result against the run's records, so an
/// export is known to reproduce the server's deployed state. `seed` 0 with `anySeed` picks the
/// run's first seed; `strategy` empty picks the only strategy (Error if there are several).
/// Files are written atomically. Round files of an earlier export into the same folder that this
/// one does not replace (named in its bundles.json) are removed, so that the folder applies in
/// order; any other round-NNN.dpub there is refused before anything is written. Throws Error
/// naming the file and problem.
BundleExport exportRunBundles(const std::string& runDir, const std::string& strategy, uint64_t seed,
                              bool anySeed, const std::string& outDir);

/// Writes a new Ed25519 key pair: `secretPath` (64 bytes, for plan "bundle.secret_key") and
/// `publicPath` (32 bytes, for dpu-apply --pubkey). Throws Error if built without libsodium or a
/// file cannot be written; refuses to overwrite an existing secret key.
void generateSigningKeys(const std::string& secretPath, const std::string& publicPath);

} // namespace dpu
