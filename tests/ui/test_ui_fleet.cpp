// SPDX-License-Identifier: MIT
// The Fleet tab on the offscreen platform: it follows the run book, names series as the book does, draws the fleet beside the server, spreads versions, fills its table, hands the report its last simulation, reports bad links, keeps its own settings (the deployment is the plan's: test_ui_deployment).
#include "FleetTestSupport.h"
#include "MainWindow.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "dpu/FleetCatchUps.h"
#include "dpu/FleetRuns.h"
#include "dpu/Runner.h"
#include "UiTestSupport.h"
#include "charts/FleetAccuracyChart.h"
#include "charts/VersionSpreadChart.h"
#include "models/RunBook.h"
#include "dpu/DeploymentFields.h"
#include "panels/FleetInputs.h"
#include "panels/FleetPanel.h"
#include "panels/ResultsPanel.h"
#include "workers/EngineMetatypes.h"
#include <QAreaSeries>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QPushButton>
#include <QLegend>
#include <QLegendMarker>
#include <QLabel>
#include <QtTest/QtTest>
#include <cmath>

using dpu::ui::FleetAccuracyChart;
using dpu::ui::FleetPanel;
using dpu::ui::RunBook;

using dpu::uitest::perfectFleet;
using dpu::uitest::settle;

namespace {

/// Five rounds of DPU (2000 B deltas in rounds 1, 2, 3 and 5; round 4 fails the gate) and FU
/// (4040 B full models every round), as the CLI's fleet tests have them.
std::vector<dpu::RoundRecord> fiveRounds()
{
    return dpu::test::joined(
        {dpu::test::strategyRounds("dpu", 1, {0.60, 0.70, 0.75, 0.74, 0.80}, {300, 300, 300, 0, 300}, {2000, 2000, 2000, 0, 2000}, 4040),
         dpu::test::strategyRounds("fu", 1, {0.62, 0.72, 0.78, 0.80, 0.82}, {4040, 4040, 4040, 4040, 4040}, {4040, 4040, 4040, 4040, 4040}, 4040)});
}

} // namespace

