// SPDX-License-Identifier: MIT
// Loads a TorchScript file first in a check process of its own, so that LibTorch's crashes on damaged files end that process only.
#pragma once
#include <optional>
#include <string>

namespace dpu {

/// LibTorch 1.13 ends the process on some damaged files instead of throwing: its importer reads
/// out of bounds (SIGSEGV, damaged_crash.pt) or its error report throws from what()
/// (std::terminate, damaged_report.pt); both found by fuzz_torchscript. A damaged file must not
/// take the window or a run with it, so a check process loads it first (and checks its tensors)
/// as ScriptNetwork then does, and builds the error message there. Returns why the check refused
/// the file; nullopt when it loaded it or could not tell (the check could not start, or hung for
/// 60 s): the caller then loads it in this process as before. Blocks until the check replies;
/// threads take turns. Throws nothing.
///
/// The check process is this program started again (posix_spawn of /proc/self/exe, see
/// util/ProcessSpawn.h for why not fork: a fork runs every pthread_atfork handler of this
/// process, and OpenBLAS's hung a thread inside fork in a process that had used BLAS). Its start
/// costs about half a second, so it stays for the next file, for a minute at most (idle, it holds
/// about 60 MB of its own), and ends at this program's exit at the latest; one that has ended
/// (idle, or by a crash on a file) is replaced at the next file. Only the fuzz build fuzz_torchscript_inprocess loads without it.
std::optional<std::string> refusedByCheckProcess(const std::string& path);

} // namespace dpu
