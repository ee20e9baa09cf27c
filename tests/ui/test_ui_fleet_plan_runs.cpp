// SPDX-License-Identifier: MIT
// The Fleet plan tab and the runs (issue 42): Use this configuration makes the chosen run's plan the plan, the tab re-plans when the runs change, and its cells to run go out as a sweep whose end re-plans.
#include "CliProcess.h"
#include "MainWindow.h"
#include "RunFixtures.h"
#include "TestSupport.h"
#include "UiTestSupport.h"
#include "dpu/FleetPlanner.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "dpu/StrategyId.h"
#include "dpu/Sweep.h"
#include "models/RunBook.h"
#include "panels/DeploymentCompare.h"
#include "panels/FleetPlanPanel.h"
#include "panels/FleetPlanTargets.h"
#include "panels/FleetPlanUse.h"
#include "panels/BudgetPanel.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/SweepTargetBox.h"
#include "workers/SweepController.h"
#include "workers/SweepTarget.h"
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest/QtTest>
#include <algorithm>
#include <map>

using dpu::ui::FleetPlanPanel;
using dpu::ui::MainWindow;

namespace {

/// Waits for the tab's next answer (after `start`, when given); false after `ms`.
bool planned(FleetPlanPanel& panel, const std::function<void()>& start = {}, int ms = 30000)
{
    QSignalSpy spy(&panel, &FleetPlanPanel::planned);
    if (start)
        start();
    for (int i = 0; i < ms / 100 && spy.isEmpty(); ++i)
        spy.wait(100);
    return !spy.isEmpty() && !panel.busy();
}

/// Targets every candidate meets (only the battery's, generous).
void generousTargets(FleetPlanPanel& panel)
{
    panel.targets()->freshOn()->setChecked(false);
    panel.targets()->airtimeOn()->setChecked(false);
    panel.targets()->batteryOn()->setChecked(true);
    panel.targets()->battery()->setValue(100);
}

/// The strategies of the answer that come from the run labelled `run` (measured ones).
int measuredOf(const dpu::ui::FleetPlanAnswer& a, const std::string& run)
{
    return int(std::count_if(a.strategies.begin(), a.strategies.end(),
                             [&](const dpu::FleetPlanStrategy& s) { return s.run == run && !s.estimated; }));
}

} // namespace

