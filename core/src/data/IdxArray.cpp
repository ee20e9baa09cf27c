// SPDX-License-Identifier: MIT
// MNIST-format IDX parsing without LibTorch: header validation first, then the data as it arrives.
#include "data/IdxArray.h"
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <cstdio>

namespace dpu::data {

namespace {

constexpr uint32_t kImagesMagic = 0x00000803; // unsigned byte, 3 dimensions
constexpr uint32_t kLabelsMagic = 0x00000801; // unsigned byte, 1 dimension

uint32_t bigEndian32(const uint8_t* p)
{
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

std::string hex32(uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

std::string magicMeaning(uint32_t magic)
{
    if (magic == kImagesMagic)
        return " (an images file)";
    if (magic == kLabelsMagic)
        return " (a labels file)";
    if ((magic >> 16) != 0)
        return " (not an IDX file)";
    char buf[64];
    std::snprintf(buf, sizeof buf, " (type 0x%02X with %u dimensions)", (magic >> 8) & 0xFF, magic & 0xFF);
    return buf;
}

/// Reads magic and dimensions; the magic fixes the number of dimensions, so a valid magic
/// bounds the header to 16 bytes.
std::vector<uint32_t> readHeader(FileReader& in, uint32_t expectedMagic, const char* what)
{
    uint8_t buf[12];
    if (in.read(buf, 4) < 4)
        in.fail("truncated: the file ends inside the 4-byte IDX magic");
    const uint32_t magic = bigEndian32(buf);
    if (magic != expectedMagic)
        in.fail("bad magic: expected " + hex32(expectedMagic) + " (" + what + "), found " + hex32(magic) +
                magicMeaning(magic));
    const size_t dims = expectedMagic & 0xFF;
    if (in.read(buf, 4 * dims) < 4 * dims)
        in.fail("truncated: the file ends inside the IDX header (" + std::to_string(4 + 4 * dims) +
                " bytes)");
    std::vector<uint32_t> out(dims);
    for (size_t i = 0; i < dims; ++i)
        out[i] = bigEndian32(buf + 4 * i);
    return out;
}

/// Reads exactly `bytes` of data after the header and checks that nothing follows.
std::vector<uint8_t> readBody(FileReader& in, uint64_t headerBytes, uint64_t bytes, const std::string& claim)
{
    std::vector<uint8_t> data;
    const size_t got = in.readAppend(data, bytes);
    const std::string unit = in.compressed() ? " bytes decompressed" : " bytes";
    const std::string expected = claim + ", which needs " + std::to_string(headerBytes + bytes) + unit;
    if (got < bytes)
        in.fail("truncated: header says " + expected + ", but the file has " +
                std::to_string(headerBytes + got));
    // Count trailing bytes so the message can say how far off the header is; bounded, so
    // that a gzip bomb appended to a valid file costs little time.
    constexpr uint64_t kCountLimit = uint64_t{1} << 26;
    uint64_t extra = 0;
    uint8_t scratch[1 << 14];
    for (size_t n; extra < kCountLimit && (n = in.read(scratch, sizeof scratch)) > 0;)
        extra += n;
    if (extra > 0)
        in.fail("size mismatch: header says " + expected + ", but the file has " +
                (extra >= kCountLimit ? "more than " : "") + std::to_string(headerBytes + bytes + extra));
    return data;
}

} // namespace

IdxArray readIdxImageArray(const std::string& path)
{
    FileReader in(path);
    return readIdxImageArray(in);
}

IdxArray readIdxLabelArray(const std::string& path)
{
    FileReader in(path);
    return readIdxLabelArray(in);
}

IdxArray readIdxImageArray(FileReader& in)
{
    const auto dims = readHeader(in, kImagesMagic, "unsigned-byte images, 3 dimensions");
    const uint32_t count = dims[0], rows = dims[1], cols = dims[2];
    const std::string claim = std::to_string(count) + " images of " + std::to_string(rows) + "x" +
                              std::to_string(cols);
    if (rows == 0 || cols == 0 || rows > kIdxMaxSide || cols > kIdxMaxSide)
        in.fail("bad header: images of " + std::to_string(rows) + "x" + std::to_string(cols) +
                ", expected each side in 1.." + std::to_string(kIdxMaxSide));
    if (count == 0)
        in.fail("no samples: header says 0 images");
    // rows * cols < 2^24, so count * rows * cols < 2^56: no overflow before the cap.
    const uint64_t bytes = uint64_t{count} * rows * cols;
    if (bytes > kIdxMaxBytes)
        in.fail("bad header: " + claim + " would need " + std::to_string(bytes) +
                " bytes, more than the limit of " + std::to_string(kIdxMaxBytes));
    return {dims, readBody(in, 16, bytes, claim)};
}

IdxArray readIdxLabelArray(FileReader& in)
{
    const auto dims = readHeader(in, kLabelsMagic, "unsigned-byte labels, 1 dimension");
    const uint32_t count = dims[0];
    if (count == 0)
        in.fail("no samples: header says 0 labels");
    return {dims, readBody(in, 8, count, std::to_string(count) + " labels")};
}

} // namespace dpu::data
