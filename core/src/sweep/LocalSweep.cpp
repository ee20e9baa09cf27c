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

} // namespace

LocalSweepSummary runLocalSweep(const Sweep& sweep, const LocalSweepOptions& options, LocalSweepObserver& observer)
{
    if (options.jobs < 1 || options.jobs > 256)
        throw Error("local sweep: jobs: expected 1 .. 256, found " + std::to_string(options.jobs));
    std::error_code ec;
    fs::create_directories(fs::path(options.outDir) / "cells", ec);
    if (ec)
        throw Error(options.outDir + ": cannot create the sweep folder: " + ec.message());
    writeFileAtomic((fs::path(options.outDir) / "sweep.json").string(), sweep.toJson());
    clearSweepCancel(options.outDir); // a request left by an earlier sweep is not for this one
    SweepBackendRecord record;
    record.backend = "local";
    record.host = thisHostName();
    record.pid = static_cast<long>(getpid());
    record.started = isoTimeNow();
    writeSweepBackend(options.outDir, record);

    LocalSweepSummary summary;
    summary.cells = sweep.cells.size();
    std::vector<const SweepCell*> todo;
    for (const SweepCell& cell : sweep.cells) {
        const std::string dir = sweepCellDir(options.outDir, cell.id);
        fs::create_directories(dir, ec);
        if (ec)
            throw Error(dir + ": cannot create: " + ec.message());
        writeFileAtomic(dir + "/plan.json", planToJson(cell.plan));
        if (sweepCellState(options.outDir, cell.id) == CellState::Done)
            ++summary.skipped;
        else
            todo.push_back(&cell);
    }
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    const int cores = options.cores > 0 ? options.cores : static_cast<int>(std::max(1L, online));
    const int threads = std::max(1, cores / options.jobs);
    observer.sweepStarted(summary.cells, summary.skipped, options.jobs, threads, cores);

    std::map<pid_t, Running> running;
    size_t next = 0;
    bool stopping = false, suspended = false;
    const auto stopAll = [&] {
        for (const auto& r : running) {
            kill(r.first, SIGTERM); // each run keeps its finished rounds; a resume continues it
            if (suspended)
                kill(r.first, SIGCONT); // a stopped process only sees the SIGTERM once it runs
        }
        stopping = true;
        suspended = false;
    };
    RunControl* const control = options.control;
    try {
        while (next < todo.size() || !running.empty()) {
            if (!stopping && (observer.shouldStop() || sweepCancelRequested(options.outDir)
                              || (control && control->cancelRequested()))) {
                stopAll();
                summary.stopped = true;
            }
            if (const bool pause = !stopping && control && control->paused(); pause != suspended) {
                for (const auto& r : running)
                    kill(r.first, pause ? SIGSTOP : SIGCONT);
                suspended = pause;
                observer.sweepPaused(pause);
            }
            while (!stopping && !suspended && next < todo.size() && static_cast<int>(running.size()) < options.jobs) {
                const SweepCell* cell = todo[next++];
                writeCellStarted(options.outDir, cell->id);
                running[startCellProcess(options.program, sweepCellDir(options.outDir, cell->id), threads)] = {cell, Clock::now()};
                observer.cellStarted(*cell);
            }
            if (stopping && running.empty())
                break;
            bool reaped = false;
            for (auto it = running.begin(); it != running.end();) {
                int status = 0;
                const pid_t got = waitpid(it->first, &status, WNOHANG); // only our own children
                if (got == 0 || (got < 0 && errno == EINTR)) {
                    ++it;
                    continue;
                }
                int code = got < 0 ? 127 : cellExitCode(status);
                if (stopping && code == 128 + SIGTERM)
                    code = kCellStoppedExit; // our SIGTERM came before the run's handler: stopped all the same
                const SweepCell* cell = it->second.cell;
                const double seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
                it = running.erase(it);
                writeCellExit(options.outDir, cell->id, code);
                const CellState state = sweepCellState(options.outDir, cell->id);
                ++summary.ran;
                if (state == CellState::Failed || (state != CellState::Done && code != kCellStoppedExit))
                    ++summary.failed;
                observer.cellEnded(*cell, state, code, seconds);
                reaped = true;
            }
            if (!reaped)
                usleep(100 * 1000);
        }
    } catch (...) {
        stopAll();
        for (const auto& r : running)
            waitpid(r.first, nullptr, 0);
        endLocalRecord(options.outDir, record, false); // an error, not a stop: the waiting cells stay pending
        throw;
    }
    endLocalRecord(options.outDir, record, summary.stopped);
    return summary;
}

} // namespace dpu
