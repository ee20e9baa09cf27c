// SPDX-License-Identifier: MIT
// The facts of a bundle's manifest that a server reuses: kind, version, seed, signature flag, init rules.
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

/// What BundleManifest::read takes from a bundle (docs/bundle-format.md 2.1-2.3).
struct ManifestFacts {
    Kind kind = Kind::Delta;
    uint64_t updateVersion = 0;
    uint64_t seed = 0;            ///< reinit+delta: the initialiser seed
    bool isSigned = false;
    std::vector<InitSpec> init;   ///< per tensor: the init rule of init+sparse entries, else None
};

class BundleManifest {
public:
    /// Reads the preamble, fixed manifest fields and tensor table of `bundle` (a bundle the
    /// device decoder accepted; the reads are bounds-checked anyway). Throws dpu::Error naming
    /// the field when the bytes are too short or malformed.
    static ManifestFacts read(const std::vector<uint8_t>& bundle);
};

} // namespace dpu::bundle
