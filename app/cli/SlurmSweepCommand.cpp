// SPDX-License-Identifier: MIT
// dpu-cli sweep on Slurm: submit the unfinished cells as a job array and follow it, status, cancel, and the array task.
#include "ArgList.h"
#include "CliCommands.h"
#include "StopOnSignals.h"
#include "SweepCli.h"
#include "dpu/Error.h"
#include "dpu/SlurmFollow.h"
#include "dpu/SlurmSweep.h"
#include "dpu/SweepControl.h"
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <map>

namespace dpu::cli {
namespace {

namespace fs = std::filesystem;

std::string wordOption(ArgList& args, const std::string& name, const std::string& fallback)
{
    const std::string v = args.value(name, fallback);
    if (v.find_first_of(" \t\n'\"\\") != std::string::npos)
        throw UsageError(name + ": expected a word without spaces or quotes, found '" + v + "'");
    return v;
}

std::map<CellState, int> countStates(const SlurmSweepStatus& status)
{
    std::map<CellState, int> counts;
    for (const SlurmCellStatus& c : status.cells)
        ++counts[c.state];
    return counts;
}

std::string countsLine(size_t cells, std::map<CellState, int> counts)
{
    return std::to_string(cells) + " cells: " + std::to_string(counts[CellState::Done]) + " done, " +
           std::to_string(counts[CellState::Running]) + " running, " + std::to_string(counts[CellState::Pending]) +
           " pending, " + std::to_string(counts[CellState::Failed]) + " failed";
}

/// Prints what followSlurmSweep() reports: a line per cell that leaves the queue, the queue's errors.
class FollowPrinter : public SlurmFollowObserver {
public:
    explicit FollowPrinter(std::string out) : out_(std::move(out)) {}
    void queueUnreadable(const std::string& error) override
    {
        std::fprintf(stderr, "%s (trying again)\n", error.c_str());
    }
    void cellEnded(const SweepCell& cell, const SlurmCellStatus& c) override
    {
        std::printf("%s %s (%s)%s\n", cell.id.c_str(), c.state == CellState::Pending ? "stopped" : cellStateName(c.state),
                    axesLabel(cell).c_str(),
                    c.state == CellState::Failed ? (", see " + sweepCellDir(out_, cell.id) + "/cell.log").c_str() : "");
    }
    void statusRead(const SlurmSweepStatus&) override { std::fflush(stdout); }

private:
    std::string out_;
};

} // namespace

int sweepRunSlurm(const std::string& out, ArgList& args)
{
    // The numbers first, each in its range (CommandNumbers.cpp; 0: the sweep file's setting).
    const double poll = args.real("--poll", 10);
    const int cpus = static_cast<int>(args.integer("--cpus-per-task", 0));
    const int gpus = static_cast<int>(args.integer("--gpus-per-task", 0));
    const int throttle = static_cast<int>(args.integer("--throttle", 0));
    const int maxArray = static_cast<int>(args.integer("--max-array", 1000));
    const bool noWait = args.flag("--no-wait");
    const std::string partition = wordOption(args, "--partition", "");
    const std::string time = wordOption(args, "--time", "");
    const std::string mem = wordOption(args, "--mem", "");
    const bool cpusGiven = cpus > 0, gpusGiven = gpus > 0, throttleGiven = throttle > 0;
    if (out.empty())
        throw UsageError("sweep run needs --out DIR");
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("sweep run takes one sweep file");

    const Sweep sweep = loadSweepFile(pos[0]);
    if (const auto record = readSweepBackend(out);
        record && record->backend == SweepBackend::Local && record->pid && record->host == thisHostName() && processAlive(record->pid))
        throw Error(out + ": a local sweep (pid " + std::to_string(record->pid) +
                    ") is running in this folder: stop it first (sweep cancel " + out + ")");
    SlurmSweepOptions options;
    options.outDir = out;
    options.program = fs::read_symlink("/proc/self/exe").string();
    options.maxArrayTasks = static_cast<size_t>(maxArray); // 1 or more
    options.settings = sweep.slurm; // the command line overrides the sweep file's "slurm" object
    if (!partition.empty())
        options.settings.partition = partition;
    if (!time.empty())
        options.settings.time = time;
    if (!mem.empty())
        options.settings.mem = mem;
    if (cpusGiven)
        options.settings.cpusPerTask = cpus;
    if (gpusGiven)
        options.settings.gpusPerTask = gpus;
    if (throttleGiven)
        options.settings.throttle = throttle;

    const auto slurm = systemSlurmCommands();
    const SlurmSubmitSummary sub = submitSlurmSweep(sweep, options, *slurm);
    std::printf("sweep %s: %zu cells, %zu done, %zu still in Slurm, %zu submitted", pos[0].c_str(), sub.cells, sub.done,
                sub.live, sub.submitted);
    for (size_t i = 0; i < sub.jobIds.size(); ++i)
        std::printf("%s job array %s (%s)", i ? "," : " as", sub.jobIds[i].c_str(),
                    (fs::path(out) / sub.scripts[i]).string().c_str());
    std::printf("\n");
    std::fflush(stdout);
    if (noWait)
        return 0;

    // Follow the queue until no cell is queued or running, a line per cell that ends.
    FollowPrinter printer(out);
    SlurmFollowSummary followed;
    {
        StopOnSignals stop; // Ctrl-C stops following only: the cells go on in Slurm
        followed = followSlurmSweep(sweep, {out, poll}, *slurm, printer, stop.control());
    }
    if (followed.stopped) {
        std::fprintf(stderr, "Stopped following; the cells go on in Slurm (sweep status %s, sweep cancel %s)\n",
                     out.c_str(), out.c_str());
        return 130;
    }
    const SlurmSweepStatus& status = followed.status;
    const auto counts = countStates(status);
    const bool allDone = counts.count(CellState::Done) && counts.at(CellState::Done) == static_cast<int>(sweep.cells.size());
    std::printf("sweep %s: %s%s\n", out.c_str(), countsLine(sweep.cells.size(), counts).c_str(),
                allDone ? "" : "; run again to resubmit the unfinished ones");
    return allDone ? 0 : 1;
}

void refuseWhileInSlurm(const Sweep& sweep, const std::string& dir)
{
    const auto record = readSweepBackend(dir);
    if (!record || record->backend != SweepBackend::Slurm)
        return;
    const auto slurm = systemSlurmCommands();
    const SlurmSweepStatus status = slurmSweepStatus(sweep, dir, *slurm);
    if (!status.queueRead)
        throw Error(dir + ": was sent to Slurm and " + status.queueError +
                    ", so its cells may still run there; cancel them (sweep cancel) or run it where squeue works");
    for (const SlurmCellStatus& c : status.cells)
        if (c.live)
            throw Error(dir + ": cells are still queued or running in Slurm (task " + c.task +
                        "): stop them first (sweep cancel " + dir + ")");
}

int sweepCancelSlurm(const Sweep& sweep, const std::string& dir)
{
    const auto slurm = systemSlurmCommands();
    const std::vector<std::string> jobs = cancelSlurmSweep(sweep, dir, *slurm);
    if (jobs.empty()) {
        std::printf("%s: no cell is queued or running in Slurm; nothing to cancel\n", dir.c_str());
        return 0;
    }
    std::string list;
    for (const std::string& j : jobs)
        list += " " + j;
    std::printf("%s: cancelled Slurm job(s)%s; the running cells keep their finished rounds and `sweep run` "
                "resubmits them\n", dir.c_str(), list.c_str());
    return 0;
}

int sweepTask(ArgList& args)
{
    const auto pos = args.positional();
    if (pos.size() != 2)
        throw UsageError("sweep task takes a sweep folder and a cell id (it is what a Slurm array task runs)");
    const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
    const int threads = cpus ? std::max(1, std::atoi(cpus)) : 1;
    StopOnSignals stop; // Slurm's SIGTERM (scancel, time limit, pre-emption) is passed on to the cell
    return runSweepCellTask(pos[0], pos[1], fs::read_symlink("/proc/self/exe").string(), threads, stop.control());
}

} // namespace dpu::cli
