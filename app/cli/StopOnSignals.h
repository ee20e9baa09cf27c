// SPDX-License-Identifier: MIT
// The command line's one stop: SIGINT and SIGTERM cancel the RunControl token that the running job reads.
#pragma once
#include "dpu/RunControl.h"

namespace dpu::cli {

/// While alive, SIGINT and SIGTERM (Ctrl-C, kill, Slurm's scancel) cancel the command's one
/// dpu::RunControl token; the handler does a lock-free atomic store and nothing else, which is
/// async-signal-safe. The constructor resets the token and installs the handlers, the destructor
/// restores the default actions (also when the job throws). One alive at a time.
class StopOnSignals {
public:
    StopOnSignals();
    ~StopOnSignals();
    StopOnSignals(const StopOnSignals&) = delete;
    StopOnSignals& operator=(const StopOnSignals&) = delete;

    /// The token the handlers cancel: pass it to the job (it lives as long as the program).
    RunControl& control();
};

} // namespace dpu::cli
