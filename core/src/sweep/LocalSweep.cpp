// SPDX-License-Identifier: MIT
// The local sweep backend: child `dpu-cli run --resume` processes, polled without threads or signal handlers.
#include "dpu/LocalSweep.h"
#include "dpu/Error.h"
#include "util/AtomicFile.h"
#include <fcntl.h>
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

pid_t startCell(const std::string& program, const std::string& cellDir, int threads)
{
    const std::string plan = cellDir + "/plan.json", log = cellDir + "/cell.log";
    const std::string omp = std::to_string(threads);
    const pid_t pid = fork();
    if (pid < 0)
        throw Error(cellDir + ": cannot start the cell's process: " + std::strerror(errno));
    if (pid == 0) { // only async-signal-safe calls until exec
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("OMP_NUM_THREADS", omp.c_str(), 1);
        setenv("MKL_NUM_THREADS", omp.c_str(), 1);
        signal(SIGINT, SIG_IGN); // a terminal's Ctrl-C reaches the sweep, which passes SIGTERM on once
        execl(program.c_str(), program.c_str(), "run", plan.c_str(), "--out", cellDir.c_str(), "--resume", "--quiet",
              static_cast<char*>(nullptr));
        const char msg[] = "cannot run the cell program\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(127);
    }
    return pid;
}

struct Running {
    const SweepCell* cell;
    Clock::time_point start;
};

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
    bool stopping = false;
    const auto stopAll = [&] {
        for (const auto& r : running)
            kill(r.first, SIGTERM); // each run keeps its finished rounds; a resume continues it
        stopping = true;
    };
    try {
        while (next < todo.size() || !running.empty()) {
            if (!stopping && observer.shouldStop()) {
                stopAll();
                summary.stopped = true;
            }
            while (!stopping && next < todo.size() && static_cast<int>(running.size()) < options.jobs) {
                const SweepCell* cell = todo[next++];
                writeCellStarted(options.outDir, cell->id);
                running[startCell(options.program, sweepCellDir(options.outDir, cell->id), threads)] = {cell, Clock::now()};
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
                const int code = got < 0 ? 127 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
        throw;
    }
    return summary;
}

} // namespace dpu
