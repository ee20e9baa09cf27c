// SPDX-License-Identifier: MIT
// A CIFAR binary file's validated records, without LibTorch (the fuzz target's entry point).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

enum class CifarKind { Cifar10, Cifar100 };

constexpr int64_t kCifarPixelBytes = 3 * 32 * 32;

/// count records: pixels [count, 3, 32, 32] as bytes and the (fine) labels.
struct CifarRecords {
    int64_t count = 0;
    std::vector<uint8_t> pixels;
    std::vector<int64_t> labels;
};

/// Reads one binary file (gzip or raw): records of label byte(s) + 3072 pixel bytes. Throws
/// DataError naming the file when it is empty, larger than 2 GiB, not a whole number of records
/// or holds a label out of range.
CifarRecords readCifarRecords(const std::string& path, CifarKind kind);

} // namespace dpu::data
