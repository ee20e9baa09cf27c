// SPDX-License-Identifier: MIT
// A deployment's fields as the plan field table describes them (its fleet.* entries): compared, copied and shown field by field.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/PlanFields.h"
#include <string>
#include <vector>

namespace dpu {

/// The plan field table's fleet.* entries, in table order: the deployment's one description.
std::vector<const PlanField*> deploymentFields();

/// The fleet.* paths whose values differ between `a` and `b`, in table order. Throws nothing.
std::vector<std::string> deploymentDifferences(const Deployment& a, const Deployment& b);

/// Sets the field at `path` of `to` to its value in `from`. Throws std::out_of_range for a path
/// the table lacks.
void copyDeploymentField(Deployment& to, const Deployment& from, const std::string& path);

/// The field's value as a plan file writes it (JSON text: `0.1`, `"multicast"`); at its default,
/// the table's defaultValue ("none" for the unset duty cycle). Throws std::out_of_range for a path the table lacks.
std::string deploymentFieldText(const Deployment& deployment, const std::string& path);

} // namespace dpu
