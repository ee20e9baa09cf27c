// SPDX-License-Identifier: MIT
// Fleet figures that take more than one unit, written once for the Fleet tab and the report's fleet page.
#pragma once
#include "dpu/FleetMetrics.h"
#include <QString>

namespace dpu::ui {

/// The initial deployment (round 1's bundle, sent before the simulated rounds): its bytes, then
/// the transmitters' time on air and the J per device it takes, "2.68 MB · 5.2 d, 450 J"; the
/// bytes alone when there is none ("0 B").
QString initialDeploymentText(const dpu::FleetMetrics& metrics);

} // namespace dpu::ui
