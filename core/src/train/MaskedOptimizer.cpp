// SPDX-License-Identifier: MIT
// Masked optimiser base: dispatch between the fused CPU/CUDA kernels and the generic path.
#include "train/MaskedOptimizer.h"
#include "train/MaskedAdam.h"
#include "train/MaskedSgd.h"
#include "train/cuda/MaskedKernels.h"
#include "dpu/InternalCheck.h"

namespace dpu {

std::unique_ptr<MaskedOptimizer> MaskedOptimizer::create(const TrainSpec& spec, std::vector<torch::Tensor> params)
{
    if (spec.optimizer == Optimizer::Sgd)
        return std::make_unique<MaskedSgd>(std::move(params), spec.lr, spec.momentum, spec.nesterov, spec.weightDecay);
    return std::make_unique<MaskedAdam>(std::move(params), spec.lr, spec.weightDecay);
}

void MaskedOptimizer::step()
{
    prepareStep();
    applyStep();
}

void MaskedOptimizer::prepareStep()
{
    beginStep();
}

bool MaskedOptimizer::graphable() const
{
    if (!fused_ || !hasDeviceConstants() || !cuda::kernelsBuilt() || params_.empty())
        return false;
    for (const auto& p : params_)
        if (!p.is_cuda() || p.scalar_type() != torch::kFloat || !p.is_contiguous())
            return false;
    return true;
}

void MaskedOptimizer::setDeviceConstants(bool on)
{
    DPU_INTERNAL_CHECK(!on || graphable(), "device constants need float32 CUDA parameters, the fused kernels and Adam");
    useDeviceConstants(on);
}

void MaskedOptimizer::applyStep()
{
    torch::NoGradGuard guard;
    for (size_t i = 0; i < params_.size(); ++i) {
        torch::Tensor& p = params_[i];
        const torch::Tensor& g = p.grad();
        if (!g.defined())
            continue;
        const torch::Tensor* mask = masks_ && i < masks_->size() && (*masks_)[i].defined() ? &(*masks_)[i] : nullptr;
        torch::Tensor* c = local_ && i < local_->size() && (*local_)[i].defined() ? &(*local_)[i] : nullptr;
        const bool onCuda = p.is_cuda();
        const bool fusable = fused_ && (p.device().is_cpu() || (onCuda && cuda::kernelsBuilt()))
                             && p.scalar_type() == torch::kFloat && g.scalar_type() == torch::kFloat
                             && p.is_contiguous() && g.is_contiguous() && (!mask || mask->is_contiguous())
                             && (!c || c->is_contiguous());
        if (fusable) {
            stepFused(i, p.data_ptr<float>(), g.data_ptr<float>(), mask ? mask->data_ptr<float>() : nullptr,
                      c ? c->data_ptr<float>() : nullptr, p.numel(), onCuda);
            continue;
        }
        torch::Tensor dw = stepDelta(i, p, g);
        if (mask) {
            // where() rather than a product keeps masked weights bit-identical, even -0.0.
            dw = dw * *mask;
            p.copy_(torch::where(*mask != 0, p + dw, p));
        } else {
            p.add_(dw);
        }
        if (c)
            c->addcmul_(g, dw, -1.0);
    }
}

} // namespace dpu
