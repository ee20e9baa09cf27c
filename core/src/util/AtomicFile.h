// SPDX-License-Identifier: MIT
// Writes files atomically: a temporary name in the same folder, flushed to disk, then renamed.
#pragma once
#include <string>

namespace dpu {

/// Replaces `path` with `content` atomically (readers see the old or the new file, never a
/// mix). Throws Error naming the path on failure; the old file is then untouched.
void writeFileAtomic(const std::string& path, const std::string& content);

/// Reads a whole file. Throws Error naming the path when it cannot be read.
std::string readWholeFile(const std::string& path);

/// Renames `from` over `to` after flushing `from` to disk. Throws Error on failure.
void commitFile(const std::string& from, const std::string& to);

} // namespace dpu
