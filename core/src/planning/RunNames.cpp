// SPDX-License-Identifier: MIT
// runDistinctions: the plan values where runs on screen disagree, as short words per run.
#include "dpu/RunNames.h"
#include "planning/PlanKeys.h"
#include "dpu/InternalCheck.h"
#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace dpu {
namespace {

// A flattened JSON value as a reader would write it: strings without their quotes.
std::string bare(const std::string& dumped)
{
    if (dumped.size() >= 2 && dumped.front() == '"' && dumped.back() == '"')
        return dumped.substr(1, dumped.size() - 2);
    return dumped;
}

// The words for one differing key: k and the coding are what users sweep, so they read short.
std::string describe(const std::string& key, const std::string& value)
{
    if (key == "k")
        return "k=" + value;
    if (key == "bundle.values")
        return bare(value);
    // A budget reads as one ("10416 B/round"); none as such, not as the key's raw 0.
    if (key == "budget.bytes_per_round")
        return value == "0" ? "no budget" : value + " B/round";
    if (key == "budget.bytes_total")
        return value == "0" ? "no total budget" : value + " B in all";
    const size_t dot = key.rfind('.');
    return (dot == std::string::npos ? key : key.substr(dot + 1)) + "=" + bare(value);
}

// The keys that lead a run's words: what users sweep (k, the coding), then the deployed form,
// which changes what a device holds (the paper's Table 3 sets the three forms side by side).
int leadRank(const std::string& key)
{
    static const char* const lead[] = {"k", "bundle.values", "deployed", "deployed_sparsity"};
    const auto it = std::find(std::begin(lead), std::end(lead), key);
    return static_cast<int>(it - std::begin(lead)); // the rest: after all of them
}

// Where the flattened plans disagree: the leading keys in their order, then the rest in path order.
std::vector<std::string> differingKeys(const std::vector<planning::FlatPlan>& flat)
{
    std::set<std::string> keys;
    for (const planning::FlatPlan& f : flat)
        for (const auto& [key, value] : f)
            keys.insert(key);
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        std::set<std::string> values;
        for (const planning::FlatPlan& f : flat)
            values.insert(planning::flatValue(f, key));
        if (values.size() > 1)
            out.push_back(key);
    }
    std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return leadRank(a) < leadRank(b); });
    return out;
}

} // namespace

std::vector<std::string> runDistinctions(const std::vector<Plan>& plans, const std::vector<std::string>& labels)
{
    DPU_INTERNAL_CHECK(plans.size() == labels.size(), "runDistinctions: one label per plan expected");
    std::vector<std::string> out(plans.size());
    if (plans.size() < 2)
        return out;
    std::vector<planning::FlatPlan> flat;
    for (const Plan& p : plans)
        flat.push_back(planning::comparable(p, {"strategies"}));
    const std::vector<std::string> keys = differingKeys(flat);
    for (size_t i = 0; i < plans.size(); ++i)
        for (const std::string& key : keys)
            out[i] += (out[i].empty() ? "" : " · ") + describe(key, planning::flatValue(flat[i], key));
    // The same plan run twice: its label tells the runs apart.
    std::map<std::string, int> seen;
    for (const std::string& text : out)
        ++seen[text];
    for (size_t i = 0; i < out.size(); ++i)
        if (seen[out[i]] > 1)
            out[i] += (out[i].empty() ? "" : " · ") + labels[i];
    return out;
}

} // namespace dpu
