// SPDX-License-Identifier: MIT
// ReportFleetText: HTML for QTextDocument; every figure comes from core's FleetConfig and FleetResult as the caller simulated them.
#include "report/ReportFleetText.h"
#include "charts/Units.h"
#include "dpu/FleetMetrics.h"
#include <QCoreApplication>
#include <QStringList>
#include <cmath>
#include <functional>

namespace dpu::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("dpu::ui::ReportFleetText", text);
}

/// "1 device", "3 devices": a page read on paper gets no "(s)".
QString count(qint64 n, const char* one, const char* many)
{
    return tr(n == 1 ? one : many).arg(n);
}

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString row(const QString& name, const QString& value)
{
    return QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(name, value);
}

/// "12.5 %" for shares a user typed (0.1 loss, 0.01 duty cycle): no trailing zeros.
QString share(double fraction)
{
    return QStringLiteral("%1 %").arg(100.0 * fraction, 0, 'g', 4);
}

/// The devices and, for a LoRa mix, how many run each spreading factor (as simulated).
QString devicesText(const dpu::FleetGroup& g)
{
    QString text = QString::number(g.devices);
    if (g.sfMix.empty())
        return text;
    QStringList counts;
    for (const auto& [sf, n] : dpu::spreadingFactorCounts(g.devices, g.sfMix))
        counts << QStringLiteral("SF%1: %2").arg(sf).arg(n);
    return text + QStringLiteral(" (") + counts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString deliveryText(const dpu::FleetGroup& g, const dpu::FleetPolicy& p)
{
    if (g.link.delivery != dpu::LinkDelivery::Multicast)
        return tr("unicast: one session per device");
    if (g.sfMix.empty())
        return tr("multicast: one session for the devices that are up to date");
    return p.multicastPerSpreadingFactor ? tr("multicast: one session per spreading factor")
                                         : tr("multicast: one session at the slowest spreading factor");
}

/// The rows of one group of devices.
QString groupRows(const dpu::FleetGroup& g, const dpu::FleetPolicy& p)
{
    QString h;
    h += row(tr("Link"), esc(g.link.name));
    h += row(tr("Devices"), devicesText(g));
    h += row(tr("Availability"),
             g.trace ? count(static_cast<qint64>(g.trace->devices()), "from a trace of %1 device", "from a trace of %1 devices")
                     : tr("%1 per round").arg(share(g.availability)));
    h += row(tr("Frame loss"), share(g.link.frameLoss));
    h += row(tr("Duty cycle"), g.link.dutyCycle < 1 ? share(g.link.dutyCycle) : tr("none"));
    h += row(tr("Delivery"), deliveryText(g, p));
    if (g.cpu.clockHz > 0)
        h += row(tr("Processor"), tr("%1 at %2 MHz, %3 cycles per instruction, %4 mA at %5 V")
                                      .arg(esc(g.cpu.name))
                                      .arg(g.cpu.clockHz / 1e6, 0, 'g', 4)
                                      .arg(g.cpu.cyclesPerInstruction, 0, 'g', 3)
                                      .arg(g.cpu.activeAmps * 1e3, 0, 'g', 3)
                                      .arg(g.cpu.volts, 0, 'g', 3));
    return h;
}

QString policyText(const dpu::FleetConfig& c)
{
    const dpu::FleetPolicy& p = c.policy;
    QStringList parts;
    parts << (p.catchUp == dpu::CatchUpDelivery::Unicast ? tr("catch-up bundles by unicast")
                                                         : tr("catch-up bundles multicast per version"))
          << (p.order == dpu::CatchUpOrder::MostStaleFirst ? tr("the most stale devices first") : tr("the smallest bundles first"))
          << (p.maxStaleness > 0
                  ? count(p.maxStaleness, "the full model beyond %1 version behind", "the full model beyond %1 versions behind")
                  : tr("never the full model"))
          << count(p.repairSessions, "%1 repair session", "%1 repair sessions")
          << tr("redundancy for %1 completion per device").arg(share(p.target.probability));
    return parts.join(QStringLiteral(", "));
}

} // namespace

QString ReportFleetText::settings(const ReportFleet& fleet)
{
    const dpu::FleetConfig& c = fleet.config;
    QString h = QStringLiteral("<h1>%1</h1>").arg(tr("Fleet simulation"));
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("What a fleet of devices behind a real link runs of these runs' deployed versions, and when: the "
                     "fleet's mean test accuracy (the version each device actually runs) beside the server's, the share of "
                     "the fleet on each version, and per strategy the time until 90 % of the fleet run the last version, "
                     "the initial deployment apart from the bytes, airtime and energy per update round, and the energy and "
                     "battery per year (docs/fleet.md has the model and its sources)."));
    h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">");
    const bool named = c.groups.size() > 1;
    for (const dpu::FleetGroup& g : c.groups) {
        if (named)
            h += QStringLiteral("<tr><th colspan=\"2\" align=\"left\">%1</th></tr>").arg(esc(g.name));
        h += groupRows(g, c.policy);
    }
    QString period = tr("a round every %1").arg(Units::span(c.roundPeriodSeconds));
    if (c.drainRounds > 0)
        period += count(c.drainRounds, ", %1 round after the last release to catch up (in no other figure)",
                        ", %1 rounds after the last release to catch up (in no other figure)");
    h += row(tr("Round period"), period);
    h += row(tr("Server"), policyText(c));
    if (c.sampleBytes > 0)
        h += row(tr("Sample upload"), tr("%1 per sample, the round's new samples shared by the nodes (the paper's appendix)")
                                          .arg(Units::bytes(static_cast<double>(c.sampleBytes))));
    h += row(tr("Fleet seed"), QString::number(c.seed));
    h += QStringLiteral("</table>");
    return h;
}

