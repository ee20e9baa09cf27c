// SPDX-License-Identifier: MIT
// The one atomic file writer (crash-tested in core), for every layer that saves a file.
#pragma once
#include <string>

namespace dpu {

/// Replaces `path` with `content` atomically (readers see the old or the new file, never a
/// mix): a temporary name in the same folder, flushed to disk, then renamed. Throws Error
/// naming the path on failure; the old file is then untouched.
void writeFileAtomic(const std::string& path, const std::string& content);

} // namespace dpu
