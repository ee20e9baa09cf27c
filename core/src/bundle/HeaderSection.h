// SPDX-License-Identifier: MIT
// Section H of a delta bundle: the target safetensors header, verbatim or as an edit of the base's.
#pragma once
#include <cstdint>
#include <vector>

namespace dpu::bundle {

class HeaderSection {
public:
    /// Section H bytes for `header` given the base file (whose header is its first
    /// `baseDataStart` bytes); `form` receives DPU_HEADER_VERBATIM or DPU_HEADER_BASE_EDIT.
    static std::vector<uint8_t> encode(const std::vector<uint8_t>& baseFile, uint64_t baseDataStart,
                                       const std::vector<uint8_t>& header, uint32_t& form);
};

} // namespace dpu::bundle
