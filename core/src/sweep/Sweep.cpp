// SPDX-License-Identifier: MIT
// Sweep files: parsing, expansion of the axes to cells, and content-derived cell ids.
#include "dpu/Sweep.h"
#include "util/JsonErrorText.h"
#include "dpu/Error.h"
#include "util/AtomicFile.h"
#include "util/Sha256Hex.h"
#include <nlohmann/json.hpp>
#include <map>
#include <set>

namespace dpu {
namespace {

using json = nlohmann::ordered_json;

std::string compact(const json& v)
{
    return v.dump();
}

/// Sets `value` at the dotted `key` of `plan`, creating the objects on the way (a missing
/// plan key keeps its default, so an axis may name a key the base leaves out).
void applyAxis(json& plan, const std::string& key, const json& value, const std::string& where)
{
    json* node = &plan;
    size_t start = 0;
    while (true) {
        const size_t dot = key.find('.', start);
        const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (part.empty())
            throw Error(where + ": expected a plan key path such as train.lr, found '" + key + "'");
        if (!node->is_object())
            throw Error(where + ": '" + key.substr(0, start ? start - 1 : 0) +
                        "' of the base plan is not an object, so '" + key + "' cannot be set");
        if (dot == std::string::npos) {
            (*node)[part] = value;
            return;
        }
        node = &(*node)[part];
        if (node->is_null())
            *node = json::object();
        start = dot + 1;
    }
}

std::string textSetting(const json& v, const std::string& where)
{
    if (!v.is_string() || v.get<std::string>().empty()
        || v.get<std::string>().find_first_of(" \t\n'\"\\") != std::string::npos)
        throw Error(where + ": expected a non-empty word without spaces or quotes, found " + v.dump());
    return v.get<std::string>();
}

int countSetting(const json& v, const std::string& where, int max)
{
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > max)
        throw Error(where + ": expected a whole number 0 .. " + std::to_string(max) + ", found " + v.dump());
    return v.get<int>();
}

SweepSlurmSettings parseSlurmSettings(const json& s, const std::string& where)
{
    if (!s.is_object())
        throw Error(where + std::string(": expected an object such as {\"partition\": \"gpu\", \"time\": \"01:00:00\"}, found ") +
                    s.type_name());
    SweepSlurmSettings out;
    for (auto it = s.begin(); it != s.end(); ++it) {
        const std::string key = it.key(), at = where + "." + key;
        if (key == "partition")
            out.partition = textSetting(*it, at);
        else if (key == "time")
            out.time = textSetting(*it, at);
        else if (key == "mem")
            out.mem = textSetting(*it, at);
        else if (key == "cpus_per_task")
            out.cpusPerTask = countSetting(*it, at, 1024);
        else if (key == "gpus_per_task")
            out.gpusPerTask = countSetting(*it, at, 64);
        else if (key == "throttle")
            out.throttle = countSetting(*it, at, 100000);
        else
            throw Error(where + ": unknown key '" + key +
                        "' (expected partition, time, mem, cpus_per_task, gpus_per_task, throttle)");
    }
    return out;
}

/// The sweep's base plan: an object in the file or the path of a plan file (relative to the
/// sweep file's folder), checked as a plan. Throws Error naming the sweep file and "base".
json readBasePlan(const json& doc, const std::string& source, const std::string& baseDir)
{
    auto base = doc.find("base");
    if (base == doc.end())
        throw Error(source + ": base: missing (a plan object or the path of a plan file)");
    json basePlan;
    if (base->is_string()) {
        const std::string rel = base->get<std::string>();
        const std::string path = (!rel.empty() && rel[0] == '/') ? rel : baseDir + "/" + rel;
        const std::string text = readWholeFile(path);
        try {
            basePlan = json::parse(text);
        } catch (const json::parse_error& e) {
            throw Error(source + ": base: " + path + " is not valid JSON: " + util::jsonErrorText(e.what()));
        }
        try {
            parsePlan(text, path);
        } catch (const Error& e) {
            throw Error(source + ": base: " + path + ": " + e.what());
        }
    } else if (base->is_object()) {
        basePlan = *base;
        try {
            parsePlan(compact(basePlan), source + " base");
        } catch (const Error& e) {
            throw Error(source + ": base: " + e.what());
        }
    } else {
        throw Error(source + std::string(": base: expected a plan object or a file path, found ") + base->type_name());
    }
    if (!basePlan.is_object())
        throw Error(source + ": base: expected a plan object");
    return basePlan;
}

/// The axes in the file's order, each a plan key with a non-empty list of distinct values.
std::vector<SweepAxis> readAxes(const json& doc, const std::string& source)
{
    auto axes = doc.find("axes");
    if (axes == doc.end() || !axes->is_object() || axes->empty())
        throw Error(source + ": axes: expected an object of at least one plan key with a list of values, found " +
                    (axes == doc.end() ? std::string("nothing") : std::string(axes->type_name())));
    std::vector<SweepAxis> out;
    for (auto it = axes->begin(); it != axes->end(); ++it) {
        const std::string where = source + ": axes." + it.key();
        if (!it->is_array() || it->empty())
            throw Error(where + ": expected a non-empty list of values, found " +
                        (it->is_array() ? std::string("an empty list") : std::string(it->type_name())));
        SweepAxis axis{it.key(), {}};
        std::set<std::string> seen;
        for (const json& v : *it) {
            if (!seen.insert(compact(v)).second)
                throw Error(where + ": the value " + compact(v) + " is listed twice");
            axis.values.push_back(compact(v));
        }
        out.push_back(std::move(axis));
    }
    return out;
}

/// One cell for each combination of the axes' values (the Cartesian product, the last axis
/// varying fastest, like nested loops in the file's order), each a valid plan, no two alike.
std::vector<SweepCell> expandCells(const json& basePlan, const std::vector<SweepAxis>& axes, const std::string& source)
{
    // A base named by its fields ("fashion-mlp-k0.01") names each cell by its own fields
    // ("fashion-mlp-k0.003"): the name a plan, a chart title and a CSV row show.
    bool automaticName = false;
    try {
        const Plan base = parsePlan(compact(basePlan), "base");
        automaticName = base.name == automaticPlanName(base);
    } catch (const Error&) {
        // A base that is no plan alone (an axis completes it): each cell is checked below.
    }
    std::vector<SweepCell> cells;
    std::vector<size_t> index(axes.size(), 0);
    std::map<std::string, std::string> ids; // id -> first cell's axis values, to report duplicates
    while (true) {
        json cellPlan = basePlan;
        SweepCell cell;
        std::string label;
        for (size_t a = 0; a < axes.size(); ++a) {
            const std::string& value = axes[a].values[index[a]];
            applyAxis(cellPlan, axes[a].key, json::parse(value), source + ": axes." + axes[a].key);
            cell.axisValues.emplace_back(axes[a].key, value);
            label += (label.empty() ? "" : ", ") + axes[a].key + " = " + value;
        }
        try {
            cell.plan = parsePlan(compact(cellPlan), "cell");
        } catch (const Error& e) {
            throw Error(source + ": the cell " + label + " is not a valid plan: " + e.what());
        }
        // The id is the cell's content as given (the base's name): sweeps started before cells
        // were renamed keep their cells' folders.
        cell.id = sweepCellId(cell.plan);
        if (automaticName)
            cell.plan.name = automaticPlanName(cell.plan);
        auto [it, fresh] = ids.emplace(cell.id, label);
        if (!fresh)
            throw Error(source + ": the cells " + it->second + " and " + label +
                        " are the same plan (an axis value that changes nothing?)");
        cells.push_back(std::move(cell));

        size_t a = axes.size();
        while (a > 0 && ++index[a - 1] == axes[a - 1].values.size())
            index[--a] = 0;
        if (a == 0)
            return cells;
    }
}

} // namespace

