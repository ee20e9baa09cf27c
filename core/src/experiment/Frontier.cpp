// SPDX-License-Identifier: MIT
// Frontier: plans compared key by key (as their JSON), runs pooled per group, log-k interpolation.
#include "dpu/Frontier.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dpu {

namespace {

using Flat = std::map<std::string, std::string>;

void flatten(const nlohmann::json& j, const std::string& path, Flat& out)
{
    if (j.is_object()) {
        for (const auto& [key, value] : j.items())
            flatten(value, path.empty() ? key : path + "." + key, out);
        return;
    }
    out[path] = j.dump();
}

/// The plan as path -> value, without the keys a frontier lets vary.
Flat comparable(const Plan& plan, const std::vector<std::string>& swept)
{
    nlohmann::json j = nlohmann::json::parse(planToJson(plan));
    for (const char* set : {"strategies", "seeds"}) // lists whose order changes nothing
        if (j.contains(set) && j[set].is_array())
            std::sort(j[set].begin(), j[set].end());
    Flat flat;
    flatten(j, {}, flat);
    for (const auto* keys : {&frontierIgnoredKeys(), &swept})
        for (const std::string& key : *keys)
            for (auto it = flat.begin(); it != flat.end();) // a key also drops what lies below it
                it = it->first == key || it->first.rfind(key + ".", 0) == 0 ? flat.erase(it) : std::next(it);
    return flat;
}

} // namespace

const std::vector<std::string>& frontierIgnoredKeys()
{
    static const std::vector<std::string> keys{"name", "device", "threads", "bundle.write", "bundle.secret_key"};
    return keys;
}

std::vector<std::string> defaultSweptKeys()
{
    return {"k"};
}

std::vector<std::string> planDifferences(const Plan& a, const Plan& b, const std::vector<std::string>& swept)
{
    const Flat fa = comparable(a, swept), fb = comparable(b, swept);
    std::set<std::string> keys;
    for (const auto& [k, v] : fa)
        keys.insert(k);
    for (const auto& [k, v] : fb)
        keys.insert(k);
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        const auto ia = fa.find(key), ib = fb.find(key);
        const std::string va = ia == fa.end() ? "(none)" : ia->second, vb = ib == fb.end() ? "(none)" : ib->second;
        if (va != vb)
            out.push_back(key + ": " + va + " vs " + vb);
    }
    return out;
}

int frontierGroupOf(const std::vector<FrontierGroup>& groups, const Plan& plan, const std::vector<std::string>& swept)
{
    for (size_t i = 0; i < groups.size(); ++i)
        if (planDifferences(groups[i].plan, plan, swept).empty())
            return static_cast<int>(i);
    return -1;
}

std::vector<FrontierGroup> frontierGroups(const std::vector<FrontierRun>& runs, const std::vector<std::string>& swept)
{
    struct Sum {
        double accuracy = 0;
        double bytes = 0;
        int rounds = 0;
        int runs = 0;
    };
    std::vector<FrontierGroup> groups;
    std::vector<std::map<std::pair<std::string, double>, Sum>> sums;
    for (const FrontierRun& run : runs) {
        if (!run.finished || run.records.empty())
            continue;
        int g = frontierGroupOf(groups, run.plan, swept);
        if (g < 0) {
            groups.push_back({run.plan, {}, {}});
            sums.emplace_back();
            g = static_cast<int>(groups.size()) - 1;
        }
        groups[g].runIds.push_back(run.id);
        std::set<std::string> seen;
        for (const RoundRecord& r : run.records) {
            Sum& s = sums[g][{r.strategy, run.plan.k}];
            s.accuracy += r.testAccuracy;
            s.bytes += r.analyticBits / 8.0;
            ++s.rounds;
            if (seen.insert(r.strategy).second)
                ++s.runs;
        }
    }
    for (size_t g = 0; g < groups.size(); ++g)
        for (const auto& [key, s] : sums[g]) // std::map order: strategy, then k
            groups[g].points.push_back({key.first, key.second, s.accuracy / s.rounds, s.bytes / s.rounds, s.runs, s.rounds});
    return groups;
}

std::vector<FrontierPoint> pointsOf(const std::vector<FrontierPoint>& points, const std::string& strategy)
{
    std::vector<FrontierPoint> out;
    std::copy_if(points.begin(), points.end(), std::back_inserter(out),
                 [&](const FrontierPoint& p) { return p.strategy == strategy; });
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
