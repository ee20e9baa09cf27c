// SPDX-License-Identifier: MIT
// Run folders read back (plan, records, run.json) and the labelled CSV/JSON exports of several runs.
#include "dpu/RunFolder.h"
#include "dpu/DeployedForms.h"
#include "util/JsonErrorText.h"
#include "dpu/Error.h"
#include "dpu/PlanEnums.h"
#include "dpu/RecordFiles.h"
#include "util/AtomicFile.h"
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace dpu {

namespace {

namespace fs = std::filesystem;

/// run.json's count `key` (absent: `absent`, or an error when it is required): a whole number
/// from 0 to `most`. A fraction or 1e308 is refused by name: converted, it would read as
/// another count (or, past int64, as nothing defined).
int64_t countField(const nlohmann::json& j, const char* key, const std::string& source, std::optional<int64_t> absent,
                   int64_t most = INT64_MAX)
{
    const auto it = j.find(key);
    if (it == j.end()) {
        if (!absent)
            throw Error(source + ": " + key + ": missing");
        return *absent;
    }
    if (!it->is_number_integer() || (it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(most))
        || (!it->is_number_unsigned() && (it->get<int64_t>() < 0 || it->get<int64_t>() > most)))
        throw Error(source + ": " + key + ": expected a whole number from 0 to " + std::to_string(most) + ", found "
                    + it->dump());
    return it->get<int64_t>();
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (const char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string joinPath(const std::string& dir, const char* name)
{
    return (fs::path(dir) / name).string();
}

} // namespace

bool RunFolder::complete() const
{
    if (status.known)
        return status.state == "finished";
    // Older folders: the seed-major loop stops anywhere; a run is whole when every seed and
    // strategy reached the plan's last round.
    const int last = plannedRounds(plan);
    std::map<std::pair<uint64_t, std::string>, int> reached;
    for (const RoundRecord& r : records)
        reached[{r.seed, r.strategy}] = std::max(reached[{r.seed, r.strategy}], r.round);
    for (const uint64_t seed : plan.seeds)
        for (const std::string& s : plan.strategies) {
            const auto it = reached.find({seed, s});
            if (it == reached.end() || it->second < last)
                return false;
        }
    return !records.empty();
}

std::string RunFolder::label() const
{
    fs::path p(dir);
    if (p.filename().empty())
        p = p.parent_path(); // "runs/a/" names "a"
    return p.filename().string();
}

bool isRunFolder(const std::string& dir)
{
    std::error_code ec;
    return fs::is_regular_file(joinPath(dir, "plan.json"), ec) && fs::is_regular_file(joinPath(dir, "results.jsonl"), ec);
}

std::vector<std::string> findRunFolders(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw Error(dir + ": not a run folder (no such folder)");
    if (isRunFolder(dir))
        return {dir};
    std::vector<std::string> out;
    // A sweep folder keeps its cells' runs in cells/ID (sweepCellDir()).
    const std::string cells = joinPath(dir, "cells");
    const std::string within = fs::is_regular_file(joinPath(dir, "sweep.json"), ec) && fs::is_directory(cells, ec) ? cells : dir;
    for (const auto& entry : fs::directory_iterator(within, ec))
        if (entry.is_directory(ec) && isRunFolder(entry.path().string()))
            out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());
    if (out.empty())
        throw Error(dir + ": not a run folder (expected plan.json and results.jsonl, or folders holding them)");
    return out;
}

std::vector<RoundRecord> loadRunRecords(const std::string& dir)
{
    const std::string path = joinPath(dir, "results.jsonl");
    std::istringstream lines(readWholeFile(path));
    std::vector<RoundRecord> out;
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        try {
            out.push_back(recordFromJson(line));
        } catch (const Error& e) {
            throw Error(path + ": line " + std::to_string(n) + ": " + e.what());
        }
    }
    return out;
}

RunFolder loadRunFolder(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw Error(dir + ": not a run folder (no such folder)");
    RunFolder run;
    run.dir = dir;
    const std::string planPath = joinPath(dir, "plan.json");
    if (!fs::exists(planPath, ec))
        throw Error(planPath + ": missing; a run folder holds plan.json, results.jsonl and bundles/");
    run.plan = parsePlan(readWholeFile(planPath), planPath);
    const std::string resultsPath = joinPath(dir, "results.jsonl");
    if (!fs::exists(resultsPath, ec))
        throw Error(resultsPath + ": missing; the run wrote no finished round");
    run.records = loadRunRecords(dir);
    const std::string statusPath = joinPath(dir, "run.json");
    if (fs::exists(statusPath, ec))
        run.status = runStatusFromJson(readWholeFile(statusPath), statusPath);
    run.hasBundles = fs::is_directory(joinPath(dir, "bundles"), ec);
    return run;
}

std::string describeRunFolder(const std::string& dir)
{
    const std::string planPath = joinPath(dir, "plan.json");
    std::error_code ec;
    if (!fs::exists(planPath, ec))
        throw Error(planPath + ": missing; a run folder holds plan.json, results.jsonl and bundles/");
    const Plan plan = parsePlan(readWholeFile(planPath), planPath);
    std::string out;
    for (const std::string& s : plan.strategies)
        out += (out.empty() ? "" : ", ") + s;
    std::ostringstream k;
    k << plan.k;
    if (plan.budget.bytesPerRound > 0)
        out += " · " + std::to_string(plan.budget.bytesPerRound) + " B per round";
    else if (plan.budget.bytesTotal > 0)
        out += " · " + std::to_string(plan.budget.bytesTotal) + " B in all";
    else
        out += " · k=" + k.str();
    out += " · " + nameOf(plan.bundle.values);
    if (!deployedFormInfo(plan.deployed).reference)
        out += " · deployed " + nameOf(plan.deployed);
    out += " · " + std::to_string(plan.split.rounds) + " rounds";
    const std::string statusPath = joinPath(dir, "run.json");
    if (fs::exists(statusPath, ec)) {
        const RunStatus status = runStatusFromJson(readWholeFile(statusPath), statusPath);
        if (status.started.size() >= 16) // "2026-12-04T21:16:04Z" as "2026-12-04 21:16"
            out += " · " + status.started.substr(0, 10) + " " + status.started.substr(11, 5);
        if (!status.state.empty() && status.state != "finished")
            out += " · " + status.state;
    }
    return out;
}

std::string runStatusToJson(const RunStatus& s)
{
    nlohmann::json j{{"state", s.state},   {"rounds", s.rounds}, {"partial_weights", s.partialWeights},
                     {"dense_weights", s.denseWeights}, {"device", s.device}, {"host", s.host},
                     {"started", s.started}, {"ended", s.ended}};
    if (s.codedDenseWeights > 0) { // only an INT8 run with its biases as codes has them
        j["coded_dense_weights"] = s.codedDenseWeights;
        j["coded_dense_scales"] = s.codedDenseScales;
    }
    return j.dump(2) + "\n";
}

CostModel runCostModel(const RunFolder& run)
{
    CostModel c{run.status.partialWeights, run.status.denseWeights};
    c.codedDenseWeights = run.status.codedDenseWeights;
    c.codedDenseScales = run.status.codedDenseScales;
    return c;
}

RunStatus runStatusFromJson(const std::string& text, const std::string& source)
{
    try {
        const auto j = nlohmann::json::parse(text);
        RunStatus s;
        s.known = true;
        s.state = j.at("state").get<std::string>();
        if (s.state != "running" && s.state != "finished" && s.state != "stopped")
            throw Error(source + ": state: expected \"running\", \"finished\" or \"stopped\", found \"" + s.state + "\"");
        s.rounds = static_cast<int>(countField(j, "rounds", source, std::nullopt, INT32_MAX));
        s.partialWeights = countField(j, "partial_weights", source, std::nullopt);
        s.denseWeights = countField(j, "dense_weights", source, std::nullopt);
        s.device = j.value("device", std::string());
        s.host = j.value("host", std::string());
        s.started = j.value("started", std::string());
        s.ended = j.value("ended", std::string());
        s.codedDenseWeights = countField(j, "coded_dense_weights", source, 0);
        s.codedDenseScales = countField(j, "coded_dense_scales", source, 0);
        if (s.codedDenseWeights > s.denseWeights || s.codedDenseScales > s.codedDenseWeights)
            throw Error(source + ": coded_dense_weights " + std::to_string(s.codedDenseWeights) + " and coded_dense_scales "
                        + std::to_string(s.codedDenseScales) + ": expected 0 <= scales <= codes <= dense_weights ("
                        + std::to_string(s.denseWeights) + ")");
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw Error(source + ": malformed run status: " + util::jsonErrorText(e.what()));
    }
}

std::string describeThisMachine()
{
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    std::string cpu;
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; cpu.empty() && std::getline(info, line);)
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
            cpu = line.substr(line.find(':') + 2);
    std::string out = host[0] ? host : "unknown host";
    if (!cpu.empty())
        out += ", " + cpu;
    out += ", " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores";
    return out;
}

