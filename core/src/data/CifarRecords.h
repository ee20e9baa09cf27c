// SPDX-License-Identifier: MIT
// A CIFAR binary file's validated records, without LibTorch (the fuzz target's entry point).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

class FileReader;

enum class CifarKind { Cifar10, Cifar100 };

constexpr int64_t kCifarPixelBytes = 3 * 32 * 32;

/// The real files are 30 MB; 2 GiB leaves room for bigger sets in the same format while
/// keeping a hostile (e.g. gzip bomb) file from exhausting memory.
constexpr uint64_t kCifarMaxFileBytes = uint64_t{1} << 31;

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

/// The same over an open FileReader (a file, or bytes in memory for the fuzz target), refusing
/// more than `maxBytes` of (decompressed) content; the path version calls it with the default.
CifarRecords readCifarRecords(FileReader& in, CifarKind kind, uint64_t maxBytes = kCifarMaxFileBytes);

} // namespace dpu::data
