// SPDX-License-Identifier: MIT
// Writes files atomically: a temporary name in the same folder, flushed to disk, then renamed.
#pragma once
#include "dpu/AtomicWrite.h" // writeFileAtomic
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {


/// Creates `path` with `content`, readable and writable by its owner only: the file is opened
/// O_CREAT|O_EXCL with mode 0600, so no other user can open it at any moment. Atomic like
/// writeFileAtomic (a temporary name, flushed, then linked into place). Throws Error naming the
/// path when anything exists there already (never replaced, a dangling link included) or on failure.
void writeNewPrivateFile(const std::string& path, const std::string& content);

/// Removes what writers killed mid-write left under `dir` (recursively): files named
/// "<name>.tmp-<pid>" or "<name>.tmp", the temporaries of writeFileAtomic and commitFile's callers.
/// A resumed run calls it first; the folder must belong to the run. Returns how many it removed.
int removeStaleTemporaries(const std::string& dir);

/// Fault injection for the crash tests: with DPU_CRASH_AT_WRITE=n in the environment, the n-th
/// call of this function in the process ends it at once (_exit(99), no cleanup, as a power cut
/// or SIGKILL would); with DPU_FAIL_WRITE_AT=n the n-th call throws Error naming `path` as a
/// full disk would. The writers above call it before, between and after their steps.
void crashPoint(const std::string& path);

/// The largest file readWholeFile() takes (4 GiB): a plan, a run's records, a bundle or a device
/// file is far smaller, and a larger one would exhaust the memory it is read into.
constexpr uint64_t kMaxWholeFileBytes = uint64_t(4) << 30;

/// Reads a whole regular file. Throws Error naming the path when it cannot be read, is no regular
/// file (regularFileSize()) or is larger than kMaxWholeFileBytes.
std::string readWholeFile(const std::string& path);

/// The 64-byte Ed25519 secret key in the file at `path` (from dpu-cli bundle keygen). Reads a
/// regular file only, and at most one byte past the key: a FIFO would block and /dev/zero never
/// end. Throws Error naming the path and `what` ("plan bundle.secret_key") when it is no regular
/// file, cannot be read, or holds another size.
std::vector<uint8_t> readSecretKeyFile(const std::string& path, const std::string& what);

/// Renames `from` over `to` after flushing `from` to disk. Throws Error on failure.
void commitFile(const std::string& from, const std::string& to);

} // namespace dpu
