// SPDX-License-Identifier: MIT
// In-memory datasets as contiguous tensors, the seeded split and the round schedule.
#pragma once
#include "dpu/Plan.h"
#include "dpu/Shape.h"
#include <torch/torch.h>
#include <string>

namespace dpu {

/// Images float32 [N, C, H, W] (normalised), labels int64 [N] in [0, classes).
struct TensorDataset {
    torch::Tensor images;
    torch::Tensor labels;
    int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
    /// Rows at `indices` (int64 1-D), contiguous.
    TensorDataset select(const torch::Tensor& indices) const;
};

struct LoadedData {
    TensorDataset train;
    TensorDataset test;
    InputShape shape;
    int classes = 10;
    std::string description; ///< e.g. "Fashion-MNIST (idx) 60000 train / 10000 test"
};

/// Loads the dataset the spec names, normalised per channel with the training split's mean and
/// standard deviation. Throws DataError naming the file and the problem.
LoadedData loadData(const DatasetSpec& spec);

/// Validation and test from the test split, and the order in which training samples arrive.
struct DataSplit {
    TensorDataset validation;
    TensorDataset test;
    torch::Tensor arrivalOrder; ///< int64 permutation of the training indices
};

/// Seeded split: `split.validation` samples of the test split for validation, the rest test;
/// the training split is permuted once, D^r is its first roundSamples(r) entries.
/// Throws PlanError if the validation size leaves no test samples.
DataSplit splitData(const LoadedData& data, const SplitSpec& split, uint64_t seed);

/// |D^r| = initial + (r - 1) * perRound, for round r >= 1.
int64_t roundSamples(const SplitSpec& split, int round);

/// Rounds that fit into `trainSize` samples, at most split.rounds.
int scheduledRounds(const SplitSpec& split, int64_t trainSize);

} // namespace dpu
