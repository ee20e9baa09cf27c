// SPDX-License-Identifier: MIT
// The catch-up steps over a loaded chain, shared by the single bundle and the export (CatchUp.cpp).
#pragma once
#include "dpu/CatchUp.h"
#include "chain/DeployedChain.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// The catch-up bundle from `from` to `to` (checked versions), applied and compared with the
/// chain's file, with the chain and full routes priced and the cheapest chosen.
CatchUpResult catchUpOf(const DeployedChain& chain, uint64_t from, uint64_t to, const std::vector<uint8_t>& secretKey);

/// The key the run signed its bundles with (plan.json's bundle.secret_key), empty when they are
/// unsigned. Throws Error naming the plan or key file when signed bundles have no usable key.
std::vector<uint8_t> chainSigningKey(const DeployedChain& chain);

/// Throws Error naming `fromField` or `toField` for a version the chain never deployed or from >= to.
void checkVersions(const DeployedChain& chain, uint64_t from, uint64_t to, const std::string& fromField,
                   const std::string& toField);

} // namespace dpu
