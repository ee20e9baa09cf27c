// SPDX-License-Identifier: MIT
// safetensors data tensors: the bundle code's SafetensorsFile takes only F32 weights, datasets need every numeric dtype.
#include "data/SafetensorsArrays.h"
#include "util/JsonErrorText.h"
#include "data/FileReader.h"
#include <nlohmann/json.hpp>
#include <algorithm>

namespace dpu::data {

namespace {

constexpr uint64_t kSafetensorsMaxHeaderBytes = uint64_t{100} << 20; // the format's own limit is 100 MB

bool dtypeOf(const std::string& s, Dtype& out)
{
    static const std::map<std::string, Dtype> kinds{{"U8", Dtype::U8},   {"I8", Dtype::I8},     {"I16", Dtype::I16},
                                                     {"I32", Dtype::I32}, {"I64", Dtype::I64},   {"F16", Dtype::F16},
                                                     {"BF16", Dtype::BF16}, {"F32", Dtype::F32}, {"F64", Dtype::F64}};
    const auto it = kinds.find(s);
    if (it == kinds.end())
        return false;
    out = it->second;
    return true;
}

} // namespace

SafetensorsIndex parseSafetensorsHeader(const uint8_t* data, size_t size, const std::string& where)
{
    if (size < 8)
        failFile(where, "truncated: shorter than the 8-byte safetensors header length");
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= uint64_t{data[i]} << (8 * i);
    if (n > kSafetensorsMaxHeaderBytes)
        failFile(where, "bad magic: a header length of " + std::to_string(n) +
                            " bytes is not a safetensors file (at most 100 MB)");
    if (n > size - 8)
        failFile(where, "truncated: the safetensors header announces " + std::to_string(n) + " bytes, the file has " +
                            std::to_string(size - 8) + " after the length");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(data + 8, data + 8 + n);
    } catch (const nlohmann::json::exception& e) {
        failFile(where, std::string("bad safetensors header: not JSON (") + util::jsonErrorText(e.what()) + ")");
    }
    if (!j.is_object())
        failFile(where, "bad safetensors header: expected a JSON object");
    SafetensorsIndex index;
    index.dataStart = 8 + n;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "__metadata__")
            continue;
        const std::string at = "tensor " + it.key() + ": ";
        const auto& v = *it;
        if (!v.is_object())
            failFile(where, at + "expected an object with dtype, shape and data_offsets");
        const auto dtype = v.find("dtype"), shape = v.find("shape"), offsets = v.find("data_offsets");
        if (dtype == v.end() || !dtype->is_string())
            failFile(where, at + "dtype must be a string");
        if (shape == v.end() || !shape->is_array())
            failFile(where, at + "shape must be an array");
        if (offsets == v.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
            !(*offsets)[1].is_number_unsigned())
            failFile(where, at + "data_offsets must be two unsigned integers");
        SafetensorsEntry e;
        e.dtype = dtype->get<std::string>();
        for (const auto& d : *shape) {
            if (!d.is_number_unsigned() || d.get<uint64_t>() > uint64_t{1} << 62)
                failFile(where, at + "shape entries must be non-negative integers");
            e.shape.push_back(d.get<int64_t>());
        }
        e.begin = (*offsets)[0].get<uint64_t>();
        e.end = (*offsets)[1].get<uint64_t>();
        index.tensors[it.key()] = std::move(e);
    }
    return index;
}

void checkSafetensorsExtent(const SafetensorsIndex& index, size_t size, const std::string& where)
{
    uint64_t end = 0;
    for (const auto& [name, e] : index.tensors)
        end = std::max(end, e.end);
    const uint64_t have = size - index.dataStart;
    if (have < end)
        failFile(where, "truncated: the header's tensors need " + std::to_string(end) + " data bytes, the file has " +
                            std::to_string(have));
    if (have > end)
        failFile(where, "size mismatch: " + std::to_string(have - end) + " bytes after the last tensor");
}

std::string safetensorsNames(const SafetensorsIndex& index)
{
    std::string out;
    for (const auto& [name, e] : index.tensors)
        out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? std::string("none") : out;
}

NumArray safetensorsArray(const uint8_t* data, size_t size, const SafetensorsIndex& index, const std::string& name,
                          const std::string& where)
{
    const auto it = index.tensors.find(name);
    if (it == index.tensors.end())
        failFile(where, "missing tensor \"" + name + "\" (the file holds: " + safetensorsNames(index) + ")");
    const SafetensorsEntry& e = it->second;
    const std::string at = "tensor " + name + ": ";
    NumArray a;
    if (!dtypeOf(e.dtype, a.dtype))
        failFile(where, at + "unsupported dtype " + e.dtype + ": expected U8, I8, I16, I32, I64, F16, BF16, F32 or F64");
    a.shape = e.shape;
    const int64_t count = checkedCount(e.shape, dtypeSize(a.dtype));
    if (count < 0)
        failFile(where, at + "too large: shape " + shapeText(e.shape) + " needs more than " +
                            std::to_string(kMaxArrayBytes) + " bytes");
    const uint64_t bytes = static_cast<uint64_t>(count) * static_cast<uint64_t>(dtypeSize(a.dtype));
    const uint64_t dataSize = size - index.dataStart;
    if (e.begin > e.end || e.end - e.begin != bytes)
        failFile(where, at + "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "] do not hold shape " +
                            shapeText(e.shape) + " of " + e.dtype + " (" + std::to_string(bytes) + " bytes)");
    if (e.end > dataSize)
        failFile(where, at + "truncated: its data ends at byte " + std::to_string(e.end) + " of the data section, the file has " +
                            std::to_string(dataSize));
    const uint8_t* src = data + index.dataStart + e.begin;
    a.bytes.assign(src, src + bytes);
    return a;
}

} // namespace dpu::data
