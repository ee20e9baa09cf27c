// SPDX-License-Identifier: MIT
// Adam with the step masked and the local contribution accumulated (PyTorch 1.13 semantics).
#pragma once
#include "train/FusedConstants.h"
#include "train/MaskedOptimizer.h"

namespace dpu {

class MaskedAdam : public MaskedOptimizer {
public:
    MaskedAdam(std::vector<torch::Tensor> params, double lr, double weightDecay);

protected:
    void beginStep() override;
    bool hasDeviceConstants() const override { return true; }
    void useDeviceConstants(bool on) override;
    void stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n, bool onCuda) override;
    torch::Tensor stepDelta(size_t index, const torch::Tensor& p, const torch::Tensor& g) override;

private:
    static constexpr double beta1_ = 0.9;
    static constexpr double beta2_ = 0.999;
    static constexpr double eps_ = 1e-8;
    std::vector<torch::Tensor> m_, v_;
    int64_t step_ = 0;
    AdamConstants k_{};          ///< the fused kernels' constants of the step begun last
    torch::Tensor deviceK_;      ///< k_'s device copy in graph mode (6 floats); undefined otherwise
};

} // namespace dpu
