// SPDX-License-Identifier: MIT
// SGD (momentum, Nesterov, weight decay) with masked steps and c_local in one fused pass.
#include "train/MaskedSgd.h"
#include <ATen/Parallel.h>

namespace dpu {

MaskedSgd::MaskedSgd(std::vector<torch::Tensor> params, double lr, double momentum, bool nesterov, double weightDecay)
    : MaskedOptimizer(std::move(params), lr, weightDecay), momentum_(momentum), nesterov_(nesterov)
{
    for (const auto& p : params_)
        buf_.push_back(torch::zeros_like(p, torch::MemoryFormat::Contiguous));
    started_.assign(params_.size(), false);
}

void MaskedSgd::stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n)
{
    const float lr = static_cast<float>(lr_), wd = static_cast<float>(weightDecay_);
    const float mu = static_cast<float>(momentum_);
    const bool first = !started_[index];
    const bool nesterov = nesterov_;
    started_[index] = true;
    float* buf = buf_[index].data_ptr<float>();
    at::parallel_for(0, n, 16384, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            float d = wd != 0.0f ? g[i] + wd * p[i] : g[i];
            if (mu != 0.0f) {
                // PyTorch starts the momentum buffer as a copy of the first step's direction.
                const float b = first ? d : buf[i] * mu + d;
                buf[i] = b;
                d = nesterov ? d + mu * b : b;
            }
            float dw = -lr * d;
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

torch::Tensor MaskedSgd::stepDelta(size_t index, const torch::Tensor& p, const torch::Tensor& g)
{
    torch::Tensor d = weightDecay_ != 0.0 ? g + weightDecay_ * p : g.clone();
    if (momentum_ != 0.0) {
        if (!started_[index])
            buf_[index].copy_(d);
        else
            buf_[index].mul_(momentum_).add_(d);
        started_[index] = true;
        d = nesterov_ ? d + momentum_ * buf_[index] : buf_[index].clone();
    }
    return d * (-lr_);
}

} // namespace dpu
