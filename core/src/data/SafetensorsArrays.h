// SPDX-License-Identifier: MIT
// Data tensors of any numeric dtype in a safetensors file, parsed from memory without LibTorch.
#pragma once
#include "data/NumArray.h"
#include <cstddef>
#include <map>
#include <string>

namespace dpu::data {

/// One tensor's header entry; offsets are relative to the start of the data section.
struct SafetensorsEntry {
    std::string dtype; ///< as written: "U8", "F32", ...
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0;
};

struct SafetensorsIndex {
    std::map<std::string, SafetensorsEntry> tensors;
    uint64_t dataStart = 0; ///< 8 + header length
};

/// Parses the 8-byte length and the JSON header (the data may be absent: `size` need only cover
/// the header). Throws DataError "<where>: <problem>" for a length past the end, a header that is
/// not a JSON object, or an entry without dtype, shape or data_offsets.
SafetensorsIndex parseSafetensorsHeader(const uint8_t* data, size_t size, const std::string& where);

/// Checks that the data section of a whole file of `size` bytes ends where the last tensor does.
/// Throws DataError "<where>: truncated: ..." or "<where>: size mismatch: ..." otherwise.
void checkSafetensorsExtent(const SafetensorsIndex& index, size_t size, const std::string& where);

/// Tensor `name` of the file of `size` bytes: dtype U8, I8, I16, I32, I64, F16, BF16, F32 or F64,
/// offsets inside the file and matching the shape. Throws DataError "<where>: tensor <name>: ...",
/// listing the tensors present when `name` is missing.
NumArray safetensorsArray(const uint8_t* data, size_t size, const SafetensorsIndex& index, const std::string& name,
                          const std::string& where);

/// Names in the index, comma-separated (for messages).
std::string safetensorsNames(const SafetensorsIndex& index);

} // namespace dpu::data
