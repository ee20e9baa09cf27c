// SPDX-License-Identifier: MIT
// Adam with masked steps and c_local accumulation in one fused pass per tensor.
#include "train/MaskedAdam.h"
#include <ATen/Parallel.h>
#include <cmath>

namespace dpu {

MaskedAdam::MaskedAdam(std::vector<torch::Tensor> params, double lr, double weightDecay)
    : MaskedOptimizer(std::move(params), lr, weightDecay)
{
    for (const auto& p : params_) {
        m_.push_back(torch::zeros_like(p, torch::MemoryFormat::Contiguous));
        v_.push_back(torch::zeros_like(p, torch::MemoryFormat::Contiguous));
    }
}

void MaskedAdam::beginStep()
{
    ++step_;
}

void MaskedAdam::stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n)
{
    // The same arithmetic as torch.optim.Adam (single-tensor path), in one pass instead of
    // eight: this is where most of the speed over the Python loop comes from.
    const float b1 = static_cast<float>(beta1_), b2 = static_cast<float>(beta2_);
    const float bc1 = static_cast<float>(1.0 - std::pow(beta1_, static_cast<double>(step_)));
    const float bc2 = static_cast<float>(1.0 - std::pow(beta2_, static_cast<double>(step_)));
    const float stepSize = static_cast<float>(lr_) / bc1;
    const float bc2Sqrt = std::sqrt(bc2);
    const float eps = static_cast<float>(eps_);
    const float wd = static_cast<float>(weightDecay_);
    float* m = m_[index].data_ptr<float>();
    float* v = v_[index].data_ptr<float>();
    at::parallel_for(0, n, 16384, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const float grad = wd != 0.0f ? g[i] + wd * p[i] : g[i];
            const float mi = m[i] * b1 + grad * (1.0f - b1);
            const float vi = v[i] * b2 + (1.0f - b2) * grad * grad;
            m[i] = mi;
            v[i] = vi;
            const float denom = std::sqrt(vi) / bc2Sqrt + eps;
            float dw = -stepSize * (mi / denom);
            if (mask) {
                dw = mask[i] != 0.0f ? dw : 0.0f;
                p[i] = mask[i] != 0.0f ? p[i] + dw : p[i];
            } else {
                p[i] += dw;
            }
            if (c)
                c[i] -= g[i] * dw;
        }
    });
}

torch::Tensor MaskedAdam::stepDelta(size_t index, const torch::Tensor& p, const torch::Tensor& g)
{
    torch::Tensor grad = weightDecay_ != 0.0 ? g + weightDecay_ * p : g;
    m_[index].mul_(beta1_).add_(grad, 1.0 - beta1_);
    v_[index].mul_(beta2_).addcmul_(grad, grad, 1.0 - beta2_);
    const double bc1 = 1.0 - std::pow(beta1_, static_cast<double>(step_));
    const double bc2 = 1.0 - std::pow(beta2_, static_cast<double>(step_));
    torch::Tensor denom = (v_[index].sqrt() / std::sqrt(bc2)).add_(eps_);
    return m_[index] / denom * (-lr_ / bc1);
}

} // namespace dpu