class TestUiFleetPlanRuns : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    /// The two runs by folder name (RunFolder::label()), with the plans they ran.
    std::map<std::string, dpu::Plan> runs_;

    QString dirOf(const std::string& label) const { return tmp_.filePath(QString::fromStdString(label)); }

    /// A tiny real run (three rounds of DPU and FU on a slice of Fashion-MNIST) with its run.json.
    void makeRun(const std::string& label, dpu::Coding coding, double k)
    {
        dpu::Plan plan = dpu::test::tinyRealPlan("fleet-" + label);
        plan.dataset.path = dpu::test::fashionMnistDir();
        plan.strategies = {"dpu", "fu"};
        plan.k = k;
        plan.bundle.values = coding;
        plan.device = dpu::ComputeDevice::Cpu;
        dpu::RunObserver quiet;
        dpu::Runner(plan, {dirOf(label).toStdString()}).run(quiet);
        runs_[label] = plan;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        // Two codings and two k, neither the form's default plan's (fp32, k 0.01).
        makeRun("run-q8", dpu::Coding::Q8, 0.02);
        makeRun("run-q4", dpu::Coding::Q4, 0.04);
    }

    void init() { QSettings().clear(); } // each window starts from the default plan

    /// Use this configuration: the recommended run's plan (k, coding, its strategy with fu beside
    /// it) at the recommended deployment with the targets on screen, and the status bar says so.
    void useMakesTheRunsPlanThePlan()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(dirOf("run-q8")) != 0);
        QVERIFY(w.runBook()->openFolder(dirOf("run-q4")) != 0);
        generousTargets(*panel);
        QVERIFY(planned(*panel, [panel] { panel->planButton()->click(); }));
        const dpu::ui::FleetPlanAnswer& a = panel->answer();
        QVERIFY2(a.error.empty(), a.error.c_str());
        QVERIFY(a.plan.recommended.has_value());
        QCOMPARE(panel->cellsButton()->isEnabled(), !a.plan.cellsToRun.empty());
        QCOMPARE(measuredOf(a, "run-q8"), 2);
        QCOMPARE(measuredOf(a, "run-q4"), 2);
        const dpu::FleetPlanCandidate& c = a.plan.candidates[*a.plan.recommended];
        const dpu::FleetPlanStrategy& s = a.strategies[c.strategy];
        QVERIFY2(runs_.count(s.run), s.run.c_str());
        const dpu::Plan& ran = runs_.at(s.run);

        QVERIFY(panel->useButton()->isEnabled());
        panel->useButton()->click();
        const dpu::Plan now = w.planPanel()->plan();
        QCOMPARE(now.k, ran.k);
        QCOMPARE(now.bundle.values, ran.bundle.values);
        QCOMPARE(now.name, ran.name);
        QCOMPARE(now.split.rounds, ran.split.rounds);
        QCOMPARE(now.dataset.trainLimit, ran.dataset.trainLimit);
        const std::vector<std::string> expected =
            dpu::isBaseline(s.strategyName) ? std::vector<std::string>{"fu"} : std::vector<std::string>{s.strategyName, "fu"};
        auto joined = [](const std::vector<std::string>& v) { // the form lists strategies in its own order
            QStringList out;
            for (const std::string& x : v)
                out << QString::fromStdString(x);
            out.sort();
            return out.join(QLatin1Char(','));
        };
        QCOMPARE(joined(now.strategies), joined(expected));
        QVERIFY(dpu::ui::deploymentcompare::same(now.fleet, c.deployment));
        QCOMPARE(now.fleet.roundPeriodHours, c.setting.roundPeriodHours);
        QCOMPARE(now.fleet.targets.batteryPerYear, std::optional<double>(1.0));
        QVERIFY(!now.fleet.targets.freshShare.has_value());
        const QString said = w.statusBar()->currentMessage();
        QVERIFY2(said.startsWith(QStringLiteral("The plan is now %1/%2 at k %3 with %4 bundles")
                                     .arg(QString::fromStdString(s.run), QString::fromStdString(s.strategyName),
                                          QString::number(ran.k), QString::fromStdString(s.coding))),
                 qPrintable(said));
        QVERIFY(panel->targets()->batteryOn()->isChecked()); // the plan's deployment came back: targets kept

        // Any measured candidate: a DPU one keeps fu beside it; an estimated one is no run's plan.
        for (size_t i = 0; i < a.plan.candidates.size(); ++i) {
            const dpu::FleetPlanStrategy& si = a.strategies[a.plan.candidates[i].strategy];
            if (si.estimated) {
                QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::ui::FleetPlanUse::of(a, i, {}));
            } else if (si.strategyName == "dpu") {
                const dpu::ui::FleetPlanUse use = dpu::ui::FleetPlanUse::of(a, i, {});
                QCOMPARE(use.plan.strategies, (std::vector<std::string>{"dpu", "fu"}));
                QCOMPARE(use.plan.k, runs_.at(si.run).k);
                QCOMPARE(use.plan.bundle.values, runs_.at(si.run).bundle.values);
            }
        }
    }

    /// After a plan, opening and closing runs re-plans by itself, saying why; a queued run does not.
    void replansWhenTheRunsChange()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(dirOf("run-q8")) != 0);
        panel->setReplanDelay(100); // the debounce, shorter for the test
        generousTargets(*panel);
        QVERIFY(planned(*panel, [panel] { panel->plan(); }));
        QCOMPARE(measuredOf(panel->answer(), "run-q4"), 0);
        int q4 = 0;
        QVERIFY(planned(*panel, [&] { q4 = w.runBook()->openFolder(dirOf("run-q4")); }));
        QCOMPARE(measuredOf(panel->answer(), "run-q4"), 2);
        QCOMPARE(measuredOf(panel->answer(), "run-q8"), 2);
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Planned again (runs were opened)")), qPrintable(panel->statusText()));
        QVERIFY(planned(*panel, [&] { w.runBook()->remove(q4); }));
        QCOMPARE(measuredOf(panel->answer(), "run-q4"), 0);
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Planned again (runs were closed)")), qPrintable(panel->statusText()));
        // A queued run is no finished run: nothing to plan over changed.
        QVERIFY(!planned(*panel, [&] { w.runBook()->addQueued(77, runs_.at("run-q8")); }, 700));
    }

    /// A change while a search runs cancels it and starts again: one answer, over the runs now.
    void aChangeWhileBusyPlansAgain()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(dirOf("run-q8")) != 0);
        generousTargets(*panel);
        QVERIFY(planned(*panel, [panel] { panel->plan(); }));
        panel->setReplanDelay(0);
        QSignalSpy spy(panel, &FleetPlanPanel::planned);
        panel->plan();
        QVERIFY(panel->busy());
        QVERIFY(w.runBook()->openFolder(dirOf("run-q4")) != 0);
        for (int i = 0; i < 300 && (spy.isEmpty() || panel->busy()); ++i)
            spy.wait(100);
        QTest::qWait(300); // no second answer follows
        QCOMPARE(spy.count(), 1);
        QVERIFY(!panel->answer().plan.cancelled);
        QCOMPARE(measuredOf(panel->answer(), "run-q4"), 2);
    }

    /// Cancel stops the following: a run opened afterwards only says to press Plan.
    void cancelStopsReplanning()
    {
        MainWindow w;
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(w.runBook()->openFolder(dirOf("run-q8")) != 0);
        panel->setReplanDelay(50);
        QVERIFY(planned(*panel, [panel] {
            panel->plan();
            panel->cancel();
        }));
        QVERIFY(!planned(*panel, [&] { w.runBook()->openFolder(dirOf("run-q4")); }, 700));
        QVERIFY2(panel->statusText().contains(QStringLiteral("press Plan")), qPrintable(panel->statusText()));
    }

    /// Targets no run meets: the planner names a cell (run-q8 at half its k); Run these cells…
    /// asks where, the cell runs as a local sweep of dpu-cli runs, and its end re-plans with it.
    void theCellsRunAsASweepAndReplan()
    {
        MainWindow w;
        w.setAskBeforeClosingRun(false);
        w.sweepController()->setProgram(dpu::test::cliExe());
        w.sweepController()->setRefreshInterval(300);
        FleetPlanPanel* panel = w.resultsPanel()->fleetPlanPanel();
        QVERIFY(!panel->cellsButton()->isEnabled()); // nothing planned yet
        QVERIFY(w.runBook()->openFolder(dirOf("run-q8")) != 0);
        panel->targets()->freshOn()->setChecked(false);
        panel->targets()->airtimeOn()->setChecked(false);
        panel->targets()->batteryOn()->setChecked(true);
        panel->targets()->battery()->setValue(1);
        QVERIFY(planned(*panel, [panel] { panel->plan(); }));
        const dpu::FleetPlan first = panel->answer().plan;
        QVERIFY2(!first.cellsToRun.empty(), qPrintable(panel->recommendationText()));
        QVERIFY(panel->cellsButton()->isEnabled());
        QCOMPARE(first.cellsToRun.front().run, std::string("run-q8"));
        const auto k = std::find_if(first.cellsToRun.front().keys.begin(), first.cellsToRun.front().keys.end(),
                                    [](const auto& key) { return key.first == "k"; });
        QVERIFY(k != first.cellsToRun.front().keys.end());
        const double cellK = std::stod(k->second);

        // The dialog: where the cells run (the Budget tab's sweep target to start from).
        dpu::ui::SweepTarget local;
        local.where = dpu::ui::SweepTarget::Where::Local;
        local.jobs = 1;
        local.folder = tmp_.filePath(QStringLiteral("sweeps"));
        bool answered = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            auto* where = dialog ? dialog->findChild<dpu::ui::SweepTargetBox*>() : nullptr;
            if (!where || answered)
                return;
            answered = true;
            where->setTarget(local);
            dialog->accept();
        });
        poll.start(50);
        QSignalSpy asked(panel, &FleetPlanPanel::runCellsRequested);
        QSignalSpy ended(w.sweepController(), &dpu::ui::SweepController::sweepEnded);
        panel->cellsButton()->click();
        poll.stop();
        QVERIFY(answered);
        QCOMPARE(asked.count(), 1);
        const dpu::Sweep sweep = asked.at(0).at(0).value<dpu::Sweep>();
        QCOMPARE(sweep.cells.size(), first.cellsToRun.size());
        QCOMPARE(sweep.cells.front().plan.k, cellK);
        QCOMPARE(sweep.cells.front().plan.bundle.values, dpu::Coding::Q8);
        QCOMPARE(sweep.cells.front().plan.strategies, std::vector<std::string>{"dpu"});
        QVERIFY2(w.sweepController()->dir().startsWith(local.folder), qPrintable(w.sweepController()->dir()));
        QCOMPARE(static_cast<int>(w.resultsPanel()->budgetPanel()->sweepTarget()->target().where),
                 static_cast<int>(dpu::ui::SweepTarget::Where::Local)); // the choice is remembered

        // The cell joins the book as it finishes; the sweep's end re-plans and says so.
        const QString because = QStringLiteral("Planned again (the sweep of the cells to run ended)");
        for (int i = 0; i < 120 && !panel->statusText().startsWith(because); ++i)
            planned(*panel, {}, 1000);
        QVERIFY2(panel->statusText().startsWith(because), qPrintable(panel->statusText()));
        QCOMPARE(ended.count(), 1);
        const dpu::ui::FleetPlanAnswer& again = panel->answer();
        const auto cell = std::find_if(again.strategies.begin(), again.strategies.end(), [&](const dpu::FleetPlanStrategy& s) {
            return !s.estimated && s.run != "run-q8" && s.strategyName == "dpu" && std::abs(s.k - cellK) < 1e-12;
        });
        QVERIFY(cell != again.strategies.end());
        // Named for people by the sweep's keys (as the charts name it), not by its folder's hash.
        QVERIFY2(cell->strategy.name.find(cell->run) == std::string::npos && cell->strategy.name.find(" k=") != std::string::npos,
                 cell->strategy.name.c_str());
    }
};

QTEST_MAIN(TestUiFleetPlanRuns)
#include "test_ui_fleet_plan_runs.moc"
