// SPDX-License-Identifier: MIT
// Gzip-or-raw file reading over zlib's gz* API, with every failure turned into a DataError.
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

void failFile(const std::string& path, const std::string& problem)
{
    throw DataError(path + ": " + problem);
}

FileReader::FileReader(std::string path) : path_(std::move(path))
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

    // fopen first: gzopen hides the reason (permissions, ...) that errno gives us here.
    FILE* probe = std::fopen(path_.c_str(), "rb");
    if (!probe)
        fail(std::string("unreadable: ") + std::strerror(errno));
    std::fclose(probe);

    gzFile gz = gzopen(path_.c_str(), "rb");
    if (!gz)
        fail("unreadable: cannot open");
    gz_ = gz;
    gzbuffer(gz, 1u << 18);
    // Right after gzopen, gzdirect() peeks at the header to tell gzip from raw data.
    compressed_ = gzdirect(gz) == 0;
}

FileReader::~FileReader()
{
    if (gz_)
        gzclose(static_cast<gzFile>(gz_));
}

void FileReader::fail(const std::string& problem) const
{
    failFile(path_, problem);
}

size_t FileReader::read(uint8_t* dst, size_t n)
{
    auto* gz = static_cast<gzFile>(gz_);
    size_t total = 0;
    while (total < n) {
        // gzread takes an unsigned and returns an int: stay well inside both.
        const auto chunk = static_cast<unsigned>(std::min<size_t>(n - total, size_t{1} << 26));
        const int got = gzread(gz, dst + total, chunk);
        int errnum = Z_OK;
        const char* msg = gzerror(gz, &errnum);
        if (got < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
            if (errnum == Z_BUF_ERROR)
                fail("gzip stream is truncated (unexpected end of compressed data)");
            if (errnum == Z_ERRNO)
                fail(std::string("unreadable: ") + std::strerror(errno));
            fail(std::string("gzip data is corrupt: ") + (msg && *msg ? msg : "decompression failed"));
        }
        if (got == 0)
            break;
        total += static_cast<size_t>(got);
    }
    return total;
}

size_t FileReader::readAppend(std::vector<uint8_t>& out, uint64_t n)
{
    constexpr uint64_t kChunk = uint64_t{1} << 24;
    size_t total = 0;
    while (n > 0) {
        const auto want = static_cast<size_t>(std::min(n, kChunk));
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
