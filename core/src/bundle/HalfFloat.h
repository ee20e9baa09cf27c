// SPDX-License-Identifier: MIT
// float32 -> IEEE binary16 (round to nearest even); the device converts back exactly.
#pragma once
#include <cstdint>

namespace dpu::bundle {

class HalfFloat {
public:
    /// Nearest half (ties to even); overflow gives infinity, NaN stays a quiet NaN.
    static uint16_t fromFloat(float f);
};

} // namespace dpu::bundle
