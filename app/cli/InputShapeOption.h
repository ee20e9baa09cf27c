// SPDX-License-Identifier: MIT
// models' and cost's --input CxHxW: each dimension and the whole sample within stated bounds, and the built-in models it would make too large to build.
#pragma once
#include "dpu/Shape.h"
#include <cstdint>
#include <string>

namespace dpu::cli {

/// At most 2^24 values per sample (a 4096x4096 RGB image holds 3 x 2^24): C, H and W are then
/// each at most 2^24 as well, and no product of them overflows.
constexpr int64_t kMaxInputValues = int64_t{1} << 24;

/// The most weights dpu-cli builds a model with to count them (describeModel allocates and
/// initialises every tensor): 2^29, 2 GiB in FP32, a few seconds. VGG at 3x224x224 (ImageNet's
/// size) has 4.1e8 and is built; at 3x2048x2048 it would have 3.4e10 (137 GB) and is refused.
constexpr int64_t kMaxBuiltWeights = int64_t{1} << 29;

/// "CxHxW" (1x28x28) as an InputShape: three whole numbers from 1 up, at most kMaxInputValues
/// values in all. Throws UsageError naming --input, the bounds and the text otherwise.
InputShape parseInputShape(const std::string& text);

/// The weights of the largest layer whose size grows with the input, for the built-in models
/// whose layers do (mlp's first layer C*H*W x 512, vgg's first classifier layer
/// 512*floor(H/8)*floor(W/8) x 1024: dpu/Models.h, models/MlpNet.h, models/VggNet.h); 0 for the
/// others (their pooling makes them independent of the input's size). An estimate made before
/// anything is allocated, exact for those layers.
int64_t inputGrownWeights(const std::string& model, const InputShape& shape);

/// Throws UsageError naming --input when `model` on `shape` would have more than
/// kMaxBuiltWeights weights (inputGrownWeights), before any model is built.
void refuseModelTooLarge(const std::string& model, const InputShape& shape);

} // namespace dpu::cli
