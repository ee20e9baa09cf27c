// SPDX-License-Identifier: MIT
// SweepStatus: one reading of a sweep folder for the viewers (CLI status, the window's sweeps panel).
#include "dpu/SweepStatus.h"
#include "dpu/Error.h"
#include "dpu/SlurmSweep.h"
#include "dpu/SweepControl.h"
#include "util/AtomicFile.h"
#include <nlohmann/json.hpp>
#include <filesystem>

namespace dpu {
namespace {

namespace fs = std::filesystem;

/// A pending cell whose last process ended on a stop request (exit.json holds kCellStoppedExit).
bool stoppedByRequest(const std::string& sweepDir, const std::string& id)
{
    const fs::path file = fs::path(sweepCellDir(sweepDir, id)) / "exit.json";
    std::error_code ec;
    if (!fs::exists(file, ec))
        return false;
    try {
        return nlohmann::json::parse(readWholeFile(file.string())).value("code", 1) == kCellStoppedExit;
    } catch (const std::exception&) {
        return false;
    }
}

CellView viewOf(CellState state, bool stopped)
{
    switch (state) {
    case CellState::Running: return CellView::Running;
    case CellState::Done: return CellView::Done;
    case CellState::Failed: return CellView::Failed;
    case CellState::Pending: break;
    }
    return stopped ? CellView::Cancelled : CellView::Pending;
}

} // namespace

const char* cellViewName(CellView view)
{
    switch (view) {
    case CellView::Pending: return "pending";
    case CellView::Running: return "running";
    case CellView::Done: return "done";
    case CellView::Failed: return "failed";
    case CellView::Cancelled: return "cancelled";
    }
    return "pending";
}

size_t SweepFolderStatus::count(CellView view) const
{
    size_t n = 0;
    for (const SweepCellStatus& c : cells)
        n += c.view == view ? 1 : 0;
    return n;
}

std::string SweepFolderStatus::summary() const
{
    std::string s = std::to_string(cells.size()) + " cells";
    const char* sep = ": ";
    for (const CellView v : {CellView::Done, CellView::Running, CellView::Pending, CellView::Failed, CellView::Cancelled}) {
        s += sep + std::to_string(count(v)) + " " + cellViewName(v);
        sep = ", ";
    }
    return s;
}

std::string sweepAxesLabel(const SweepCell& cell)
{
    std::string s;
    for (const auto& [key, value] : cell.axisValues)
        s += (s.empty() ? "" : ", ") + key + " = " + value;
    return s;
}

SweepFolderStatus readSweepFolderStatus(const std::string& sweepDir, SlurmCommands* slurm)
{
    const Sweep sweep = loadSweepFile((fs::path(sweepDir) / "sweep.json").string());
    SweepFolderStatus status;
    status.dir = sweepDir;
    const auto record = readSweepBackend(sweepDir);
    if (record)
        status.backend = record->backend;
    SlurmSweepStatus queue;
    const bool viaSlurm = record && record->backend == SweepBackend::Slurm;
    if (viaSlurm && slurm) {
        queue = slurmSweepStatus(sweep, sweepDir, *slurm);
        status.queueRead = queue.queueRead;
        status.queueError = queue.queueError;
    } else if (viaSlurm) {
        status.queueRead = false;
        status.queueError = "Slurm was not asked";
    } else if (record && record->backend == SweepBackend::Local) {
        status.host = record->host;
        status.active = record->pid != 0 && record->host == thisHostName() && processAlive(record->pid);
    }
    // A local sweep that was stopped will not start its waiting cells: they were cancelled too.
    const bool localStopped = record && record->backend == SweepBackend::Local && record->stopped && record->pid == 0;
    for (size_t i = 0; i < sweep.cells.size(); ++i) {
        const SweepCell& cell = sweep.cells[i];
        SweepCellStatus c;
        c.id = cell.id;
        c.axes = sweepAxesLabel(cell);
        c.runDir = sweepCellDir(sweepDir, cell.id);
        if (viaSlurm && slurm) {
            const SlurmCellStatus& s = queue.cells[i];
            c.state = s.state;
            c.slurmTask = s.task;
            c.slurmState = s.slurmState;
            status.active = status.active || s.live;
            const bool stopped = !s.live && (s.slurmState == "CANCELLED" || stoppedByRequest(sweepDir, cell.id));
            c.view = viewOf(c.state, stopped);
        } else {
            c.state = sweepCellState(sweepDir, cell.id);
            c.view = viewOf(c.state, localStopped || stoppedByRequest(sweepDir, cell.id));
        }
        status.cells.push_back(std::move(c));
    }
    return status;
}

std::string cancelSweepFolder(const std::string& sweepDir, SlurmCommands* slurm)
{
    const auto record = readSweepBackend(sweepDir);
    if (!record)
        return {};
    if (record->backend == SweepBackend::Slurm) {
        if (!slurm)
            throw Error(sweepDir + ": a Slurm sweep: cannot cancel it without Slurm's commands");
        const Sweep sweep = loadSweepFile((fs::path(sweepDir) / "sweep.json").string());
        const std::vector<std::string> jobs = cancelSlurmSweep(sweep, sweepDir, *slurm);
        std::string list;
        for (const std::string& j : jobs)
            list += (list.empty() ? "" : " ") + j;
        return jobs.empty() ? std::string() : "scancel " + list;
    }
    const bool here = record->host == thisHostName();
    if (record->pid == 0 || (here && !processAlive(record->pid)))
        return {};
    requestSweepCancel(sweepDir); // the sweep process polls for it, here or on another host
    return "asked the sweep (pid " + std::to_string(record->pid) + " on " + record->host + ") to stop";
}

} // namespace dpu
