// SPDX-License-Identifier: MIT
// What a sweep folder records about the backend running it, and the cancel request both backends obey.
#pragma once
#include "dpu/PlanEnums.h"
#include <optional>
#include <string>
#include <vector>

namespace dpu {

/// Which backend runs a sweep's cells: processes on this computer, or Slurm job arrays.
enum class SweepBackend { Local, Slurm };

/// Their names in backend.json and in `dpu-cli sweep run --backend` ("local", "slurm"), spelled
/// once (SweepControl.cpp) in the plan enums' form, so nameOf() and enumFromString() read them.
template <> const std::vector<EnumName<SweepBackend>>& enumNames<SweepBackend>();

/// One `sbatch` of the Slurm backend: its job id and the cells of its array, task i = cells[i].
struct SlurmSubmission {
    std::string jobId;
    std::vector<std::string> cells;
    std::string script;     ///< the sbatch script, relative to the sweep folder
    std::string submitted;  ///< ISO time
};

/// DIR/backend.json: which backend ran the sweep last and how to reach what it started.
struct SweepBackendRecord {
    SweepBackend backend = SweepBackend::Local; ///< "backend": which one ran the sweep last
    std::string host;                      ///< local: the machine running the sweep process
    long pid = 0;                          ///< local: the sweep process (0 once it ended)
    bool stopped = false;                  ///< local: that process ended on a stop request, so
                                           ///< the cells it never started were cancelled
    std::string started;                   ///< ISO time of the last `sweep run`
    std::vector<SlurmSubmission> submissions; ///< slurm: every submission, oldest first
};

/// Reads sweepDir/backend.json; nullopt when the folder has none (a sweep never run, or run by
/// a version without it). Throws Error naming the file when it is unreadable or malformed.
std::optional<SweepBackendRecord> readSweepBackend(const std::string& sweepDir);

/// Writes sweepDir/backend.json atomically. Throws Error on I/O failure.
void writeSweepBackend(const std::string& sweepDir, const SweepBackendRecord& record);

/// Asks the sweep in sweepDir to stop (writes sweepDir/cancel.json): a running local sweep polls
/// for it and stops its cells as Ctrl-C does. Throws Error on I/O failure.
void requestSweepCancel(const std::string& sweepDir);
/// True when a cancel was requested and not cleared since.
bool sweepCancelRequested(const std::string& sweepDir);
/// Forgets a cancel request (a new `sweep run` starts by clearing a stale one). Never throws.
void clearSweepCancel(const std::string& sweepDir);

/// This machine's host name ("" when it cannot be read).
std::string thisHostName();

/// True when the process `pid` exists on this machine and has not ended (a zombie has). A reused
/// pid counts as alive: the caller compares the host and only waits on it.
bool processAlive(long pid);

} // namespace dpu