std::string sweepCellId(const Plan& plan)
{
    const std::string text = planToJson(plan);
    return sha256Hex(std::vector<uint8_t>(text.begin(), text.end())).substr(0, 12);
}

Sweep parseSweep(const std::string& jsonText, const std::string& source, const std::string& baseDir)
{
    json doc;
    try {
        doc = json::parse(jsonText);
    } catch (const json::parse_error& e) {
        throw Error(source + ": not valid JSON: " + util::jsonErrorText(e.what()));
    }
    if (!doc.is_object())
        throw Error(source + ": expected an object {\"base\": ..., \"axes\": {...}}, found " + doc.type_name());
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "base" && it.key() != "axes" && it.key() != "slurm")
            throw Error(source + ": unknown key '" + it.key() + "' (expected base, axes and slurm)");

    Sweep sweep;
    sweep.source = source;
    if (auto slurm = doc.find("slurm"); slurm != doc.end())
        sweep.slurm = parseSlurmSettings(*slurm, source + ": slurm");
    const json basePlan = readBasePlan(doc, source, baseDir);
    sweep.baseJson = compact(basePlan);
    sweep.axes = readAxes(doc, source);
    sweep.cells = expandCells(basePlan, sweep.axes, source);
    return sweep;
}

Sweep loadSweepFile(const std::string& path)
{
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    return parseSweep(readWholeFile(path), path, dir);
}

std::string Sweep::toJson() const
{
    json doc;
    doc["base"] = json::parse(baseJson);
    json axesJson = json::object();
    for (const SweepAxis& axis : axes) {
        json values = json::array();
        for (const std::string& v : axis.values)
            values.push_back(json::parse(v));
        axesJson[axis.key] = values;
    }
    doc["axes"] = axesJson;
    json s = json::object();
    if (!slurm.partition.empty())
        s["partition"] = slurm.partition;
    if (!slurm.time.empty())
        s["time"] = slurm.time;
    if (!slurm.mem.empty())
        s["mem"] = slurm.mem;
    if (slurm.cpusPerTask)
        s["cpus_per_task"] = slurm.cpusPerTask;
    if (slurm.gpusPerTask)
        s["gpus_per_task"] = slurm.gpusPerTask;
    if (slurm.throttle)
        s["throttle"] = slurm.throttle;
    if (!s.empty())
        doc["slurm"] = s;
    return doc.dump(2) + "\n";
}

} // namespace dpu
