// SPDX-License-Identifier: MIT
// In-memory datasets as contiguous tensors, the seeded split and the round schedule.
#pragma once
#include "data/Normalise.h"
#include "data/RawData.h"
#include "dpu/DataReadObserver.h"
#include "dpu/Plan.h"
#include "dpu/RunControl.h"
#include "dpu/Shape.h"
#include <torch/torch.h>
#include <string>

namespace dpu {

/// Images float32 [N, C, H, W] (normalised), labels int64 [N] in [0, classes).
struct TensorDataset {
    TensorDataset() = default;
    TensorDataset(torch::Tensor images_, torch::Tensor labels_, AugmentSpec augment_ = {})
        : images(std::move(images_)), labels(std::move(labels_)), augment(augment_) {}
    torch::Tensor images;
    torch::Tensor labels;
    /// Applied by the trainer to each training batch (select() keeps it); validation and test
    /// sets never carry one.
    AugmentSpec augment;
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
    data::ChannelStats normalisation; ///< what train and test were normalised with
};

/// A dataset as read, before normalisation: limits applied, classes counted.
struct RawDataset {
    data::RawData raw;
    int classes = 10;
    std::string name;     ///< e.g. "Fashion-MNIST", or the file's name
    bool heldOut = false; ///< the test split is a seeded hold-out (the data had none)
    std::string layout;   ///< arrays: the layout x was read with; empty for the other kinds
    std::vector<std::string> classNames; ///< image folders: the subfolders, in label order
};

/// Reads the dataset the spec names (no normalisation). Throws DataError naming the file and
/// the problem, PlanError for a bad limit or kind, Cancelled when `control` is. `control` and
/// `observer` (not owned, may be null): see readImageFolder (the other kinds are a few files
/// read in seconds and neither check nor report).
RawDataset readRawData(const DatasetSpec& spec, const RunControl* control = nullptr, DataReadObserver* observer = nullptr);

/// Loads the dataset the spec names, normalised per channel with the training split's mean and
/// standard deviation. Throws DataError naming the file and the problem; `control` and
/// `observer` as readRawData.
LoadedData loadData(const DatasetSpec& spec, const RunControl* control = nullptr, DataReadObserver* observer = nullptr);

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

/// The seeded order in which the training samples arrive (what splitData() puts in arrivalOrder).
torch::Tensor arrivalOrder(int64_t trainSize, uint64_t seed);

/// dataset.normalise "first_round": the per-channel statistics of the seed's D1 (its first
/// split.initial arriving samples) of `data`, which loadData left unnormalised (8-bit data
/// scaled to [0, 1]).
data::ChannelStats firstRoundStats(const LoadedData& data, const SplitSpec& split, uint64_t seed);

/// `d` with its images normalised by `stats` (labels and augmentation kept).
TensorDataset normalisedWith(const TensorDataset& d, const data::ChannelStats& stats);

/// data.json of a run folder: description, kind, path, sample counts, shape, classes, the
/// normalisation used (per seed for "first_round": `seedStats` in plan.seeds order) and the
/// augmentation.
std::string dataRecordJson(const Plan& plan, const LoadedData& data, const std::vector<data::ChannelStats>& seedStats);

/// |D^r| = initial + (r - 1) * perRound, for round r >= 1.
int64_t roundSamples(const SplitSpec& split, int round);

/// Rounds that fit into `trainSize` samples, at most split.rounds.
int scheduledRounds(const SplitSpec& split, int64_t trainSize);

} // namespace dpu
