// SPDX-License-Identifier: MIT
// The fleet planner's cells to run as a listed-cells sweep (dpu/FleetPlanSweep.h): each the plan of its run, changed.
#include "dpu/FleetPlanSweep.h"
#include "dpu/Error.h"
#include <nlohmann/json.hpp>
#include <map>

namespace dpu {
namespace {

using json = nlohmann::ordered_json;

/// The leaves of a plan's JSON by dotted path ("train.lr" -> 0.005); lists are leaves.
void flatten(const json& node, const std::string& path, std::map<std::string, json>& out)
{
    if (node.is_object() && !node.empty()) {
        for (auto it = node.begin(); it != node.end(); ++it)
            flatten(*it, path.empty() ? it.key() : path + "." + it.key(), out);
        return;
    }
    out[path] = node;
}

std::map<std::string, json> leavesOf(const Plan& plan)
{
    std::map<std::string, json> out;
    flatten(json::parse(planToJson(plan)), "", out);
    return out;
}

/// Sets the dotted `key` of a plan's JSON, creating the objects on the way.
void setKey(json& plan, const std::string& key, const json& value)
{
    json* node = &plan;
    for (size_t start = 0;;) {
        const size_t dot = key.find('.', start);
        if (dot == std::string::npos) {
            (*node)[key.substr(start)] = value;
            return;
        }
        node = &(*node)[key.substr(start, dot - start)];
        start = dot + 1;
    }
}

/// The plan of the `index`th cell to run: its run's plan with the cell's strategy alone and the
/// cell's keys applied; a run named by its fields names the cell by its own.
Plan cellPlanOf(const FleetPlan& plan, size_t index, const std::vector<FleetPlanStrategy>& strategies,
                const std::vector<RunFolder>& runs, const std::string& source)
{
    const FleetPlanCell& cell = plan.cellsToRun[index];
    const std::string at = source + ": cell to run " + std::to_string(index + 1);
    if (cell.candidate >= plan.candidates.size() || plan.candidates[cell.candidate].strategy >= strategies.size())
        throw Error(at + ": its candidate or strategy is not among the plan's (a plan of other inputs?)");
    const FleetPlanStrategy& strategy = strategies[plan.candidates[cell.candidate].strategy];
    const RunFolder* run = nullptr;
    std::string names;
    for (const RunFolder& r : runs) {
        if (r.label() == cell.run)
            run = &r;
        names += (names.empty() ? "" : ", ") + r.label();
    }
    if (!run)
        throw Error(at + ": its run '" + cell.run + "' is not among the runs given (" + (names.empty() ? "none" : names) + ")");
    Plan base = run->plan;
    base.strategies = {strategy.strategyName};
    json j = json::parse(planToJson(base));
    for (const auto& [key, value] : cell.keys) {
        try {
            setKey(j, key, json::parse(value));
        } catch (const json::exception&) {
            throw Error(at + ": its key " + key + " has the value " + value + ", which is not JSON");
        }
    }
    Plan out;
    try {
        out = parsePlan(j.dump(), at);
    } catch (const Error& e) {
        throw Error(at + " (run " + cell.run + "): its keys do not make a valid plan: " + e.what());
    }
    if (run->plan.name == automaticPlanName(run->plan))
        out.name = automaticPlanName(out);
    return out;
}

} // namespace

Sweep fleetPlanSweep(const FleetPlan& plan, const std::vector<FleetPlanStrategy>& strategies, const std::vector<RunFolder>& runs,
                     const std::string& source)
{
    if (plan.cellsToRun.empty())
        throw Error(source + ": the fleet plan names no cell to run (no estimated cell would do better than every run)");
    std::vector<Plan> cells;
    for (size_t i = 0; i < plan.cellsToRun.size(); ++i)
        cells.push_back(cellPlanOf(plan, i, strategies, runs, source));

    const std::map<std::string, json> base = leavesOf(cells.front());
    json list = json::array();
    for (size_t i = 0; i < cells.size(); ++i) {
        // Each entry names what its cell changes of its run (the planner's keys: "k"), then how
        // its run differs from the first cell's (another coding, another name): a cell's axes in
        // the Sweeps tab and `sweep status` then say what it is, not only how it differs.
        json entry = json::object();
        const std::map<std::string, json> own = leavesOf(cells[i]);
        for (const auto& [key, value] : plan.cellsToRun[i].keys)
            entry[key] = own.count(key) ? own.at(key) : json::parse(value);
        for (const auto& [key, value] : own)
            if (!base.count(key) || base.at(key) != value)
                entry[key] = value;
        list.push_back(entry);
    }
    const json doc{{"base", json::parse(planToJson(cells.front()))}, {"cells", list}};
    Sweep sweep = parseSweep(doc.dump(), source);
    // A key the base has and a cell lacks cannot be listed: make sure every cell came out as planned.
    for (size_t i = 0; i < cells.size(); ++i) {
        Plan got = sweep.cells[i].plan;
        got.name = cells[i].name; // a sweep may rename cells of an automatically named base
        if (planToJson(got) != planToJson(cells[i]))
            throw Error(source + ": cell to run " + std::to_string(i + 1) + " of run '" + plan.cellsToRun[i].run +
                        "' cannot be written as a change of the first cell's plan");
    }
    return sweep;
}

} // namespace dpu
