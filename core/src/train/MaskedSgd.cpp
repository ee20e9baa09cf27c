// SPDX-License-Identifier: MIT
// SGD (momentum, Nesterov, weight decay) with masked steps and c_local in one fused pass.
#include "train/MaskedSgd.h"
#include "train/FusedStep.h"
#include "train/cuda/MaskedKernels.h"
#include <ATen/Parallel.h>

namespace dpu {

MaskedSgd::MaskedSgd(std::vector<torch::Tensor> params, double lr, double momentum, bool nesterov, double weightDecay)
    : MaskedOptimizer(std::move(params), lr, weightDecay), momentum_(momentum), nesterov_(nesterov)
{
    for (const auto& p : params_)
        buf_.push_back(torch::zeros_like(p, torch::MemoryFormat::Contiguous));
    started_.assign(params_.size(), false);
}

namespace {

// Specialised per option set, restrict pointers and by-value constants, like MaskedAdam: a
// loop without per-element branches is what the compiler can vectorise.
template <bool Masked, bool Local, bool Decay, Momentum M>
void sgdKernel(float* __restrict p, const float* __restrict g, float* __restrict buf, const float* __restrict mask,
               float* __restrict c, int64_t begin, int64_t end, SgdConstants k)
{
    for (int64_t i = begin; i < end; ++i) {
        float d = Decay ? g[i] + k.wd * p[i] : g[i];
        if (M != Momentum::None) {
            const bool first = M == Momentum::First || M == Momentum::FirstNesterov;
            const float b = first ? d : buf[i] * k.mu + d;
            buf[i] = b;
            d = (M == Momentum::FirstNesterov || M == Momentum::RunningNesterov) ? d + k.mu * b : b;
        }
        const float dw = -k.lr * d;
        finishFusedStep<Masked, Local>(p, g, mask, c, i, dw);
    }
}

template <bool Masked, bool Local, bool Decay>
void sgdMomentum(Momentum m, float* p, const float* g, float* buf, const float* mask, float* c, int64_t n,
                 const SgdConstants& k)
{
    at::parallel_for(0, n, 16384, [=](int64_t begin, int64_t end) {
        switch (m) {
        case Momentum::None: sgdKernel<Masked, Local, Decay, Momentum::None>(p, g, buf, mask, c, begin, end, k); break;
        case Momentum::First: sgdKernel<Masked, Local, Decay, Momentum::First>(p, g, buf, mask, c, begin, end, k); break;
        case Momentum::Running: sgdKernel<Masked, Local, Decay, Momentum::Running>(p, g, buf, mask, c, begin, end, k); break;
        case Momentum::FirstNesterov:
            sgdKernel<Masked, Local, Decay, Momentum::FirstNesterov>(p, g, buf, mask, c, begin, end, k);
            break;
        case Momentum::RunningNesterov:
            sgdKernel<Masked, Local, Decay, Momentum::RunningNesterov>(p, g, buf, mask, c, begin, end, k);
            break;
        }
    });
}

template <bool Masked, bool Local>
void sgdDispatch(bool decay, Momentum m, float* p, const float* g, float* buf, const float* mask, float* c, int64_t n,
                 const SgdConstants& k)
{
    if (decay)
        sgdMomentum<Masked, Local, true>(m, p, g, buf, mask, c, n, k);
    else
        sgdMomentum<Masked, Local, false>(m, p, g, buf, mask, c, n, k);
}

} // namespace

void MaskedSgd::stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n, bool onCuda)
{
    SgdConstants k{static_cast<float>(lr_), static_cast<float>(weightDecay_), static_cast<float>(momentum_)};
    const bool first = !started_[index];
    started_[index] = true;
    const Momentum m = k.mu == 0.0f ? Momentum::None
                       : first      ? (nesterov_ ? Momentum::FirstNesterov : Momentum::First)
                                    : (nesterov_ ? Momentum::RunningNesterov : Momentum::Running);
    const bool decay = k.wd != 0.0f;
    float* buf = buf_[index].data_ptr<float>();
    if (onCuda)
        return cuda::maskedSgdStep(p, g, buf, mask, c, n, k, m);
    if (mask && c)
        sgdDispatch<true, true>(decay, m, p, g, buf, mask, c, n, k);
    else if (mask)
        sgdDispatch<true, false>(decay, m, p, g, buf, mask, c, n, k);
    else if (c)
        sgdDispatch<false, true>(decay, m, p, g, buf, mask, c, n, k);
    else
        sgdDispatch<false, false>(decay, m, p, g, buf, mask, c, n, k);
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
