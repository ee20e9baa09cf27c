// SPDX-License-Identifier: MIT
// Pools a frontier group's runs into points per (family, k): accuracy, real bytes, figures against FU.
#pragma once
#include "dpu/Frontier.h"
#include <string>
#include <vector>

namespace dpu::planning {

/// Fills group.points, group.families and group.fuReference from the group's finished runs.
void poolPoints(FrontierGroup& group, const std::vector<const FrontierRun*>& runs, const std::vector<std::string>& familyKeys);

} // namespace dpu::planning
