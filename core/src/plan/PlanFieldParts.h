// SPDX-License-Identifier: MIT
// Parts of the plan field table defined in their own files: the list-shaped fields, and the bundle and budget fields, the fleet fields and their targets.
#pragma once
#include "plan/PlanSchema.h"
#include <vector>

namespace dpu::plan {

/// dataset.image_size: [height, width] or one integer for both.
FieldBinding imageSizeField();
/// dataset.normalise: "train", "first_round", "none", or {"mean": [...], "std": [...]}.
FieldBinding normaliseField();
/// strategies: a list of known names, none twice.
FieldBinding strategiesField();
/// seeds: one integer or a list.
FieldBinding seedsField();
/// bundle.* and budget.*.
std::vector<FieldBinding> bundleAndBudget();
/// fleet.*: the link and fleet the plan is for.
std::vector<FieldBinding> fleetFields();
/// fleet.targets.*: what the fleet must reach (PlanFleetTargetFields.cpp).
std::vector<FieldBinding> fleetTargetFields();

} // namespace dpu::plan
