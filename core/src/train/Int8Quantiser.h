// SPDX-License-Identifier: MIT
// An INT8 deployed model's quantiser: per-output-channel scales, int8 codes, and the straight-through view.
#pragma once
#include "models/Network.h"
#include "train/Int8Grid.h"
#include "train/Weights.h"
#include <torch/torch.h>
#include <vector>

namespace dpu {

/// The largest code magnitude: codes are symmetric in [-127, 127] (-128 is never used, so that
/// a code and its negation are both codes).
constexpr int kInt8MaxCode = 127;

/// Whether an INT8 model holds `param` as codes: a partial tensor (2 or more dimensions) always,
/// a 1-D one (a bias) with values when `biases` (plan int8_biases codes).
bool int8Coded(const torch::Tensor& param, bool biases);

/// The scale of one coded tensor: for a partial tensor one per output channel (dimension 0),
/// max |w| / 127 over the channel; for a 1-D tensor one value, max |w| / 127 over all of it;
/// float32 on the tensor's device. A channel of zeros gets scale 1 (its codes are all 0).
torch::Tensor int8ScaleOf(const torch::Tensor& w);

/// Per parameter of `params`: int8ScaleOf() for each tensor int8Coded(., biases) holds as codes,
/// undefined for the others.
std::vector<torch::Tensor> int8Scales(const std::vector<torch::Tensor>& params, bool biases = false);

/// round(w / scale) per element (half to even), clamped to [-127, 127], as an int8 tensor.
torch::Tensor int8Codes(const torch::Tensor& w, const torch::Tensor& scale);

/// codes * scale in float32, broadcast over each output channel (a 1-D tensor's one scale over all): the weights a device computes
/// from its file (bit for bit: one float multiply per element).
torch::Tensor int8Dequantised(const torch::Tensor& codes, const torch::Tensor& scale);

/// round(w / scale) * scale in float32 without the clamp: what int8Dequantised(int8Codes(.))
/// gives where no code clips, and beyond ±127 steps where the clamp would clip.
torch::Tensor int8Unclamped(const torch::Tensor& w, const torch::Tensor& scale);

/// int8_rescale: `scale` grown to max |w| / 127 for each output channel of `w` whose largest
/// weight would clip at ±127 codes, kept for the others (a new tensor; neither input changes).
torch::Tensor grownScale(const torch::Tensor& w, const torch::Tensor& scale);

/// Replaces every partial parameter of `w` that has a scale by int8Dequantised(int8Codes(.)).
void quantiseInPlace(Weights& w);

/// While alive, the network's partial parameters with a scale hold their quantised values; the
/// float ("shadow") values come back at destruction. Training through it is the straight-
/// through estimator (Rastegari et al., as the paper): forward and backward see the INT8 model,
/// the optimiser steps the shadow weights with those gradients. Tensors the grid marks unclamped
/// are rounded to its steps without the clamp (int8Unclamped); a grid with ownScales rounds each
/// tensor with int8Scales() of its current weights, and a grid with biases rounds each 1-D tensor
/// with int8ScaleOf() of its current values. Nothing when `grid` is null or has neither
/// scales nor ownScales; the grid is not owned and must outlive the view.
class QuantisedView {
public:
    QuantisedView(const std::vector<torch::Tensor>& params, const Int8Grid* grid);
    ~QuantisedView();
    QuantisedView(const QuantisedView&) = delete;
    QuantisedView& operator=(const QuantisedView&) = delete;

private:
    std::vector<torch::Tensor> params_;
    std::vector<torch::Tensor> shadows_; ///< per parameter; undefined where nothing was quantised
};

} // namespace dpu
