// SPDX-License-Identifier: MIT
// Reader of the CIFAR-10 and CIFAR-100 binary versions (fixed-size records, no header).
#pragma once
#include "data/CifarRecords.h"
#include "data/RawData.h"
#include <string>

namespace dpu::data {

/// One binary file: records of label byte(s) + 3072 pixel bytes (1024 red, 1024 green,
/// 1024 blue, each row-major 32x32), i.e. already [3, 32, 32]. CIFAR-100 records carry
/// (coarse, fine) labels; the fine label (0..99) is returned.
RawSplit readCifarFile(const std::string& path, CifarKind kind);

/// CIFAR-10: data_batch_1..5.bin + test_batch.bin; CIFAR-100: train.bin + test.bin.
/// Also looks inside cifar-10-batches-bin/ or cifar-100-binary/ when `folder` is the
/// parent the official archive unpacked into.
RawData readCifarFolder(const std::string& folder, CifarKind kind);

} // namespace dpu::data
