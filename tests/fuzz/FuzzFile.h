// SPDX-License-Identifier: MIT
// The fuzz input as a file: the dataset readers take paths (they stream and may inflate gzip).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace dpu::fuzz {

/// Writes the bytes to one file per process under /dev/shm (or TMPDIR) and returns its path.
inline std::string asFile(const uint8_t* data, size_t size)
{
    static const std::string path = [] {
        const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
        return std::string(dir) + "/dpu-fuzz-" + std::to_string(getpid());
    }();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0)
        std::abort(); // the harness itself failed, not the reader
    return path;
}

} // namespace dpu::fuzz
