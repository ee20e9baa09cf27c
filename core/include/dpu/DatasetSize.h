// SPDX-License-Identifier: MIT
// How many samples a dataset holds (read from its headers) and whether a plan's split fits them.
#pragma once
#include "dpu/Plan.h"
#include <cstdint>

namespace dpu {

/// Sample counts of a dataset's training and test splits, after the spec's limits.
struct DatasetSize {
    int64_t train = 0;
    int64_t test = 0;
};

/// Reads only what fixes the counts: the IDX label headers, or the CIFAR files' sizes (for a
/// gzipped file, the size its gzip trailer records), the .npy and safetensors headers, or the
/// image files an image folder lists (with the hold-out when there is no test split). Cheap
/// enough to run on every edit of a form, except for .npz archives, whose compressed members are
/// read whole. The readers still check every byte when a run loads the data. Throws DataError
/// naming the file when a file is missing or its header is not what its kind needs.
DatasetSize readDatasetSize(const DatasetSpec& spec);

/// Training samples the plan's last round uses: initial + (rounds - 1) * per_round, saturating
/// instead of overflowing (single-round mode uses two rounds at most).
int64_t trainingSamplesNeeded(const Plan& plan);

/// Throws PlanError naming the split field that does not fit `size`: split.initial when even the
/// first round needs more training samples than there are, split.rounds when a later round does,
/// split.validation when it leaves no test samples. The GUI's field check and the runner's plan
/// check both use it, so a plan that does not fit is refused up front instead of stopping early.
void checkSplitFits(const Plan& plan, const DatasetSize& size);

} // namespace dpu
