// SPDX-License-Identifier: MIT
// Distillation's soft targets: a teacher model's outputs on the training data, and the loss that uses them.
#pragma once
#include "data/Dataset.h"
#include "dpu/Plan.h"
#include "models/Network.h"
#include "train/Weights.h"
#include <torch/torch.h>

namespace dpu {

/// A teacher's soft targets on one training set, one row per sample in the set's order.
struct DistillTargets {
    torch::Tensor logProbs; ///< log softmax(teacher logits / temperature), samples x classes, on the data's device
    double weight = 0;      ///< share of the soft loss (the labels' cross-entropy has the rest)
    double temperature = 1;
};

/// Puts `teacher` into `network` and computes its soft targets on `data` in inference mode
/// (without augmentation: label-preserving augmentations keep the targets apt). Leaves the
/// teacher's weights in the network and the network in training mode.
DistillTargets teacherTargets(Network& network, const Weights& teacher, const TensorDataset& data,
                              const DistillSpec& spec);

/// (1 - w) x cross-entropy(logits, labels) + w x T^2 x KL(teacher || student at temperature T),
/// averaged over the batch; `targets` are the batch's rows of DistillTargets::logProbs. The T^2
/// keeps the soft gradients' scale independent of T (Hinton et al., 2015).
torch::Tensor distillationLoss(const torch::Tensor& logits, const torch::Tensor& labels, const torch::Tensor& targets,
                               double weight, double temperature);

} // namespace dpu
