// SPDX-License-Identifier: MIT
// Dtype facts and element conversions of NumArray (half floats decoded bit by bit, no compiler support needed).
#include "data/NumArray.h"
#include "data/FileReader.h"
#include <cmath>
#include <cstring>

namespace dpu::data {

namespace {

float halfToFloat(uint16_t h)
{
    const int sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    float v;
    if (exponent == 0)
        v = std::ldexp(static_cast<float>(mantissa), -24); // subnormal (or zero)
    else if (exponent == 31)
        v = mantissa ? std::nanf("") : INFINITY;
    else
        v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
    return sign ? -v : v;
}

template <typename T> T loadLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// Element i of little-endian `dtype` data as Out. Integers reach int64 exactly; the float
/// dtypes are only ever asked for as float (toInt64 refuses them before converting).
template <typename Out> Out elementAs(Dtype dtype, const uint8_t* p, size_t i)
{
    switch (dtype) {
    case Dtype::U8: return static_cast<Out>(p[i]);
    case Dtype::I8: return static_cast<Out>(static_cast<int8_t>(p[i]));
    case Dtype::I16: return static_cast<Out>(loadLe<int16_t>(p + 2 * i));
    case Dtype::I32: return static_cast<Out>(loadLe<int32_t>(p + 4 * i));
    case Dtype::I64: return static_cast<Out>(loadLe<int64_t>(p + 8 * i));
    case Dtype::F16: return static_cast<Out>(halfToFloat(loadLe<uint16_t>(p + 2 * i)));
    case Dtype::BF16: {
        const uint32_t u = uint32_t{loadLe<uint16_t>(p + 2 * i)} << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return static_cast<Out>(f);
    }
    case Dtype::F32: return static_cast<Out>(loadLe<float>(p + 4 * i));
    case Dtype::F64: return static_cast<Out>(loadLe<double>(p + 8 * i));
    }
    return Out{};
}

template <typename Out> std::vector<Out> convertAll(const NumArray& a)
{
    std::vector<Out> out(static_cast<size_t>(a.numel()));
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = elementAs<Out>(a.dtype, a.bytes.data(), i);
    return out;
}

} // namespace

int dtypeSize(Dtype t)
{
    switch (t) {
    case Dtype::U8:
    case Dtype::I8: return 1;
    case Dtype::I16:
    case Dtype::F16:
    case Dtype::BF16: return 2;
    case Dtype::I32:
    case Dtype::F32: return 4;
    case Dtype::I64:
    case Dtype::F64: return 8;
    }
    return 1;
}

std::string dtypeName(Dtype t)
{
    switch (t) {
    case Dtype::U8: return "uint8";
    case Dtype::I8: return "int8";
    case Dtype::I16: return "int16";
    case Dtype::I32: return "int32";
    case Dtype::I64: return "int64";
    case Dtype::F16: return "float16";
    case Dtype::BF16: return "bfloat16";
    case Dtype::F32: return "float32";
    case Dtype::F64: return "float64";
    }
    return "?";
}

bool dtypeIsInteger(Dtype t)
{
    return t == Dtype::U8 || t == Dtype::I8 || t == Dtype::I16 || t == Dtype::I32 || t == Dtype::I64;
}

int64_t checkedCount(const std::vector<int64_t>& shape, int elementSize)
{
    const uint64_t limit = kMaxArrayBytes / static_cast<uint64_t>(elementSize);
    uint64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0)
            return -1;
        if (d != 0 && n > limit / static_cast<uint64_t>(d))
            return -1;
        n *= static_cast<uint64_t>(d);
    }
    return static_cast<int64_t>(n);
}

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

int64_t NumArray::numel() const
{
    return static_cast<int64_t>(bytes.size() / static_cast<size_t>(dtypeSize(dtype)));
}

std::vector<float> NumArray::toFloat() const
{
    return convertAll<float>(*this);
}

std::vector<int64_t> NumArray::toInt64(const std::string& where) const
{
    if (!dtypeIsInteger(dtype))
        failFile(where, "labels must be integers, found dtype " + dtypeName(dtype));
    return convertAll<int64_t>(*this);
}

} // namespace dpu::data