class TestUiFleet : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString runA_, runB_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dpu::uitest::isolateSettings(tmp_.filePath(QStringLiteral("settings")));
        dpu::ui::registerEngineMetatypes();
        // Two runs that differ in k: the book names their series "dpu · k=0.01" and "dpu · k=0.05".
        runA_ = tmp_.filePath(QStringLiteral("run-a"));
        runB_ = tmp_.filePath(QStringLiteral("run-b"));
        dpu::test::writeRunFolder(runA_.toStdString(), dpu::test::sweepPlan(0.01, 5), fiveRounds(), "finished", {1000, 10});
        dpu::test::writeRunFolder(runB_.toStdString(), dpu::test::sweepPlan(0.05, 5), fiveRounds(), "finished", {1000, 10});
    }

    void emptyBookSaysWhy()
    {
        // Before anything simulated, the tab at its size in a 1366x768 window: the hint in sight
        // (it was below the inputs, scrolled out of view: an empty page).
        FleetPanel fresh;
        fresh.resize(870, 540);
        fresh.setVisible(true); // FleetPanel::show() shows a simulation's answer
        QVERIFY(QTest::qWaitForWindowExposed(&fresh));
        QVERIFY2(fresh.statusText().contains(QStringLiteral("No finished run")), qPrintable(fresh.statusText()));
        const auto* hint = fresh.findChild<QLabel*>(QStringLiteral("fleetStatus"));
        QVERIFY(hint && !hint->visibleRegion().isEmpty());
        RunBook book;
        FleetPanel panel;
        panel.setRunBook(&book);
        QVERIFY(settle(panel));
        QCOMPARE(panel.table()->rowCount(), 0);
        QVERIFY(panel.accuracyChart()->seriesKeys().isEmpty());
        QVERIFY2(panel.statusText().contains(QStringLiteral("No finished run")), qPrintable(panel.statusText()));
    }

    void finishedRunsBesideTheServer()
    {
        RunBook book;
        FleetPanel panel;
        panel.inputs()->setSettings(perfectFleet());
        panel.setRunBook(&book);
        QVERIFY(book.openFolder(runA_) != 0);
        QVERIFY(book.openFolder(runB_) != 0);
        QVERIFY(settle(panel));
        const QStringList keys = panel.accuracyChart()->seriesKeys();
        for (const QString key : {"dpu · k=0.01", "fu · k=0.01", "dpu · k=0.05", "fu · k=0.05"}) {
            QVERIFY2(keys.contains(key), qPrintable(keys.join(", ")));
            QVERIFY2(keys.contains(FleetAccuracyChart::serverKey(key)), qPrintable(keys.join(", ")));
        }
        QCOMPARE(keys.size(), 8);
        // Rounds 2..5 and two to drain; the fleet after each round (its end, day r - 1), the
        // server from each release (day 0 on) to the last round's end.
        QLineSeries* fleet = panel.accuracyChart()->series(QStringLiteral("dpu · k=0.01"));
        QLineSeries* server = panel.accuracyChart()->series(QStringLiteral("server · dpu · k=0.01"));
        QCOMPARE(fleet->count(), 6);
        QCOMPARE(server->count(), 7);
        QCOMPARE(fleet->at(0), QPointF(1, 70));
        QCOMPARE(server->at(0), QPointF(0, 70));
        QCOMPARE(server->pen().style(), Qt::DashLine);
        // Round 4 deployed nothing: the server keeps round 3's 75 %; every device follows it.
        const double expected[] = {70, 75, 75, 80, 80, 80};
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(fleet->at(i).y(), expected[i]);
            QCOMPARE(server->at(i).y(), expected[i]);
        }
        // The table: one row per series, in the book's names.
        QTableWidget* t = panel.table();
        QCOMPARE(t->rowCount(), 4);
        QCOMPARE(t->item(0, FleetPanel::Series)->text(), QStringLiteral("dpu · k=0.01"));
        QCOMPARE(t->item(0, FleetPanel::Versions)->text(), QStringLiteral("4"));
        QCOMPARE(t->item(1, FleetPanel::Series)->text(), QStringLiteral("fu · k=0.01"));
        QCOMPARE(t->item(1, FleetPanel::Versions)->text(), QStringLiteral("5"));
        for (int row = 0; row < 4; ++row) {
            QVERIFY(t->item(row, FleetPanel::LatestTo90)->text().endsWith(QStringLiteral(" min")));
            QVERIFY(t->item(row, FleetPanel::EnergyPerUpdateRound)->text().contains(QStringLiteral("J")));
            QVERIFY(t->item(row, FleetPanel::AirtimePerUpdateRound)->text().endsWith(QStringLiteral(" s")));
            QCOMPARE(t->item(row, FleetPanel::FleetAccuracy)->text(), t->item(row, FleetPanel::ServerAccuracy)->text());
        }
        // FU's full models take longer on air than DPU's deltas.
        QVERIFY(t->item(1, FleetPanel::AirtimePerUpdateRound)->text().remove(QStringLiteral(" s")).toDouble()
                > t->item(0, FleetPanel::AirtimePerUpdateRound)->text().remove(QStringLiteral(" s")).toDouble());
    }

    void versionsSpreadAsStackedAreas()
    {
        RunBook book;
        FleetPanel panel;
        dpu::Deployment s = perfectFleet();
        s.availability = 0.5;
        panel.inputs()->setSettings(s);
        panel.setRunBook(&book);
        book.openFolder(runA_);
        QVERIFY(settle(panel));
        QCOMPARE(panel.spreadChoice()->count(), 2);
        panel.spreadChoice()->setCurrentIndex(panel.spreadChoice()->findText(QStringLiteral("fu")));
        const dpu::ui::VersionSpreadChart* spread = panel.spreadChart();
        QCOMPARE(spread->versionNames(),
                 (QStringList{"v0 · round 1", "v1 · round 2", "v2 · round 3", "v3 · round 4", "v4 · round 5"}));
        // In the tab's narrow column the legend says "v3" (the hover the round), not nothing.
        panel.resize(1000, 600);
        panel.QWidget::show(); // FleetPanel::show(answer) is the panel's own
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY2(spread->width() < 500, qPrintable(QString::number(spread->width())));
        QLegend* legend = spread->chart()->legend();
        QVERIFY(legend->isVisible());
        QCOMPARE(legend->markers(spread->area(3)).front()->label(), QStringLiteral("v3"));
        if (legend->alignment() == Qt::AlignBottom) { // one row: every label whole
            const QFontMetricsF fm(legend->font());
            qreal row = 0;
            for (QLegendMarker* m : legend->markers())
                row += fm.horizontalAdvance(m->label()) + fm.height() + 3 * fm.averageCharWidth();
            QVERIFY2(row <= spread->width(), qPrintable(QStringLiteral("%1 > %2").arg(row).arg(spread->width())));
        }
        // Stacked: each area starts where the one below ends, and the top reaches 100 %.
        for (int round = 0; round < 6; ++round) {
            double below = 0;
            for (int v = 0; v < 5; ++v) {
                QCOMPARE(spread->area(v)->lowerSeries()->at(round).y(), below);
                below = spread->area(v)->upperSeries()->at(round).y();
            }
            QVERIFY(std::abs(below - 100) < 1e-9);
        }
        // Half the fleet sleeps each round: after round 2, about half still run v0.
        const double v0 = spread->area(0)->upperSeries()->at(0).y();
        QVERIFY2(v0 > 30 && v0 < 70, qPrintable(QString::number(v0)));
        // ... and the fleet lags the server.
        QLineSeries* fleet = panel.accuracyChart()->series(QStringLiteral("fu"));
        QVERIFY(fleet->at(0).y() < 72);
    }

    void liveRunsCountOnceTheyEnd()
    {
        RunBook book;
        FleetPanel panel;
        panel.inputs()->setSettings(perfectFleet());
        panel.setRunBook(&book);
        book.addQueued(1, dpu::test::sweepPlan(0.01, 5));
        book.markStarted(1);
        for (const dpu::RoundRecord& r : fiveRounds())
            book.addRecord(1, r);
        QVERIFY(settle(panel));
        QCOMPARE(panel.table()->rowCount(), 0); // still running: its versions may change
        book.markEnded(1, QString(), dpu::ui::BookRun::State::Finished);
        QVERIFY(settle(panel));
        QCOMPARE(panel.table()->rowCount(), 2);
        QCOMPARE(panel.table()->item(0, FleetPanel::Series)->text(), QStringLiteral("dpu"));
        book.remove(1);
        QVERIFY(settle(panel));
        QCOMPARE(panel.table()->rowCount(), 0);
    }

    void badLinkNamesTheField()
    {
        RunBook book;
        FleetPanel panel;
        panel.setRunBook(&book);
        book.openFolder(runA_);
        dpu::Deployment s = perfectFleet();
        s.link.link = "ble-smp";
        s.link.delivery = dpu::DeliveryChoice::Multicast;
        panel.inputs()->setSettings(s);
        QVERIFY(settle(panel));
        QVERIFY2(panel.statusText().contains(QStringLiteral("has no multicast")), qPrintable(panel.statusText()));
        QCOMPARE(panel.table()->rowCount(), 0);
        s.link.delivery = dpu::DeliveryChoice::Preset;
        panel.inputs()->setSettings(s);
        QVERIFY(settle(panel));
        QCOMPARE(panel.table()->rowCount(), 2);
    }

    void traceProcessorAndPolicyReachTheSimulation()
    {
        RunBook book;
        FleetPanel panel;
        panel.setRunBook(&book);
        book.openFolder(runA_);
        dpu::Deployment s = perfectFleet();
        panel.inputs()->setSettings(s);
        QVERIFY(settle(panel));
        QCOMPARE(panel.shownAnswer().series.size(), size_t(2));
        QCOMPARE(panel.shownAnswer().series[0].result.rounds[0].applyEnergyMean, 0.0); // no processor
        auto* availability = panel.inputs()->findChild<QDoubleSpinBox*>(QStringLiteral("fleetAvailability"));
        QVERIFY(availability->isEnabled());
        // A trace in which the (one) trace device, hence every device, sleeps through round 3.
        const QString trace = tmp_.filePath(QStringLiteral("trace.csv"));
        {
            QFile f(trace);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("device,round\n0,1\n0,2\n0,4\n0,5\n0,6\n0,7\n");
        }
        s.availabilityTrace = trace.toStdString();
        s.cpu.cpu = dpu::CpuChoice::CortexM0;
        s.cpu.clockMhz = 16;
        s.policy.maxStaleness = 1;
        panel.inputs()->setSettings(s);
        QVERIFY(!availability->isEnabled()); // the trace replaces the share
        QVERIFY(settle(panel));
        QVERIFY2(panel.statusText().contains(QStringLiteral("series")), qPrintable(panel.statusText()));
        const dpu::FleetResult& r = panel.shownAnswer().series[0].result;
        QVERIFY(r.rounds[0].applyEnergyMean > 0); // the processor's apply is charged
        // The fleet misses a round the server deployed: it lags the server there.
        QLineSeries* fleet = panel.accuracyChart()->series(QStringLiteral("dpu"));
        QLineSeries* server = panel.accuracyChart()->series(QStringLiteral("server · dpu"));
        QVERIFY(fleet && server);
        bool lags = false;
        for (int i = 0; i < fleet->count(); ++i)
            lags = lags || fleet->at(i).y() < server->at(i).y();
        QVERIFY(lags);
        // A malformed trace: the status names the file and the line; no table.
        {
            QFile f(trace);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("device,round\n0,1\n0,two\n");
        }
        s.policy.maxStaleness = 2; // a change, so the panel simulates again and reads the file
        panel.inputs()->setSettings(s);
        QVERIFY(settle(panel));
        QVERIFY2(panel.statusText().contains(trace + QStringLiteral(":3")), qPrintable(panel.statusText()));
        QCOMPARE(panel.table()->rowCount(), 0);
    }

    void realCatchUpsFromTheRunsFiles()
    {
        // A real run (three rounds of DPU on a slice of Fashion-MNIST, with its bundles).
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        const QString real = tmp_.filePath(QStringLiteral("run-real"));
        dpu::Plan plan = dpu::test::tinyRealPlan("fleet-real");
        dpu::RunObserver quiet;
        dpu::Runner(plan, {real.toStdString()}).run(quiet);

        RunBook book;
        FleetPanel panel;
        panel.setRunBook(&book);
        QVERIFY(book.openFolder(real) != 0);
        dpu::Deployment s = perfectFleet();
        s.availability = 0.5;
        s.drainRounds = 3;
        s.catchUpSizes = dpu::CatchUpSizing::Real;
        panel.inputs()->setSettings(s);
        QVERIFY(settle(panel));
        QVERIFY2(panel.shownAnswer().error.empty(), panel.shownAnswer().error.c_str());
        QVERIFY2(panel.statusText().contains(QStringLiteral("real bundles")), qPrintable(panel.statusText()));
        QCOMPARE(panel.shownAnswer().series.size(), size_t(1));
        // What the window shows is core's simulation with the real sizes, nothing of its own.
        const dpu::RunFolder folder = dpu::loadRunFolder(real.toStdString());
        dpu::FleetRunInput in = dpu::fleetStrategiesOf(folder, 3);
        dpu::useRealCatchUps(in.strategies[0], folder, "dpu", 3);
        const dpu::FleetConfig config = dpu::fleetConfigOf(s, in.lastRound, in.newSamplesPerRound);
        const dpu::FleetMetrics expected = dpu::fleetMetrics(config, in.strategies[0], dpu::simulateFleet(config, in.strategies[0]));
        const dpu::FleetMetrics& shown = panel.shownAnswer().series[0].metrics;
        QCOMPARE(shown.energyPerUpdateRound, expected.energyPerUpdateRound);
        QCOMPARE(shown.meanFleetAccuracy, expected.meanFleetAccuracy);
        // A run folder that has only its records: the status names what is missing.
        book.clear();
        QVERIFY(book.openFolder(runA_) != 0);
        QVERIFY(settle(panel));
        QVERIFY2(panel.statusText().contains(QStringLiteral("cannot be simulated")) && panel.statusText().contains(runA_),
                 qPrintable(panel.statusText()));
        QCOMPARE(panel.table()->rowCount(), 0);
    }

    void theReportGetsTheLastSimulation()
    {
        RunBook book;
        FleetPanel panel;
        dpu::Deployment s = perfectFleet();
        panel.inputs()->setSettings(s);
        panel.setRunBook(&book);
        book.openFolder(runA_);
        QVERIFY(panel.busy());
        QVERIFY(panel.reportFleet().series.empty()); // not of the runs on screen yet
        QVERIFY(settle(panel));
        // What the table shows, under its names, with the fleet it ran on.
        dpu::ui::ReportFleet fleet = panel.reportFleet();
        QCOMPARE(fleet.series.size(), size_t(2));
        QCOMPARE(fleet.series[0].key, panel.table()->item(0, FleetPanel::Series)->text());
        QCOMPARE(fleet.series[1].key, QStringLiteral("fu"));
        QCOMPARE(fleet.series[0].versions.size(), size_t(4));
        QCOMPARE(fleet.series[1].result.timeToShare.size(), size_t(5));
        QCOMPARE(fleet.config.groups.size(), size_t(1));
        QCOMPARE(fleet.config.groups[0].devices, 50);
        QCOMPARE(fleet.config.groups[0].link.modulation.spreadingFactor, 9);
        QCOMPARE(fleet.config.drainRounds, 2);
        // A fleet that cannot be simulated gives no page.
        s.link.link = "ble-smp";
        s.link.delivery = dpu::DeliveryChoice::Multicast;
        panel.inputs()->setSettings(s);
        QVERIFY(panel.reportFleet().series.empty());
        QVERIFY(settle(panel));
        QVERIFY(panel.reportFleet().series.empty());
    }

    void editsCoalesceAndTheLastOneWins()
    {
        RunBook book;
        FleetPanel panel;
        panel.inputs()->setSettings(perfectFleet());
        panel.setRunBook(&book);
        book.openFolder(runA_);
        QVERIFY(settle(panel));
        QSignalSpy spy(&panel, &FleetPanel::updated);
        dpu::Deployment s = perfectFleet();
        for (int devices : {10, 20, 30, 40, 1234}) {
            s.devices = devices;
            panel.inputs()->setSettings(s);
        }
        QVERIFY(settle(panel));
        QVERIFY2(spy.count() <= 2, qPrintable(QString::number(spy.count())));
        QVERIFY2(panel.statusText().contains(QStringLiteral("1234 devices")), qPrintable(panel.statusText()));
    }

    void everyRowIsAPlanKey()
    {
        dpu::Deployment s;
        s.link.link = "nb-iot-nb2";
        s.link.frameLoss = 0.05;
        s.link.delivery = dpu::DeliveryChoice::Unicast;
        s.devices = 321;
        s.availability = 0.9;
        s.roundPeriodHours = 2;
        s.drainRounds = 3;
        s.availabilityTrace = "/data/fleet/trace.csv";
        s.policy.catchUp = dpu::CatchUpDelivery::MulticastPerVersion;
        s.policy.order = dpu::CatchUpOrder::SmallestFirst;
        s.policy.maxStaleness = 4;
        s.cpu.cpu = dpu::CpuChoice::CortexM4;
        s.cpu.clockMhz = 80;
        // The tab keeps nothing of its own: every row is a key of the plan's deployment, and
        // what it shows reads back whole, through a plan file too.
        FleetPanel panel;
        panel.inputs()->setSettings(s);
        const dpu::Deployment r = panel.inputs()->settings();
        const std::vector<std::string> differ = dpu::deploymentDifferences(s, r);
        QVERIFY2(differ.empty(), differ.empty() ? "" : differ.front().c_str());
        dpu::Plan plan;
        plan.fleet = r;
        const dpu::Plan back = dpu::parsePlan(dpu::planToJson(plan));
        QVERIFY(dpu::deploymentDifferences(back.fleet, s).empty());
        QCOMPARE(QString::fromStdString(back.fleet.availabilityTrace), QStringLiteral("/data/fleet/trace.csv"));
        QVERIFY(back.fleet.policy.catchUp == dpu::CatchUpDelivery::MulticastPerVersion);
        QCOMPARE(back.fleet.cpu.clockMhz, 80.0);
        // The flagship by default: EU868 with FUOTASim's mix.
        QCOMPARE(QString::fromStdString(FleetPanel().inputs()->settings().link.sfMix), QStringLiteral("fuotasim"));
    }

    void theWindowHasTheTab()
    {
        dpu::ui::MainWindow w;
        QTabWidget* tabs = w.resultsPanel()->tabs();
        FleetPanel* panel = w.resultsPanel()->fleetPanel();
        QVERIFY(tabs->indexOf(panel) >= 0);
        QVERIFY(tabs->tabText(tabs->indexOf(panel)).remove(QLatin1Char('&')) == QStringLiteral("Fleet"));
        w.runBook()->clear();
        QVERIFY(w.runBook()->openFolder(runA_) != 0);
        QVERIFY(settle(*panel));
        QCOMPARE(panel->table()->rowCount(), 2);
        // Its key: Ctrl+Shift+F (Tools › Fleet Simulation) brings the tab up; the window still
        // fits a 1366x768 screen (the tab does not widen the results).
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        tabs->setCurrentIndex(0);
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(panel));
        QCOMPARE(w.resultsPanel()->currentChart(), static_cast<QChartView*>(panel->accuracyChart()));
        QVERIFY2(w.width() <= 1366, qPrintable(QString::number(w.width())));
        QVERIFY(panel->accuracyChart()->width() >= 220);
    }
};

QTEST_MAIN(TestUiFleet)
#include "test_ui_fleet.moc"
