// SPDX-License-Identifier: MIT
// How the window writes a link's figures: durations from ms to days, energies from µJ to kJ, shares of a battery.
#pragma once
#include <QString>

namespace dpu::ui {

/// 0.250 s, 42.0 s, 3.5 min, 2.1 h, 1.5 d (the units dpu-cli budget prints).
QString linkDurationText(double seconds);
/// 12.3 mJ, 4.56 J, 1.23 kJ (µJ below a millijoule).
QString linkEnergyText(double joules);
/// A share of a battery in per cent with enough digits to be non-zero: 0.0012 %, 3.40 %.
QString batteryShareText(double fraction);

} // namespace dpu::ui
