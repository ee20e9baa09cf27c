// SPDX-License-Identifier: MIT
// The per-tensor rules of the portable seeded initialiser (docs/initializer.md).
#pragma once
#include "models/Network.h"
#include <cstdint>
#include <vector>

namespace dpu {

/// How one parameter is initialised; independent of the seed, so the bundle writer can record
/// it and a device can regenerate the seeded model with dpu_init_uniform / dpu_init_constant.
struct InitRule {
    enum class Kind { Uniform, Constant };
    Kind kind = Kind::Constant;
    uint32_t index = 0; ///< position in parameters(): the key is dpu_init_key(seed, index)
    uint64_t fanIn = 0; ///< Uniform: fan-in of the weight that sets the bound
    float bound = 0.f;  ///< Uniform: dpu_init_bound(fanIn)
    float value = 0.f;  ///< Constant: the value
};

/// One rule per parameter, in order. Rules by name and shape:
/// dim > 1 -> Uniform with fan_in = numel / size(0);
/// 1-D "*.bias" whose sibling "*.weight" has dim > 1 -> Uniform with that weight's fan_in;
/// other 1-D / 0-D "*.weight" -> Constant 1 (normalisation scale); anything else -> Constant 0.
/// Throws Error for a non-float32 parameter or a fan_in outside [1, 2^24].
std::vector<InitRule> initRules(const std::vector<NamedTensor>& parameters);

/// Value of a buffer after initialisation: running_var 1, running_mean and num_batches_tracked 0;
/// false for any other buffer, which keeps the value its module gave it.
bool initialBufferValue(const std::string& name, double& value);

} // namespace dpu
