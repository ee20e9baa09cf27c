// SPDX-License-Identifier: MIT
// What a training step needs to report progress and honour the run's pause/cancel token.
#pragma once
#include "dpu/Error.h"
#include "dpu/Events.h"
#include "dpu/RunControl.h"
#include "util/RunControlWait.h"
#include <string>

namespace dpu {

/// checkRunControl() telling a run's observer (may be null) of the pause (runPaused).
inline void honourRunControl(RunControl* control, RunObserver* observer)
{
    checkRunControl(control, [observer](bool paused) {
        if (observer)
            observer->runPaused(paused);
    });
}

/// Identifies the (seed, round, strategy) unit being trained and carries the observer.
struct TrainContext {
    RunObserver* observer = nullptr; ///< not owned; may be null
    RunControl* control = nullptr;   ///< not owned; may be null (cannot be paused or cancelled)
    std::string strategy;
    uint64_t seed = 0;
    int round = 0;
    bool reportBatches = true;

    /// Called before every batch: waits while paused, throws Cancelled when cancelled.
    void checkCancel() const { honourRunControl(control, observer); }
};

} // namespace dpu
