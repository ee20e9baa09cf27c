// SPDX-License-Identifier: MIT
// An IDX file's validated dimensions and bytes, without LibTorch (the fuzz target's entry point).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

class FileReader;

/// Header limits: generous for any MNIST-like set, small enough that a hostile header
/// cannot ask for an absurd allocation (the data is read as it arrives in any case).
constexpr uint32_t kIdxMaxSide = 4096;
constexpr uint64_t kIdxMaxBytes = uint64_t{1} << 32;

/// Dimensions as the header gives them and the data bytes, row-major.
struct IdxArray {
    std::vector<uint32_t> dims;
    std::vector<uint8_t> bytes;
};

/// Reads an unsigned-byte, 3-dimension IDX images file (gzip or raw). Throws DataError naming
/// the file for a bad magic, a side outside 1..kIdxMaxSide, no samples, more than kIdxMaxBytes,
/// a truncated body or trailing bytes.
IdxArray readIdxImageArray(const std::string& path);

/// Reads an unsigned-byte, 1-dimension IDX labels file. Throws DataError as readIdxImageArray.
IdxArray readIdxLabelArray(const std::string& path);

/// The same two readers over an open FileReader (a file, or bytes in memory for the fuzz
/// target); the path versions call these.
IdxArray readIdxImageArray(FileReader& in);
IdxArray readIdxLabelArray(FileReader& in);

} // namespace dpu::data
