// SPDX-License-Identifier: MIT
// dpu-cli sweep: run a sweep's cells as child `dpu-cli run --resume` processes, report their states, merge results.
#include "ArgList.h"
#include "CliCommands.h"
#include "dpu/Error.h"
#include "dpu/Sweep.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace dpu::cli {
namespace {

namespace fs = std::filesystem;

volatile sig_atomic_t g_stop = 0;

void onStop(int)
{
    g_stop = 1;
}

std::string axesLabel(const SweepCell& cell)
{
    std::string s;
    for (const auto& [key, value] : cell.axisValues)
        s += (s.empty() ? "" : ", ") + key + " = " + value;
    return s;
}

void writeText(const fs::path& path, const std::string& text)
{
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << text;
        if (!f.flush())
            throw Error(path.string() + ": cannot write");
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec)
        throw Error(path.string() + ": cannot write: " + ec.message());
}

/// Starts `dpu-cli run PLAN --out CELL --resume --quiet` with its output in CELL/cell.log and
/// OMP_NUM_THREADS = threads (the plan's own `threads`, when set, still wins). Returns the pid.
pid_t startCell(const std::string& cellDir, int threads)
{
    const std::string exe = fs::read_symlink("/proc/self/exe").string();
    const std::string plan = cellDir + "/plan.json", log = cellDir + "/cell.log";
    const std::string omp = std::to_string(threads);
    const pid_t pid = fork();
    if (pid < 0)
        throw Error(std::string("cannot start a cell process: ") + std::strerror(errno));
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("OMP_NUM_THREADS", omp.c_str(), 1);
        setenv("MKL_NUM_THREADS", omp.c_str(), 1);
        signal(SIGINT, SIG_IGN); // the sweep forwards a stop as SIGTERM, once
        execl(exe.c_str(), exe.c_str(), "run", plan.c_str(), "--out", cellDir.c_str(), "--resume", "--quiet",
              static_cast<char*>(nullptr));
        std::fprintf(stderr, "cannot run %s: %s\n", exe.c_str(), std::strerror(errno));
        _exit(127);
    }
    return pid;
}

