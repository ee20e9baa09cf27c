// SPDX-License-Identifier: MIT
// The multi-round runner: executes a plan per seed, round and strategy, with checkpoints and resume.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include "dpu/RecordFiles.h" // a run writes its records as these say
#include "dpu/RunControl.h"
#include <memory>
#include <string>

namespace dpu {

struct RunOptions {
    std::string outDir;   ///< results.jsonl, results.csv, plan.json, checkpoint/ (empty: write nothing)
    bool resume = false;  ///< continue from outDir/checkpoint when present
    /// Pause/cancel token read before every batch (not owned; must outlive run()). Null: the
    /// run cannot be paused or cancelled from outside. Paused, the run sleeps at a batch boundary,
    /// polling the token, and tells the observer (runPaused).
    RunControl* control = nullptr;
};

/// Runs a plan on the calling thread. Not copyable; one run per object.
class Runner {
public:
    Runner(Plan plan, RunOptions options);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    /// Runs to the end or until options.control is cancelled (then summary.cancelled is true
    /// and the finished rounds are kept and written). Throws Error (DataError, PlanError, ...)
    /// on bad input or I/O failure; the files already written stay consistent.
    RunSummary run(RunObserver& observer);

private:
    Plan plan_;
    RunOptions options_;
};

} // namespace dpu
