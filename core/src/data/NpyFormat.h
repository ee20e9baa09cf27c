// SPDX-License-Identifier: MIT
// NumPy's .npy format (versions 1 to 3) parsed from memory, without LibTorch (the fuzz target's entry point).
#pragma once
#include "data/NumArray.h"
#include <cstddef>
#include <string>

namespace dpu::data {

/// What an .npy header says: element type, shape and where the data starts.
struct NpyHeader {
    Dtype dtype = Dtype::U8;
    bool bigEndian = false;
    std::vector<int64_t> shape;
    size_t dataOffset = 0;
    int64_t count = 0; ///< elements
};

/// Parses the magic, version and header dictionary of `size` bytes at `data` (the data itself may
/// be absent). Throws DataError "<where>: <problem>" for a wrong magic, an unknown version, a
/// truncated or malformed header, Fortran order, an unsupported dtype (only uint8, int8, int16,
/// int32, int64, float16, float32 and float64 are) or more than kMaxArrayBytes.
NpyHeader parseNpyHeader(const uint8_t* data, size_t size, const std::string& where);

/// The whole file: the header and exactly the bytes it announces (big-endian data is swapped to
/// the host's order). Throws DataError as parseNpyHeader, and for truncated data or trailing bytes.
NumArray parseNpy(const uint8_t* data, size_t size, const std::string& where);

/// Reads and parses an .npy file (raw or gzip). Throws DataError naming the file.
NumArray readNpyFile(const std::string& path);

/// Reads a whole file (raw or gzip) of at most kMaxArrayBytes plus 1 MiB; throws DataError naming it.
std::vector<uint8_t> readArrayFileBytes(const std::string& path);

} // namespace dpu::data
