// SPDX-License-Identifier: MIT
// Issue 41 item 4: the window's Fleet tab, dpu-cli fleet --json and the PDF reports (the window's and dpu-cli report --fleet) give the same figures for a q4, an INT8 and a sparse run, none with round 1's model in a per-round figure.
#include "MainWindow.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "PdfText.h"
#include "UiTestSupport.h"
#include "charts/FleetFigureText.h"
#include "dpu/DeploymentModel.h"
#include "charts/Units.h"
#include "dpu/FleetMetrics.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "dpu/UpdateBytes.h"
#include "models/RunBook.h"
#include "panels/FleetInputs.h"
#include "panels/FleetPanel.h"
#include "panels/ResultsPanel.h"
#include "report/ReportFleetText.h"
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <algorithm>
#include <cmath>
#include <functional>

using dpu::test::pdfText;
using dpu::ui::FleetPanel;
using dpu::ui::Units;

namespace {

/// One deployment for every view: the flagship's link at the 10 % sub-band, a round every 12 h.
/// The window drains 4 rounds, dpu-cli fleet none, dpu-cli report 2: the figures must not care.
dpu::Deployment deployment()
{
    dpu::Deployment s;
    s.link.link = "lorawan-eu868";
    s.link.sfMix = "fuotasim";
    s.link.dutyCycle = 0.1;
    s.link.frameLoss = 0.1;
    s.devices = 60;
    s.availability = 0.8;
    s.roundPeriodHours = 12;
    s.drainRounds = 4;
    return s;
}

QStringList deploymentOptions(int drain)
{
    return {"--devices", "60", "--link", "lorawan-eu868", "--sf-mix", "fuotasim", "--duty-cycle", "0.1", "--loss", "0.1",
            "--availability", "0.8", "--period", "43200", "--drain", QString::number(drain)};
}

struct Cli {
    int code = -1;
    QByteArray out, err;
};

Cli cli(const QStringList& args)
{
    QProcess p;
    p.start(qEnvironmentVariable("DPU_CLI"), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

/// The figures a row shows, as every view writes them (ui/charts/Units).
QStringList shownFigures(double initial, double bytes, double energy, double year, double battery)
{
    return {Units::roundedBytes(initial), Units::roundedBytes(bytes), Units::joules(energy), Units::joules(year), Units::percent(battery)};
}

/// The initial deployment's cell from dpu-cli fleet --json's figures.
QString initialCell(const QJsonObject& j)
{
    dpu::FleetMetrics m;
    m.initialDeploymentBytes = static_cast<int64_t>(j["initial_deployment_bytes"].toDouble());
    m.initialDeploymentAirtime = j["initial_deployment_airtime_s"].toDouble();
    m.initialDeploymentEnergy = j["initial_deployment_energy_j"].toDouble();
    return dpu::ui::initialDeploymentText(m);
}

/// Some line of `text` holds every figure, in order (one table row).
bool rowHolds(const QString& text, const QStringList& figures)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    return std::any_of(lines.begin(), lines.end(), [&](const QString& line) {
        qsizetype at = 0;
        for (const QString& f : figures) {
            at = line.indexOf(f, at);
            if (at < 0)
                return false;
            at += f.size();
        }
        return true;
    });
}

} // namespace

class TestUiFleetMetrics : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QStringList runs_; // q4, int8, sparse

    void makeRun(const QString& name, const std::function<void(dpu::Plan&)>& form)
    {
        dpu::Plan plan = dpu::test::tinyRealPlan(name.toStdString());
        form(plan);
        const QString dir = tmp_.filePath(name);
        dpu::RunObserver quiet;
        dpu::Runner(plan, {dir.toStdString()}).run(quiet);
        runs_ << dir;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        makeRun(QStringLiteral("q4"), [](dpu::Plan& p) { p.bundle.values = dpu::Coding::Q4; });
        makeRun(QStringLiteral("int8"), [](dpu::Plan& p) { p.deployed = dpu::DeployedForm::Int8; });
        makeRun(QStringLiteral("sparse"), [](dpu::Plan& p) { p.deployed = dpu::DeployedForm::Sparse; });
    }

