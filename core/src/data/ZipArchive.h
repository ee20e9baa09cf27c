// SPDX-License-Identifier: MIT
// The ZIP container of .npz files read from memory (stored and deflated entries, ZIP64), without LibTorch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpu::data {

/// One member as the central directory describes it.
struct ZipEntry {
    std::string name;
    uint16_t method = 0; ///< 0 stored, 8 deflated
    uint32_t crc32 = 0;
    uint64_t compressedSize = 0;
    uint64_t size = 0;
    uint64_t localOffset = 0;
};

/// The members of the archive of `size` bytes at `data`, in directory order. Throws DataError
/// "<where>: <problem>" when there is no end-of-central-directory record (not a ZIP file, or cut
/// short), the directory lies outside the file, or it spans several disks.
std::vector<ZipEntry> listZip(const uint8_t* data, size_t size, const std::string& where);

/// The member's bytes, inflated with zlib and checked against its size and CRC-32. Throws
/// DataError "<where>:<entry name>: <problem>" for encryption, a method other than stored or
/// deflated, a size over `maxBytes`, corrupt or truncated data, or a CRC mismatch.
std::vector<uint8_t> extractZip(const uint8_t* data, size_t size, const ZipEntry& entry, const std::string& where,
                                uint64_t maxBytes);

} // namespace dpu::data
