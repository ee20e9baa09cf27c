// SPDX-License-Identifier: MIT
// dpu-cli sweep: run a sweep's cells (local backend here, Slurm in SlurmSweepCommand.cpp), their states, cancel, merge.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "StopOnSignals.h"
#include "SweepCli.h"
#include "dpu/Error.h"
#include "dpu/LocalSweep.h"
#include "dpu/SlurmSweep.h"
#include "dpu/Sweep.h"
#include "dpu/SweepControl.h"
#include "dpu/SweepStatus.h"
#include <cmath>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace dpu::cli {

std::string axesLabel(const SweepCell& cell)
{
    return sweepAxesLabel(cell);
}

namespace {

namespace fs = std::filesystem;

/// Prints the sweep's progress, one line per ended cell (Ctrl-C and SIGTERM stop it through the token).
class PrintingObserver : public LocalSweepObserver {
public:
    PrintingObserver(std::string file, std::string out) : file_(std::move(file)), out_(std::move(out)) {}
    void sweepStarted(size_t cells, size_t done, int jobs, int threads, int cores) override
    {
        todo_ = cells - done;
        std::printf("sweep %s: %zu cells, %zu done, %zu to run, %d at a time with %d thread(s) each (%d cores)\n",
                    file_.c_str(), cells, done, todo_, jobs, threads, cores);
        std::fflush(stdout);
    }
    void cellEnded(const SweepCell& cell, CellState state, int code, double seconds) override
    {
        const bool ok = state == CellState::Done, stopped = code == kCellStoppedExit && !ok;
        const std::string why = ok || stopped ? std::string()
                                              : ", exit " + std::to_string(code) + ", see " + sweepCellDir(out_, cell.id) + "/cell.log";
        std::printf("[%zu/%zu] %s %s (%s) in %.0f s%s\n", ++ended_, todo_, cell.id.c_str(),
                    ok ? "done" : stopped ? "stopped" : "failed", axesLabel(cell).c_str(), seconds, why.c_str());
        std::fflush(stdout);
    }

private:
    std::string file_, out_;
    size_t todo_ = 0, ended_ = 0;
};

int sweepRun(ArgList& args)
{
    const std::string out = args.value("--out");
    // The command line's edge: past it the backend is a SweepBackend, not a word.
    const std::string given = args.value("--backend", nameOf(SweepBackend::Local));
    const std::optional<SweepBackend> backend = enumFromString<SweepBackend>(given);
    if (!backend)
        throw UsageError("--backend: expected local or slurm, found '" + given + "'");
    if (*backend == SweepBackend::Slurm)
        return sweepRunSlurm(out, args);
    const std::optional<int64_t> jobs = args.integer("--jobs"); // nullopt: chosen by where the cells train
    if (out.empty())
        throw UsageError("sweep run needs --out DIR");
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep run takes one sweep file");

    const Sweep sweep = loadSweepFile(pos[0]); // every cell checked before anything is written
    refuseWhileInSlurm(sweep, out);
    LocalSweepOptions options;
    options.outDir = out;
    options.jobs = jobs ? static_cast<int>(*jobs) : defaultLocalSweepJobs(sweep);
    options.program = fs::read_symlink("/proc/self/exe").string();
    PrintingObserver observer(pos[0], out);
    LocalSweepSummary summary;
    {
        StopOnSignals stop; // Ctrl-C, SIGTERM: the running cells get SIGTERM and keep their finished rounds
        options.control = &stop.control();
        summary = runLocalSweep(sweep, options, observer);
    }
    if (summary.stopped) {
        std::fprintf(stderr, "Stopped: run the same command again to resume the unfinished cells\n");
        return 130;
    }
    std::printf("sweep %s: %zu of %zu cells done%s\n", out.c_str(), summary.cells - summary.failed, summary.cells,
                summary.failed ? "; run again to retry the failed ones" : "");
    return summary.failed ? 1 : 0;
}

int sweepStatus(ArgList& args)
{
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep status takes one sweep folder");
    // The same reading of the folder, and the same words, as the window's Sweeps tab: a cell a
    // stop ended, or one a stopped sweep never started, is "cancelled" (`sweep run` resumes it).
    const auto record = readSweepBackend(pos[0]);
    const bool slurm = record && record->backend == SweepBackend::Slurm;
    const std::unique_ptr<SlurmCommands> commands = slurm ? systemSlurmCommands() : nullptr;
    const SweepFolderStatus st = readSweepFolderStatus(pos[0], commands.get());
    if (!st.queueRead)
        std::fprintf(stderr, "%s (states from the cell folders only)\n", st.queueError.c_str());
    if (slurm)
        std::printf("%-12s  %-9s  %-14s  %-12s  %s\n", "cell", "state", "slurm task", "slurm state", "axes");
    else
        std::printf("%-12s  %-9s  %s\n", "cell", "state", "axes");
    for (const SweepCellStatus& c : st.cells) {
        if (slurm)
            std::printf("%-12s  %-9s  %-14s  %-12s  %s\n", c.id.c_str(), cellViewName(c.view),
                        c.slurmTask.empty() ? "-" : c.slurmTask.c_str(), c.slurmState.empty() ? "-" : c.slurmState.c_str(),
                        c.axes.c_str());
        else
            std::printf("%-12s  %-9s  %s\n", c.id.c_str(), cellViewName(c.view), c.axes.c_str());
    }
    std::printf("%s\n", st.summary().c_str());
    return 0;
}

int sweepCancel(ArgList& args)
{
    const double wait = args.real("--wait", 60);
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep cancel takes one sweep folder");
    const std::string dir = pos[0];
    const Sweep sweep = loadSweepFile((fs::path(dir) / "sweep.json").string());
    const auto record = readSweepBackend(dir);
    if (record && record->backend == SweepBackend::Slurm)
        return sweepCancelSlurm(sweep, dir);
    const bool here = record && record->host == thisHostName();
    if (!record || record->pid == 0 || (here && !processAlive(record->pid))) {
        std::printf("%s: no sweep is running; nothing to cancel\n", dir.c_str());
        return 0;
    }
    // The running sweep polls for the request: this works from another machine sharing the folder too.
    requestSweepCancel(dir);
    if (!here) {
        std::printf("%s: asked the sweep running on %s (pid %ld) to stop\n", dir.c_str(), record->host.c_str(), record->pid);
        return 0;
    }
    for (int i = 0; i < wait * 10 && processAlive(record->pid); ++i)
        usleep(100 * 1000);
    if (processAlive(record->pid)) {
        std::fprintf(stderr, "%s: the sweep (pid %ld) was asked to stop and has not ended after %.0f s\n", dir.c_str(),
                     record->pid, wait);
        return 1;
    }
    std::printf("%s: the sweep (pid %ld) stopped its cells; `sweep run` again resumes them\n", dir.c_str(), record->pid);
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
        throw UsageError("sweep needs a subcommand: run, status, cancel or merge");
    const std::string sub = argv[0];
    ArgList args(std::vector<std::string>(argv.begin() + 1, argv.end()), numberOptionsOf("sweep " + sub));
    if (sub == "run")
        return sweepRun(args);
    if (sub == "status")
        return sweepStatus(args);
    if (sub == "merge")
        return sweepMerge(args);
    if (sub == "cancel")
        return sweepCancel(args);
    if (sub == "task")
        return sweepTask(args);
    throw UsageError("sweep: unknown subcommand '" + sub + "' (expected run, status, cancel or merge)");
}

} // namespace dpu::cli
