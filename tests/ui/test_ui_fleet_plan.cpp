// SPDX-License-Identifier: MIT
// The Fleet plan tab on the offscreen platform (issue 42 item 3): over a tiny real run it plans on its worker, draws the Pareto set, says why, cancels, says what binds when nothing fits, and Use this configuration makes the recommendation the plan's deployment.
#include "MainWindow.h"
#include "CliProcess.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "PdfText.h"
#include "UiTestSupport.h"
#include "charts/FleetPlanChart.h"
#include "dpu/FleetPlanInputs.h"
#include "dpu/FleetPlanner.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "models/RunBook.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetInputs.h"
#include "panels/FleetPanel.h"
#include "panels/FleetPlanPanel.h"
#include "panels/FleetPlanTargets.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "report/ReportFleetPlanText.h"
#include "report/ReportWriter.h"
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest/QtTest>

using dpu::test::pdfText;
using dpu::ui::FleetPlanPanel;
using dpu::ui::MainWindow;

namespace {

/// Presses Plan (or runs `start`) and waits for the answer.
bool planned(FleetPlanPanel& panel, const std::function<void()>& start)
{
    QSignalSpy spy(&panel, &FleetPlanPanel::planned);
    start();
    for (int i = 0; i < 300 && spy.isEmpty(); ++i)
        spy.wait(100);
    return !spy.isEmpty() && !panel.busy();
}

/// What core's planner says for the run and the deployment the view planned from.
dpu::FleetPlan directPlan(const QString& run, const dpu::Deployment& deployment)
{
    dpu::FleetPlanInputOptions options;
    options.realCatchUps = deployment.catchUpSizes == dpu::CatchUpSizing::Real;
    const dpu::FleetPlanInput input = dpu::fleetPlanInputOf({dpu::loadRunFolder(run.toStdString())}, deployment, options);
    dpu::RunControl control;
    return dpu::planFleet(input, nullptr, control);
}

} // namespace

