// SPDX-License-Identifier: MIT
// What a training step needs to report progress and honour the run's pause/cancel token.
#pragma once
#include "dpu/Error.h"
#include "dpu/Events.h"
#include "dpu/RunControl.h"
#include <chrono>
#include <string>
#include <thread>

namespace dpu {

/// Holds the calling thread while `control` is paused (polling it; the observer hears
/// runPaused(true) once, then runPaused(false)), then throws Cancelled when it is cancelled.
/// The engine starts no thread: the run's own thread is the one held.
inline void honourRunControl(RunControl* control, RunObserver* observer)
{
    if (!control)
        return;
    if (control->paused() && !control->cancelRequested()) {
        if (observer)
            observer->runPaused(true);
        // 50 ms: a resume feels immediate and the idle loop costs nothing measurable.
        while (control->paused() && !control->cancelRequested())
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (observer && !control->cancelRequested())
            observer->runPaused(false); // a cancel ends the pause with the run: it did not go on
    }
    if (control->cancelRequested())
        throw Cancelled();
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
