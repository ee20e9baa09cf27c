// SPDX-License-Identifier: MIT
// In-memory verify/apply through the device's C library, so server and device share one decoder.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::bundle {

class BundleApplier {
public:
    struct Options {
        std::vector<uint8_t> publicKey; ///< 32 bytes, empty = signatures not checked
        std::string compat;             ///< checked when checkCompat
        bool checkCompat = false;
        uint64_t currentVersion = 0;
    };
    struct Result {
        int status = 0;          ///< dpu_status (0 = DPU_OK)
        std::string message;     ///< dpu_status_message, what, tensor and bundle offset; empty when ok
        std::vector<uint8_t> file; ///< the produced device file (apply only, when ok)
        uint64_t updateVersion = 0;
    };
    /// Verifies `bundle` against `base` (empty for full/reinit bundles) without producing output.
    static Result verify(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& base,
                         const Options& options);
    /// Verifies and applies; on success result.file is the new device file.
    static Result apply(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& base,
                        const Options& options);
};

} // namespace dpu::bundle
