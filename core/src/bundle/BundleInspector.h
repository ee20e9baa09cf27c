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
    /// (mode, coding, section bytes; for sparse tensors the change count and Rice parameter).
    /// Names and shapes come from the produced file's header in section H; a delta's section H
    /// is usually an edit of the base header, so they need `base` (the device file it applies
    /// to; tensors are numbered otherwise). Throws dpu::Error naming the field when the bundle is
    /// too short or malformed, or when `base` is not the file a delta applies to.
    /// With `bytes`, also where the bytes go: under each tensor its bits by part (positions,
    /// values, section headers, code tables, padding; a cq stream's positions and levels
    /// together), and a summary (envelope, tensor table, section H, then per role: weights,
    /// 1-D tensors, scales) read by walking every section with the device's decoders.
    static std::string inspect(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>* base = nullptr,
                               bool bytes = false);
};

} // namespace dpu::bundle
