// SPDX-License-Identifier: MIT
// .npy parsing: the header is a Python dict literal, read here by a small tokenizer instead of an evaluator.
#include "data/NpyFormat.h"
#include "data/FileReader.h"
#include "dpu/InternalCheck.h"
#include <algorithm>
#include <cctype>
#include <cstring>

namespace dpu::data {

namespace {

constexpr uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t kNpyMaxHeaderBytes = size_t{1} << 20;

/// Reads the header dict: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
class DictReader {
public:
    DictReader(const std::string& text, const std::string& where) : s_(text), where_(where) {}

    [[noreturn]] void fail(const std::string& what) const
    {
        failFile(where_, "bad .npy header: " + what + " at character " + std::to_string(pos_) + " of \"" +
                             s_.substr(0, 200) + "\"");
    }
    void skipSpace()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    bool peek(char c)
    {
        skipSpace();
        return pos_ < s_.size() && s_[pos_] == c;
    }
    void expect(char c)
    {
        if (!peek(c))
            fail(std::string("expected '") + c + "'");
        ++pos_;
    }
    std::string quoted()
    {
        skipSpace();
        if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"'))
            fail("expected a quoted string");
        const char q = s_[pos_++];
        const size_t end = s_.find(q, pos_);
        if (end == std::string::npos)
            fail("unterminated string");
        std::string out = s_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return out;
    }
    std::string word()
    {
        skipSpace();
        const size_t start = pos_;
        while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
        return s_.substr(start, pos_ - start);
    }
    std::vector<int64_t> tuple()
    {
        expect('(');
        std::vector<int64_t> out;
        while (!peek(')')) {
            const std::string w = word();
            if (w.empty() || w.size() > 18 || !std::all_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
                fail("expected a non-negative integer dimension");
            out.push_back(std::stoll(w));
            if (!peek(','))
                break;
            ++pos_;
        }
        expect(')');
        return out;
    }

    const std::string& s_;
    const std::string& where_;
    size_t pos_ = 0;
};

Dtype parseDescr(const std::string& descr, bool& bigEndian, const std::string& where)
{
    const auto unsupported = [&](const std::string& why) {
        failFile(where, "unsupported dtype '" + descr + "'" + why +
                            ": expected uint8, int8, int16, int32, int64, float16, float32 or float64");
    };
    if (descr.size() < 3)
        unsupported("");
    const char order = descr[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        unsupported("");
    bigEndian = order == '>';
    const std::string code = descr.substr(1);
    if (code == "u1") return Dtype::U8;
    if (code == "i1") return Dtype::I8;
    if (code == "i2") return Dtype::I16;
    if (code == "i4") return Dtype::I32;
    if (code == "i8") return Dtype::I64;
    if (code == "f2") return Dtype::F16;
    if (code == "f4") return Dtype::F32;
    if (code == "f8") return Dtype::F64;
    if (code == "b1")
        unsupported(" (bool; store labels or values as integers)");
    if (code[0] == 'u')
        unsupported(" (unsigned integers wider than 8 bits)");
    unsupported("");
    DPU_UNREACHABLE("parseDescr: unsupported() returned"); // it throws DataError
}

void swapBytes(std::vector<uint8_t>& bytes, int size)
{
    if (size == 1)
        return;
    for (size_t i = 0; i + static_cast<size_t>(size) <= bytes.size(); i += static_cast<size_t>(size))
        std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(i), bytes.begin() + static_cast<std::ptrdiff_t>(i) + size);
}

} // namespace

NpyHeader parseNpyHeader(const uint8_t* data, size_t size, const std::string& where)
{
    if (size < 10 || std::memcmp(data, kMagic, std::min<size_t>(size, 6)) != 0) {
        if (size >= 6 && std::memcmp(data, kMagic, 6) == 0)
            failFile(where, "truncated: the file ends inside the .npy preamble");
        if (size >= 2 && data[0] == 'P' && data[1] == 'K')
            failFile(where, "bad magic: this is a ZIP archive (an .npz?), expected an .npy file (\\x93NUMPY)");
        failFile(where, "bad magic: expected an .npy file starting with \\x93NUMPY");
    }
    const int major = data[6];
    size_t headerLen = 0, prefix = 0;
    if (major == 1) {
        headerLen = size_t{data[8]} | (size_t{data[9]} << 8);
        prefix = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12)
            failFile(where, "truncated: the file ends inside the .npy preamble");
        headerLen = size_t{data[8]} | (size_t{data[9]} << 8) | (size_t{data[10]} << 16) | (size_t{data[11]} << 24);
        prefix = 12;
    } else {
        failFile(where, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(data[7]) +
                            ": expected 1.0, 2.0 or 3.0");
    }
    if (headerLen > kNpyMaxHeaderBytes)
        failFile(where, "bad .npy header: " + std::to_string(headerLen) + " bytes long, expected at most " +
                            std::to_string(kNpyMaxHeaderBytes));
    if (size - prefix < headerLen)
        failFile(where, "truncated: the header announces " + std::to_string(headerLen) + " bytes, the file has " +
                            std::to_string(size - prefix) + " after the preamble");
    const std::string text(reinterpret_cast<const char*>(data + prefix), headerLen);

