// SPDX-License-Identifier: MIT
// Sweeps: a base plan plus axes of plan values (or a list of cells), expanded to cells with content-derived ids (docs/sweep-format.md).
#pragma once
#include "dpu/Plan.h"
#include <string>
#include <utility>
#include <vector>

namespace dpu {

/// One axis of a sweep: a plan key path ("k", "bundle.values", "train.lr") and its values,
/// each kept as compact JSON text (0.005, "q8", [1]).
struct SweepAxis {
    std::string key;
    std::vector<std::string> values;
};

/// One cell: the base plan with one value of every axis applied (or one listed entry's values).
struct SweepCell {
    /// First 12 hex digits of SHA-256 of planToJson(plan as the axes make it): same plan, same id.
    /// A base named by its fields (automaticPlanName) names each cell by its own, after the id
    /// is taken, so the id stays what it was before cells were renamed.
    std::string id;
    Plan plan;
    /// (axis key, value as compact JSON) in the sweep's axis order; a listed cell: its entry's
    /// keys and values in the entry's order (the keys of other entries are not there).
    std::vector<std::pair<std::string, std::string>> axisValues;
};

/// The sweep file's optional "slurm" object: what every array task of the Slurm backend asks
/// for (dpu-cli's --partition, --time ... options override it). Empty/0: Slurm's defaults.
struct SweepSlurmSettings {
    std::string partition;  ///< "partition"
    std::string time;       ///< "time": a Slurm time limit per cell, e.g. "02:00:00" or "90"
    std::string mem;        ///< "mem": memory per cell, e.g. "4G"
    int cpusPerTask = 0;    ///< "cpus_per_task": also the cell's threads (0: 1)
    int gpusPerTask = 0;    ///< "gpus_per_task": --gres=gpu:N per task
    int throttle = 0;       ///< "throttle": the array's %N, cells running at once (0: no limit)
};

/// A sweep file read and expanded.
struct Sweep {
    std::string source;            ///< the file (or label) errors name
    std::string baseJson;          ///< the base plan object as compact JSON (inlined when it was a path)
    /// In the file's key order. A listed-cells sweep: the keys its cells set (first seen first),
    /// each with the values they give it, distinct (not a product: `cells` are what runs).
    std::vector<SweepAxis> axes;
    std::vector<SweepCell> cells;  ///< cartesian product, the last axis varying fastest; or as listed
    bool listed = false;           ///< the file listed its cells ("cells") instead of "axes"
    SweepSlurmSettings slurm;      ///< the optional "slurm" object (not part of any cell's plan)

    /// The sweep as a self-contained sweep file (base inlined; "cells" listed when `listed`,
    /// else "axes"), which parseSweep() reads back to the same cells and ids: what a sweep
    /// folder keeps as sweep.json.
    std::string toJson() const;
};

/// Parses sweep JSON: {"base": {plan} | "PLAN.json", "axes": {"KEY": [values...], ...},
/// "slurm": {...} (optional)}, or with "cells": [{"KEY": value, ...}, ...] instead of "axes"
/// (one cell per entry, its keys applied to the base, in the listed order).
/// A base path is read relative to `baseDir`. Every cell is checked with parsePlan().
/// Throws Error naming `source` (and the axis and value, or the entry's index and keys) for
/// malformed JSON, unknown top-level keys, a missing base, both axes and cells or neither, an
/// axis that is not a non-empty list, a repeated value, cells that are not a non-empty list of
/// non-empty objects, a key path through a non-object, a value the plan refuses, or two cells
/// with the same plan.
Sweep parseSweep(const std::string& jsonText, const std::string& source = "sweep",
                 const std::string& baseDir = ".");

/// Reads a sweep file (base paths relative to its folder). Throws Error as parseSweep() does,
/// or naming the path when it cannot be read.
Sweep loadSweepFile(const std::string& path);

/// The id of a cell plan: first 12 hex digits of SHA-256 of planToJson(plan).
std::string sweepCellId(const Plan& plan);

/// Where a cell of a sweep folder stands, from DIR/cells/ID (run.json, exit.json).
enum class CellState { Pending, Running, Done, Failed };

/// "pending", "running", "done", "failed".
const char* cellStateName(CellState state);

/// The folder of a cell inside a sweep folder: sweepDir/cells/ID.
std::string sweepCellDir(const std::string& sweepDir, const std::string& id);

/// A run's name for people: a sweep's cell (SWEEP/cells/ID, ID a hash, sweep.json beside
/// cells/) by its sweep folder's name and the cell's keys, "my-sweep k=0.01 bundle.values=q4";
/// any other run, or a cell its sweep file no longer reads or lists, by its folder's name
/// (RunFolder::label()). Never throws.
std::string runDisplayName(const std::string& runDir);

/// The exit code of a run stopped on request (Ctrl-C, SIGTERM): its cell counts as pending.
constexpr int kCellStoppedExit = 130;

/// A cell's state: done when run.json says finished, failed when exit.json holds a non-zero
/// exit code other than kCellStoppedExit (pending; written by the sweep runner after the cell's process ended), running when the
/// run has started (run.json) or exit.json is absent but started.json is present, else pending.
/// Never throws: an unreadable run.json counts as running (a resume will redo it).
CellState sweepCellState(const std::string& sweepDir, const std::string& id);

/// Records the end of a cell's process (exit code; 0 with a finished run is done) atomically.
void writeCellExit(const std::string& sweepDir, const std::string& id, int exitCode);
/// Marks a cell as started (and forgets an earlier exit.json). Throws Error on I/O failure.
void writeCellStarted(const std::string& sweepDir, const std::string& id);

/// Merges the results.jsonl of every cell of the sweep folder (read from its sweep.json) into
/// sweepDir/results.jsonl, written atomically: every record gains "cell" (the id) and
/// "axes" (an object of the axis values). Cells without results are left out. Returns the
/// number of records written. Throws Error naming the file that could not be read.
size_t mergeSweepResults(const std::string& sweepDir, std::vector<std::string>* missingCells = nullptr);

} // namespace dpu
