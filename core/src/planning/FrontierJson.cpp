// SPDX-License-Identifier: MIT
// FrontierJson: the frontier's groups, families and points as JSON for scripts (bench/rate_accuracy).
#include "dpu/Frontier.h"
#include <nlohmann/json.hpp>
#include <cmath>

namespace dpu {
namespace {

nlohmann::json number(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json pointJson(const FrontierPoint& p)
{
    return {{"k", p.k},
            {"mean_accuracy", number(p.meanAccuracy)},
            {"accuracy_to_fu", number(p.accuracyToFu)},
            {"accuracy_to_fu_std", number(p.accuracyToFuStd)},
            {"initial_deployment_bytes", number(p.initialDeploymentBytes)},
            {"real_bytes_per_update_round", number(p.realBytesPerUpdateRound)},
            {"max_real_bytes_per_update_round", number(p.maxRealBytesPerUpdateRound)},
            {"real_bytes_per_run", number(p.realBytesPerRun)},
            {"ratio_to_fu", number(p.ratioToFu)},
            {"ratio_to_fu_std", number(p.ratioToFuStd)},
            {"seed_units", p.seedUnits},
            {"ratio_to_full", number(p.ratioToFull)},
            {"analytic_bytes_per_round", number(p.meanBytesPerRound)},
            {"real_to_analytic", number(p.realToAnalytic)},
            {"measured_bytes", p.measuredBytes},
            {"runs", p.runs},
            {"rounds", p.rounds},
            {"deployed_rounds", p.deployedRounds},
            {"update_rounds", p.updateRounds}};
}

} // namespace

std::string frontierToJson(const std::vector<FrontierGroup>& groups)
{
    nlohmann::json out = nlohmann::json::array();
    for (const FrontierGroup& g : groups) {
        nlohmann::json families = nlohmann::json::array();
        for (const FrontierFamily& f : g.families) {
            nlohmann::json values = nlohmann::json::object();
            for (const auto& [key, value] : f.values)
                values[key] = nlohmann::json::parse(value, nullptr, false);
            nlohmann::json points = nlohmann::json::array();
            for (const FrontierPoint& p : f.points)
                points.push_back(pointJson(p));
            families.push_back({{"family", f.label}, {"strategy", f.strategy}, {"values", values}, {"points", points}});
        }
        out.push_back({{"plan", g.plan.name},
                       {"model", g.plan.model},
                       {"rounds", g.plan.split.rounds},
                       {"seeds", g.plan.seeds},
                       {"runs", g.runIds},
                       {"fu_reference", g.fuReference},
                       {"families", families}});
    }
    return out.dump(2) + "\n";
}

} // namespace dpu
