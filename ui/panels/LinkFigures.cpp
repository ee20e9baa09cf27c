// SPDX-License-Identifier: MIT
// LinkFigures: a link round's durations, energies and battery shares as the Budget tab shows them.
#include "panels/LinkFigures.h"
#include "charts/Units.h"
#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

QString linkDurationText(double s)
{
    // The same steps as dpu-cli budget, so the window and the command line read alike: below two
    // minutes with the decimals a frame's airtime needs, above it as the Fleet tab's spans.
    if (s < 1)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 3);
    if (s < 120)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 1);
    return Units::span(s);
}

QString linkEnergyText(double j)
{
    return Units::joules(j);
}

QString batteryShareText(double fraction)
{
    const double percent = 100.0 * fraction;
    // Two significant digits at least: a round that costs 0.0004 % must not read "0.00 %".
    const int decimals = percent <= 0 || percent >= 1 ? 2 : std::min(8, 1 - static_cast<int>(std::floor(std::log10(percent))));
    return QStringLiteral("%1 %").arg(percent, 0, 'f', decimals);
}

} // namespace dpu::ui
