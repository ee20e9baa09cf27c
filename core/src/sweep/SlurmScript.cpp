// SPDX-License-Identifier: MIT
// The Slurm backend's pure parts: the job-array script, squeue/sacct output, and a cell's state from both.
#include "dpu/SlurmSweep.h"
#include <set>
#include <sstream>

namespace dpu {
namespace {

/// A word for a POSIX shell: single-quoted, embedded quotes closed and escaped.
std::string shellQuote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string trim(const std::string& s)
{
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

/// "3-5%2" or "1,4,7-8" -> the task numbers; empty on anything else.
std::vector<long> expandTaskRange(std::string spec)
{
    std::vector<long> tasks;
    if (const size_t pct = spec.find('%'); pct != std::string::npos)
        spec.erase(pct);
    std::stringstream parts(spec);
    std::string part;
    while (std::getline(parts, part, ',')) {
        try {
            const size_t dash = part.find('-');
            size_t used = 0;
            const long from = std::stol(part.substr(0, dash), &used);
            long to = from;
            if (dash != std::string::npos)
                to = std::stol(part.substr(dash + 1));
            if (from < 0 || to < from || to - from > 1000000)
                return {};
            for (long t = from; t <= to; ++t)
                tasks.push_back(t);
        } catch (const std::exception&) {
            return {};
        }
    }
    return tasks;
}

} // namespace

std::string slurmArrayScript(const std::string& sweepDir, const std::string& program,
                             const std::vector<std::string>& cells, const SweepSlurmSettings& s,
                             const std::string& jobName)
{
    std::string out = "#!/bin/bash\n"
                      "# Written by dpu-cli sweep run --backend slurm: one array task per cell of the sweep\n"
                      "# folder below; each runs `dpu-cli run CELL/plan.json --out CELL --resume`, so a\n"
                      "# cancelled, pre-empted, requeued or timed-out task continues where it stopped.\n";
    std::string array = "0-" + std::to_string(cells.empty() ? 0 : cells.size() - 1);
    if (s.throttle > 0)
        array += "%" + std::to_string(s.throttle);
    out += "#SBATCH --job-name=" + jobName + "\n";
    out += "#SBATCH --array=" + array + "\n";
    out += "#SBATCH --ntasks=1\n";
    out += "#SBATCH --cpus-per-task=" + std::to_string(s.cpusPerTask > 0 ? s.cpusPerTask : 1) + "\n";
    if (s.gpusPerTask > 0)
        out += "#SBATCH --gres=gpu:" + std::to_string(s.gpusPerTask) + "\n";
    if (!s.partition.empty())
        out += "#SBATCH --partition=" + s.partition + "\n";
    if (!s.time.empty())
        out += "#SBATCH --time=" + s.time + "\n";
    if (!s.mem.empty())
        out += "#SBATCH --mem=" + s.mem + "\n";
    out += "#SBATCH --requeue\n";
    out += "#SBATCH --open-mode=append\n";
    out += "#SBATCH --chdir=" + sweepDir + "\n";
    out += "#SBATCH --output=" + sweepDir + "/slurm/logs/%A_%a.out\n";
    out += "\ncells=(";
    for (size_t i = 0; i < cells.size(); ++i)
        out += (i % 8 == 0 ? "\n  " : " ") + cells[i];
    out += "\n)\n";
    // The cell gets the task's CPUs as threads (sweep task reads SLURM_CPUS_PER_TASK).
    out += "exec " + shellQuote(program) + " sweep task " + shellQuote(sweepDir) +
           " \"${cells[$SLURM_ARRAY_TASK_ID]}\"\n";
    return out;
}

std::map<std::string, std::string> parseSlurmTaskStates(const std::string& text)
{
    std::map<std::string, std::string> states;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t bar = line.find('|');
        if (bar == std::string::npos)
            continue;
        const std::string id = trim(line.substr(0, bar));
        std::string state = trim(line.substr(bar + 1));
        state = state.substr(0, state.find_first_of(" |+")); // "CANCELLED by 0", "CANCELLED+"
        const size_t us = id.find('_');
        if (us == std::string::npos || state.empty() || id.find('.') != std::string::npos)
            continue; // a job that is not an array task, or a step (sacct without --allocations)
        const std::string job = id.substr(0, us), task = id.substr(us + 1);
        if (!task.empty() && task.front() == '[' && task.back() == ']') {
            for (long t : expandTaskRange(task.substr(1, task.size() - 2)))
                states[job + "_" + std::to_string(t)] = state;
        } else if (task.find_first_not_of("0123456789") == std::string::npos && !task.empty()) {
            states[id] = state;
        }
    }
    return states;
}

bool slurmStateIsLive(const std::string& state)
{
    static const std::set<std::string> live{"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "REQUEUED",
                                            "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SIGNALING",
                                            "STAGE_OUT", "STOPPED", "SUSPENDED", "SPECIAL_EXIT"};
    return live.count(state) > 0;
}

CellState slurmCellState(CellState fromFiles, const std::string& slurmState, bool submitted)
{
    if (fromFiles == CellState::Done)
        return CellState::Done;
    if (slurmState == "PENDING" || slurmState == "REQUEUED" || slurmState == "REQUEUE_HOLD"
        || slurmState == "REQUEUE_FED" || slurmState == "SPECIAL_EXIT")
        return CellState::Pending; // queued (again): an old exit record does not count any more
    if (slurmStateIsLive(slurmState))
        return CellState::Running;
    if (fromFiles == CellState::Failed)
        return CellState::Failed;
    if (slurmState == "CANCELLED" || slurmState == "PREEMPTED")
        return CellState::Pending; // stopped on request: a re-run resumes it
    static const std::set<std::string> failedStates{"FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                                                    "BOOT_FAIL", "DEADLINE"};
    if (failedStates.count(slurmState))
        return CellState::Failed;
    if (fromFiles == CellState::Running && submitted)
        return CellState::Failed; // started, no exit record, gone from the queue: the task died
    return fromFiles;
}

} // namespace dpu
