// SPDX-License-Identifier: MIT
// Catch-up bundles for devices that missed rounds: one bundle from any deployed version to a later one.
#pragma once
#include "dpu/Bundles.h"
#include "dpu/RunControl.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// How a device at an older version reaches the target version.
enum class CatchUpRoute : uint8_t {
    CatchUp, ///< one catch-up bundle
    Chain,   ///< the missed round bundles in order, from the last one that reads no base
    Full     ///< one full bundle of the target version
};

/// "catchup", "chain" or "full".
const char* catchUpRouteName(CatchUpRoute route);

/// Which versions of which run: a device at `fromVersion` to `toVersion` (or the latest).
struct CatchUpRequest {
    std::string runDir;
    std::string strategy;    ///< empty: the run's only strategy
    uint64_t seed = 0;
    bool anySeed = true;     ///< true: the run's first seed (seed is ignored)
    uint64_t fromVersion = 0;
    uint64_t toVersion = 0;  ///< used when toLatest is false
    bool toLatest = true;
};

/// One catch-up bundle and the routes it was weighed against (bytes as they travel).
struct CatchUpResult {
    std::string strategy;
    uint64_t seed = 0;
    uint64_t fromVersion = 0, toVersion = 0;
    std::vector<uint8_t> bundle;   ///< the catch-up bundle
    std::string kind;              ///< "delta" or "reinit+delta"
    std::string deviceSha256;      ///< of the device file it produces: the chain's, byte for byte
    std::vector<int> chainRounds;  ///< rounds whose bundles the chain route sends, in order
    std::vector<uint8_t> fullBundle; ///< a full bundle of the target version
    int64_t catchUpBytes = 0, chainBytes = 0, fullBytes = 0;
    CatchUpRoute route = CatchUpRoute::CatchUp; ///< the cheapest (ties: chain, then catch-up)
    std::string reason;            ///< why, with the three sizes
};

/// Builds the bundle that moves a device from request.fromVersion to the target version: every
/// weight changed by any round in between, exactly (docs/bundle-format.md, "Catch-up bundles"),
/// as a delta over the device's file or, when a round in between re-initialised, a reinit+delta
/// from that round's seeded model (the smaller). Signed with the plan's key when the run's bundles
/// are. Before returning it applies the bundle with the device decoder and checks that the result
/// equals the run's device file of the target version byte for byte. Throws Error naming the
/// field or file: a version the run never deployed, from >= to, a missing or rejected round file,
/// an unreadable signing key.
CatchUpResult buildCatchUp(const CatchUpRequest& request);

/// buildCatchUp(), then writes the bundle to `outFile` atomically (nothing is written on error).
CatchUpResult writeCatchUpBundle(const CatchUpRequest& request, const std::string& outFile);

/// The versions an export writes catch-up bundles for (to the latest version).
struct CatchUpSelection {
    bool all = false;                   ///< every version below the latest
    std::vector<uint64_t> fromVersions; ///< else these
};

struct CatchUpExport {
    BundleExport rounds;
    std::vector<CatchUpResult> versions; ///< per chosen version (bundle bytes kept)
};

/// exportRunBundles() plus, for every chosen version, catchup/from-NNN.dpub (the catch-up bundle
/// to the latest version), catchup/full-vNNN.dpub when a version's cheapest route is the full
/// model, and catchup.json: per version its route, reason, files (name, bytes, sha256) and the
/// three sizes. Everything is computed and checked before anything is written; files are written
/// atomically. Throws Error as exportRunBundles() and buildCatchUp() do, naming a chosen version
/// the run never deployed or one that is already the latest.
CatchUpExport exportRunBundlesWithCatchUp(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                          bool anySeed, const std::string& outDir, const CatchUpSelection& selection);

/// What an export does beyond copying the rounds.
struct ExportOptions {
    CatchUpSelection catchUp;
    /// Ed25519 secret key file (64 bytes, from `dpu-cli bundle keygen`): every bundle written (the
    /// rounds, re-signed, and the catch-ups) is signed with it. Empty: the rounds as the run wrote
    /// them, and catch-ups signed with the plan's key when the run's bundles are signed.
    std::string secretKeyPath;
};

/// Hears where an export stands; called on the exporting thread.
class ExportObserver {
public:
    virtual ~ExportObserver() = default;
    /// `done` of `total` steps are finished and `what` is under way (the chain check, one
    /// catch-up bundle each, the writing).
    virtual void onExportStep(int done, int total, const std::string& what) = 0;
};

/// exportRunBundlesWithCatchUp() with `options`, reporting each step to `observer` (may be null)
/// and stopping at the next step when `control` (may be null) asks to cancel: then it throws
/// Cancelled and has written nothing (everything is built and checked before the first write).
/// Throws Error as exportRunBundlesWithCatchUp() does, and naming an unreadable or malformed key.
CatchUpExport exportRunBundlesWithOptions(const std::string& runDir, const std::string& strategy, uint64_t seed,
                                          bool anySeed, const std::string& outDir, const ExportOptions& options,
                                          ExportObserver* observer = nullptr, const RunControl* control = nullptr);

} // namespace dpu
