// SPDX-License-Identifier: MIT
// HangWatch: a test's own deadline under CTest's, which reports where a hung test was instead of timing out silently.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dpu::test {

/// Watches the code between its construction and destruction from a thread of its own. When
/// that code has not ended within `seconds`, it writes to stderr the step last named with
/// step(), every thread's stack (each thread prints its own, from a signal handler) and this
/// process's child processes with their states, then aborts. Set it under the test's CTest
/// TIMEOUT: a CTest timeout kills the test with nothing said about where it hung (a wait that
/// never returns, a destructor joining a thread, a child stopped for good).
class HangWatch {
public:
    explicit HangWatch(double seconds);
    ~HangWatch(); ///< disarms the watch and joins its thread
    HangWatch(const HangWatch&) = delete;
    HangWatch& operator=(const HangWatch&) = delete;

    /// Names the step the test is at; `what` must outlive the watch (a string literal).
    void step(const char* what) { step_.store(what); }

private:
    void watch(std::chrono::steady_clock::time_point deadline);

    std::atomic<const char*> step_{"(no step named)"};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};

} // namespace dpu::test