    NpyHeader h;
    h.dataOffset = prefix + headerLen;
    DictReader r(text, where);
    std::string descr;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    r.expect('{');
    while (!r.peek('}')) {
        const std::string key = r.quoted();
        r.expect(':');
        if (key == "descr") {
            if (r.peek('['))
                failFile(where, "unsupported dtype: a structured array (record fields); expected one plain numeric dtype");
            descr = r.quoted();
            haveDescr = true;
        } else if (key == "fortran_order") {
            const std::string w = r.word();
            if (w == "True")
                failFile(where, "Fortran order is not supported: save the array in C order "
                                "(numpy.ascontiguousarray(x) before numpy.save)");
            if (w != "False")
                r.fail("expected True or False for fortran_order");
            haveOrder = true;
        } else if (key == "shape") {
            h.shape = r.tuple();
            haveShape = true;
        } else {
            r.fail("unknown key '" + key + "'");
        }
        if (!r.peek(','))
            break;
        r.expect(',');
    }
    r.expect('}');
    if (!haveDescr || !haveOrder || !haveShape)
        failFile(where, std::string("bad .npy header: missing '") +
                            (!haveDescr ? "descr" : !haveOrder ? "fortran_order" : "shape") + "'");
    h.dtype = parseDescr(descr, h.bigEndian, where);
    h.count = checkedCount(h.shape, dtypeSize(h.dtype));
    if (h.count < 0)
        failFile(where, "too large: shape " + shapeText(h.shape) + " of " + dtypeName(h.dtype) +
                            " needs more than the limit of " + std::to_string(kMaxArrayBytes) + " bytes");
    return h;
}

NumArray parseNpy(const uint8_t* data, size_t size, const std::string& where)
{
    const NpyHeader h = parseNpyHeader(data, size, where);
    const uint64_t bytes = static_cast<uint64_t>(h.count) * static_cast<uint64_t>(dtypeSize(h.dtype));
    const uint64_t have = size - h.dataOffset;
    const std::string claim = "shape " + shapeText(h.shape) + " of " + dtypeName(h.dtype) + " needs " +
                              std::to_string(bytes) + " data bytes";
    if (have < bytes)
        failFile(where, "truncated: " + claim + ", the file has " + std::to_string(have));
    if (have > bytes)
        failFile(where, "size mismatch: " + claim + ", the file has " + std::to_string(have) + " (" +
                            std::to_string(have - bytes) + " trailing bytes)");
    NumArray a;
    a.dtype = h.dtype;
    a.shape = h.shape;
    a.bytes.assign(data + h.dataOffset, data + size);
    if (h.bigEndian)
        swapBytes(a.bytes, dtypeSize(h.dtype));
    return a;
}

std::vector<uint8_t> readArrayFileBytes(const std::string& path)
{
    FileReader in(path);
    const uint64_t limit = kMaxArrayBytes + (uint64_t{1} << 20);
    std::vector<uint8_t> bytes;
    if (!in.compressed())
        bytes.reserve(static_cast<size_t>(std::min(in.diskSize(), limit + 1)));
    in.readAppend(bytes, limit + 1);
    if (bytes.size() > limit)
        in.fail("too large: more than " + std::to_string(limit) + " bytes");
    return bytes;
}

NumArray readNpyFile(const std::string& path)
{
    const auto bytes = readArrayFileBytes(path);
    return parseNpy(bytes.data(), bytes.size(), path);
}

} // namespace dpu::data
