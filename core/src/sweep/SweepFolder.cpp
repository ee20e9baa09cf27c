// SPDX-License-Identifier: MIT
// A sweep folder on disk: each cell's state from its files, and the merge of the cells' results.
#include "dpu/Error.h"
#include "util/JsonErrorText.h"
#include "dpu/RunFolder.h"
#include "dpu/Sweep.h"
#include "util/AtomicFile.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <filesystem>
#include <sstream>

namespace dpu {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

} // namespace

const char* cellStateName(CellState state)
{
    switch (state) {
    case CellState::Pending: return "pending";
    case CellState::Running: return "running";
    case CellState::Done: return "done";
    case CellState::Failed: return "failed";
    }
    return "pending";
}

std::string sweepCellDir(const std::string& sweepDir, const std::string& id)
{
    return (fs::path(sweepDir) / "cells" / id).string();
}

CellState sweepCellState(const std::string& sweepDir, const std::string& id)
{
    const fs::path dir = sweepCellDir(sweepDir, id);
    std::error_code ec;
    try {
        if (fs::exists(dir / "run.json", ec)
            && runStatusFromJson(readWholeFile((dir / "run.json").string())).state == "finished")
            return CellState::Done;
    } catch (const Error&) {
        return CellState::Running; // half-written or corrupt: a resume redoes it
    }
    try {
        if (fs::exists(dir / "exit.json", ec)) {
            const auto j = json::parse(readWholeFile((dir / "exit.json").string()));
            const int code = j.value("code", 1);
            if (code == kCellStoppedExit)
                return CellState::Pending; // stopped on request: the next sweep run resumes it
            return code == 0 ? CellState::Done : CellState::Failed;
        }
    } catch (const std::exception&) {
        return CellState::Failed;
    }
    if (fs::exists(dir / "started.json", ec) || fs::exists(dir / "run.json", ec))
        return CellState::Running;
    return CellState::Pending;
}

void writeCellStarted(const std::string& sweepDir, const std::string& id)
{
    const fs::path dir = sweepCellDir(sweepDir, id);
    std::error_code ec;
    fs::remove(dir / "exit.json", ec);
    if (ec)
        throw Error((dir / "exit.json").string() + ": cannot remove: " + ec.message());
    writeFileAtomic((dir / "started.json").string(), json{{"started", isoTimeNow()}}.dump() + "\n");
}

void writeCellExit(const std::string& sweepDir, const std::string& id, int exitCode)
{
    const fs::path dir = sweepCellDir(sweepDir, id);
    writeFileAtomic((dir / "exit.json").string(), json{{"code", exitCode}, {"ended", isoTimeNow()}}.dump() + "\n");
}

size_t mergeSweepResults(const std::string& sweepDir, std::vector<std::string>* missingCells)
{
    const Sweep sweep = loadSweepFile((fs::path(sweepDir) / "sweep.json").string());
    std::string out;
    size_t count = 0;
    for (const SweepCell& cell : sweep.cells) {
        const fs::path results = fs::path(sweepCellDir(sweepDir, cell.id)) / "results.jsonl";
        std::error_code ec;
        if (!fs::exists(results, ec)) {
            if (missingCells)
                missingCells->push_back(cell.id);
            continue;
        }
        json axes = json::object();
        for (const auto& [key, value] : cell.axisValues)
            axes[key] = json::parse(value);
        std::istringstream lines(readWholeFile(results.string()));
        std::string line;
        for (int n = 1; std::getline(lines, line); ++n) {
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            json record;
            try {
                record = json::parse(line);
            } catch (const json::parse_error& e) {
                throw Error(results.string() + ": line " + std::to_string(n) + ": not valid JSON: " + util::jsonErrorText(e.what()));
            }
            if (!record.is_object())
                throw Error(results.string() + ": line " + std::to_string(n) + ": expected a record object");
            json tagged{{"cell", cell.id}, {"axes", axes}};
            for (auto it = record.begin(); it != record.end(); ++it)
                tagged[it.key()] = it.value();
            out += tagged.dump() + "\n";
            ++count;
        }
    }
    writeFileAtomic((fs::path(sweepDir) / "results.jsonl").string(), out);
    return count;
}

std::string runDisplayName(const std::string& runDir)
{
    fs::path dir(runDir);
    if (dir.filename().empty())
        dir = dir.parent_path(); // "cells/ID/" names ID
    const fs::path cells = dir.parent_path(), sweepDir = cells.parent_path();
    std::error_code ec;
    if (cells.filename() == "cells" && fs::is_regular_file(sweepDir / "sweep.json", ec)) {
        try {
            const Sweep sweep = loadSweepFile((sweepDir / "sweep.json").string());
            for (const SweepCell& cell : sweep.cells) {
                if (cell.id != dir.filename().string())
                    continue;
                const fs::path named = fs::absolute(sweepDir.empty() ? fs::path(".") : sweepDir, ec).lexically_normal();
                std::string name = (named.filename().empty() ? named.parent_path() : named).filename().string();
                for (const auto& [key, value] : cell.axisValues) {
                    std::string shown = value;
                    shown.erase(std::remove(shown.begin(), shown.end(), '"'), shown.end());
                    name += " " + key + "=" + shown;
                }
                return name;
            }
        } catch (const Error&) {
            // A sweep file changed since: the folder's name still names the run.
        }
    }
    return dir.filename().string();
}

} // namespace dpu
