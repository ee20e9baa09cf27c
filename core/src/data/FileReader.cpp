// SPDX-License-Identifier: MIT
// Gzip-or-raw reading of a file or a memory buffer over zlib's inflate, with every failure turned into a DataError.
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <zlib.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace dpu::data {

namespace fs = std::filesystem;

namespace {

constexpr size_t kFileBuffer = size_t{1} << 18;
// zlib counts in uInt: stay well inside it.
constexpr size_t kZlibStep = size_t{1} << 30;

bool gzipMagicAt(const uint8_t* p, size_t avail)
{
    return avail >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

} // namespace

struct FileReader::Source {
    std::FILE* file = nullptr;     // null for a memory source
    std::vector<uint8_t> buffer;   // a file's input
    const uint8_t* next = nullptr; // unread input
    size_t avail = 0;
    bool eof = false;              // no input beyond the `avail` bytes at `next`
    z_stream z{};
    bool inflating = false;        // z is initialised
    bool done = false;             // gzip: the last member ended; what follows it is ignored
    ~Source()
    {
        if (inflating)
            inflateEnd(&z);
        if (file)
            std::fclose(file);
    }
};

void failFile(const std::string& path, const std::string& problem)
{
    throw DataError(path + ": " + problem);
}

FileReader::FileReader(std::string path) : path_(std::move(path)), src_(std::make_unique<Source>())
{
    std::error_code ec;
    const auto status = fs::status(path_, ec);
    if (ec || !fs::exists(status))
        fail("missing file");
    if (!fs::is_regular_file(status))
        fail("unreadable: not a regular file");
    diskSize_ = static_cast<uint64_t>(fs::file_size(path_, ec));
    if (ec)
        fail("unreadable: " + ec.message());
    src_->file = std::fopen(path_.c_str(), "rb");
    if (!src_->file)
        fail(std::string("unreadable: ") + std::strerror(errno));
    src_->buffer.resize(kFileBuffer);
    src_->next = src_->buffer.data();
    refill();
    start();
}

FileReader::FileReader(std::string name, const uint8_t* data, size_t size)
    : path_(std::move(name)), src_(std::make_unique<Source>()), diskSize_(size)
{
    src_->next = data;
    src_->avail = size;
    src_->eof = true;
    start();
}

FileReader::~FileReader() = default;

void FileReader::fail(const std::string& problem) const
{
    failFile(path_, problem);
}

void FileReader::start()
{
    // The same test as zlib's gzdirect(): the two magic bytes make it gzip, anything else is raw.
    compressed_ = gzipMagicAt(src_->next, src_->avail);
    if (!compressed_)
        return;
    if (inflateInit2(&src_->z, 15 + 16) != Z_OK) // 15 + 16: a gzip wrapper, the largest window
        fail("gzip: cannot start decompression (out of memory)");
    src_->inflating = true;
}

bool FileReader::refill()
{
    Source& s = *src_;
    if (s.eof)
        return false;
    if (s.avail > 0 && s.next != s.buffer.data())
        std::memmove(s.buffer.data(), s.next, s.avail);
    s.next = s.buffer.data();
    const size_t room = s.buffer.size() - s.avail;
    const size_t got = std::fread(s.buffer.data() + s.avail, 1, room, s.file);
    if (got < room) {
        if (std::ferror(s.file))
            fail(std::string("unreadable: ") + std::strerror(errno));
        s.eof = true;
    }
    s.avail += got;
    return got > 0;
}

size_t FileReader::read(uint8_t* dst, size_t n)
{
    if (compressed_)
        return inflateInto(dst, n);
    Source& s = *src_;
    size_t total = 0;
    while (total < n) {
        if (s.avail == 0) {
            if (s.file && !s.eof && n - total >= s.buffer.size()) {
                // a large read goes from the file straight to its destination
                const size_t want = n - total;
                const size_t got = std::fread(dst + total, 1, want, s.file);
                if (got < want) {
                    if (std::ferror(s.file))
                        fail(std::string("unreadable: ") + std::strerror(errno));
                    s.eof = true;
                }
                total += got;
                continue;
            }
            if (!refill())
                break;
        }
        const size_t k = std::min(n - total, s.avail);
        std::memcpy(dst + total, s.next, k);
        s.next += k;
        s.avail -= k;
        total += k;
    }
    return total;
}

size_t FileReader::inflateInto(uint8_t* dst, size_t n)
{
    Source& s = *src_;
    size_t total = 0;
    while (total < n && !s.done) {
        if (s.avail == 0 && !refill())
            fail("gzip stream is truncated (unexpected end of compressed data)");
        const size_t inGiven = std::min(s.avail, kZlibStep);
        const size_t outGiven = std::min(n - total, kZlibStep);
        s.z.next_in = const_cast<Bytef*>(s.next);
        s.z.avail_in = static_cast<uInt>(inGiven);
        s.z.next_out = dst + total;
        s.z.avail_out = static_cast<uInt>(outGiven);
        const int rc = inflate(&s.z, Z_NO_FLUSH);
        const size_t used = inGiven - s.z.avail_in, produced = outGiven - s.z.avail_out;
        s.next += used;
        s.avail -= used;
        total += produced;
        if (rc == Z_STREAM_END) {
            // Another member follows only where its magic does; anything else after a member
            // is ignored, as gzread() ignores it.
            if (s.avail < 2)
                refill();
            if (gzipMagicAt(s.next, s.avail)) {
                if (inflateReset(&s.z) != Z_OK)
                    fail("gzip data is corrupt: cannot restart decompression");
            } else {
                s.done = true;
            }
        } else if (rc == Z_BUF_ERROR && s.avail == 0) {
            continue; // all input taken: the next turn refills or reports the truncation
        } else if (rc != Z_OK || (used == 0 && produced == 0)) {
            fail(std::string("gzip data is corrupt: ") + (s.z.msg && *s.z.msg ? s.z.msg : "decompression failed"));
        }
    }
    return total;
}

size_t FileReader::readAppend(std::vector<uint8_t>& out, uint64_t n)
{
    // Chunks double from 64 KiB to 16 MiB: a small file costs a small buffer (not 16 MiB zeroed
    // for a header's claim), a large one few resizes.
    constexpr uint64_t kMaxChunk = uint64_t{1} << 24;
    uint64_t chunk = uint64_t{1} << 16;
    size_t total = 0;
    while (n > 0) {
        const auto want = static_cast<size_t>(std::min(n, chunk));
        chunk = std::min(2 * chunk, kMaxChunk);
        const size_t old = out.size();
        out.resize(old + want);
        const size_t got = read(out.data() + old, want);
        out.resize(old + got);
        total += got;
        n -= got;
        if (got < want)
            break;
    }
    return total;
}

} // namespace dpu::data
