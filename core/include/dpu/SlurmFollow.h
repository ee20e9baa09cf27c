// SPDX-License-Identifier: MIT
// Following a Slurm sweep until no cell is queued or running: a plain function with an observer and the RunControl token.
#pragma once
#include "dpu/RunControl.h"
#include "dpu/SlurmSweep.h"
#include "dpu/Sweep.h"
#include <string>

namespace dpu {

/// Settings of followSlurmSweep().
struct SlurmFollowOptions {
    std::string sweepDir;     ///< the sweep folder submitSlurmSweep() wrote
    double pollSeconds = 10;  ///< between two looks at the queue (each runs squeue once); > 0
};

/// What followSlurmSweep() reports, on the caller's thread, after each look at the queue.
/// Observers only observe: the follow is stopped through its RunControl token.
class SlurmFollowObserver {
public:
    virtual ~SlurmFollowObserver() = default;
    /// squeue failed with `error` (told once per new message): the states of this look come from
    /// the cell folders only, and the follow goes on.
    virtual void queueUnreadable(const std::string& error) {}
    /// `cell` left the queue since the previous look: Done, Failed, or Pending when its task was
    /// stopped (scancel, time limit, pre-emption) and the cell is resumable. Not told on the first look.
    virtual void cellEnded(const SweepCell& cell, const SlurmCellStatus& status) {}
    /// Every look, the first included, after its cellEnded() calls: the whole sweep's states.
    virtual void statusRead(const SlurmSweepStatus& status) {}
};

/// How a follow ended.
struct SlurmFollowSummary {
    SlurmSweepStatus status; ///< the last look at the queue and the cell folders
    bool stopped = false;    ///< the token was cancelled: the cells go on in Slurm without us
};

/// Looks at the sweep in options.sweepDir (slurmSweepStatus: squeue, sacct when needed, the cell
/// folders) every options.pollSeconds until no cell is queued or running there and the queue
/// could be read, or `control` is cancelled (checked ten times a second between looks; a signal
/// handler or a button sets it; pause is not honoured: the cells run in Slurm, not here). The
/// cells in Slurm are never touched. Throws Error naming the field for a poll interval <= 0, and
/// what slurmSweepStatus() throws (a malformed backend.json).
SlurmFollowSummary followSlurmSweep(const Sweep& sweep, const SlurmFollowOptions& options, SlurmCommands& slurm,
                                    SlurmFollowObserver& observer, const RunControl& control);

} // namespace dpu
