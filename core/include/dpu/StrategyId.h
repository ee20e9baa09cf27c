// SPDX-License-Identifier: MIT
// The strategies a plan may name, as a type: "is this the baseline?" is asked here, never by spelling a name.
#pragma once
#include "dpu/PlanEnums.h"
#include <string>

namespace dpu {

/// plan.strategies: one value per strategy the engine runs, in the order forms, errors and docs
/// list them (strategyNames()). Fu is full updating, the paper's baseline.
enum class StrategyId { Fu, Dpu, DpuNoreinit, DpuMemory, Gcpu, GcpuReinit, Lcpu, Rpu, Pruning };

/// The names of the strategies in plan files and records ("fu", "dpu", ...; PlanEnums.cpp).
template <> const std::vector<EnumName<StrategyId>>& enumNames<StrategyId>();

/// The baseline every other strategy is judged against (accuracy "to FU", bytes "to full"):
/// full updating, which trains and ships every weight each round and has no k.
constexpr StrategyId baselineStrategy() { return StrategyId::Fu; }

/// True for the baseline strategy.
constexpr bool isBaseline(StrategyId id) { return id == baselineStrategy(); }

/// True when `strategyName` (a plan's or a record's) names the baseline; false for any other
/// name, an unknown one included.
inline bool isBaseline(const std::string& strategyName)
{
    const std::optional<StrategyId> id = enumFromString<StrategyId>(strategyName);
    return id && isBaseline(*id);
}

/// The baseline's name in plans and records ("fu"), for the places that write or look up a name.
inline std::string baselineStrategyName() { return nameOf(baselineStrategy()); }

} // namespace dpu
