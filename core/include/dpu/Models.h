// SPDX-License-Identifier: MIT
// Model zoo descriptions without torch types: names, tensors, weight counts.
#pragma once
#include "dpu/Shape.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

struct TensorInfo {
    std::string name;
    std::vector<int64_t> shape;
    int64_t numel = 0;
    bool partial = false; ///< dim() > 1: subject to partial updating
};

struct ModelInfo {
    std::string name;
    InputShape input;
    int classes = 10;
    std::vector<TensorInfo> parameters; ///< canonical order (the initialiser's tensor index)
    int64_t partialWeights = 0;         ///< I
    int64_t denseWeights = 0;           ///< 1-D parameters plus floating buffers (always shipped)
    int64_t fp32Bytes() const { return 4 * (partialWeights + denseWeights); }
};

/// The shapes of `info`'s partial tensors (those subject to partial updating), in order: what
/// deployedCostModel() prices a deployed form from.
std::vector<std::vector<int64_t>> partialShapesOf(const ModelInfo& info);

/// The sizes of `info`'s 1-D parameters (biases, BatchNorm scales and shifts), in order: what an
/// INT8 model holds as codes under plan int8_biases codes (deployedCostModel()'s biasSizes).
std::vector<int64_t> biasSizesOf(const ModelInfo& info);

/// Built-in model names: mlp, vgg, resnet20, resnet56, mobilenetv1.
std::vector<std::string> builtinModels();

/// One-line description of a built-in model.
std::string modelDescription(const std::string& name);

/// Builds the model (or loads "torchscript:PATH") and describes its tensors.
/// Throws Error for an unknown name or an unreadable TorchScript file.
ModelInfo describeModel(const std::string& name, const InputShape& input, int classes,
                        double widthMultiplier = 1.0);

} // namespace dpu