    /// A perfect fleet on records by hand: DPU installs 50,000 B in round 1 (an INT8-like first
    /// deployment) and sends 2000 B deltas in rounds 2, 3 and 5 (round 4 fails the gate); every
    /// device hears every release once, so a row's bytes per update round are its deltas'.
    void aPerfectFleetHearsEveryDeltaOnce()
    {
        const QString dir = tmp_.filePath(QStringLiteral("by-hand"));
        dpu::test::writeRunFolder(dir.toStdString(), dpu::test::sweepPlan(0.01, 5, {"dpu"}),
                                  dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75, 0.74, 0.80}, {300, 300, 300, 0, 300},
                                                            {50000, 2000, 2000, 0, 2000}, 4040),
                                  "finished", {1000, 10});
        dpu::ui::RunBook book;
        FleetPanel panel;
        dpu::Deployment s;
        s.link.link = "lorawan-eu868";
        s.link.spreadingFactor = 9;
        s.devices = 50;
        s.drainRounds = 2;
        panel.inputs()->setSettings(s);
        panel.setRunBook(&book);
        QVERIFY(book.openFolder(dir) != 0);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.table()->rowCount() == 1, 30000);
        QTableWidget* t = panel.table();
        // The initial deployment: its bytes, and one session of them to every device on this link
        // (the simulation starts after it), computed apart by the link model.
        const dpu::FleetMetrics& first = panel.shownAnswer().series[0].metrics;
        const dpu::LinkRound session = dpu::linkRound(dpu::linkOf(s.link), first.initialDeploymentBytes, 50, s.policy.target);
        QCOMPARE(first.initialDeploymentAirtime, session.airtime);
        QCOMPARE(first.initialDeploymentEnergy, session.energyPerDevice);
        QVERIFY(session.energyPerDevice > 0);
        QCOMPARE(t->item(0, FleetPanel::InitialDeployment)->text(),
                 QStringLiteral("50.0 KB · %1, %2").arg(Units::span(session.airtime), Units::joules(session.energyPerDevice)));
        QCOMPARE(t->item(0, FleetPanel::BytesPerUpdateRound)->text(), QStringLiteral("2.0 KB"));
        QCOMPARE(t->item(0, FleetPanel::CatchUp)->text(), QStringLiteral("2 rounds: nothing to send"));
        const dpu::FleetMetrics& m = panel.shownAnswer().series[0].metrics;
        QCOMPARE(m.updateRounds, 3);
        QCOMPARE(m.bytesPerUpdateRound, 2000.0);
        // Three releases of the same delta over the run's four rounds (2..5): each update round
        // costs one release's energy, a year three quarters of the rounds' at the cadence.
        const dpu::FleetResult& r = panel.shownAnswer().series[0].result;
        QCOMPARE(m.energyPerUpdateRound, r.rounds[0].energyMean);
        QVERIFY(std::abs(m.energyPerYear - 0.75 * r.rounds[0].energyMean * 365.25) < 1e-9 * m.energyPerYear);
    }

    void windowCliAndReportsAgree()
    {
        // The window: its Fleet tab on the three runs.
        dpu::ui::MainWindow w;
        w.runBook()->clear();
        for (const QString& run : runs_)
            QVERIFY(w.runBook()->openFolder(run) != 0);
        FleetPanel* panel = w.resultsPanel()->fleetPanel();
        panel->inputs()->setSettings(deployment());
        QTRY_VERIFY_WITH_TIMEOUT(!panel->busy() && panel->table()->rowCount() == 3, 60000);
        QVERIFY2(panel->shownAnswer().error.empty(), panel->shownAnswer().error.c_str());
        QTableWidget* table = panel->table();
        const auto header = [table](int column) { return table->horizontalHeaderItem(column)->text().replace(QLatin1Char('\n'), QLatin1Char(' ')); };
        QCOMPARE(header(FleetPanel::InitialDeployment), QStringLiteral("Initial deployment"));
        QCOMPARE(header(FleetPanel::BytesPerUpdateRound), QStringLiteral("Bytes per update round"));
        QCOMPARE(header(FleetPanel::EnergyPerUpdateRound), QStringLiteral("Energy per update round"));
        QCOMPARE(header(FleetPanel::BatteryPerYear), QStringLiteral("Battery per year (one round every 12 h)"));

        // dpu-cli fleet on the same folders and deployment, without rounds to drain.
        const Cli fleet = cli(QStringList{"fleet"} + runs_ + deploymentOptions(0) + QStringList{"--json"});
        QVERIFY2(fleet.code == 0, fleet.err.constData());
        const QJsonArray strategies = QJsonDocument::fromJson(fleet.out).object()["strategies"].toArray();
        QCOMPARE(strategies.size(), 3);
        const Cli text = cli(QStringList{"fleet"} + runs_ + deploymentOptions(0));
        QVERIFY2(text.code == 0, text.err.constData());
        for (const char* name : {"\n  initial deployment ", "\n  bytes per update round ", "\n  energy per update round ",
                                 "\n  battery per year ", "at one round every 12 h\n"})
            QVERIFY2(text.out.contains(name), name);

        // The reports: the window's PDF (the tab's last simulation) and dpu-cli report --fleet's.
        const QString windowPdf = tmp_.filePath(QStringLiteral("window.pdf")), cliPdf = tmp_.filePath(QStringLiteral("cli.pdf"));
        QString error;
        QVERIFY2(w.exportReport(windowPdf, &error), qPrintable(error));
        const Cli report = cli(QStringList{"report"} + runs_ + QStringList{"--out", cliPdf, "--fleet"} + deploymentOptions(2));
        QVERIFY2(report.code == 0, report.err.constData());
        const QString windowText = pdfText(windowPdf), cliText = pdfText(cliPdf);
        QVERIFY2(windowText.contains(QStringLiteral("Bytes and energy per device")), "pdftotext (poppler-utils) reads the report");
        QVERIFY(cliText.contains(QStringLiteral("Bytes and energy per device")));
        const QString html = dpu::ui::ReportFleetText::table(panel->reportFleet());
        for (const char* name : {"Initial deployment", "Bytes per update round", "Energy per update round",
                                 "Battery per year (one round every 12 h)", "Catch-up after the last release"})
            QVERIFY2(html.contains(QString::fromUtf8(name)), name);
        // What the figures mean, in the same words in the tab, the command and the page.
        const QString figures = QString::fromStdString(dpu::fleetFiguresText(12 * 3600.0));
        QVERIFY2(figures.contains(QStringLiteral("one round every 12 h")), qPrintable(figures));
        QVERIFY2(panel->statusText().contains(figures.toHtmlEscaped()), qPrintable(panel->statusText()));
        QVERIFY(text.out.contains(figures.toUtf8()));
        QVERIFY(html.contains(figures.toHtmlEscaped()));

        for (int i = 0; i < 3; ++i) {
            const dpu::FleetMetrics& m = panel->shownAnswer().series[static_cast<size_t>(i)].metrics;
            const QJsonObject j = strategies[i].toObject();
            QVERIFY2(j["strategy"].toString().startsWith(QFileInfo(runs_[i]).fileName()), qPrintable(j["strategy"].toString()));
            // The same numbers, to the last bit: one simulation, one fleetMetrics().
            QCOMPARE(j["initial_deployment_bytes"].toDouble(), static_cast<double>(m.initialDeploymentBytes));
            QCOMPARE(j["bytes_per_update_round"].toDouble(), m.bytesPerUpdateRound);
            QCOMPARE(j["energy_per_update_round_j"].toDouble(), m.energyPerUpdateRound);
            QCOMPARE(j["energy_per_year_j"].toDouble(), m.energyPerYear);
            QCOMPARE(j["battery_share_per_year"].toDouble(), m.batteryPerYear);
            QCOMPARE(m.catchUpRounds, 4); // the window drained; the CLI did not, with the same figures
            // The same text in the tab's row and on both PDFs' rows.
            const QStringList shown = shownFigures(j["initial_deployment_bytes"].toDouble(), j["bytes_per_update_round"].toDouble(),
                                                   j["energy_per_update_round_j"].toDouble(), j["energy_per_year_j"].toDouble(),
                                                   j["battery_share_per_year"].toDouble());
            QCOMPARE(j["initial_deployment_airtime_s"].toDouble(), m.initialDeploymentAirtime);
            QCOMPARE(j["initial_deployment_energy_j"].toDouble(), m.initialDeploymentEnergy);
            QCOMPARE(table->item(i, FleetPanel::InitialDeployment)->text(), initialCell(j));
            QCOMPARE(table->item(i, FleetPanel::BytesPerUpdateRound)->text(), shown[1]);
            QCOMPARE(table->item(i, FleetPanel::EnergyPerUpdateRound)->text(), shown[2]);
            QCOMPARE(table->item(i, FleetPanel::EnergyPerYear)->text(), shown[3]);
            QCOMPARE(table->item(i, FleetPanel::BatteryPerYear)->text(), shown[4]);
            QVERIFY2(rowHolds(windowText, shown), qPrintable(shown.join(QStringLiteral(" | ")) + QStringLiteral("\n") + windowText));
            QVERIFY2(rowHolds(cliText, shown), qPrintable(shown.join(QStringLiteral(" | ")) + QStringLiteral("\n") + cliText));
            // The initial deployment's own row on both pages: its bytes, time on air and energy.
            const QStringList initial{Units::roundedBytes(static_cast<double>(m.initialDeploymentBytes)),
                                      Units::span(m.initialDeploymentAirtime), Units::joules(m.initialDeploymentEnergy)};
            QVERIFY2(rowHolds(windowText, initial), qPrintable(initial.join(QStringLiteral(" | "))));
            QVERIFY2(rowHolds(cliText, initial), qPrintable(initial.join(QStringLiteral(" | "))));

            // Round 1's deployment is in no per-round figure: it is the run's first bundle, and
            // the bytes per update round are the deltas', the records' figure (the frontier's and
            // the report's tables'), far below an INT8 or sparse model's.
            const dpu::RunFolder run = dpu::loadRunFolder(runs_[i].toStdString());
            dpu::UpdateBytes records;
            std::vector<const dpu::RoundRecord*> all;
            for (const dpu::RoundRecord& r : run.records)
                all.push_back(&r);
            records.addUnit(all);
            QVERIFY2(records.updateRounds() >= 1, qPrintable(runs_[i]));
            QCOMPARE(static_cast<double>(m.initialDeploymentBytes), records.initialDeploymentBytes());
            QCOMPARE(m.bytesPerUpdateRound, records.bytesPerUpdateRound());
            if (i > 0) // INT8 and sparse: round 1 installs the whole model
                QVERIFY2(3 * records.bytesPerUpdateRound() < records.initialDeploymentBytes(), qPrintable(runs_[i]));
        }
    }
};

QTEST_MAIN(TestUiFleetMetrics)
#include "test_ui_fleet_metrics.moc"
