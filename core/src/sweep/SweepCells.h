// SPDX-License-Identifier: MIT
// A sweep file's cells from its axes (the cartesian product) or its listed cells, each a checked plan with its id (internal to core/src/sweep).
#pragma once
#include "dpu/Sweep.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpu::sweepcells {

using json = nlohmann::ordered_json;

/// One cell for each combination of the axes' values (the last axis varying fastest), each a
/// valid plan, no two alike. Throws Error naming `source`, the axis and the cell.
std::vector<SweepCell> expandAxes(const json& basePlan, const std::vector<SweepAxis>& axes, const std::string& source);

/// One cell for each entry of the file's "cells" list (an object of plan key paths to values,
/// applied to the base in the entry's order), in the listed order. Throws Error naming `source`
/// and the entry (its index and keys) for a list that is empty or no list, an entry that is no
/// object or an empty one, a key path through a non-object, a cell the plan refuses, or two
/// entries that make the same plan.
std::vector<SweepCell> readListedCells(const json& basePlan, const json& cells, const std::string& source);

/// The keys the cells set (first seen first), each with the values the cells give it (distinct,
/// first seen first): a listed-cells sweep's Sweep::axes. Throws nothing.
std::vector<SweepAxis> axesOfCells(const std::vector<SweepCell>& cells);

} // namespace dpu::sweepcells
