// SPDX-License-Identifier: MIT
// Frontier: plans compared key by key (as their JSON), runs grouped by setting, log-k interpolation.
#include "dpu/Frontier.h"
#include "dpu/DeployedForms.h"
#include "dpu/StrategyId.h"
#include "planning/FrontierPooling.h"
#include "planning/PlanKeys.h"
#include <algorithm>
#include <cmath>
#include <set>

namespace dpu {

const std::vector<std::string>& frontierIgnoredKeys()
{
    static const std::vector<std::string> keys{"name", "device", "threads", "bundle.write", "bundle.secret_key"};
    return keys;
}

std::vector<std::string> defaultSweptKeys()
{
    return {"k"};
}

std::vector<std::string> defaultFamilyKeys()
{
    // "budget": a run under a byte budget (budget.bytes_per_round / bytes_total) is a family of
    // its own, not a point of the k line it shares a plan k with.
    return {"bundle", "budget"};
}

std::vector<std::string> frontierFreeKeys(const std::vector<std::string>& swept, const std::vector<std::string>& familyKeys)
{
    std::vector<std::string> out = swept;
    out.insert(out.end(), familyKeys.begin(), familyKeys.end());
    out.push_back("strategies");
    return out;
}

FamilyValues familyValuesOf(const Plan& plan, const std::vector<std::string>& familyKeys)
{
    FamilyValues out;
    for (const auto& [key, value] : planning::flatPlan(plan))
        if (planning::coveredBy(key, familyKeys) && !planning::coveredBy(key, frontierIgnoredKeys()))
            out.emplace_back(key, value);
    return out;
}

FamilyValues familyValuesOf(const std::string& strategy, const Plan& plan, const std::vector<std::string>& familyKeys)
{
    if (!isBaseline(strategy))
        return familyValuesOf(plan, familyKeys);
    // What the engine does (experiment/RunSessionDeploy.cpp shippedKind(), bundle/FullZeros.cpp):
    // FU's strategy policy is not budgeted, and a full bundle carries exact fp32 values whatever
    // bundle.values says; its bundles and accuracies in an fp32 and a q4 run are the same bytes.
    // A sparse deployed model's FU ships deltas from round 2 on, coded as the plan codes.
    Plan shipped = plan;
    shipped.budget = defaultPlan().budget;
    if (!deployedFormInfo(plan.deployed).fullUpdateIsDelta)
        shipped.bundle = defaultPlan().bundle;
    return familyValuesOf(shipped, familyKeys);
}

std::string familyLabel(const std::string& strategy, const FamilyValues& values)
{
    static const planning::FlatPlan defaults = planning::flatPlan(defaultPlan());
    std::string label = strategy;
    for (const auto& [key, value] : values) {
        const auto d = defaults.find(key);
        if (d != defaults.end() && d->second == value)
            continue; // the paper's choice goes without saying
        const bool text = value.size() >= 2 && value.front() == '"' && value.back() == '"';
        label += ' ';
        label += text ? value.substr(1, value.size() - 2) : key.substr(key.rfind('.') + 1) + "=" + value;
    }
    return label;
}

std::vector<std::string> planDifferences(const Plan& a, const Plan& b, const std::vector<std::string>& swept)
{
    const planning::FlatPlan fa = planning::comparable(a, swept), fb = planning::comparable(b, swept);
    std::set<std::string> keys;
    for (const auto& [k, v] : fa)
        keys.insert(k);
    for (const auto& [k, v] : fb)
        keys.insert(k);
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        const std::string va = planning::flatValue(fa, key), vb = planning::flatValue(fb, key);
        if (va != vb)
            out.push_back(key + ": " + va + " vs " + vb);
    }
    return out;
}

int frontierGroupOf(const std::vector<FrontierGroup>& groups, const Plan& plan, const std::vector<std::string>& swept,
                    const std::vector<std::string>& familyKeys)
{
    const std::vector<std::string> free = frontierFreeKeys(swept, familyKeys);
    for (size_t i = 0; i < groups.size(); ++i)
        if (planDifferences(groups[i].plan, plan, free).empty())
            return static_cast<int>(i);
    return -1;
}

std::vector<FrontierGroup> frontierGroups(const std::vector<FrontierRun>& runs, const std::vector<std::string>& swept,
                                          const std::vector<std::string>& familyKeys)
{
    std::vector<FrontierGroup> groups;
    std::vector<std::vector<const FrontierRun*>> members;
    for (const FrontierRun& run : runs) {
        if (!run.finished || run.records.empty())
            continue;
        int g = frontierGroupOf(groups, run.plan, swept, familyKeys);
        if (g < 0) {
            groups.push_back({run.plan, {}, {}, {}, {}});
            members.emplace_back();
            g = static_cast<int>(groups.size()) - 1;
        }
        groups[g].runIds.push_back(run.id);
        members[g].push_back(&run);
    }
    for (size_t g = 0; g < groups.size(); ++g)
        planning::poolPoints(groups[g], members[g], familyKeys);
    return groups;
}

std::vector<FrontierPoint> pointsOf(const std::vector<FrontierPoint>& points, const std::string& strategy)
{
    std::vector<FrontierPoint> out;
    std::copy_if(points.begin(), points.end(), std::back_inserter(out),
                 [&](const FrontierPoint& p) { return p.strategy == strategy; });
    return out;
}

std::vector<FrontierPoint> pointsOfFamily(const std::vector<FrontierPoint>& points, const std::string& family)
{
    std::vector<FrontierPoint> out;
    std::copy_if(points.begin(), points.end(), std::back_inserter(out),
                 [&](const FrontierPoint& p) { return p.family == family; });
    return out;
}

Expectation expectedAccuracy(const std::vector<FrontierPoint>& points, double k)
{
    Expectation e;
    if (!(k > 0))
        return e;
    const FrontierPoint* below = nullptr;
    const FrontierPoint* above = nullptr;
    for (const FrontierPoint& p : points) {
        if (p.k <= k && (!below || p.k > below->k))
            below = &p;
        if (p.k >= k && (!above || p.k < above->k))
            above = &p;
    }
    if (!below || !above)
        return e;
    e.bracketed = true;
    e.kLow = below->k;
    e.kHigh = above->k;
    if (below->k == above->k) {
        e.accuracy = below->meanAccuracy;
        return e;
    }
    // Accuracy grows roughly linearly in log k over the paper's range (0.001 .. 0.1).
    const double t = (std::log(k) - std::log(below->k)) / (std::log(above->k) - std::log(below->k));
    e.accuracy = below->meanAccuracy + t * (above->meanAccuracy - below->meanAccuracy);
    return e;
}

} // namespace dpu