int sweepRun(ArgList& args)
{
    const std::string out = args.value("--out");
    const std::string backend = args.value("--backend", "local");
    const double jobsArg = args.number("--jobs", 1);
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep run takes one sweep file");
    if (out.empty())
        throw UsageError("sweep run needs --out DIR");
    if (backend != "local")
        throw UsageError("--backend: expected local (slurm is not there yet), found '" + backend + "'");
    if (!(jobsArg >= 1 && jobsArg <= 256 && jobsArg == static_cast<int>(jobsArg)))
        throw UsageError("--jobs: expected a whole number 1 .. 256");
    const int jobs = static_cast<int>(jobsArg);

    const Sweep sweep = loadSweepFile(pos[0]); // every cell checked before anything is written
    std::error_code ec;
    fs::create_directories(fs::path(out) / "cells", ec);
    if (ec)
        throw Error(out + ": cannot create the sweep folder: " + ec.message());
    writeText(fs::path(out) / "sweep.json", sweep.toJson());

    const long cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    const int threads = static_cast<int>(std::max(1L, cores / jobs));
    std::vector<const SweepCell*> todo;
    for (const SweepCell& cell : sweep.cells) {
        const std::string dir = sweepCellDir(out, cell.id);
        fs::create_directories(dir, ec);
        if (ec)
            throw Error(dir + ": cannot create: " + ec.message());
        writeText(fs::path(dir) / "plan.json", planToJson(cell.plan));
        if (sweepCellState(out, cell.id) != CellState::Done)
            todo.push_back(&cell);
    }
    std::printf("sweep %s: %zu cells, %zu done, %zu to run, %d at a time with %d thread(s) each (%ld cores)\n",
                pos[0].c_str(), sweep.cells.size(), sweep.cells.size() - todo.size(), todo.size(), jobs, threads, cores);
    std::fflush(stdout);

    struct sigaction sa{};
    sa.sa_handler = onStop; // no SA_RESTART: waitpid returns on Ctrl-C
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    g_stop = 0;

    struct Running {
        const SweepCell* cell;
        std::chrono::steady_clock::time_point start;
    };
    std::map<pid_t, Running> running;
    size_t next = 0, finished = 0, failed = 0;
    bool forwarded = false;
    while (next < todo.size() || !running.empty()) {
        while (!g_stop && next < todo.size() && static_cast<int>(running.size()) < jobs) {
            const SweepCell* cell = todo[next++];
            writeCellStarted(out, cell->id);
            running[startCell(sweepCellDir(out, cell->id), threads)] = {cell, std::chrono::steady_clock::now()};
        }
        if (g_stop && !forwarded) {
            for (const auto& r : running)
                kill(r.first, SIGTERM); // each run keeps its finished rounds (resume continues)
            forwarded = true;
            next = todo.size();
        }
        if (running.empty())
            break;
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            throw Error(std::string("waiting for the cells: ") + std::strerror(errno));
        }
        auto it = running.find(pid);
        if (it == running.end())
            continue;
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        const SweepCell* cell = it->second.cell;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.start).count();
        running.erase(it);
        writeCellExit(out, cell->id, code);
        const bool ok = sweepCellState(out, cell->id) == CellState::Done && code == 0;
        ++finished;
        failed += ok ? 0 : 1;
        std::printf("[%zu/%zu] %s %s (%s) in %.0f s%s\n", finished, todo.size(), cell->id.c_str(),
                    ok ? "done" : "failed", axesLabel(*cell).c_str(), seconds,
                    ok ? "" : (", exit " + std::to_string(code) + ", see " + sweepCellDir(out, cell->id) + "/cell.log").c_str());
        std::fflush(stdout);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (g_stop) {
        std::fprintf(stderr, "Stopped: run the same command again to resume the unfinished cells\n");
        return 130;
    }
    std::printf("sweep %s: %zu of %zu cells done%s\n", out.c_str(), sweep.cells.size() - failed, sweep.cells.size(),
                failed ? "; run again to retry the failed ones" : "");
    return failed ? 1 : 0;
}

int sweepStatus(ArgList& args)
{
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep status takes one sweep folder");
    const Sweep sweep = loadSweepFile((fs::path(pos[0]) / "sweep.json").string());
    std::map<CellState, int> counts;
    std::printf("%-12s  %-8s  %s\n", "cell", "state", "axes");
    for (const SweepCell& cell : sweep.cells) {
        const CellState state = sweepCellState(pos[0], cell.id);
        ++counts[state];
        std::printf("%-12s  %-8s  %s\n", cell.id.c_str(), cellStateName(state), axesLabel(cell).c_str());
    }
    std::printf("%zu cells: %d done, %d running, %d pending, %d failed\n", sweep.cells.size(), counts[CellState::Done],
                counts[CellState::Running], counts[CellState::Pending], counts[CellState::Failed]);
    return 0;
}

int sweepMerge(ArgList& args)
{
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep merge takes one sweep folder");
    std::vector<std::string> missing;
    const size_t records = mergeSweepResults(pos[0], &missing);
    std::printf("%s: %zu records\n", (fs::path(pos[0]) / "results.jsonl").string().c_str(), records);
    for (const std::string& id : missing)
        std::fprintf(stderr, "cell %s has no results yet (left out)\n", id.c_str());
    return 0;
}

} // namespace

int sweepCommand(const std::vector<std::string>& argv)
{
    if (argv.empty())
        throw UsageError("sweep needs a subcommand: run, status or merge");
    const std::string sub = argv[0];
    ArgList args(std::vector<std::string>(argv.begin() + 1, argv.end()));
    if (sub == "run")
        return sweepRun(args);
    if (sub == "status")
        return sweepStatus(args);
    if (sub == "merge")
        return sweepMerge(args);
    if (sub == "cancel")
        throw UsageError("sweep cancel is not there yet: stop a local sweep with Ctrl-C (run it again to resume)");
    throw UsageError("sweep: unknown subcommand '" + sub + "' (expected run, status or merge)");
}

} // namespace dpu::cli
