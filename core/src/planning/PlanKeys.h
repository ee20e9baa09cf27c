// SPDX-License-Identifier: MIT
// A plan as flat JSON paths -> values, for comparing plans key by key (frontier groups and families).
#pragma once
#include "dpu/Plan.h"
#include <map>
#include <string>
#include <vector>

namespace dpu::planning {

/// JSON path ("split.rounds") -> value as compact JSON text ("10").
using FlatPlan = std::map<std::string, std::string>;

/// The plan's JSON flattened; lists whose order changes nothing (strategies, seeds) are sorted.
FlatPlan flatPlan(const Plan& plan);

/// Whether `key` is one of `keys` or lies below one ("bundle.values" is covered by "bundle").
bool coveredBy(const std::string& key, const std::vector<std::string>& keys);

/// flatPlan() without frontierIgnoredKeys() and the keys covered by `free`.
FlatPlan comparable(const Plan& plan, const std::vector<std::string>& free);

/// The value at `key`; a key the plan leaves out holds its default, which a plan file does not
/// write, so that default is the answer ("\"fp32\"" for deployed), or "(none)" where the default
/// is no value at all (a budget off).
std::string flatValue(const FlatPlan& flat, const std::string& key);

} // namespace dpu::planning
