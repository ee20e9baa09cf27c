// SPDX-License-Identifier: MIT
// Sequential reader of one dataset file, gzip-compressed or raw, that reports problems as DataError.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

/// Reads a file front to back. Gzip is detected from the content, not the name, so a
/// decompressed file that kept its ".gz" name (or the reverse) still loads.
class FileReader {
public:
    /// Opens `path`; throws DataError if it is missing, not a regular file or unreadable.
    explicit FileReader(std::string path);
    ~FileReader();
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;

    const std::string& path() const { return path_; }
    bool compressed() const { return compressed_; }
    /// Size on disk (compressed size for gzip).
    uint64_t diskSize() const { return diskSize_; }

    /// Reads up to `n` bytes into `dst`; returns fewer only at the end of the data.
    /// Throws DataError if the gzip stream is corrupt or cut short.
    size_t read(uint8_t* dst, size_t n);

    /// Appends up to `n` bytes to `out`, growing it only as data actually arrives, so a
    /// header that claims a huge size cannot make us allocate more than the file holds.
    size_t readAppend(std::vector<uint8_t>& out, uint64_t n);

    /// Throws DataError naming the file: "<path>: <problem>".
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::string path_;
    void* gz_ = nullptr; // gzFile; kept opaque so that zlib.h stays out of the other sources
    bool compressed_ = false;
    uint64_t diskSize_ = 0;
};

/// Throws DataError "<path>: <problem>".
[[noreturn]] void failFile(const std::string& path, const std::string& problem);

} // namespace dpu::data
