// SPDX-License-Identifier: MIT
// The one atomic file writer (crash-tested in core), for every layer that saves a file.
#pragma once
#include <string>

namespace dpu {

/// Writes `content` to `path`; what stands there decides how (docs/architecture.md, "Writing files"):
/// - nothing, or a regular file: replaced atomically (readers see the old or the new file, never
///   a mix): a temporary name in the same folder, flushed to disk, then renamed; a replaced file
///   keeps its permission bits (and, for root, its owner); its other hard links keep the old
///   contents;
/// - a symbolic link: followed (chains too); its target is replaced as above, the link stays;
/// - a character device or a FIFO (`/dev/null`, a pipe): written through, never replaced; a FIFO
///   without a reader is refused at once instead of waiting;
/// - a folder, a block device, a socket, a link loop, a name longer than the file system takes:
///   refused before anything is written.
/// Missing folders on the way are created. Throws Error naming the path and the reason on
/// failure (a full disk, a read-only folder ...); the old file is then untouched.
void writeFileAtomic(const std::string& path, const std::string& content);

} // namespace dpu
