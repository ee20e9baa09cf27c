// SPDX-License-Identifier: MIT
// Writing a checked chain as an export folder, with catch-up bundles beside it (BundleFiles.cpp).
#pragma once
#include "dpu/Bundles.h"
#include "chain/DeployedChain.h"
#include <string>
#include <utility>
#include <vector>

namespace dpu {

/// Files an export writes beside the rounds: catch-up bundles under catchup/ and their index.
struct ExportExtras {
    std::vector<std::pair<std::string, std::vector<uint8_t>>> files; ///< path relative to the folder, bytes
    std::string catchUpIndex; ///< catchup.json's text; empty: the folder gets none (an old one is removed)
};

/// Writes `chain` to `outDir` as exportRunBundles() documents, plus `extras`. Catch-up files that
/// an earlier export listed in its catchup.json and this one does not write are removed.
BundleExport exportChain(const DeployedChain& chain, const std::string& outDir, const ExportExtras& extras);

} // namespace dpu
