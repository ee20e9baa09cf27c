// SPDX-License-Identifier: MIT
// One run-control token (pause, cancel): set by a GUI thread, a signal handler or a sweep, read where the work runs.
#pragma once
#include <atomic>

namespace dpu {

/// Start/pause/cancel for one job. Setting is thread-safe and async-signal-safe (lock-free
/// atomics); the code doing the work reads it at its safe points (a local sweep between its
/// waits). Not copyable: share it by reference or pointer; the owner outlives the job.
class RunControl {
public:
    RunControl() = default;
    RunControl(const RunControl&) = delete;
    RunControl& operator=(const RunControl&) = delete;

    /// Asks the job to stop at its next safe point; the work done so far is kept (resumable).
    void requestCancel() noexcept { cancel_.store(true, std::memory_order_relaxed); }
    bool cancelRequested() const noexcept { return cancel_.load(std::memory_order_relaxed); }
    /// Pauses (true) or resumes (false) the job at its next safe point.
    void setPaused(bool paused) noexcept { paused_.store(paused, std::memory_order_relaxed); }
    bool paused() const noexcept { return paused_.load(std::memory_order_relaxed); }
    /// Neither cancelled nor paused: for starting the next job with the same token.
    void reset() noexcept
    {
        cancel_.store(false);
        paused_.store(false);
    }

private:
    static_assert(std::atomic<bool>::is_always_lock_free, "RunControl is set from signal handlers");
    std::atomic<bool> cancel_{false};
    std::atomic<bool> paused_{false};
};

} // namespace dpu
