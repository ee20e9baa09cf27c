// SPDX-License-Identifier: MIT
// Shows a run's progress on the terminal: a live status line on a TTY, one line per round otherwise.
#pragma once
#include "dpu/Events.h"
#include <chrono>
#include <csignal>

namespace dpu::cli {

class TerminalProgress : public RunObserver {
public:
    TerminalProgress(bool quiet, const volatile std::sig_atomic_t* interrupted);
    void runStarted(const RunInfo& info) override;
    void epochDone(const EpochEvent& e) override;
    void batchDone(const BatchProgress& b) override;
    void roundDone(const RoundRecord& r) override;
    bool shouldCancel() override { return interrupted_ && *interrupted_; }
    void printSummary(const RunSummary& summary) const;

private:
    void clearLine();
    bool quiet_;
    bool tty_;
    const volatile std::sig_atomic_t* interrupted_;
    int rounds_ = 0;
    std::chrono::steady_clock::time_point lastDraw_{};
    bool lineOpen_ = false;
};

} // namespace dpu::cli
