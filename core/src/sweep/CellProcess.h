// SPDX-License-Identifier: MIT
// One cell's child process (`dpu-cli run CELL/plan.json --out CELL --resume --quiet`), shared by both backends.
#pragma once
#include <sys/types.h>
#include <string>

namespace dpu {

/// Records the cell SWEEP/cells/ID as started, then starts `program run CELL/plan.json --out CELL
/// --resume --quiet` (posix_spawn) with its output appended to CELL/cell.log, OMP_NUM_THREADS =
/// MKL_NUM_THREADS = threads, every signal at its default and in a process group of its own (a
/// terminal's Ctrl-C reaches the sweep, which passes a SIGTERM on). When the program cannot start
/// (missing, not executable), records the cell's exit as 127 (failed, not left running) and
/// throws Error naming the program.
pid_t startCellProcess(const std::string& program, const std::string& sweepDir, const std::string& id, int threads);

/// The exit code a wait status stands for: the process's own, or 128 + the signal that ended it.
int cellExitCode(int waitStatus);

} // namespace dpu
