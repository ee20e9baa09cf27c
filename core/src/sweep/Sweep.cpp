// SPDX-License-Identifier: MIT
// Sweep files: parsing (a base with axes or listed cells), content-derived cell ids, and writing them back.
#include "dpu/Sweep.h"
#include "SweepCells.h"
#include "util/JsonErrorText.h"
#include "dpu/Error.h"
#include "util/AtomicFile.h"
#include "util/Sha256Hex.h"
#include <nlohmann/json.hpp>
#include <set>

namespace dpu {
namespace {

using json = nlohmann::ordered_json;

std::string compact(const json& v)
{
    return v.dump();
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
        throw Error(source + ": axes: expected an object of at least one plan key with a list of values (or \"cells\": "
                             "a list of objects of plan keys and values), found " +
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
        if (it.key() != "base" && it.key() != "axes" && it.key() != "cells" && it.key() != "slurm")
            throw Error(source + ": unknown key '" + it.key() + "' (expected base, axes or cells, and slurm)");
    if (doc.contains("axes") && doc.contains("cells"))
        throw Error(source + ": has both \"axes\" and \"cells\": expected exactly one of the two (axes expand to their "
                             "cartesian product, cells are listed one by one)");

    Sweep sweep;
    sweep.source = source;
    if (auto slurm = doc.find("slurm"); slurm != doc.end())
        sweep.slurm = parseSlurmSettings(*slurm, source + ": slurm");
    const json basePlan = readBasePlan(doc, source, baseDir);
    sweep.baseJson = compact(basePlan);
    if (auto cells = doc.find("cells"); cells != doc.end()) {
        sweep.listed = true;
        sweep.cells = sweepcells::readListedCells(basePlan, *cells, source);
        sweep.axes = sweepcells::axesOfCells(sweep.cells);
    } else {
        sweep.axes = readAxes(doc, source);
        sweep.cells = sweepcells::expandAxes(basePlan, sweep.axes, source);
    }
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
    if (listed) {
        json list = json::array();
        for (const SweepCell& cell : cells) {
            json entry = json::object();
            for (const auto& [key, value] : cell.axisValues)
                entry[key] = json::parse(value);
            list.push_back(entry);
        }
        doc["cells"] = list;
    } else {
        json axesJson = json::object();
        for (const SweepAxis& axis : axes) {
            json values = json::array();
            for (const std::string& v : axis.values)
                values.push_back(json::parse(v));
            axesJson[axis.key] = values;
        }
        doc["axes"] = axesJson;
    }
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
