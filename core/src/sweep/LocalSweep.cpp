// SPDX-License-Identifier: MIT
// The local sweep backend: child `dpu-cli run --resume` processes, polled without threads or signal handlers.
#include "dpu/LocalSweep.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "dpu/SweepControl.h"
#include "CellProcess.h"
#include "util/AtomicFile.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>

namespace dpu {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Running {
    const SweepCell* cell;
    Clock::time_point start;
};

/// The sweep process has ended: `sweep cancel` then finds nothing running; the request is spent.
/// `stopped` lets a viewer call the cells it never started cancelled rather than waiting.
void endLocalRecord(const std::string& dir, SweepBackendRecord record, bool stopped)
{
    record.pid = 0;
    record.stopped = stopped;
    try {
        writeSweepBackend(dir, record);
    } catch (const Error&) {
        // the cells' own files still tell their states; a stale pid only makes cancel wait for nothing
    }
    clearSweepCancel(dir);
}

/// Writes the folder (sweep.json, each cell's plan.json) and the backend record; the cells not
/// done yet, in sweep order, go to `todo`.
SweepBackendRecord prepareFolder(const Sweep& sweep, const std::string& outDir, LocalSweepSummary& summary,
                                 std::vector<const SweepCell*>& todo)
{
    std::error_code ec;
    fs::create_directories(fs::path(outDir) / "cells", ec);
    if (ec)
        throw Error(outDir + ": cannot create the sweep folder: " + ec.message());
    writeFileAtomic((fs::path(outDir) / "sweep.json").string(), sweep.toJson());
    clearSweepCancel(outDir); // a request left by an earlier sweep is not for this one
    SweepBackendRecord record;
    record.backend = SweepBackend::Local;
    record.host = thisHostName();
    record.pid = static_cast<long>(getpid());
    record.started = isoTimeNow();
    writeSweepBackend(outDir, record);

    summary.cells = sweep.cells.size();
    for (const SweepCell& cell : sweep.cells) {
        const std::string dir = sweepCellDir(outDir, cell.id);
        fs::create_directories(dir, ec);
        if (ec)
            throw Error(dir + ": cannot create: " + ec.message());
        writeFileAtomic(dir + "/plan.json", planToJson(cell.plan));
        if (sweepCellState(outDir, cell.id) == CellState::Done)
            ++summary.skipped;
        else
            todo.push_back(&cell);
    }
    return record;
}

/// One local sweep under way: its child processes and where the token has taken it.
class LocalSweepRun {
public:
    LocalSweepRun(const LocalSweepOptions& options, LocalSweepObserver& observer, RunControl& control,
                  std::vector<const SweepCell*> todo, int threads, LocalSweepSummary& summary)
        : options_(options), observer_(observer), control_(control), todo_(std::move(todo)), threads_(threads),
          summary_(summary)
    {
    }

    /// Runs the cells until each started one has ended; on an error, stops and waits for them.
    void run()
    {
        try {
            while (next_ < todo_.size() || !running_.empty()) {
                followToken();
                startCells();
                if (stopping_ && running_.empty())
                    break;
                if (!reapEnded())
                    usleep(100 * 1000);
            }
        } catch (...) {
            stopAll();
            for (const auto& r : running_)
                waitpid(r.first, nullptr, 0);
            throw;
        }
    }

private:
    void stopAll()
    {
        for (const auto& r : running_) {
            kill(r.first, SIGTERM); // each run keeps its finished rounds; a resume continues it
            // A stopped process only sees the SIGTERM once it runs: stopped by our pause, or by
            // anyone else (a terminal's job control, a debugger), whom the sweep cannot know of.
            kill(r.first, SIGCONT);
        }
        stopping_ = true;
        suspended_ = false;
    }

    /// Cancel (from the token, or cancel.json read into it) stops every cell; pause suspends them.
    void followToken()
    {
        if (sweepCancelRequested(options_.outDir))
            control_.requestCancel(); // another process asked (`sweep cancel`): the one token says so
        if (!stopping_ && control_.cancelRequested()) {
            stopAll();
            summary_.stopped = true;
        }
        if (const bool pause = !stopping_ && control_.paused(); pause != suspended_) {
            for (const auto& r : running_)
                kill(r.first, pause ? SIGSTOP : SIGCONT);
            suspended_ = pause;
            observer_.sweepPaused(pause);
        }
    }

    void startCells()
    {
        while (!stopping_ && !suspended_ && next_ < todo_.size() && static_cast<int>(running_.size()) < options_.jobs) {
            const SweepCell* cell = todo_[next_++];
            running_[startCellProcess(options_.program, options_.outDir, cell->id, threads_)] = {cell, Clock::now()};
            observer_.cellStarted(*cell);
        }
    }

    /// Records and reports every cell whose process ended; false when none did.
    bool reapEnded()
    {
        bool reaped = false;
        for (auto it = running_.begin(); it != running_.end();) {
            int status = 0;
            const pid_t got = waitpid(it->first, &status, WNOHANG); // only our own children
            if (got == 0 || (got < 0 && errno == EINTR)) {
                ++it;
                continue;
            }
            int code = got < 0 ? 127 : cellExitCode(status);
            if (stopping_ && code == 128 + SIGTERM)
                code = kCellStoppedExit; // our SIGTERM came before the run's handler: stopped all the same
            const SweepCell* cell = it->second.cell;
            const double seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
            it = running_.erase(it);
            writeCellExit(options_.outDir, cell->id, code);
            const CellState state = sweepCellState(options_.outDir, cell->id);
            ++summary_.ran;
            if (state == CellState::Failed || (state != CellState::Done && code != kCellStoppedExit))
                ++summary_.failed;
            observer_.cellEnded(*cell, state, code, seconds);
            reaped = true;
        }
        return reaped;
    }

    const LocalSweepOptions& options_;
    LocalSweepObserver& observer_;
    RunControl& control_;
    const std::vector<const SweepCell*> todo_;
    const int threads_;
    LocalSweepSummary& summary_;
    std::map<pid_t, Running> running_;
    size_t next_ = 0;
    bool stopping_ = false, suspended_ = false;
};

} // namespace

LocalSweepSummary runLocalSweep(const Sweep& sweep, const LocalSweepOptions& options, LocalSweepObserver& observer)
{
    if (options.jobs < 1 || options.jobs > 256)
        throw Error("local sweep: jobs: expected 1 .. 256, found " + std::to_string(options.jobs));
    LocalSweepSummary summary;
    std::vector<const SweepCell*> todo;
    const SweepBackendRecord record = prepareFolder(sweep, options.outDir, summary, todo);
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    const int cores = options.cores > 0 ? options.cores : static_cast<int>(std::max(1L, online));
    const int threads = std::max(1, cores / options.jobs);
    observer.sweepStarted(summary.cells, summary.skipped, options.jobs, threads, cores);

    RunControl own; // the sweep's token when the caller gave none: cancel.json still stops it
    LocalSweepRun cells(options, observer, options.control ? *options.control : own, std::move(todo), threads, summary);
    try {
        cells.run();
    } catch (...) {
        endLocalRecord(options.outDir, record, false); // an error, not a stop: the waiting cells stay pending
        throw;
    }
    endLocalRecord(options.outDir, record, summary.stopped);
    return summary;
}

} // namespace dpu
