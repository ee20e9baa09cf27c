// SPDX-License-Identifier: MIT
// Lower-case hex SHA-256 of a byte buffer (the device code's implementation), for records and checks.
#pragma once
#include "dpu_sha256.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

inline std::string sha256Hex(const std::vector<uint8_t>& bytes)
{
    uint8_t digest[DPU_SHA256_SIZE];
    dpu_sha256_buf(bytes.data(), bytes.size(), digest);
    static const char* hex = "0123456789abcdef";
    std::string s;
    for (uint8_t b : digest)
        s += {hex[b >> 4], hex[b & 15]};
    return s;
}

} // namespace dpu
