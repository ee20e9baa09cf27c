// SPDX-License-Identifier: MIT
// Sequential reader of one dataset file or memory buffer, gzip-compressed or raw, that reports problems as DataError.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dpu::data {

/// Reads a file, or bytes already in memory, front to back. Gzip is detected from the content,
/// not the name, so a decompressed file that kept its ".gz" name (or the reverse) still loads.
/// Both sources share the detection and the inflation: only where the next input bytes come
/// from differs, so a reader fuzzed over memory is the reader that loads files.
class FileReader {
public:
    /// Opens `path`; throws DataError if it is missing, not a regular file or unreadable.
    explicit FileReader(std::string path);
    /// Reads `size` bytes at `data` (not copied: they must outlive the reader) as the content of
    /// a file called `name`, the name every error message gives.
    FileReader(std::string name, const uint8_t* data, size_t size);
    ~FileReader();
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;

    const std::string& path() const { return path_; }
    bool compressed() const { return compressed_; }
    /// Size on disk (compressed size for gzip); the buffer's size for a memory source.
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
    struct Source; // input bytes and the inflate state; zlib.h stays out of the other sources
    void start();
    bool refill();
    size_t inflateInto(uint8_t* dst, size_t n);

    std::string path_;
    std::unique_ptr<Source> src_;
    bool compressed_ = false;
    uint64_t diskSize_ = 0;
};

/// Throws DataError "<path>: <problem>".
[[noreturn]] void failFile(const std::string& path, const std::string& problem);

} // namespace dpu::data
