// SPDX-License-Identifier: MIT
// followSlurmSweep: the queue looked at every poll interval, each cell that leaves it reported, stopped by the token.
#include "dpu/SlurmFollow.h"
#include "dpu/Error.h"
#include <chrono>
#include <map>
#include <string>
#include <thread>

namespace dpu {
namespace {

/// A cell that was in another state at the previous look and is now done, failed, or pending
/// without a live task (its task was stopped): it has left the queue.
bool leftTheQueue(CellState was, const SlurmCellStatus& now)
{
    return was != now.state
           && (now.state == CellState::Done || now.state == CellState::Failed || (now.state == CellState::Pending && !now.live));
}

/// Sleeps `seconds` in steps of 100 ms, returning early once `control` is cancelled.
void waitOrStop(double seconds, const RunControl& control)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!control.cancelRequested() && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

} // namespace

SlurmFollowSummary followSlurmSweep(const Sweep& sweep, const SlurmFollowOptions& options, SlurmCommands& slurm,
                                    SlurmFollowObserver& observer, const RunControl& control)
{
    if (!(options.pollSeconds > 0))
        throw Error("follow " + options.sweepDir + ": poll seconds: expected more than 0, found " +
                    std::to_string(options.pollSeconds));
    SlurmFollowSummary summary;
    std::map<std::string, CellState> last; // empty before the first look: nothing is reported then
    std::string lastError;
    while (true) {
        summary.status = slurmSweepStatus(sweep, options.sweepDir, slurm);
        const SlurmSweepStatus& status = summary.status;
        if (!status.queueError.empty() && status.queueError != lastError)
            observer.queueUnreadable(status.queueError);
        lastError = status.queueError;
        bool live = !status.queueRead; // an unread queue may still hold cells: look again
        for (size_t i = 0; i < sweep.cells.size() && i < status.cells.size(); ++i) {
            const SweepCell& cell = sweep.cells[i];
            const SlurmCellStatus& c = status.cells[i];
            live = live || c.live;
            const auto was = last.find(cell.id);
            if (was != last.end() && leftTheQueue(was->second, c))
                observer.cellEnded(cell, c);
            last[cell.id] = c.state;
        }
        observer.statusRead(status);
        if (!live || control.cancelRequested())
            break;
        waitOrStop(options.pollSeconds, control);
        if (control.cancelRequested())
            break; // a stop ends the follow now, without one more squeue (busy controllers answer slowly)
    }
    summary.stopped = control.cancelRequested();
    return summary;
}

} // namespace dpu
