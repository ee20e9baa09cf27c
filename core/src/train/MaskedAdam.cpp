// SPDX-License-Identifier: MIT
// Adam with masked steps and c_local accumulation in one fused pass per tensor.
#include "train/MaskedAdam.h"
#include "train/FusedStep.h"
#include "train/cuda/MaskedKernels.h"
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
    k_.b1 = static_cast<float>(beta1_);
    k_.b2 = static_cast<float>(beta2_);
    const float bc1 = static_cast<float>(1.0 - std::pow(beta1_, static_cast<double>(step_)));
    const float bc2 = static_cast<float>(1.0 - std::pow(beta2_, static_cast<double>(step_)));
    k_.stepSize = static_cast<float>(lr_) / bc1;
    k_.bc2Sqrt = std::sqrt(bc2);
    k_.eps = static_cast<float>(eps_);
    k_.wd = static_cast<float>(weightDecay_);
    if (deviceK_.defined())
        cuda::storeAdamConstants(reinterpret_cast<AdamConstants*>(deviceK_.data_ptr<float>()), k_);
}

void MaskedAdam::useDeviceConstants(bool on)
{
    static_assert(sizeof(AdamConstants) == 6 * sizeof(float), "AdamConstants is six floats");
    deviceK_ = on ? torch::zeros({6}, params_.front().options().dtype(torch::kFloat)) : torch::Tensor();
}

namespace {

// One pass per tensor. Specialised on the optional parts and written with restrict pointers
// and by-value constants so that the compiler can keep everything in vector registers: a
// lambda capturing floats by reference must reload them after every float store.
template <bool Masked, bool Local, bool Decay>
void adamKernel(float* __restrict p, const float* __restrict g, float* __restrict m, float* __restrict v,
                const float* __restrict mask, float* __restrict c, int64_t begin, int64_t end, AdamConstants k)
{
    for (int64_t i = begin; i < end; ++i) {
        const float grad = Decay ? g[i] + k.wd * p[i] : g[i];
        const float mi = m[i] * k.b1 + grad * (1.0f - k.b1);
        const float vi = v[i] * k.b2 + (1.0f - k.b2) * grad * grad;
        m[i] = mi;
        v[i] = vi;
        const float denom = std::sqrt(vi) / k.bc2Sqrt + k.eps;
        const float dw = -k.stepSize * (mi / denom);
        finishFusedStep<Masked, Local>(p, g, mask, c, i, dw);
    }
}

template <bool Masked, bool Local>
void adamDispatch(bool decay, float* p, const float* g, float* m, float* v, const float* mask, float* c, int64_t n,
                  const AdamConstants& k)
{
    at::parallel_for(0, n, 16384, [=](int64_t begin, int64_t end) {
        if (decay)
            adamKernel<Masked, Local, true>(p, g, m, v, mask, c, begin, end, k);
        else
            adamKernel<Masked, Local, false>(p, g, m, v, mask, c, begin, end, k);
    });
}

} // namespace

void MaskedAdam::stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n, bool onCuda)
{
    // The same arithmetic as torch.optim.Adam (single-tensor path), in one pass instead of
    // eight: this is where most of the speed over the Python loop comes from.
    const AdamConstants& k = k_;
    const bool decay = k.wd != 0.0f;
    float* m = m_[index].data_ptr<float>();
    float* v = v_[index].data_ptr<float>();
    if (onCuda)
        return cuda::maskedAdamStep(p, g, m, v, mask, c, n, k,
                                    deviceK_.defined() ? reinterpret_cast<const AdamConstants*>(deviceK_.data_ptr<float>())
                                                       : nullptr);
    if (mask && c)
        adamDispatch<true, true>(decay, p, g, m, v, mask, c, n, k);
    else if (mask)
        adamDispatch<true, false>(decay, p, g, m, v, mask, c, n, k);
    else if (c)
        adamDispatch<false, true>(decay, p, g, m, v, mask, c, n, k);
    else
        adamDispatch<false, false>(decay, p, g, m, v, mask, c, n, k);
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
