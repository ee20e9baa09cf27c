// SPDX-License-Identifier: MIT
// Plan <-> JSON over the field table: strict parsing (unknown keys and bad values name their path) and serialisation.
#include "dpu/Error.h"
#include "util/JsonErrorText.h"
#include "dpu/Plan.h"
#include "util/RegularFile.h"
#include "dpu/StrategyId.h"
#include "plan/PlanSchema.h"
#include <algorithm>
#include <fstream>
#include <sstream>

namespace dpu {
namespace {

using plan::json;

/// Reads the object at `path` (root: ""): its fields from the table, then its child objects;
/// any key neither names is refused, so a typo never falls back to a default silently.
void readObject(const json& object, const std::string& path, Plan& p)
{
    if (!object.is_object())
        throw PlanError(path, std::string("expected an object, found ") + object.type_name());
    std::vector<std::string> known;
    for (const plan::FieldBinding& b : plan::fieldBindings()) {
        if (plan::parentPath(b.info.path) != path)
            continue;
        const std::string key = plan::leafKey(b.info.path);
        known.push_back(key);
        if (auto it = object.find(key); it != object.end())
            b.read(*it, p);
    }
    for (const std::string& child : planObjectPaths()) {
        if (plan::parentPath(child) != path)
            continue;
        const std::string key = plan::leafKey(child);
        known.push_back(key);
        if (auto it = object.find(key); it != object.end())
            readObject(*it, child, p);
    }
    for (auto it = object.begin(); it != object.end(); ++it)
        if (std::find(known.begin(), known.end(), it.key()) == known.end())
            throw PlanError(path.empty() ? it.key() : path + "." + it.key(), "unknown key");
}

/// The object at `path` inside `root`, made when missing.
json& objectAt(json& root, const std::string& path)
{
    if (path.empty())
        return root;
    json& parent = objectAt(root, plan::parentPath(path));
    return parent[plan::leafKey(path)];
}

} // namespace

std::vector<std::string> valueCodings()
{
    return enumStrings<Coding>();
}

std::vector<std::string> strategyNames()
{
    return enumStrings<StrategyId>();
}

Plan defaultPlan()
{
    return Plan{};
}

bool rewindsIteratively(const Plan& plan)
{
    return plan.mode == RunMode::Single || plan.rewind;
}

int plannedRounds(const Plan& plan)
{
    return plan.mode == RunMode::Single ? std::min(plan.split.rounds, 2) : plan.split.rounds;
}

void validatePlan(const Plan& p)
{
    // Each field's range and the rules across fields, in the table's order: the first broken
    // one is reported, at the path the rule names.
    for (const plan::FieldBinding& b : plan::fieldBindings()) {
        plan::checkApplies(b, p);
        if (b.check)
            b.check(p);
    }
}

void setPlanField(Plan& plan, const std::string& path, const std::string& jsonValue)
{
    const plan::FieldBinding* field = nullptr;
    for (const plan::FieldBinding& b : plan::fieldBindings())
        if (b.info.path == path)
            field = &b;
    if (!field)
        throw PlanError(path, "unknown key");
    const json value = json::parse(jsonValue, nullptr, false);
    if (value.is_discarded())
        throw PlanError(path, "expected a JSON value, found " + jsonValue);
    field->read(value, plan);
    if (field->check)
        field->check(plan);
}

void validateDeployment(const Plan& p)
{
    for (const plan::FieldBinding& b : plan::fieldBindings()) {
        if (b.info.path.rfind("fleet.", 0) != 0)
            continue;
        plan::checkApplies(b, p);
        if (b.check)
            b.check(p);
    }
}

Plan parsePlan(const std::string& text, const std::string& source)
{
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {
        // parse_error, and out_of_range for a number no double holds (1e800): both bad input.
        throw PlanError("", source + ": not valid JSON (" + util::jsonErrorText(e.what()) + ")");
    }
    Plan p = defaultPlan();
    readObject(root, "", p);
    validatePlan(p);
    return p;
}

Plan loadPlanFile(const std::string& path)
{
    const uint64_t size = regularFileSize(path); // a FIFO or /dev/zero is refused, not read
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open plan file");
    if (size > kMaxPlanFileBytes)
        throw PlanError("", path + ": " + std::to_string(size) + " bytes is too large for a plan file (at most " +
                                std::to_string(kMaxPlanFileBytes) + ")");
    std::stringstream buffer;
    buffer << in.rdbuf();
    try {
        return parsePlan(buffer.str(), path);
    } catch (const PlanError& e) {
        if (e.path().empty())
            throw;
        throw PlanError(e.path(), std::string(e.what()).substr(e.path().size() + 2) + " (in " + path + ")");
    }
}

std::string planToJson(const Plan& p)
{
    json j = json::object();
    for (const plan::FieldBinding& b : plan::fieldBindings()) {
        const std::string parent = plan::parentPath(b.info.path);
        // Objects are made only when a field goes into them ("budget" stays out while off).
        json field = json::object();
        b.write(p, field, "v");
        if (field.contains("v"))
            objectAt(j, parent)[plan::leafKey(b.info.path)] = field["v"];
    }
    return j.dump(2) + "\n";
}

} // namespace dpu
