// SPDX-License-Identifier: MIT
// ReportFleetPlanText: the planner's answer (core's words, figures and Pareto set) as the report's HTML.
#include "report/ReportFleetPlanText.h"
#include <QObject>
#include <algorithm>

namespace dpu::ui {
namespace {

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString list(const std::vector<std::string>& items)
{
    QString out = QStringLiteral("<ul>");
    for (const std::string& item : items)
        out += QStringLiteral("<li>") + esc(item) + QStringLiteral("</li>");
    return out + QStringLiteral("</ul>");
}

QString targetsText(const dpu::FleetTargets& t)
{
    QStringList parts;
    if (t.freshShare && t.freshDays)
        parts << QObject::tr("%1 % of the fleet within %2 days of the server").arg(*t.freshShare * 100, 0, 'f', 1).arg(*t.freshDays);
    if (t.freshShare && t.accuracyGapPoints)
        parts << QObject::tr("%1 % of the fleet within %2 points of the server's accuracy").arg(*t.freshShare * 100, 0, 'f', 1).arg(*t.accuracyGapPoints);
    if (t.batteryPerYear)
        parts << QObject::tr("at most %1 % of a battery a year").arg(*t.batteryPerYear * 100, 0, 'f', 2);
    if (t.airtimePerDaySeconds)
        parts << QObject::tr("at most %1 s of airtime a day per gateway").arg(*t.airtimePerDaySeconds);
    return parts.isEmpty() ? QObject::tr("none (the most accurate fleet)") : parts.join(QStringLiteral("; "));
}

} // namespace

QString ReportFleetPlanText::words(const ReportFleetPlan& r)
{
    const dpu::FleetPlan& p = r.plan;
    QString html = QObject::tr("<h2>Fleet plan</h2><p><b>Targets:</b> %1.<br><b>Search:</b> %2 candidates in the space, "
                               "%3 simulated, %4 pruned, in %5 s.</p>")
                       .arg(targetsText(r.targets).toHtmlEscaped())
                       .arg(p.space)
                       .arg(p.simulated)
                       .arg(p.pruned)
                       .arg(p.seconds, 0, 'f', 2);
    html += QStringLiteral("<p>") + esc(p.why) + QStringLiteral("</p>");
    if (!p.recommended && !p.moves.empty())
        html += QObject::tr("<p>What would move %1:</p>").arg(esc(p.binding)) + list(p.moves);
    std::vector<std::string> cells;
    for (const dpu::FleetPlanCell& cell : p.cellsToRun)
        cells.push_back(cell.why);
    if (!cells.empty())
        html += QObject::tr("<p>Cells nobody ran that would do better (estimated):</p>") + list(cells);
    if (!r.notes.empty())
        html += QObject::tr("<p>Notes:</p>") + list(r.notes);
    return html;
}

QString ReportFleetPlanText::pareto(const ReportFleetPlan& r)
{
    const dpu::FleetPlan& p = r.plan;
    // The first rows, most accurate first; the recommended candidate always has its row, last
    // where it ranks below them.
    constexpr size_t kRows = 15;
    std::vector<size_t> rows(p.pareto.begin(), p.pareto.begin() + std::min(p.pareto.size(), kRows));
    const bool recommendedBelow = p.recommended && std::find(rows.begin(), rows.end(), *p.recommended) == rows.end()
                                  && std::find(p.pareto.begin(), p.pareto.end(), *p.recommended) != p.pareto.end();
    if (recommendedBelow)
        rows.push_back(*p.recommended);
    const QString which = p.pareto.size() <= kRows ? QString()
                          : recommendedBelow       ? QObject::tr(", the first %1 of %2 and the recommended one")
                                                   .arg(kRows).arg(p.pareto.size())
                                                   : QObject::tr(", the first %1 of %2").arg(kRows).arg(p.pareto.size());
    QString html = QObject::tr("<p><b>The Pareto set</b> (fleet accuracy, battery a year, freshness)%1:</p>").arg(which);
    html += QObject::tr("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>Strategy</th><th>Setting</th>"
                        "<th>Fleet accuracy</th><th>Battery a year</th><th>Fresh</th><th>90 % within</th><th>Airtime a day</th></tr>");
    for (const size_t index : rows) {
        const dpu::FleetPlanCandidate& c = p.candidates[index];
        const bool chosen = p.recommended && *p.recommended == index;
        html += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4 %</td><td>%5 %</td><td>%6 %</td><td>%7 d</td><td>%8 s</td></tr>")
                    .arg(esc(c.label), chosen ? QObject::tr(" (recommended)") : QString(), esc(dpu::fleetSettingText(c.setting)))
                    .arg(c.fleetAccuracy * 100, 0, 'f', 1)
                    .arg(c.batteryPerYear * 100, 0, 'f', 2)
                    .arg(c.freshShare * 100, 0, 'f', 0)
                    .arg(c.freshDays, 0, 'f', 1)
                    .arg(c.airtimePerDaySeconds, 0, 'f', 1);
    }
    return html + QStringLiteral("</table>");
}

} // namespace dpu::ui
