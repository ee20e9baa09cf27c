// SPDX-License-Identifier: MIT
// The trainer's step, eager or as a replayed CUDA graph (see TrainStep.h).
#include "train/TrainStep.h"
#include "data/Augment.h"
#include "train/Int8Quantiser.h"

namespace dpu {

TrainStep::TrainStep(Network& network, std::vector<torch::Tensor>& params, MaskedOptimizer& optimizer,
                     torch::Tensor& lossSum, const TensorDataset& data, int64_t batch, bool graphs,
                     const Int8Grid* int8, const DistillTargets* distill)
    : network_(network), params_(params), optimizer_(optimizer), lossSum_(lossSum), data_(data), batch_(batch),
      int8_(int8), distill_(distill)
{
    // The quantised view swaps tensors on the host between the steps' parts: not graphed (yet).
    graphed_ = graphs && !int8 && graphsPossible(optimizer, data) && data.size() >= batch;
    if (!graphed_)
        return;
    optimizer_.setDeviceConstants(true);
    auto xs = data.images.sizes().vec();
    xs[0] = batch;
    staticX_ = torch::empty(xs, data.images.options());
    staticY_ = torch::empty({batch}, data.labels.options());
    if (distill_)
        staticT_ = torch::empty({batch, distill_->logProbs.size(1)}, distill_->logProbs.options());
}

TrainStep::~TrainStep()
{
    if (graphed_)
        optimizer_.setDeviceConstants(false);
}

bool TrainStep::graphsPossible(const MaskedOptimizer& optimizer, const TensorDataset& data)
{
    return cuda::graphsEnabled() && data.images.is_cuda() && !data.augment.enabled() && optimizer.graphable();
}

void TrainStep::run(const torch::Tensor& idx, uint64_t augmentSeed)
{
    if (!graphed_ || idx.size(0) != batch_) {
        torch::Tensor x = data_.images.index_select(0, idx);
        if (data_.augment.enabled())
            x = data::augmentBatch(x, data_.augment, augmentSeed);
        optimizer_.prepareStep();
        eager(x, data_.labels.index_select(0, idx), distill_ ? distill_->logProbs.index_select(0, idx) : torch::Tensor());
        return;
    }
    torch::index_select_out(staticX_, data_.images, 0, idx);
    torch::index_select_out(staticY_, data_.labels, 0, idx);
    if (distill_)
        torch::index_select_out(staticT_, distill_->logProbs, 0, idx);
    // The constants are written outside the graph, in stream order before its replay reads them.
    optimizer_.prepareStep();
    if (warmups_ < 1) {
        ++warmups_;
        eager(staticX_, staticY_, staticT_);
        return;
    }
    // Captured once: the gradients are reset on the host, so backward allocates them in the
    // graph's own memory, where every replay writes them and the captured optimiser reads them.
    if (!graph_.captured())
        graph_.capture([this] { eager(staticX_, staticY_, staticT_); });
    graph_.replay();
}

void TrainStep::eager(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& t)
{
    for (auto& p : params_)
        p.mutable_grad().reset(); // autograd then hands its buffer over instead of adding
    torch::Tensor loss;
    {
        const QuantisedView quantised(params_, int8_); // the shadow weights come back before the step
        const torch::Tensor logits = network_.forward(x);
        loss = distill_ ? distillationLoss(logits, y, t, distill_->weight, distill_->temperature)
                        : torch::nn::functional::cross_entropy(logits, y);
        loss.backward();
    }
    optimizer_.applyStep();
    lossSum_.add_(loss.detach().to(torch::kDouble));
}

} // namespace dpu
