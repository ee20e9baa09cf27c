// SPDX-License-Identifier: MIT
// dpu-cli sweep: run a sweep's cells through the local backend (dpu/LocalSweep.h), report their states, merge results.
#include "ArgList.h"
#include "CliCommands.h"
#include "dpu/Error.h"
#include "dpu/LocalSweep.h"
#include "dpu/Sweep.h"
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>

namespace dpu::cli {
namespace {

namespace fs = std::filesystem;

volatile std::sig_atomic_t g_stop = 0;

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

/// Prints the sweep's progress, one line per ended cell; Ctrl-C and SIGTERM ask it to stop.
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
    bool shouldStop() override { return g_stop != 0; }

private:
    std::string file_, out_;
    size_t todo_ = 0, ended_ = 0;
};

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

    const Sweep sweep = loadSweepFile(pos[0]); // every cell checked before anything is written
    LocalSweepOptions options;
    options.outDir = out;
    options.jobs = static_cast<int>(jobsArg);
    options.program = fs::read_symlink("/proc/self/exe").string();
    PrintingObserver observer(pos[0], out);
    g_stop = 0;
    std::signal(SIGINT, onStop);
    std::signal(SIGTERM, onStop);
    LocalSweepSummary summary;
    try {
        summary = runLocalSweep(sweep, options, observer);
    } catch (...) {
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        throw;
    }
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
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
