// SPDX-License-Identifier: MIT
// Base of the masked optimisers: applies the mask to every step and accumulates c_local.
#pragma once
#include "dpu/Plan.h"
#include "train/Weights.h"
#include <torch/torch.h>
#include <memory>
#include <vector>

namespace dpu {

/// An optimiser over a fixed list of parameters that (a) multiplies every step of a masked
/// tensor by its 0/1 mask, so weights with mask 0 stay bit-identical, and (b) optionally adds
/// -g * dw to a per-tensor accumulator (the paper's local contribution c_local, Alg. 1 line 6),
/// where g is the loss gradient and dw the step actually taken. On float32 tensors both run
/// inside one fused pass per tensor: a vectorised loop on the CPU, one kernel on CUDA (when the
/// build has DPU_CUDA_KERNELS); anything else uses tensor operations.
class MaskedOptimizer {
public:
    /// Adam (PyTorch defaults: betas 0.9/0.999, eps 1e-8) or SGD (momentum, Nesterov, decay).
    static std::unique_ptr<MaskedOptimizer> create(const TrainSpec& spec, std::vector<torch::Tensor> params);
    virtual ~MaskedOptimizer() = default;

    /// Masks per parameter (undefined: unmasked); nullptr removes them. Not owned.
    void setMasks(const MaskSet* masks) { masks_ = masks; }
    /// Accumulators per parameter (undefined: not tracked); nullptr stops tracking. Not owned.
    void setLocalContribution(std::vector<torch::Tensor>* accumulators) { local_ = accumulators; }
    void setLearningRate(double lr) { lr_ = lr; }
    double learningRate() const { return lr_; }
    /// Forces the generic tensor-operation path (tests and benchmarks compare it with the fused kernels).
    void setFused(bool fused) { fused_ = fused; }

    /// One step from the parameters' current .grad(); parameters without a gradient are skipped.
    /// The same as prepareStep() then applyStep().
    void step();
    /// The host's part of a step: advances the step count and computes its constants (with
    /// device constants on, also writes them to the device in stream order).
    void prepareStep();
    /// The per-tensor kernels of the step prepared last: what a CUDA graph captures.
    void applyStep();

    /// True when every step runs in the fused CUDA kernels and the optimiser can read its
    /// per-step constants from device memory: the condition for capturing steps in a CUDA graph.
    bool graphable() const;
    /// Device constants (graph mode): the kernels read each step's constants from device memory
    /// written by prepareStep(), so one captured applyStep() replays every later step. Throws
    /// InternalError (a std::logic_error) when the optimiser is not graphable().
    void setDeviceConstants(bool on);

protected:
    MaskedOptimizer(std::vector<torch::Tensor> params, double lr, double weightDecay)
        : params_(std::move(params)), lr_(lr), weightDecay_(weightDecay) {}

    virtual void beginStep() {}
    /// Whether this optimiser can take its constants from the device (Adam; SGD's first step
    /// differs from the later ones, so a captured step could not replay it).
    virtual bool hasDeviceConstants() const { return false; }
    /// Allocates (on) or drops (off) the device copy of the constants.
    virtual void useDeviceConstants(bool) {}
    /// Fused float32 path for one tensor of n contiguous values (device memory when `onCuda`);
    /// mask/c may be null.
    virtual void stepFused(size_t index, float* p, const float* g, const float* mask, float* c, int64_t n,
                           bool onCuda) = 0;
    /// Generic path; returns the step dw before masking.
    virtual torch::Tensor stepDelta(size_t index, const torch::Tensor& p, const torch::Tensor& g) = 0;

    std::vector<torch::Tensor> params_;
    double lr_;
    double weightDecay_;

private:
    const MaskSet* masks_ = nullptr;
    std::vector<torch::Tensor>* local_ = nullptr;
    bool fused_ = true;
};

} // namespace dpu
