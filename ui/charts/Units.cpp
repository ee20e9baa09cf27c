// SPDX-License-Identifier: MIT
// Units: the one formatting of bytes and durations for the panels, the charts and the report.
#include "charts/Units.h"
#include <cmath>

namespace dpu::ui {

QString Units::bytes(double bytes)
{
    const auto whole = static_cast<qlonglong>(std::llround(bytes));
    QString human;
    if (bytes >= 1e6)
        human = QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 2);
    else if (bytes >= 1e3)
        human = QStringLiteral("%1 KB").arg(bytes / 1e3, 0, 'f', 1);
    else
        return QStringLiteral("%1 B").arg(whole);
    return QStringLiteral("%1 B (%2)").arg(whole).arg(human);
}

QString Units::seconds(double seconds)
{
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 0);
    if (seconds < 120)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 1);
    if (seconds < 7200)
        return QStringLiteral("%1 min").arg(seconds / 60, 0, 'f', 1);
    return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 1);
}

} // namespace dpu::ui
