// SPDX-License-Identifier: MIT
// Every version a run deployed for one strategy and seed: its bundles and the device files they produce.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// One deployed round as the server keeps it.
struct DeployedRound {
    int round = 0;
    uint64_t version = 0;        ///< the update version it moves a device to
    std::string path;            ///< runDir/bundles/seed-S/STRATEGY/round-NNN.dpub
    std::vector<uint8_t> bundle;
    std::string kind;            ///< "full", "delta", "reinit+delta"
    std::string deviceSha256;
};

/// The server's store of one strategy and seed: the round-0 device file, every deployed bundle
/// and every version's device file, obtained by applying the bundles in order with the device
/// decoder and checked against the run's records (DESIGN.md: one version is one file).
class DeployedChain {
public:
    /// Reads and checks the chain of `runDir` (seed 0 with `anySeed`: the run's first seed;
    /// empty `strategy`: the only one). Throws Error naming the file and problem: no records,
    /// an unknown strategy or seed, a missing initial or round file, a bundle the decoder rejects,
    /// a device file other than the run recorded.
    static DeployedChain load(const std::string& runDir, const std::string& strategy, uint64_t seed, bool anySeed);

    std::string runDir, strategy;
    uint64_t seed = 0;
    std::string initialPath;
    std::vector<DeployedRound> rounds;      ///< rounds[v - 1] moves a device to version v
    std::vector<std::vector<uint8_t>> files; ///< files[v]: the device file at version v (0: initial)

    uint64_t latest() const { return rounds.size(); }
};

} // namespace dpu
