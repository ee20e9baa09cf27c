// SPDX-License-Identifier: MIT
// One mini-batch step of the trainer: eager, or on CUDA replayed from a captured graph.
#pragma once
#include "data/Dataset.h"
#include "models/Network.h"
#include "train/Distillation.h"
#include "train/Int8Grid.h"
#include "train/MaskedOptimizer.h"
#include "train/cuda/StepGraph.h"
#include <torch/torch.h>
#include <vector>

namespace dpu {

/// The steps of one training call on one network and optimiser. Eagerly, a step is what it
/// always was: forward, loss, backward, optimiser step. In graph mode (CUDA, Adam in the fused
/// kernels, no augmentation) a full batch is gathered into fixed input tensors and the
/// forward, backward and optimiser kernels run as one CUDA graph, captured at the second full
/// batch (the first warms LibTorch's lazy state up eagerly) and replayed for every later one:
/// about 40 launches become 4. The step's constants reach the graph through device memory and
/// the kernels are the same, so both modes give the same weights bit for bit. Batches of
/// another size run eagerly. Each step adds its loss to `lossSum` (a double on the device).
class TrainStep {
public:
    /// `graphs` asks for graph mode; it is used only where possible (graphed() tells).
    /// Graph mode needs the caller to hold a cuda::SideStream for the step's lifetime.
    /// With `int8` (not owned), every step trains through the int8 quantiser (eagerly).
    /// With `distill` (not owned, rows in the data's order), the loss is distillationLoss().
    TrainStep(Network& network, std::vector<torch::Tensor>& params, MaskedOptimizer& optimizer, torch::Tensor& lossSum,
              const TensorDataset& data, int64_t batch, bool graphs,
              const Int8Grid* int8 = nullptr, const DistillTargets* distill = nullptr);
    ~TrainStep();

    /// True when full batches replay a CUDA graph.
    bool graphed() const { return graphed_; }
    /// Whether graph mode is possible for these inputs (CUDA, fused Adam, no augmentation).
    static bool graphsPossible(const MaskedOptimizer& optimizer, const TensorDataset& data);

    /// One step on the samples `idx` of the data (augmented with `augmentSeed` when the data
    /// augments). Throws std::runtime_error when a graph cannot be captured.
    void run(const torch::Tensor& idx, uint64_t augmentSeed);

private:
    /// Forward, loss, backward and the optimiser's kernels of the prepared step (what a graph captures).
    /// `t`: the batch's soft targets (undefined without distillation).
    void eager(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& t);

    Network& network_;
    std::vector<torch::Tensor>& params_;
    MaskedOptimizer& optimizer_;
    torch::Tensor& lossSum_;
    const TensorDataset& data_;
    int64_t batch_;
    const Int8Grid* int8_;
    const DistillTargets* distill_;
    bool graphed_ = false;
    int warmups_ = 0;
    torch::Tensor staticX_, staticY_, staticT_; ///< graph mode: the full batch's inputs, fixed storage
    cuda::StepGraph graph_;
};

} // namespace dpu
