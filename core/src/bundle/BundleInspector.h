// SPDX-License-Identifier: MIT
// Human-readable summary of a bundle (dpu-cli bundle inspect), read with bounds checks.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::bundle {

class BundleInspector {
public:
    /// Multi-line summary: preamble, kind, versions, strings, hashes, and one line per tensor
    /// (name, shape, mode, coding, section bytes; for sparse tensors the change count and Rice
    /// parameter). Throws dpu::Error naming the field when the bundle is too short or malformed.
    static std::string inspect(const std::vector<uint8_t>& bundle);
};

} // namespace dpu::bundle
