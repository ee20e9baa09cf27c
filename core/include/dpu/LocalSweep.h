// SPDX-License-Identifier: MIT
// The local sweep backend: a sweep's unfinished cells as child runs on this machine, N at a time.
#pragma once
#include "dpu/RunControl.h"
#include "dpu/Sweep.h"
#include <cstddef>
#include <string>

namespace dpu {

/// Settings of runLocalSweep().
struct LocalSweepOptions {
    std::string outDir;  ///< the sweep folder (created)
    int jobs = 1;        ///< cells run at the same time (1 .. 256)
    /// The program that runs one cell, invoked as `PROGRAM run CELL/plan.json --out CELL --resume
    /// --quiet` with its output in CELL/cell.log: dpu-cli.
    std::string program;
    int cores = 0;       ///< cores to divide between the jobs (0: this machine's)
    /// Not owned, may be null. Cancel stops the sweep (the running cells get SIGTERM, keep their
    /// finished rounds and end with kCellStoppedExit; no new cell starts); pause starts no new
    /// cell and suspends the running ones (SIGSTOP) until resumed (SIGCONT). Read about ten
    /// times a second. A `sweep cancel` from another process (outDir/cancel.json) is read into
    /// it: the token is then cancelled.
    RunControl* control = nullptr;
};

/// What runLocalSweep() reports; called on the caller's thread, between its waits. Observers
/// only observe: the sweep is stopped through LocalSweepOptions::control.
class LocalSweepObserver {
public:
    virtual ~LocalSweepObserver() = default;
    /// Before the first cell starts: how many cells, how many are done already, threads per cell.
    virtual void sweepStarted(size_t cells, size_t done, int jobs, int threadsPerCell, int cores) {}
    virtual void cellStarted(const SweepCell& cell) {}
    /// A cell's process ended: its state now, its exit code and wall time.
    virtual void cellEnded(const SweepCell& cell, CellState state, int exitCode, double seconds) {}
    /// The sweep's cells were suspended (true) or resumed (false) after a change of
    /// LocalSweepOptions::control's pause.
    virtual void sweepPaused(bool paused) {}
};

/// How a local sweep ended.
struct LocalSweepSummary {
    size_t cells = 0;
    size_t skipped = 0; ///< done before this call
    size_t ran = 0;     ///< processes that ended during this call
    size_t failed = 0;  ///< of those, ended neither done nor stopped
    bool stopped = false;
};

/// Writes outDir/sweep.json (the sweep with its base inlined) and every cell's plan.json, then
/// runs every cell not done, `jobs` at a time, each with OMP_NUM_THREADS = cores / jobs (at
/// least 1; a plan's own `threads` still wins), recording started.json and exit.json in its
/// folder. Returns when every started cell has ended. Throws Error naming the path when the
/// folder cannot be written or a process cannot be started (cells already running are then
/// stopped and waited for).
LocalSweepSummary runLocalSweep(const Sweep& sweep, const LocalSweepOptions& options, LocalSweepObserver& observer);

/// The cells a local sweep runs at once when the user names no number (`--jobs`): 1 when every
/// cell trains on the CPU (one cell gets all `cores`; cells side by side would only divide them),
/// else one cell per core, at most the sweep's cells. A run on a GPU is bound by its process's
/// host thread (kernel launches), not by the GPU, so runs side by side share it well: on one
/// H200 with 16 cores, 12 to 24 cells at once did 5 to 7 times the work per minute of one at a
/// time (docs/benchmarks.md, section 20). A cell whose device is "auto" counts as a GPU cell
/// when `gpu` is true. Throws nothing.
int defaultLocalSweepJobs(const Sweep& sweep, int cores, bool gpu);

/// defaultLocalSweepJobs() for this machine: its online cores, and whether LibTorch sees a
/// CUDA device.
int defaultLocalSweepJobs(const Sweep& sweep);

} // namespace dpu
