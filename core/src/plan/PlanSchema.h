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
    /// Whether the plan holds the field's default: a field that does not apply is refused only when set.
    std::function<bool(const Plan& plan)> isDefault;
    /// Puts the field back to its default (clearInapplicable()).
    std::function<void(Plan& plan)> reset;
    /// The choices a Choice or List field holds, for its info.choiceRules.
    std::function<std::vector<std::string>(const Plan& plan)> chosen;
    /// A List field: takes `choice` out of the list (clearInapplicable() on a choice that does not apply).
    std::function<void(Plan& plan, const std::string& choice)> drop;
};

/// Refuses, naming the field, a set field that does not apply to `plan` (info.appliesWhen with
/// WhenOff::Refused) or a choice whose rule fails (info.choiceRules). validatePlan() runs it before
/// each field's own check.
void checkApplies(const FieldBinding& field, const Plan& plan);

/// The binding at `path`; throws std::out_of_range when the table has none.
const FieldBinding& bindingAt(const std::string& path);

/// A binding of the field described by these words, its functions still to be given.
inline FieldBinding describedField(std::string path, FieldType type, std::vector<std::string> choices, std::string values,
                                   std::string defaultValue, std::string doc)
{
    FieldBinding b;
    b.info.path = std::move(path);
    b.info.type = type;
    b.info.choices = std::move(choices);
    b.info.values = std::move(values);
    b.info.defaultValue = std::move(defaultValue);
    b.info.doc = std::move(doc);
    return b;
}

/// Every field, in planFields() order.
const std::vector<FieldBinding>& fieldBindings();

/// "train" for "train.lr", "" for "k".
std::string parentPath(const std::string& path);

/// "lr" for "train.lr".
std::string leafKey(const std::string& path);

/// A number as error messages and docs show it (0.005, 1e-07).
std::string showNumber(double v);

} // namespace dpu::plan
