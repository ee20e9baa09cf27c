// SPDX-License-Identifier: MIT
// The Slurm sweep backend: one sbatch job array per submission, one array task per cell (docs/sweep-format.md).
#pragma once
#include "dpu/RunControl.h"
#include "dpu/Sweep.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dpu {

/// What one Slurm command printed and returned.
struct SlurmCommandResult {
    int code = 0;     ///< exit code; 127 when the program could not be started
    std::string out;  ///< standard output
    std::string err;  ///< standard error
};

/// Runs Slurm's command-line tools (sbatch, squeue, sacct, scancel). The backend only talks to
/// Slurm through this, so tests check the commands and feed it squeue/sacct output without Slurm.
class SlurmCommands {
public:
    virtual ~SlurmCommands() = default;
    /// Runs argv (argv[0] looked up on PATH) and waits for it. Never throws.
    virtual SlurmCommandResult run(const std::vector<std::string>& argv) = 0;
};

/// The real tools, found on PATH, talking to the cluster SLURM_CONF (or /etc/slurm) names.
std::unique_ptr<SlurmCommands> systemSlurmCommands();

/// Settings of submitSlurmSweep().
struct SlurmSweepOptions {
    std::string outDir;           ///< the sweep folder, on a filesystem every node sees
    std::string program;          ///< dpu-cli, at a path every node sees
    SweepSlurmSettings settings;  ///< the sweep file's "slurm" object with the command line's overrides
    /// Array tasks per sbatch: more cells go out as several arrays (Slurm's MaxArraySize,
    /// default 1001, allows task ids 0 .. 1000). Each array has its own throttle.
    size_t maxArrayTasks = 1000;
};

/// The sbatch script of one submission: `--array=0-(N-1)[%throttle]`, one task per cell in
/// `cells` order, `--requeue`, the settings as #SBATCH lines, each task running
/// `PROGRAM sweep task DIR ID`. `sweepDir` and `program` should be absolute.
std::string slurmArrayScript(const std::string& sweepDir, const std::string& program,
                             const std::vector<std::string>& cells, const SweepSlurmSettings& settings,
                             const std::string& jobName);

/// Reads `squeue --noheader --array --format=%i|%T` or `sacct --noheader --parsable2
/// --allocations --format=JobID,State` output: "JOB_TASK" -> state word ("PENDING", "RUNNING",
/// "CANCELLED" ...). Ranges such as 12_[3-5%2] or 12_[1,4] are expanded; lines of other jobs
/// (no array task) and blank lines are skipped. Never throws.
std::map<std::string, std::string> parseSlurmTaskStates(const std::string& text);

/// True for a Slurm state in which the task is still queued or on a node.
bool slurmStateIsLive(const std::string& state);

/// A cell's state from its files (sweepCellState) and what Slurm says of its latest array task
/// ("" when Slurm does not list it). `submitted`: the cell belongs to a submission, so a start
/// without an exit record and no task in the queue means the task died (failed).
CellState slurmCellState(CellState fromFiles, const std::string& slurmState, bool submitted);

/// One cell as the Slurm backend sees it.
struct SlurmCellStatus {
    CellState state = CellState::Pending;
    std::string task;        ///< JOB_TASK of its latest submission, "" when never submitted
    std::string slurmState;  ///< what squeue (or sacct) says of that task, "" when neither lists it
    bool live = false;       ///< queued or running in Slurm now
};

/// Every cell of a Slurm sweep folder, in the sweep's cell order.
struct SlurmSweepStatus {
    std::vector<SlurmCellStatus> cells;
    bool queueRead = true;  ///< false when squeue failed (then the states come from the files only)
    std::string queueError; ///< squeue's message when it failed
};

/// Reads the folder's backend.json, asks squeue (and sacct, when a cell needs it and accounting
/// is enabled) about its array tasks, and combines that with each cell's files. Throws Error
/// naming the file when backend.json is malformed.
SlurmSweepStatus slurmSweepStatus(const Sweep& sweep, const std::string& sweepDir, SlurmCommands& slurm);

/// What submitSlurmSweep() did.
struct SlurmSubmitSummary {
    size_t cells = 0;
    size_t done = 0;       ///< finished before: not submitted
    size_t live = 0;       ///< still queued or running from an earlier submission: not submitted again
    size_t submitted = 0;  ///< array tasks of the new jobs (0: nothing to do, no job)
    std::vector<std::string> jobIds;  ///< one per array (see maxArrayTasks)
    std::vector<std::string> scripts; ///< the sbatch scripts written, relative to the folder
};

/// Writes DIR/sweep.json and every cell's plan.json, then submits the cells neither done nor
/// live in Slurm as job arrays of at most maxArrayTasks tasks (DIR/slurm/submit-N.sbatch, logs
/// in DIR/slurm/logs) with `sbatch --parsable`, and records each job in DIR/backend.json as soon
/// as it is accepted. Throws Error naming the path or quoting sbatch's message when the folder
/// cannot be written or sbatch refuses (the arrays accepted before stay recorded).
SlurmSubmitSummary submitSlurmSweep(const Sweep& sweep, const SlurmSweepOptions& options, SlurmCommands& slurm);

/// Cancels (scancel) every recorded job that still has tasks queued or running; the running
/// cells get SIGTERM, keep their finished rounds and count as pending. Returns the job ids
/// cancelled. Throws Error quoting scancel's message when it fails.
std::vector<std::string> cancelSlurmSweep(const Sweep& sweep, const std::string& sweepDir, SlurmCommands& slurm);

/// The body of one array task (`dpu-cli sweep task DIR ID`): records the start, runs the cell as
/// the local backend does with `threads` threads, passes one SIGTERM on when `control` is
/// cancelled (read about ten times a second; the caller's signal handler sets it), records the
/// exit and returns the cell's exit code (0 at once for a done cell). Throws Error naming the
/// folder when the cell is unknown or its files cannot be written.
int runSweepCellTask(const std::string& sweepDir, const std::string& id, const std::string& program, int threads,
                     const RunControl& control);

} // namespace dpu
