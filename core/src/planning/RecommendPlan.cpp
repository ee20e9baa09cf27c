// SPDX-License-Identifier: MIT
// The recommendation as a plan to run and as JSON (what `dpu-cli budget --json` prints).
#include "dpu/Error.h"
#include "dpu/Recommend.h"
#include "dpu/StrategyId.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>

namespace dpu {
namespace {

nlohmann::json number(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json valuesJson(const FamilyValues& values)
{
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [key, value] : values)
        o[key] = nlohmann::json::parse(value, nullptr, false);
    return o;
}

} // namespace

Plan planWithRecommendation(const Plan& reference, const Recommendation& r)
{
    nlohmann::json j = nlohmann::json::parse(planToJson(reference));
    nlohmann::json strategies = nlohmann::json::array({r.strategy});
    const bool hadFu = std::any_of(reference.strategies.begin(), reference.strategies.end(),
                                   [](const std::string& s) { return isBaseline(s); });
    if (hadFu && !isBaseline(r.strategy))
        strategies.push_back(baselineStrategyName()); // the reference the accuracy is judged against
    j["strategies"] = strategies;
    if (!isBaseline(r.strategy) && r.k > 0)
        j["k"] = r.k;
    for (const auto& [path, value] : r.values) {
        nlohmann::json* at = &j;
        for (size_t start = 0;;) {
            const size_t dot = path.find('.', start);
            at = &(*at)[path.substr(start, dot == std::string::npos ? std::string::npos : dot - start)];
            if (dot == std::string::npos)
                break;
            start = dot + 1;
        }
        const nlohmann::json v = nlohmann::json::parse(value, nullptr, false);
        if (v.is_discarded())
            throw PlanError(path, "expected a JSON value, found '" + value + "'");
        *at = v;
    }
    return parsePlan(j.dump(), "recommendation");
}

std::string recommendationToJson(const Recommendation& r, const Budget& budget)
{
    nlohmann::json fits = nlohmann::json::array();
    for (const FamilyFit& f : r.fits)
        fits.push_back({{"family", f.family},
                        {"fits", f.fits},
                        {"k", f.fits ? number(f.k) : nullptr},
                        {"expected_accuracy", f.fits ? number(f.accuracy) : nullptr},
                        {"bytes", f.fits ? number(f.bytes) : nullptr},
                        {"cheapest_k", number(f.cheapestK)},
                        {"cheapest_bytes", number(f.cheapestBytes)},
                        {"best_accuracy", number(f.bestAccuracy)},
                        {"best_bytes", number(f.bestBytes)}});
    const nlohmann::json j = {
        {"budget", {{"scope", budget.scope == Budget::Scope::PerRound ? "round" : "run"}, {"bytes", number(budget.bytes)}}},
        {"found", r.found},
        {"measured", r.measured},
        {"family", r.family},
        {"strategy", r.strategy},
        {"values", valuesJson(r.values)},
        {"k", r.found ? number(r.k) : nullptr},
        {"expected_accuracy", number(r.expectedAccuracy)},
        {"accuracy_to_fu", number(r.accuracyToFu)},
        {"bytes_per_round", r.found ? number(r.bytesPerRound) : nullptr},
        {"bytes_per_run", r.found ? number(r.bytesPerRun) : nullptr},
        {"real_to_analytic", r.measured ? nullptr : number(r.realToAnalytic)},
        {"families_considered", r.familiesConsidered},
        {"families_fitting", r.familiesFitting},
        {"families", fits},
        {"why", r.why},
    };
    return j.dump(2) + "\n";
}

} // namespace dpu
