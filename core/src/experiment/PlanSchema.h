// SPDX-License-Identifier: MIT
// How each described plan field binds to the Plan struct: read from JSON, write to JSON, check.
#pragma once
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include <nlohmann/json.hpp>
#include <functional>
#include <string>
#include <vector>

namespace dpu::plan {

using json = nlohmann::json;

/// One plan field: its public description and the three things the engine does with it. Every
/// function throws PlanError naming `info.path` (or an index below it) when the value is wrong.
struct FieldBinding {
    PlanField info;
    /// Stores `value` (the JSON found at the path) in the plan; type errors only.
    std::function<void(const json& value, Plan& plan)> read;
    /// Puts the field into `parent` under `key` unless it stays out of the file (an unset option:
    /// earlier plans, their checkpoints and sweep cell ids serialise unchanged).
    std::function<void(const Plan& plan, json& parent, const std::string& key)> write;
    /// The field's rules: its range, and rules across fields that this field's path names.
    std::function<void(const Plan& plan)> check;
};

/// Every field, in planFields() order.
const std::vector<FieldBinding>& fieldBindings();

/// "train" for "train.lr", "" for "k".
std::string parentPath(const std::string& path);

/// "lr" for "train.lr".
std::string leafKey(const std::string& path);

/// A number as error messages and docs show it (0.005, 1e-07).
std::string showNumber(double v);

} // namespace dpu::plan
