// SPDX-License-Identifier: MIT
// Writes files atomically: a temporary name in the same folder, flushed to disk, then renamed.
#pragma once
#include <string>

namespace dpu {

/// Replaces `path` with `content` atomically (readers see the old or the new file, never a
/// mix). Throws Error naming the path on failure; the old file is then untouched.
void writeFileAtomic(const std::string& path, const std::string& content);

/// Creates `path` with `content`, readable and writable by its owner only: the file is opened
/// O_CREAT|O_EXCL with mode 0600, so no other user can open it at any moment. Atomic like
/// writeFileAtomic (a temporary name, flushed, then linked into place). Throws Error naming the
/// path when anything exists there already (never replaced, a dangling link included) or on failure.
void writeNewPrivateFile(const std::string& path, const std::string& content);

/// Reads a whole file. Throws Error naming the path when it cannot be read.
std::string readWholeFile(const std::string& path);

/// Renames `from` over `to` after flushing `from` to disk. Throws Error on failure.
void commitFile(const std::string& from, const std::string& to);

} // namespace dpu