namespace {

/// Figures stay on one line: "not reached" is one answer, not two words.
QString nb(QString text)
{
    return text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
}

QString cell(const QString& html)
{
    return QStringLiteral("<td align=\"right\">%1</td>").arg(html);
}

/// One table over the series: the headers, then per series its strategy and `cells` (HTML),
/// each run's series under a row of the run's name across the table.
QString seriesTable(const ReportFleet& fleet, const QStringList& headers,
                    const std::function<QString(const ReportFleetSeries&)>& cells)
{
    QString h = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\"><tr>");
    for (const QString& header : headers)
        h += QStringLiteral("<th>%1</th>").arg(header);
    h += QStringLiteral("</tr>");
    QString runShown; // series come run by run: "dpu · k=0.05", "fu · k=0.05", then the next run's
    for (const ReportFleetSeries& s : fleet.series) {
        // The run's part of the name on a row across the table, the strategy in the row: in a
        // column of its own "dpu · fp32 · deployed=int8" wrapped over five lines.
        const int dot = s.key.indexOf(QStringLiteral(" · "));
        const QString strategy = dot < 0 ? s.key : s.key.left(dot), run = dot < 0 ? QString() : s.key.mid(dot + 3);
        if (!run.isEmpty() && run != runShown)
            h += QStringLiteral("<tr><td colspan=\"%1\" bgcolor=\"#eeeeee\"><b>%2</b></td></tr>").arg(headers.size()).arg(run.toHtmlEscaped());
        runShown = run;
        h += QStringLiteral("<tr><td>%1</td>").arg(strategy.toHtmlEscaped()) + cells(s) + QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</table>");
}

QString orDash(double v, QString (*unit)(double))
{
    return std::isnan(v) ? QStringLiteral("–") : nb(unit(v));
}

} // namespace

QString ReportFleetText::table(const ReportFleet& fleet)
{
    bool upload = false;
    for (const ReportFleetSeries& s : fleet.series)
        upload = upload || s.metrics.uploadBytesPerRound > 0;
    const QString cadence =
        tr("(one round every %1)").arg(QString::fromStdString(dpu::cadenceText(fleet.config.roundPeriodSeconds)));
    QString h = QStringLiteral("<h2>%1</h2>").arg(tr("Per strategy on the fleet"));
    h += seriesTable(fleet,
                     {tr("Strategy"), tr("Versions"), tr("Last version to 90 %"), tr("Fleet accuracy"), tr("Server accuracy"),
                      tr("Catch-up after the last release")},
                     [](const ReportFleetSeries& s) {
                         const dpu::FleetMetrics& m = s.metrics;
                         const QString rounds = count(m.catchUpRounds, "%1 round", "%1 rounds");
                         const QString catchUp = m.catchUpRounds == 0 ? tr("none")
                                                 : m.catchUpEnergy == 0 && m.catchUpBytes == 0
                                                     ? tr("%1: nothing to send").arg(rounds)
                                                     : tr("%1: %2, %3").arg(rounds, nb(Units::joules(m.catchUpEnergy)),
                                                                            nb(Units::roundedBytes(m.catchUpBytes)));
                         return cell(QString::number(s.result.timeToShare.size())) + cell(nb(Units::span(s.result.latestTimeToShare[1])))
                                + cell(nb(Units::percent(m.meanFleetAccuracy))) + cell(nb(Units::percent(m.meanServerAccuracy)))
                                + cell(catchUp);
                     });
    h += QStringLiteral("<h2>%1</h2>").arg(tr("Bytes and energy per device"));
    QStringList headers{tr("Strategy"), tr("Initial deployment"), tr("Bytes per update round"), tr("Airtime per update round"),
                        tr("Energy per update round"), tr("Energy per year %1").arg(cadence), tr("Battery per year %1").arg(cadence)};
    if (upload)
        headers << tr("Uploads per round");
    h += seriesTable(fleet, headers, [upload](const ReportFleetSeries& s) {
        const dpu::FleetMetrics& m = s.metrics;
        QString cells = cell(nb(Units::roundedBytes(static_cast<double>(m.initialDeploymentBytes))))
                        + cell(orDash(m.bytesPerUpdateRound, &Units::roundedBytes)) + cell(orDash(m.airtimePerUpdateRound, &Units::span))
                        + cell(orDash(m.energyPerUpdateRound, &Units::joules)) + cell(nb(Units::joules(m.energyPerYear)))
                        + cell(nb(Units::percent(m.batteryPerYear)));
        if (upload)
            cells += cell(nb(Units::roundedBytes(m.uploadBytesPerRound)));
        return cells;
    });
    // Round 1's deployment, before the simulated rounds: one session to every device.
    h += seriesTable(fleet, {tr("Strategy"), tr("Initial deployment"), tr("Its time on air"), tr("Its energy per device")},
                     [](const ReportFleetSeries& s) {
                         const dpu::FleetMetrics& m = s.metrics;
                         return cell(nb(Units::roundedBytes(static_cast<double>(m.initialDeploymentBytes))))
                                + cell(nb(Units::span(m.initialDeploymentAirtime))) + cell(nb(Units::joules(m.initialDeploymentEnergy)));
                     });
    h += QStringLiteral("<p>%1 %2</p>")
             .arg(esc(dpu::fleetFiguresText(fleet.config.roundPeriodSeconds)),
                  tr("Last version to 90 %: from its release until 90 % of the fleet run it or a later one (<i>not reached</i>: "
                     "not within the simulated rounds). Catch-up bundles are estimated as the cheaper of the missed bundles "
                     "and the full model."));
    for (const QString& note : fleet.notes)
        h += QStringLiteral("<p>%1</p>").arg(note.toHtmlEscaped());
    return h;
}

} // namespace dpu::ui
