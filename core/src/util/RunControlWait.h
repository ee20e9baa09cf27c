// SPDX-License-Identifier: MIT
// The one way core code honours a RunControl token at a safe point: hold while paused, throw when cancelled.
#pragma once
#include "dpu/Error.h"
#include "dpu/RunControl.h"
#include <chrono>
#include <thread>

namespace dpu {

/// Holds the calling thread while `control` is paused (polling it; `onPause(true)` once, then
/// `onPause(false)` when it goes on), then throws Cancelled when it is cancelled. A null control
/// cannot be paused or cancelled. The engine starts no thread: the job's own thread is the one
/// held. `onPause` is any callable taking a bool (the job's observer hears the pause through it).
template <class OnPause>
void checkRunControl(const RunControl* control, OnPause&& onPause)
{
    if (!control)
        return;
    if (control->paused() && !control->cancelRequested()) {
        onPause(true);
        // 50 ms: a resume feels immediate and the idle loop costs nothing measurable.
        while (control->paused() && !control->cancelRequested())
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!control->cancelRequested())
            onPause(false); // a cancel ends the pause with the job: it did not go on
    }
    if (control->cancelRequested())
        throw Cancelled();
}

/// checkRunControl() for a job whose observer does not hear pauses.
inline void checkRunControl(const RunControl* control)
{
    checkRunControl(control, [](bool) {});
}

} // namespace dpu
