// SPDX-License-Identifier: MIT
// FleetPlanWords: the fleet planner's answer in words (the why, what binds and would move it, the cells to run, the notes).
#include "panels/FleetPlanWords.h"
#include <QObject>

namespace dpu::ui {
namespace {

QString lines(const std::vector<std::string>& items, const QString& head)
{
    if (items.empty())
        return {};
    QString out = head;
    for (const std::string& item : items)
        out += QStringLiteral("\n  • ") + QString::fromStdString(item);
    return out + QLatin1Char('\n');
}

} // namespace

QString FleetPlanWords::of(const FleetPlanAnswer& a)
{
    if (!a.error.empty())
        return QObject::tr("No plan: %1").arg(QString::fromStdString(a.error));
    const dpu::FleetPlan& p = a.plan;
    QString out = QString::fromStdString(p.why) + QLatin1Char('\n');
    if (!p.recommended && p.nearest) // the why names the nearest and the target that binds
        out += lines(p.moves, QObject::tr("What would move %1:").arg(QString::fromStdString(p.binding)));
    std::vector<std::string> cells;
    for (const dpu::FleetPlanCell& cell : p.cellsToRun) {
        std::string keys;
        for (const auto& [path, json] : cell.keys)
            keys += (keys.empty() ? "" : ", ") + path + " = " + json;
        cells.push_back(cell.shownRun() + " with " + keys + ": " + cell.why);
    }
    out += lines(cells, QObject::tr("Cells nobody ran that would do better (estimated; run them to know):"));
    out += lines(a.notes, QObject::tr("Notes:"));
    return out.trimmed();
}

QString FleetPlanWords::status(const FleetPlanAnswer& a, const QString& again)
{
    const QString why = again.isEmpty() ? QString() : QObject::tr("Planned again (%1). ").arg(again);
    if (!a.error.empty())
        return why + QObject::tr("The plan failed: %1").arg(QString::fromStdString(a.error));
    const dpu::FleetPlan& p = a.plan;
    return QObject::tr("%1%2 candidates simulated of %3 in the space (%4 pruned), %5 s.")
        .arg(p.cancelled ? QObject::tr("Cancelled: ") : why)
        .arg(p.simulated)
        .arg(p.space)
        .arg(p.pruned)
        .arg(p.seconds, 0, 'f', 1);
}

} // namespace dpu::ui
