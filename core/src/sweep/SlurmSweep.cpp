// SPDX-License-Identifier: MIT
// The Slurm backend's cluster side: submitting a sweep's unfinished cells, following and cancelling them.
#include "dpu/SlurmSweep.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "dpu/SweepControl.h"
#include "util/AtomicFile.h"
#include <algorithm>
#include <filesystem>

namespace dpu {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<std::string>& items, char sep)
{
    std::string s;
    for (const std::string& i : items)
        s += (s.empty() ? "" : std::string(1, sep)) + i;
    return s;
}

std::string firstLine(const std::string& text)
{
    const std::string t = text.substr(0, text.find('\n'));
    return t.empty() ? std::string("(no message)") : t;
}

/// The latest submission's array task for each cell id: "JOB_TASK".
std::map<std::string, std::string> latestTasks(const SweepBackendRecord& record)
{
    std::map<std::string, std::string> tasks;
    for (const SlurmSubmission& sub : record.submissions)
        for (size_t i = 0; i < sub.cells.size(); ++i)
            tasks[sub.cells[i]] = sub.jobId + "_" + std::to_string(i);
    return tasks;
}

std::vector<std::string> jobIds(const SweepBackendRecord& record)
{
    std::vector<std::string> ids;
    for (const SlurmSubmission& sub : record.submissions)
        ids.push_back(sub.jobId);
    return ids;
}

} // namespace

SlurmSweepStatus slurmSweepStatus(const Sweep& sweep, const std::string& sweepDir, SlurmCommands& slurm)
{
    SlurmSweepStatus status;
    const auto record = readSweepBackend(sweepDir);
    const bool isSlurm = record && record->backend == SweepBackend::Slurm && !record->submissions.empty();
    std::map<std::string, std::string> tasks, states;
    if (isSlurm) {
        tasks = latestTasks(*record);
        // The queue first, then the files: a task that ends in between has already written its exit.
        const SlurmCommandResult q = slurm.run({"squeue", "--noheader", "--array", "--format=%i|%T",
                                                "--jobs=" + joined(jobIds(*record), ',')});
        if (q.code == 0)
            states = parseSlurmTaskStates(q.out);
        else if (q.err.find("Invalid job id") == std::string::npos) { // all jobs gone from the queue: none live
            status.queueRead = false;
            status.queueError = "squeue: " + firstLine(q.err);
        }
    }
    std::vector<CellState> fromFiles;
    bool needHistory = false;
    for (const SweepCell& cell : sweep.cells) {
        fromFiles.push_back(sweepCellState(sweepDir, cell.id));
        const auto t = tasks.find(cell.id);
        needHistory = needHistory || (status.queueRead && t != tasks.end() && fromFiles.back() != CellState::Done
                                      && !states.count(t->second));
    }
    if (needHistory) {
        // Ended tasks leave squeue after MinJobAge; sacct still knows them where accounting is on.
        const SlurmCommandResult a = slurm.run({"sacct", "--noheader", "--parsable2", "--allocations",
                                                "--format=JobID,State", "--jobs=" + joined(jobIds(*record), ',')});
        if (a.code == 0)
            for (const auto& [task, state] : parseSlurmTaskStates(a.out))
                if (!slurmStateIsLive(state))
                    states.emplace(task, state); // squeue's live word wins over sacct's
    }
    for (size_t i = 0; i < sweep.cells.size(); ++i) {
        SlurmCellStatus c;
        const auto t = tasks.find(sweep.cells[i].id);
        if (t != tasks.end()) {
            c.task = t->second;
            if (const auto s = states.find(t->second); s != states.end())
                c.slurmState = s->second;
        }
        c.live = slurmStateIsLive(c.slurmState);
        c.state = status.queueRead ? slurmCellState(fromFiles[i], c.slurmState, t != tasks.end()) : fromFiles[i];
        status.cells.push_back(c);
    }
    return status;
}

