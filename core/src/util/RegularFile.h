// SPDX-License-Identifier: MIT
// What a path to read names, checked before reading: a regular file and its size, or an error that says what it is instead.
#pragma once
#include <cstdint>
#include <string>

namespace dpu {

/// The size of the regular file at `path`. Throws Error naming the path when it is missing or no
/// regular file (a folder, FIFO, socket or device node such as /dev/zero), found by what it is
/// before anything reads it: a FIFO would block and /dev/zero never end.
uint64_t regularFileSize(const std::string& path);

} // namespace dpu