std::string isoTimeNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

std::string labelledRunsToCsv(const std::vector<LabelledRun>& runs)
{
    std::ostringstream out;
    const std::string header = recordsToCsv({});
    out << "run,plan,k,coding," << header;
    for (const LabelledRun& run : runs) {
        std::ostringstream k;
        k << std::setprecision(10) << run.k;
        const std::string prefix = csvField(run.run) + ',' + csvField(run.planName) + ',' + k.str() + ',' + csvField(run.coding) + ',';
        std::istringstream rows(recordsToCsv(run.records));
        std::string line;
        std::getline(rows, line); // the header, written once above
        while (std::getline(rows, line))
            out << prefix << line << '\n';
    }
    return out.str();
}

std::string labelledRunsToJson(const std::vector<LabelledRun>& runs)
{
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const LabelledRun& run : runs)
        for (const RoundRecord& r : run.records) {
            // run, plan, k and coding first: ordered_json keeps the order a reader sees.
            nlohmann::ordered_json j{{"run", run.run}, {"plan", run.planName}, {"k", run.k}, {"coding", run.coding}};
            const auto fields = nlohmann::ordered_json::parse(recordToJson(r));
            for (const auto& [key, value] : fields.items())
                j[key] = value;
            all.push_back(std::move(j));
        }
    return all.dump(2) + "\n";
}

} // namespace dpu
