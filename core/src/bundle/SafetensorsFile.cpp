// SPDX-License-Identifier: MIT
// Safetensors writing (byte-exact, so a bundle can carry the header) and reading (for bases).
#include "bundle/SafetensorsFile.h"
#include "util/JsonErrorText.h"
#include "dpu/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace dpu::bundle {

namespace {

void putLe64(std::vector<uint8_t>& out, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(uint8_t(v >> (8 * i)));
}

uint64_t numelOf(const TensorData& t)
{
    uint64_t n = 1;
    for (int64_t d : t.shape) {
        if (d < 0)
            throw Error("tensor " + t.name + ": negative dimension");
        n *= uint64_t(d);
    }
    if (n != t.numel() || (t.dtype == DType::I8 && !t.values.empty()))
        throw Error("tensor " + t.name + ": shape has " + std::to_string(n) + " elements, " +
                    (t.dtype == DType::I8 ? "codes " : "values ") + std::to_string(t.numel()) +
                    (t.dtype == DType::I8 && !t.values.empty() ? " (and float values)" : ""));
    return n;
}

const char* dtypeName(DType d) { return d == DType::I8 ? "I8" : "F32"; }

} // namespace

std::map<std::string, std::string> SafetensorsFile::deviceMetadata(const std::string& model,
                                                                   const std::string& compat,
                                                                   uint64_t updateVersion)
{
    return {{"format", "pt"}, {"dpu.model", model}, {"dpu.compat", compat},
            {"dpu.update_version", std::to_string(updateVersion)}};
}

std::vector<uint8_t> SafetensorsFile::header(const std::vector<TensorData>& tensors,
                                             const std::map<std::string, std::string>& metadata)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object(); // "{}", not "null", without tensors
    if (!metadata.empty()) {
        nlohmann::ordered_json m = nlohmann::ordered_json::object();
        for (const auto& [k, v] : metadata) // std::map: keys in byte order
            m[k] = v;
        j["__metadata__"] = m;
    }
    uint64_t offset = 0;
    for (const TensorData& t : tensors) {
        if (t.name.empty() || t.name == "__metadata__" || j.contains(t.name))
            throw Error("tensor name \"" + t.name + "\" empty, reserved or repeated");
        const uint64_t bytes = numelOf(t) * t.elementSize();
        j[t.name] = {{"dtype", dtypeName(t.dtype)}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = j.dump(); // compact, no spaces; UTF-8 as given
    while ((8 + text.size()) % 8 != 0)
        text.push_back(' '); // safetensors allows trailing spaces; data stays 8-byte aligned
    std::vector<uint8_t> out;
    putLe64(out, text.size());
    out.insert(out.end(), text.begin(), text.end());
    return out;
}

std::vector<uint8_t> SafetensorsFile::write(const std::vector<TensorData>& tensors,
                                            const std::map<std::string, std::string>& metadata)
{
    std::vector<uint8_t> out = header(tensors, metadata);
    for (const TensorData& t : tensors) {
        for (int8_t c : t.codes) // I8: one byte per code, two's complement
            out.push_back(uint8_t(c));
        for (float v : t.values) {
            uint32_t u;
            std::memcpy(&u, &v, 4);
            for (int i = 0; i < 4; ++i)
                out.push_back(uint8_t(u >> (8 * i)));
        }
    }
    return out;
}

std::vector<TensorData> SafetensorsFile::read(const std::vector<uint8_t>& file, uint64_t* dataStart,
                                              std::map<std::string, std::string>* metadata)
{
    if (file.size() < 8)
        throw Error("safetensors: file shorter than its 8-byte header length");
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= uint64_t(file[i]) << (8 * i);
    if (n > file.size() - 8)
        throw Error("safetensors: header length " + std::to_string(n) + " exceeds the file");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(file.begin() + 8, file.begin() + 8 + std::ptrdiff_t(n));
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("safetensors: header is not JSON: ") + util::jsonErrorText(e.what()));
    }
    if (!j.is_object())
        throw Error("safetensors: header is not a JSON object");
    struct Item { uint64_t begin, end; TensorData t; };
    std::vector<Item> items;
    const uint64_t start = 8 + n, dataSize = file.size() - start;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const auto& v = *it;
        if (it.key() == "__metadata__") {
            if (!v.is_object())
                throw Error("safetensors: __metadata__ must be an object of strings");
            for (auto m = v.begin(); m != v.end(); ++m) {
                if (!m->is_string())
                    throw Error("safetensors: __metadata__ " + m.key() + ": expected a string, found " + m->type_name());
                if (metadata)
                    (*metadata)[m.key()] = m->get<std::string>();
            }
            continue;
        }
        if (it.key().empty())
            throw Error("safetensors: a tensor has an empty name");
        const auto dtype = v.is_object() ? v.find("dtype") : v.end();
        if (!v.is_object() || dtype == v.end() || !dtype->is_string() || (*dtype != "F32" && *dtype != "I8"))
            throw Error("safetensors: tensor " + it.key() + ": dtype must be F32 or I8");
        const uint64_t size = *dtype == "I8" ? 1 : 4; // bytes per element
        const auto offsets = v.find("data_offsets");
        const auto shape = v.find("shape");
        if (offsets == v.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
            !(*offsets)[1].is_number_unsigned())
            throw Error("safetensors: tensor " + it.key() + ": data_offsets must be two unsigned integers");
        if (shape == v.end() || !shape->is_array())
            throw Error("safetensors: tensor " + it.key() + ": shape must be an array");
        Item item{(*offsets)[0].get<uint64_t>(), (*offsets)[1].get<uint64_t>(), {it.key(), {}, {}}};
        item.t.dtype = size == 1 ? DType::I8 : DType::F32;
        // Elements are bounded by the data present, so checking each step against it keeps the
        // product from overflowing (a shape of [2^62] must not wrap to a size that fits).
        uint64_t numel = 1;
        for (const auto& d : *shape) {
            if (!d.is_number_unsigned())
                throw Error("safetensors: tensor " + it.key() + ": shape entries must be unsigned integers");
            const uint64_t dim = d.get<uint64_t>();
            item.t.shape.push_back(int64_t(std::min<uint64_t>(dim, uint64_t(INT64_MAX))));
            if (dim != 0 && numel > dataSize / size / dim)
                numel = dataSize / size + 1; // more than the file holds: rejected below
            else
                numel *= dim;
        }
        if (item.begin > item.end || item.end > dataSize || item.end - item.begin != size * numel)
            throw Error("safetensors: tensor " + it.key() + ": data offsets out of range");
        if (size == 1)
            item.t.codes.resize(numel);
        else
            item.t.values.resize(numel);
        if (numel > 0)
            std::memcpy(size == 1 ? static_cast<void*>(item.t.codes.data()) : static_cast<void*>(item.t.values.data()),
                        file.data() + start + item.begin, size * numel); // LE host
        items.push_back(std::move(item));
    }
    // An empty tensor shares its offset with the next one: (begin, end) order puts it first, as
    // the writer laid it out (found by test_safetensors; begin alone rejected such files).
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::vector<TensorData> out;
    uint64_t expect = 0;
    for (Item& item : items) {
        if (item.begin != expect)
            throw Error("safetensors: tensor " + item.t.name + " not contiguous with the previous one");
        expect = item.end;
        out.push_back(std::move(item.t));
    }
    if (expect != dataSize)
        throw Error("safetensors: " + std::to_string(dataSize - expect) + " bytes after the last tensor");
    if (dataStart)
        *dataStart = start;
    return out;
}

} // namespace dpu::bundle
