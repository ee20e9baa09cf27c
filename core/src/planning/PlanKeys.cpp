// SPDX-License-Identifier: MIT
// PlanKeys: flattens the plan's own JSON, so a key added to the plan schema is compared without code here.
#include "planning/PlanKeys.h"
#include "dpu/Frontier.h"
#include "dpu/PlanFields.h"
#include <nlohmann/json.hpp>
#include <algorithm>

namespace dpu::planning {
namespace {

void flatten(const nlohmann::json& j, const std::string& path, FlatPlan& out)
{
    if (j.is_object()) {
        for (const auto& [key, value] : j.items())
            flatten(value, path.empty() ? key : path + "." + key, out);
        return;
    }
    out[path] = j.dump();
}

} // namespace

FlatPlan flatPlan(const Plan& plan)
{
    nlohmann::json j = nlohmann::json::parse(planToJson(plan));
    for (const char* set : {"strategies", "seeds"}) // lists whose order changes nothing
        if (j.contains(set) && j[set].is_array())
            std::sort(j[set].begin(), j[set].end());
    FlatPlan flat;
    flatten(j, {}, flat);
    return flat;
}

bool coveredBy(const std::string& key, const std::vector<std::string>& keys)
{
    return std::any_of(keys.begin(), keys.end(),
                       [&](const std::string& k) { return key == k || key.rfind(k + ".", 0) == 0; });
}

FlatPlan comparable(const Plan& plan, const std::vector<std::string>& free)
{
    FlatPlan flat = flatPlan(plan);
    for (auto it = flat.begin(); it != flat.end();)
        it = coveredBy(it->first, frontierIgnoredKeys()) || coveredBy(it->first, free) ? flat.erase(it) : std::next(it);
    return flat;
}

std::string flatValue(const FlatPlan& flat, const std::string& key)
{
    if (const auto it = flat.find(key); it != flat.end())
        return it->second;
    const PlanField* field = findPlanField(key);
    return field && !field->defaultValue.empty() && field->defaultValue != "none" ? field->defaultValue : "(none)";
}

} // namespace dpu::planning
