// SPDX-License-Identifier: MIT
// A sweep folder at a glance, whichever backend runs it: each cell's state for `sweep status` and the window.
#pragma once
#include "dpu/Sweep.h"
#include "dpu/SweepControl.h"
#include <optional>
#include <string>
#include <vector>

namespace dpu {

class SlurmCommands;

/// What a viewer shows of a cell: CellState plus "cancelled" for a cell a stop ended.
enum class CellView { Pending, Running, Done, Failed, Cancelled };

/// "pending", "running", "done", "failed", "cancelled".
const char* cellViewName(CellView view);

/// One cell of a sweep folder.
struct SweepCellStatus {
    std::string id;
    std::string axes;        ///< "k = 0.01, bundle.values = \"q8\"" (sweepAxesLabel)
    CellState state = CellState::Pending; ///< what `sweep run` acts on
    CellView view = CellView::Pending;    ///< what is shown: a stopped pending cell is Cancelled
    std::string runDir;      ///< DIR/cells/ID: a normal run folder (results.jsonl once a round ended)
    std::string slurmTask;   ///< Slurm backend: JOB_TASK of its latest submission, else ""
    std::string slurmState;  ///< Slurm backend: what squeue/sacct said of it, else ""
};

/// A sweep folder read once.
struct SweepFolderStatus {
    std::string dir;
    std::optional<SweepBackend> backend; ///< nullopt: never run (no backend.json)
    bool active = false;     ///< local: the sweep process lives on this host; slurm: a task is queued or running
    std::string host;        ///< local: where the sweep process runs (another host: `active` is unknown, false)
    std::vector<SweepCellStatus> cells; ///< in the sweep's cell order
    bool queueRead = true;   ///< slurm: false when squeue could not be read (states from the files only)
    std::string queueError;

    size_t count(CellView view) const;
    /// "4 cells: 2 done, 1 running, 1 pending, 0 failed, 0 cancelled".
    std::string summary() const;
};

/// "k = 0.01, bundle.values = \"q8\"": a cell's axis values.
std::string sweepAxesLabel(const SweepCell& cell);

/// Reads DIR/sweep.json, DIR/backend.json and every cell's files; for a Slurm sweep also asks
/// `slurm` (squeue, sacct; null: the files only, queueRead false). The same states
/// `dpu-cli sweep status` prints. Throws Error naming the file when sweep.json is missing or
/// malformed, or backend.json is malformed.
SweepFolderStatus readSweepFolderStatus(const std::string& sweepDir, SlurmCommands* slurm);

/// Stops the sweep in DIR as `dpu-cli sweep cancel` does, without waiting: a Slurm sweep's live
/// jobs are scancelled through `slurm` (required then), a local one gets DIR/cancel.json, which
/// its sweep process polls (from any host sharing the folder). Returns what was done, for a log
/// line ("" when nothing was running). Throws Error naming the folder on failure.
std::string cancelSweepFolder(const std::string& sweepDir, SlurmCommands* slurm);

} // namespace dpu