class TestUiFleetPlan : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString run_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        // A tiny real run: three rounds of DPU on a slice of Fashion-MNIST, with its run.json.
        run_ = tmp_.filePath(QStringLiteral("run-real"));
        dpu::Plan plan = dpu::test::tinyRealPlan("fleet-plan-real");
        dpu::RunObserver quiet;
        dpu::Runner(plan, {run_.toStdString()}).run(quiet);
    }

    void init() { QSettings().clear(); } // each window starts from the default plan

    /// Targets every candidate meets: the view recommends core's pick, draws the Pareto set, and
    /// Use this configuration makes it the plan's deployment (the Fleet tab follows).
    void plansAndUsesTheRecommendation()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(run_) != 0);
        dpu::ui::FleetPlanTargets* targets = panel->targets();
        targets->freshOn()->setChecked(false);
        targets->airtimeOn()->setChecked(false);
        targets->batteryOn()->setChecked(true);
        targets->battery()->setValue(100);
        QVERIFY(!panel->useButton()->isEnabled()); // nothing to use before a plan
        QVERIFY(planned(*panel, [panel] { panel->planButton()->click(); }));
        const dpu::ui::FleetPlanAnswer& a = panel->answer();
        QVERIFY2(a.error.empty(), a.error.c_str());
        QVERIFY(!a.plan.cancelled);
        QVERIFY(a.plan.recommended.has_value());
        QVERIFY2(panel->recommendationText().contains(QString::fromStdString(a.plan.why)), qPrintable(panel->recommendationText()));
        QVERIFY(panel->statusText().contains(QStringLiteral("candidates simulated")));
        // The chart: every Pareto candidate in its series, the recommendation marked.
        QVERIFY(!a.plan.pareto.empty());
        QCOMPARE(size_t(panel->chart()->paretoSeries()->count()), a.plan.pareto.size());
        QCOMPARE(panel->chart()->chosenSeries()->count(), 1);
        const dpu::FleetPlanCandidate& shown = a.plan.candidates[*a.plan.recommended];
        QCOMPARE(panel->chart()->chosenSeries()->at(0).y(), shown.fleetAccuracy * 100);
        QVERIFY(panel->chart()->describe(panel->chart()->chosenSeries(), 0).contains(QString::fromStdString(shown.label)));

        // The same answer as core's planner called directly on the run folder.
        const dpu::FleetPlan direct = directPlan(run_, panel->requestedDeployment());
        QVERIFY(direct.recommended.has_value());
        const dpu::FleetPlanCandidate& expected = direct.candidates[*direct.recommended];
        QCOMPARE(shown.label, expected.label);
        QCOMPARE(dpu::fleetSettingText(shown.setting), dpu::fleetSettingText(expected.setting));
        QCOMPARE(shown.fleetAccuracy, expected.fleetAccuracy);
        // One answer per question: dpu-cli fleet plan on the same run (whose plan has the window's
        // default deployment) with the same target names the same candidate and figures.
        QVERIFY(dpu::ui::deploymentcompare::same(w.planPanel()->plan().fleet, dpu::loadRunFolder(run_.toStdString()).plan.fleet));
        const dpu::test::CliResult cli =
            dpu::test::runCli({QStringLiteral("fleet"), QStringLiteral("plan"), run_, QStringLiteral("--json"), QStringLiteral("--quiet"),
                               QStringLiteral("--battery-per-year"), QStringLiteral("1")},
                              60000);
        QCOMPARE(cli.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(cli.out.toUtf8()).object();
        const QJsonObject recommended = json[QStringLiteral("recommended")].toObject();
        QCOMPARE(recommended[QStringLiteral("index")].toInt(), int(*a.plan.recommended));
        QCOMPARE(recommended[QStringLiteral("strategy")].toString(), QString::fromStdString(shown.label));
        QCOMPARE(recommended[QStringLiteral("fleet_accuracy")].toDouble(), shown.fleetAccuracy);
        QCOMPARE(recommended[QStringLiteral("battery_per_year")].toDouble(), shown.batteryPerYear);
        QCOMPARE(recommended[QStringLiteral("fresh_share")].toDouble(), shown.freshShare);
        QCOMPARE(json[QStringLiteral("simulated")].toInt(), int(a.plan.simulated));

        QVERIFY(panel->useButton()->isEnabled());
        panel->useButton()->click();
        const dpu::Deployment now = w.planPanel()->plan().fleet;
        QVERIFY(dpu::ui::deploymentcompare::same(now, expected.deployment));
        QCOMPARE(now.roundPeriodHours, expected.setting.roundPeriodHours);
        QCOMPARE(now.targets.batteryPerYear, std::optional<double>(1.0));
        QCOMPARE(w.resultsPanel()->fleetPanel()->inputs()->settings().roundPeriodHours, expected.setting.roundPeriodHours);
        // The plan's deployment came back to the view: its targets stay as they were.
        QVERIFY(panel->targets()->batteryOn()->isChecked());
    }

    /// Ctrl+Return plans while the tab shows, wherever the focus is in the window (after a click on
    /// the tab it is on the tab bar); with another tab up it does nothing.
    void ctrlReturnPlansWhileTheTabShows()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(run_) != 0);
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTabWidget* tabs = w.resultsPanel()->tabs();
        tabs->setCurrentIndex(0);
        QSignalSpy spy(panel, &FleetPlanPanel::planned);
        QTest::keyClick(&w, Qt::Key_Return, Qt::ControlModifier);
        QTest::qWait(200);
        QVERIFY(spy.isEmpty() && !panel->busy()); // another tab is up
        tabs->setCurrentWidget(panel);
        tabs->tabBar()->setFocus();
        QVERIFY(planned(*panel, [&w] { QTest::keyClick(&w, Qt::Key_Return, Qt::ControlModifier); }));
        QVERIFY(!panel->answer().plan.candidates.empty());
    }

    /// The report's fleet plan page (item 4): the view's last plan, in core's words, its Pareto set.
    void theReportGetsTheLastPlan()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(run_) != 0);
        QVERIFY(panel->reportFleetPlan().plan.candidates.empty()); // nothing planned: no page
        panel->targets()->batteryOn()->setChecked(true);
        panel->targets()->battery()->setValue(50);
        QVERIFY(planned(*panel, [panel] { panel->plan(); }));
        const dpu::ui::ReportFleetPlan report = panel->reportFleetPlan();
        QVERIFY(report.plan.recommended.has_value());
        QCOMPARE(report.targets.batteryPerYear, std::optional<double>(0.5));
        const QString words = dpu::ui::ReportFleetPlanText::words(report);
        QVERIFY(words.contains(QString::fromStdString(report.plan.why).toHtmlEscaped()));
        QVERIFY(words.contains(QStringLiteral("at most 50.00 % of a battery a year")));
        const QString pareto = dpu::ui::ReportFleetPlanText::pareto(report);
        QVERIFY(pareto.contains(QStringLiteral("(recommended)"))); // wherever it ranks (paretoKeepsTheRecommended)

        dpu::ui::ReportOptions options;
        options.fleetPlan = report;
        const QString pdf = tmp_.filePath(QStringLiteral("plan-report.pdf"));
        QString error;
        QVERIFY2(dpu::ui::ReportWriter::write(*w.runBook(), options, pdf, &error), qPrintable(error));
        const QString text = pdfText(pdf).simplified();
        QVERIFY2(text.contains(QStringLiteral("Fleet plan")), "pdftotext (poppler-utils) reads the report");
        QVERIFY(text.contains(QStringLiteral("The Pareto set")));
        QVERIFY(text.contains(QStringLiteral("Recommended:")));
        // A cancelled plan gives no page.
        QVERIFY(planned(*panel, [panel] {
            panel->plan();
            panel->cancel();
        }));
        QVERIFY(panel->reportFleetPlan().plan.candidates.empty());
    }

    /// The report's Pareto table: its first 15 candidates, and the recommended one's row too
    /// where it ranks below them (last, said in the heading); a short set whole.
    void paretoKeepsTheRecommended()
    {
        dpu::ui::ReportFleetPlan report;
        for (int n = 0; n < 20; ++n) {
            dpu::FleetPlanCandidate c;
            c.label = "cand" + std::to_string(n);
            report.plan.candidates.push_back(c);
            report.plan.pareto.push_back(size_t(n));
        }
        report.plan.recommended = 18;
        QString table = dpu::ui::ReportFleetPlanText::pareto(report);
        QCOMPARE(table.count(QStringLiteral("<tr>")), 1 + 15 + 1);
        QVERIFY(table.contains(QStringLiteral("cand18 (recommended)")));
        QVERIFY(!table.contains(QStringLiteral("cand17")));
        QVERIFY(table.contains(QStringLiteral("the first 15 of 20 and the recommended one")));
        report.plan.recommended = 3;
        table = dpu::ui::ReportFleetPlanText::pareto(report);
        QCOMPARE(table.count(QStringLiteral("<tr>")), 1 + 15);
        QVERIFY(table.contains(QStringLiteral("cand3 (recommended)")) && !table.contains(QStringLiteral("cand18")));
        QVERIFY(table.contains(QStringLiteral("the first 15 of 20:")));
        report.plan.pareto.resize(4);
        table = dpu::ui::ReportFleetPlanText::pareto(report);
        QCOMPARE(table.count(QStringLiteral("<tr>")), 1 + 4);
        QVERIFY(!table.contains(QStringLiteral("the first")) && !table.contains(QStringLiteral("recommended one")));
    }

    /// Targets nobody meets: the nearest candidate, the target that binds and what would move it.
    void nothingMeetsTheTargets()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(run_) != 0);
        dpu::ui::FleetPlanTargets* targets = panel->targets();
        targets->freshOn()->setChecked(false);
        targets->batteryOn()->setChecked(true);
        targets->battery()->setValue(0.01);
        targets->airtimeOn()->setChecked(true);
        targets->airtime()->setValue(0.1);
        QVERIFY(planned(*panel, [panel] { panel->plan(); }));
        const dpu::FleetPlan& p = panel->answer().plan;
        QVERIFY2(panel->answer().error.empty(), panel->answer().error.c_str());
        QVERIFY(!p.recommended.has_value());
        QVERIFY(p.nearest.has_value());
        QVERIFY2(panel->recommendationText().contains(QString::fromStdString(p.binding)), qPrintable(panel->recommendationText()));
        QVERIFY(!p.moves.empty());
        QVERIFY(panel->recommendationText().contains(QStringLiteral("What would move ") + QString::fromStdString(p.binding)));
        QVERIFY(!panel->useButton()->isEnabled());
        QCOMPARE(panel->chart()->chosenSeries()->count(), 1); // the nearest, marked
    }

    /// Cancel stops the search: the view says so, and nothing can be used.
    void cancelStops()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(run_) != 0);
        QVERIFY(planned(*panel, [panel] {
            panel->planButton()->click();
            QVERIFY(panel->busy() && panel->cancelButton()->isEnabled());
            panel->cancelButton()->click();
        }));
        QVERIFY(panel->answer().plan.cancelled);
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(panel->statusText()));
        QVERIFY(!panel->useButton()->isEnabled());
        QVERIFY(panel->planButton()->isEnabled() && !panel->cancelButton()->isEnabled());
    }

    /// Without a finished run the view says why instead of planning.
    void noRunSaysWhy()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(planned(*panel, [panel] { panel->plan(); }));
        QVERIFY2(panel->statusText().contains(QStringLiteral("no finished run")), qPrintable(panel->statusText()));
        QCOMPARE(panel->chart()->paretoSeries()->count(), 0);
    }
};

QTEST_MAIN(TestUiFleetPlan)
#include "test_ui_fleet_plan.moc"
