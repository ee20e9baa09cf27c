// SPDX-License-Identifier: MIT
// The sweep folder's backend record (backend.json) and cancel request (cancel.json).
#include "dpu/SweepControl.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "util/AtomicFile.h"
#include <nlohmann/json.hpp>
#include <signal.h>
#include <unistd.h>
#include <cerrno>
#include <filesystem>
#include <fstream>

namespace dpu {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

std::string backendPath(const std::string& dir)
{
    return (fs::path(dir) / "backend.json").string();
}

std::string cancelPath(const std::string& dir)
{
    return (fs::path(dir) / "cancel.json").string();
}

} // namespace

template <> const std::vector<EnumName<SweepBackend>>& enumNames<SweepBackend>()
{
    static const std::vector<EnumName<SweepBackend>> names{{SweepBackend::Local, "local"}, {SweepBackend::Slurm, "slurm"}};
    return names;
}

std::optional<SweepBackendRecord> readSweepBackend(const std::string& sweepDir)
{
    const std::string path = backendPath(sweepDir);
    std::error_code ec;
    if (!fs::exists(path, ec))
        return std::nullopt;
    SweepBackendRecord r;
    std::string backend;
    try {
        const json j = json::parse(readWholeFile(path));
        backend = j.at("backend").get<std::string>();
        r.host = j.value("host", "");
        r.pid = j.value("pid", 0L);
        r.stopped = j.value("stopped", false);
        r.started = j.value("started", "");
        for (const json& s : j.value("submissions", json::array())) {
            SlurmSubmission sub;
            sub.jobId = s.at("job").get<std::string>();
            sub.cells = s.at("cells").get<std::vector<std::string>>();
            sub.script = s.value("script", "");
            sub.submitted = s.value("submitted", "");
            r.submissions.push_back(std::move(sub));
        }
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        throw Error(path + ": not a sweep backend record: " + e.what());
    }
    const std::optional<SweepBackend> known = enumFromString<SweepBackend>(backend);
    if (!known)
        throw Error(path + ": backend: expected local or slurm, found '" + backend + "'");
    r.backend = *known;
    return r;
}

void writeSweepBackend(const std::string& sweepDir, const SweepBackendRecord& record)
{
    json j{{"backend", nameOf(record.backend)}};
    if (!record.host.empty())
        j["host"] = record.host;
    if (record.backend == SweepBackend::Local) {
        j["pid"] = record.pid;
        if (record.stopped)
            j["stopped"] = true;
    }
    j["started"] = record.started;
    if (record.backend == SweepBackend::Slurm) {
        json subs = json::array();
        for (const SlurmSubmission& s : record.submissions)
            subs.push_back({{"job", s.jobId}, {"script", s.script}, {"submitted", s.submitted}, {"cells", s.cells}});
        j["submissions"] = subs;
    }
    writeFileAtomic(backendPath(sweepDir), j.dump(2) + "\n");
}

void requestSweepCancel(const std::string& sweepDir)
{
    writeFileAtomic(cancelPath(sweepDir), json{{"requested", isoTimeNow()}}.dump() + "\n");
}

bool sweepCancelRequested(const std::string& sweepDir)
{
    std::error_code ec;
    return fs::exists(cancelPath(sweepDir), ec);
}

void clearSweepCancel(const std::string& sweepDir)
{
    std::error_code ec;
    fs::remove(cancelPath(sweepDir), ec);
}

std::string thisHostName()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0)
        return {};
    return name;
}

bool processAlive(long pid)
{
    if (pid <= 0 || (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM))
        return false;
    // A process that ended but that its parent has not waited for yet (a zombie) is gone for us.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return true;
    const size_t paren = line.rfind(')'); // the command name may hold spaces and parentheses
    return !(paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z');
}

} // namespace dpu
