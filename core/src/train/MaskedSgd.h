// SPDX-License-Identifier: MIT
// SGD with momentum, Nesterov and weight decay, masked, accumulating c_local (PyTorch semantics).
#pragma once
#include "train/MaskedOptimizer.h"

namespace dpu {

class MaskedSgd : public MaskedOptimizer {
public:
    MaskedSgd(std::vector<torch::Tensor> params, double lr, double momentum, bool nesterov, double weightDecay);

protected:
    void stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n, bool onCuda) override;
    torch::Tensor stepDelta(size_t index, const torch::Tensor& p, const torch::Tensor& g) override;

private:
    double momentum_;
    bool nesterov_;
    std::vector<torch::Tensor> buf_;
    std::vector<bool> started_;
};

} // namespace dpu
