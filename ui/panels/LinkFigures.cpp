// SPDX-License-Identifier: MIT
// LinkFigures: a link round's durations, energies and battery shares as the Budget tab shows them.
#include "panels/LinkFigures.h"
#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace dpu::ui {

QString linkDurationText(double s)
{
    // The same steps as dpu-cli budget, so the window and the command line read alike.
    if (s < 1)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 3);
    if (s < 120)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 1);
    if (s < 7200)
        return QStringLiteral("%1 min").arg(s / 60, 0, 'f', 1);
    if (s < 172800)
        return QStringLiteral("%1 h").arg(s / 3600, 0, 'f', 1);
    return QStringLiteral("%1 d").arg(s / 86400, 0, 'f', 1);
}

QString linkEnergyText(double j)
{
    if (j < 1e-3)
        return QStringLiteral("%1 µJ").arg(j * 1e6, 0, 'f', 1);
    if (j < 1)
        return QStringLiteral("%1 mJ").arg(j * 1e3, 0, 'f', 1);
    if (j < 1000)
        return QStringLiteral("%1 J").arg(j, 0, 'f', 2);
    return QStringLiteral("%1 kJ").arg(j / 1e3, 0, 'f', 2);
}

QString batteryShareText(double fraction)
{
    const double percent = 100.0 * fraction;
    // Two significant digits at least: a round that costs 0.0004 % must not read "0.00 %".
    const int decimals = percent <= 0 || percent >= 1 ? 2 : std::min(8, 1 - static_cast<int>(std::floor(std::log10(percent))));
    return QStringLiteral("%1 %").arg(percent, 0, 'f', decimals);
}

} // namespace dpu::ui
