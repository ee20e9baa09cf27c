// SPDX-License-Identifier: MIT
// One split as the readers return it: pixels still as bytes, before limits and normalisation.
#pragma once
#include <torch/torch.h>

namespace dpu::data {

/// pixels uint8 [N, C, H, W] contiguous, labels int64 [N].
struct RawSplit {
    torch::Tensor pixels;
    torch::Tensor labels;
    int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
};

struct RawData {
    RawSplit train;
    RawSplit test;
};

} // namespace dpu::data
