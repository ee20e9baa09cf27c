// SPDX-License-Identifier: MIT
// Shows a run's progress on the terminal: a live status line on a TTY, one line per round otherwise.
#pragma once
#include "dpu/Events.h"
#include <chrono>

namespace dpu::cli {

class TerminalProgress : public RunObserver {
public:
    explicit TerminalProgress(bool quiet);
    void runStarted(const RunInfo& info) override;
    void epochDone(const EpochEvent& e) override;
    void batchDone(const BatchProgress& b) override;
    void roundDone(const RoundRecord& r) override;
    void printSummary(const RunSummary& summary) const;

private:
    void clearLine();
    bool quiet_;
    bool tty_;
    int rounds_ = 0;
    std::chrono::steady_clock::time_point lastDraw_{};
    bool lineOpen_ = false;
};

} // namespace dpu::cli
