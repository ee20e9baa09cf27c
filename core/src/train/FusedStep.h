// SPDX-License-Identifier: MIT
// The common end of every fused optimiser kernel: the masked write and the c_local accumulation.
#pragma once
#include "train/FusedConstants.h"
#include <cstdint>

namespace dpu {

/// Applies the step `dw` to weight i unless the mask freezes it (a masked weight is never
/// rewritten, so it stays bit-identical), then accumulates c_local -= g * dw (Alg. 1 line 6).
/// Branch-free for fixed template arguments, so the calling loops still vectorise.
template <bool Masked, bool Local>
inline void finishFusedStep(float* __restrict p, const float* __restrict g, const float* __restrict mask,
                            float* __restrict c, int64_t i, float dw)
{
    if (Masked) {
        const bool on = mask[i] != 0.0f;
        dw = on ? dw : 0.0f;
        p[i] = on ? p[i] + dw : p[i];
    } else {
        p[i] += dw;
    }
    if (Local)
        c[i] -= g[i] * dw;
}

} // namespace dpu
