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

} // namespace dpu::planning
