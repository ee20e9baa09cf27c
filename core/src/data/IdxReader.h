// SPDX-License-Identifier: MIT
// Reader of MNIST-format IDX files (ubyte images and labels, gzip or raw).
#pragma once
#include "data/IdxArray.h"
#include "data/RawData.h"
#include <string>

namespace dpu::data {

/// Images file: magic 0x00000803, dims [N, rows, cols]; returns uint8 [N, 1, rows, cols].
torch::Tensor readIdxImages(const std::string& path);

/// Labels file: magic 0x00000801, dims [N]; returns int64 [N].
torch::Tensor readIdxLabels(const std::string& path);

/// Finds `base` in `folder` as raw file or with ".gz" (raw preferred when both exist);
/// throws DataError naming the folder and the names tried when neither exists.
std::string findIdxFile(const std::string& folder, const std::string& base);

/// Reads train-* and t10k-* images and labels from `folder`, checking that counts match and
/// that both splits have the same image size.
RawData readIdxFolder(const std::string& folder);

} // namespace dpu::data
