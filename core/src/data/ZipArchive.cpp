// SPDX-License-Identifier: MIT
// ZIP reading over the central directory (what NumPy's savez writes: ZIP64 local headers, stored or deflated).
#include "data/ZipArchive.h"
#include "data/FileReader.h"
#include <zlib.h>
#include <algorithm>

namespace dpu::data {

namespace {

constexpr uint32_t kEndSig = 0x06054b50, kEnd64Sig = 0x06064b50, kLocator64Sig = 0x07064b50;
constexpr uint32_t kCentralSig = 0x02014b50, kLocalSig = 0x04034b50;

uint64_t zipLe(const uint8_t* p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= uint64_t{p[i]} << (8 * i);
    return v;
}

/// Bounds-checked reads at absolute offsets of the archive.
struct View {
    const uint8_t* data;
    size_t size;
    const std::string& where;
    bool has(uint64_t offset, uint64_t bytes) const { return offset <= size && bytes <= size - offset; }
    uint64_t at(uint64_t offset, int bytes, const char* what) const
    {
        if (!has(offset, static_cast<uint64_t>(bytes)))
            failFile(where, std::string("truncated ZIP archive: ") + what + " lies outside the file");
        return zipLe(data + offset, bytes);
    }
};

} // namespace

std::vector<ZipEntry> listZip(const uint8_t* data, size_t size, const std::string& where)
{
    const View v{data, size, where};
    if (size < 22) {
        if (size >= 2 && data[0] == 0x93 && data[1] == 'N')
            failFile(where, "bad magic: this is an .npy file, expected an .npz (ZIP) archive");
        failFile(where, "bad magic: not a ZIP archive (shorter than an end-of-central-directory record)");
    }
    // The end record sits in the last 22 + 65535 (comment) bytes; search backwards.
    size_t end = size;
    const size_t lowest = size > 22 + 65535 ? size - 22 - 65535 : 0;
    for (size_t p = size - 22 + 1; p-- > lowest;)
        if (zipLe(data + p, 4) == kEndSig) {
            end = p;
            break;
        }
    if (end == size) {
        if (data[0] == 'P' && data[1] == 'K')
            failFile(where, "truncated ZIP archive: no end-of-central-directory record");
        if (data[0] == 0x93 && data[1] == 'N')
            failFile(where, "bad magic: this is an .npy file, expected an .npz (ZIP) archive");
        failFile(where, "bad magic: not a ZIP archive (no end-of-central-directory record)");
    }
    if (v.at(end + 4, 2, "the end record") != 0 || v.at(end + 6, 2, "the end record") != 0)
        failFile(where, "unsupported ZIP archive: spans several disks");
    uint64_t count = v.at(end + 10, 2, "the end record");
    uint64_t dirSize = v.at(end + 12, 4, "the end record");
    uint64_t dirOffset = v.at(end + 16, 4, "the end record");
    if ((count == 0xFFFF || dirSize == 0xFFFFFFFF || dirOffset == 0xFFFFFFFF) && end >= 20 &&
        zipLe(data + end - 20, 4) == kLocator64Sig) {
        const uint64_t rec = zipLe(data + end - 20 + 8, 8);
        if (v.at(rec, 4, "the ZIP64 end record") != kEnd64Sig)
            failFile(where, "bad ZIP archive: the ZIP64 end record is missing");
        count = v.at(rec + 32, 8, "the ZIP64 end record");
        dirSize = v.at(rec + 40, 8, "the ZIP64 end record");
        dirOffset = v.at(rec + 48, 8, "the ZIP64 end record");
    }
    if (!v.has(dirOffset, dirSize))
        failFile(where, "truncated ZIP archive: the central directory (" + std::to_string(dirSize) + " bytes at " +
                            std::to_string(dirOffset) + ") lies outside the file of " + std::to_string(size) + " bytes");
    // Each entry takes at least 46 bytes, which bounds the count a hostile record can claim.
    if (count > dirSize / 46)
        failFile(where, "bad ZIP archive: " + std::to_string(count) + " entries cannot fit a central directory of " +
                            std::to_string(dirSize) + " bytes");
    std::vector<ZipEntry> out;
    uint64_t p = dirOffset;
    const uint64_t dirEnd = dirOffset + dirSize;
    for (uint64_t i = 0; i < count; ++i) {
        if (p + 46 > dirEnd || v.at(p, 4, "a directory entry") != kCentralSig)
            failFile(where, "bad ZIP archive: directory entry " + std::to_string(i) + " is malformed");
        ZipEntry e;
        const uint64_t flags = v.at(p + 8, 2, "a directory entry");
        e.method = static_cast<uint16_t>(v.at(p + 10, 2, "a directory entry"));
        e.crc32 = static_cast<uint32_t>(v.at(p + 16, 4, "a directory entry"));
        e.compressedSize = v.at(p + 20, 4, "a directory entry");
        e.size = v.at(p + 24, 4, "a directory entry");
        const uint64_t nameLen = v.at(p + 28, 2, "a directory entry"), extraLen = v.at(p + 30, 2, "a directory entry"),
                       commentLen = v.at(p + 32, 2, "a directory entry");
        e.localOffset = v.at(p + 42, 4, "a directory entry");
        if (p + 46 + nameLen + extraLen + commentLen > dirEnd)
            failFile(where, "bad ZIP archive: directory entry " + std::to_string(i) + " runs past the directory");
        e.name.assign(reinterpret_cast<const char*>(data + p + 46), static_cast<size_t>(nameLen));
        if (flags & 1)
            failFile(where + ":" + e.name, "encrypted ZIP entries are not supported");
        // ZIP64 extra field: the 64-bit values of the fields saturated above, in this order.
        for (uint64_t x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen;) {
            const uint64_t id = zipLe(data + x, 2), len = zipLe(data + x + 2, 2);
            uint64_t q = x + 4;
            const uint64_t qEnd = std::min(q + len, p + 46 + nameLen + extraLen);
            if (id == 1) {
                for (uint64_t* field : {&e.size, &e.compressedSize, &e.localOffset})
                    if (*field == 0xFFFFFFFF && q + 8 <= qEnd) {
                        *field = zipLe(data + q, 8);
                        q += 8;
                    }
            }
            x += 4 + len;
        }
        out.push_back(std::move(e));
        p += 46 + nameLen + extraLen + commentLen;
    }
    return out;
}

std::vector<uint8_t> extractZip(const uint8_t* data, size_t size, const ZipEntry& e, const std::string& where,
                                uint64_t maxBytes)
{
    const std::string at = where + ":" + e.name;
    const View v{data, size, at};
    if (v.at(e.localOffset, 4, "the entry's local header") != kLocalSig)
        failFile(at, "bad ZIP archive: no local header at offset " + std::to_string(e.localOffset));
    const uint64_t start = e.localOffset + 30 + v.at(e.localOffset + 26, 2, "the entry's local header") +
                           v.at(e.localOffset + 28, 2, "the entry's local header");
    if (!v.has(start, e.compressedSize))
        failFile(at, "truncated: the entry's " + std::to_string(e.compressedSize) + " bytes lie outside the file");
    if (e.size > maxBytes)
        failFile(at, "too large: " + std::to_string(e.size) + " bytes, more than the limit of " + std::to_string(maxBytes));
    std::vector<uint8_t> out;
    const uint8_t* src = data + start;
    if (e.method == 0) {
        if (e.compressedSize != e.size)
            failFile(at, "bad ZIP archive: a stored entry of " + std::to_string(e.compressedSize) +
                             " bytes claims " + std::to_string(e.size) + " uncompressed");
        out.assign(src, src + e.size);
    } else if (e.method == 8) {
        out.resize(static_cast<size_t>(e.size));
        z_stream z{};
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
            failFile(at, "cannot start zlib's inflate");
        uint64_t inLeft = e.compressedSize, outDone = 0;
        int rc = Z_OK;
        uint8_t spare = 0; // room to notice data beyond the announced size
        while (rc == Z_OK) {
            const auto inChunk = static_cast<uInt>(std::min<uint64_t>(inLeft, 1u << 30));
            z.next_in = const_cast<Bytef*>(src + (e.compressedSize - inLeft));
            z.avail_in = inChunk;
            const bool spareOut = outDone == e.size;
            z.next_out = spareOut ? &spare : out.data() + outDone;
            z.avail_out = spareOut ? 1u : static_cast<uInt>(std::min<uint64_t>(e.size - outDone, 1u << 30));
            const uInt before = z.avail_out;
            rc = inflate(&z, Z_NO_FLUSH);
            inLeft -= inChunk - z.avail_in;
            if (spareOut && z.avail_out != before) {
                inflateEnd(&z);
                failFile(at, "size mismatch: the deflated data holds more than the " + std::to_string(e.size) +
                                 " bytes the directory announces");
            }
            if (!spareOut)
                outDone += before - z.avail_out;
            if (rc == Z_BUF_ERROR && inLeft == 0)
                break;
            if (rc == Z_BUF_ERROR)
                rc = Z_OK;
        }
        inflateEnd(&z);
        if (rc != Z_STREAM_END) {
            if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR || rc == Z_STREAM_ERROR)
                failFile(at, std::string("deflated data is corrupt: ") + (z.msg ? z.msg : "inflate failed"));
            failFile(at, "truncated: the deflated data ends after " + std::to_string(outDone) + " of " +
                             std::to_string(e.size) + " bytes");
        }
        if (outDone != e.size)
            failFile(at, "size mismatch: the deflated data holds " + std::to_string(outDone) + " bytes, the directory announces " +
                             std::to_string(e.size));
    } else {
        failFile(at, "unsupported ZIP compression method " + std::to_string(e.method) +
                         ": expected stored (0) or deflated (8), as numpy.savez and savez_compressed write");
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    for (uint64_t off = 0; off < out.size(); off += 1u << 30)
        crc = crc32(crc, out.data() + off, static_cast<uInt>(std::min<uint64_t>(out.size() - off, 1u << 30)));
    if (static_cast<uint32_t>(crc) != e.crc32)
        failFile(at, "corrupt: CRC-32 mismatch (the entry's data was damaged)");
    return out;
}

} // namespace dpu::data
