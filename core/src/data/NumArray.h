// SPDX-License-Identifier: MIT
// A typed n-dimensional array as the NumPy and safetensors readers return it, without LibTorch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

/// Element types the array readers accept (NumPy and safetensors alike).
enum class Dtype { U8, I8, I16, I32, I64, F16, BF16, F32, F64 };

/// Bytes per element.
int dtypeSize(Dtype t);
/// NumPy's spelling ("uint8", "float32", ...), for messages.
std::string dtypeName(Dtype t);
bool dtypeIsInteger(Dtype t);

/// Arrays larger than this are refused before they are allocated (a hostile header cannot ask
/// for more; real training sets in one array stay well below it).
constexpr uint64_t kMaxArrayBytes = uint64_t{1} << 33;

/// Row-major (C order) elements in the host's (little-endian) byte order.
struct NumArray {
    Dtype dtype = Dtype::U8;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;
    int64_t numel() const;
    /// The elements converted to float (float16/bfloat16 exactly, 64-bit values rounded).
    std::vector<float> toFloat() const;
    /// The elements as integers; throws DataError "<where>: ..." for a floating dtype.
    std::vector<int64_t> toInt64(const std::string& where) const;
};

/// Product of `shape`, or -1 when it exceeds kMaxArrayBytes / elementSize elements (no overflow).
int64_t checkedCount(const std::vector<int64_t>& shape, int elementSize);

/// "(60000, 28, 28)" as NumPy prints shapes.
std::string shapeText(const std::vector<int64_t>& shape);

} // namespace dpu::data