SlurmSubmitSummary submitSlurmSweep(const Sweep& sweep, const SlurmSweepOptions& options, SlurmCommands& slurm)
{
    std::error_code ec;
    const std::string dir = fs::absolute(options.outDir, ec).lexically_normal().string();
    if (ec)
        throw Error(options.outDir + ": cannot make the path absolute: " + ec.message());
    fs::create_directories(fs::path(dir) / "slurm" / "logs", ec);
    if (ec)
        throw Error(dir + ": cannot create the sweep folder: " + ec.message());
    writeFileAtomic((fs::path(dir) / "sweep.json").string(), sweep.toJson());
    for (const SweepCell& cell : sweep.cells) {
        const std::string cellDir = sweepCellDir(dir, cell.id);
        fs::create_directories(cellDir, ec);
        if (ec)
            throw Error(cellDir + ": cannot create: " + ec.message());
        writeFileAtomic(cellDir + "/plan.json", planToJson(cell.plan));
    }
    SweepBackendRecord record;
    if (auto old = readSweepBackend(dir); old && old->backend == SweepBackend::Slurm)
        record = *old;
    record.backend = SweepBackend::Slurm;
    record.host.clear();
    record.pid = 0;
    clearSweepCancel(dir);

    SlurmSubmitSummary summary;
    summary.cells = sweep.cells.size();
    const SlurmSweepStatus status = slurmSweepStatus(sweep, dir, slurm);
    if (!status.queueRead)
        throw Error(dir + ": cannot tell which cells Slurm still runs (" + status.queueError +
                    "), so nothing was submitted twice");
    std::vector<std::string> todo;
    for (size_t i = 0; i < sweep.cells.size(); ++i) {
        if (status.cells[i].state == CellState::Done)
            ++summary.done;
        else if (status.cells[i].live)
            ++summary.live;
        else
            todo.push_back(sweep.cells[i].id);
    }
    if (todo.empty())
        return summary;

    if (options.maxArrayTasks < 1)
        throw Error(dir + ": the Slurm backend needs at least one task per array");
    for (size_t from = 0; from < todo.size(); from += options.maxArrayTasks) {
        const std::vector<std::string> cells(todo.begin() + static_cast<std::ptrdiff_t>(from),
                                             todo.begin() + static_cast<std::ptrdiff_t>(std::min(todo.size(), from + options.maxArrayTasks)));
        const std::string name = "submit-" + std::to_string(record.submissions.size() + 1) + ".sbatch";
        const std::string script = (fs::path(dir) / "slurm" / name).string();
        writeFileAtomic(script, slurmArrayScript(dir, options.program, cells, options.settings,
                                                 "dpu-" + fs::path(dir).filename().string()));
        const SlurmCommandResult r = slurm.run({"sbatch", "--parsable", script});
        const std::string job = r.out.substr(0, r.out.find_first_of(";\r\n"));
        if (r.code != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
            throw Error(script + ": sbatch refused it (exit " + std::to_string(r.code) + "): " +
                        firstLine(r.err.empty() ? r.out : r.err));
        record.submissions.push_back({job, cells, "slurm/" + name, isoTimeNow()});
        record.started = isoTimeNow();
        writeSweepBackend(dir, record); // at once: a later refusal must not forget a job that runs
        summary.submitted += cells.size();
        summary.jobIds.push_back(job);
        summary.scripts.push_back("slurm/" + name);
    }
    return summary;
}

std::vector<std::string> cancelSlurmSweep(const Sweep& sweep, const std::string& sweepDir, SlurmCommands& slurm)
{
    const auto record = readSweepBackend(sweepDir);
    if (!record || record->backend != SweepBackend::Slurm)
        return {};
    const SlurmSweepStatus status = slurmSweepStatus(sweep, sweepDir, slurm);
    if (!status.queueRead)
        throw Error(sweepDir + ": cannot cancel: " + status.queueError);
    std::vector<std::string> jobs;
    for (const SlurmCellStatus& c : status.cells) {
        const std::string job = c.task.substr(0, c.task.find('_'));
        if (c.live && std::find(jobs.begin(), jobs.end(), job) == jobs.end())
            jobs.push_back(job);
    }
    if (jobs.empty())
        return jobs;
    std::vector<std::string> argv{"scancel"};
    argv.insert(argv.end(), jobs.begin(), jobs.end());
    const SlurmCommandResult r = slurm.run(argv);
    if (r.code != 0)
        throw Error(sweepDir + ": scancel " + joined(jobs, ' ') + " failed: " + firstLine(r.err));
    return jobs;
}

} // namespace dpu
