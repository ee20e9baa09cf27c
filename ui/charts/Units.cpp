// SPDX-License-Identifier: MIT
// Units: the one formatting of bytes and durations for the panels, the charts and the report.
#include "charts/Units.h"
#include <QCoreApplication>
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

QString Units::roundedBytes(double bytes)
{
    if (bytes >= 1e6)
        return QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 2);
    if (bytes >= 1e3)
        return QStringLiteral("%1 KB").arg(bytes / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(std::llround(bytes));
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

QString Units::span(double seconds)
{
    if (std::isnan(seconds))
        return QCoreApplication::translate("dpu::ui::Units", "not reached");
    if (seconds < 120)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 0);
    if (seconds < 7200)
        return QStringLiteral("%1 min").arg(seconds / 60, 0, 'f', 1);
    if (seconds < 172800)
        return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 1);
    return QStringLiteral("%1 d").arg(seconds / 86400, 0, 'f', 1);
}

QString Units::joules(double joules)
{
    if (joules < 1e-3)
        return QStringLiteral("%1 µJ").arg(joules * 1e6, 0, 'f', 1);
    if (joules < 1)
        return QStringLiteral("%1 mJ").arg(joules * 1e3, 0, 'f', 1);
    if (joules < 1000)
        return QStringLiteral("%1 J").arg(joules, 0, 'f', 2);
    if (joules < 1e6)
        return QStringLiteral("%1 kJ").arg(joules / 1e3, 0, 'f', 2);
    return QStringLiteral("%1 MJ").arg(joules / 1e6, 0, 'f', 2); // "26627.50 kJ" broke inside a table cell
}

QString Units::percent(double fraction)
{
    return QStringLiteral("%1 %").arg(100.0 * fraction, 0, 'f', 2);
}

} // namespace dpu::ui
